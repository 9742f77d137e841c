// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Differential test without a VM: libipeh's ipeh_validate() against the
 * kernel series' own __ipeh_opt_validate_tlvs(), extracted from
 * kernel/patches by kdiff-extract.sh and compiled here.  Random tables,
 * canonical, mutated and random blocks, every header kind, admin or not,
 * a table that grants users something or nothing, random sysctl limits
 * (negative ones included): the verdict and the errno must be the same
 * every time.  Fails when the series' code cannot be extracted.
 */

#include "kdiff-shim.h"
#include "kvalidate.inc"
#undef ipeh_tlv_params

#include "common.h"

#ifndef KDIFF_MISSING

static uint64_t rs = 0x2545f4914f6cdd1dULL;

static uint32_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs >> 11);
}

static unsigned int below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

struct env {
	struct ipeh_table t;
	struct ipeh_tlv_table_data k;
	uint8_t types[12];
	unsigned int ntypes;
};

static void random_table(struct env *e)
{
	unsigned int i, ty;

	ipeh_table_init_default(&e->t, below(2) ? 0 : IPEH_TABLE_NO_MIP6);
	e->ntypes = 1 + below(12);
	for (i = 0; i < e->ntypes; i++) {
		struct ipeh_tlv_params *p;

		ty = 2 + below(254);
		e->types[i] = (uint8_t)ty;
		p = &e->t.params[ty];
		p->order = (uint16_t)(below(4) ? 1 + below(20) : below(65536));
		p->admin_perm = (uint8_t)below(3);
		p->user_perm = (uint8_t)(below(3) ? IPEH_PERM_CHECK : below(3));
		p->class_mask = (uint8_t)below(8);
		p->align_mult = (uint8_t)(1 + below(below(2) ? 8 : 16));
		p->align_off = (uint8_t)below(p->align_mult);
		p->min_data_len = (uint8_t)below(below(2) ? 8 : 256);
		p->max_data_len = (uint8_t)(p->min_data_len + below(256u - p->min_data_len));
		p->data_len_mult = (uint8_t)(1 + below(below(2) ? 4 : 16));
		p->data_len_off = (uint8_t)below(p->data_len_mult);
	}
	/* the kernel's representation: multiples minus one in 4 bits */
	for (ty = 0; ty < 256; ty++) {
		const struct ipeh_tlv_params *p = &e->t.params[ty];
		struct ipeh_tlv_tx_params *k = &e->k.procs[ty].params.t;

		k->admin_perm = p->admin_perm;
		k->user_perm = p->user_perm;
		k->class = p->class_mask;
		k->align_mult = (unsigned char)(p->align_mult - 1);
		k->align_off = p->align_off;
		k->data_len_mult = (unsigned char)(p->data_len_mult - 1);
		k->data_len_off = p->data_len_off;
		k->min_data_len = p->min_data_len;
		k->max_data_len = p->max_data_len;
		k->preferred_order = p->order;
	}
	e->k.user_grants = 0;
	for (ty = 2; ty < 256; ty++)
		if (e->t.params[ty].user_perm != IPEH_PERM_NONE)
			e->k.user_grants++;
}

/* The same table with nothing granted to users */
static void grant_nothing(struct env *z, const struct env *e)
{
	unsigned int ty;

	*z = *e;
	for (ty = 0; ty < 256; ty++) {
		z->t.params[ty].user_perm = IPEH_PERM_NONE;
		z->k.procs[ty].params.t.user_perm = IPEH_PERM_NONE;
	}
	z->k.user_grants = 0;
}

/* A block of hdrlen-consistent length in b (capacity IPEH_HDR_MAX). */
static size_t random_block(const struct env *e, enum ipeh_hdr hdr, uint8_t *b)
{
	static const uint8_t data[255];
	struct ipeh_opt o[10];
	struct ipeh_limits lim = { 100, 100000 };
	size_t n = below(8), i, len;
	ssize_t r = -1;
	unsigned int m;

	if (below(5)) {
		for (i = 0; i < n; i++) {
			uint8_t ty = below(6) ? e->types[below(e->ntypes)] :
				     (uint8_t)(2 + below(254));
			const struct ipeh_tlv_params *p = &e->t.params[ty];
			unsigned int l = p->min_data_len + below(1u + (p->max_data_len - p->min_data_len) / 4 + 1);

			if (l > 255)
				l = 255;
			if (below(4))	/* mostly the right multiple */
				l = l - l % p->data_len_mult + p->data_len_off;
			if (l > 255)
				l = p->min_data_len;
			o[i] = (struct ipeh_opt){ ty, (uint8_t)l, data, 0 };
		}
		r = ipeh_build(&e->t, hdr, o, n, b, IPEH_HDR_MAX, &lim,
			       IPEH_F_ADMIN, NULL);
		if (r < 0)	/* e.g. an entry with an impossible class */
			r = ipeh_build(&e->t, hdr, o, n, b, IPEH_HDR_MAX, &lim,
				       0, NULL);
	}
	if (r < 0) {
		len = 8 * (1 + below(4));
		for (i = 0; i < len; i++) {
			m = below(8);
			b[i] = (uint8_t)(m < 3 ? m : m < 6 ? e->types[below(e->ntypes)] :
					 m == 6 ? below(16) : rnd());
		}
		b[1] = (uint8_t)(len / 8 - 1);
		return len;
	}
	len = (size_t)r;
	/* mutate most blocks: a byte, a length, padding, the header length */
	switch (below(8)) {
	case 0:
	case 1:
		break;
	case 2:
		b[2 + below((unsigned int)len - 2)] ^= (uint8_t)(1u << below(8));
		break;
	case 3:
		b[2 + below((unsigned int)len - 2)] = (uint8_t)below(3);
		break;
	case 4:
		b[2 + below((unsigned int)len - 2)] = (uint8_t)rnd();
		break;
	case 5:	/* grow: more trailing bytes, zero or not */
		if (len + 8 <= IPEH_HDR_MAX) {
			for (i = len; i < len + 8; i++)
				b[i] = (uint8_t)(below(3) ? 0 : below(3));
			len += 8;
			b[1] = (uint8_t)(len / 8 - 1);
		}
		break;
	case 6:	/* shrink */
		if (len > 8) {
			len -= 8;
			b[1] = (uint8_t)(len / 8 - 1);
		}
		break;
	case 7:	/* swap two bytes */
		{
			size_t x = 2 + below((unsigned int)len - 2);
			size_t y = 2 + below((unsigned int)len - 2);
			uint8_t t = b[x];

			b[x] = b[y];
			b[y] = t;
		}
		break;
	}
	return len;
}

static const char *ename(int r)
{
	switch (r) {
	case 0: return "0";
	case -EINVAL: return "EINVAL";
	case -EPERM: return "EPERM";
	case -E2BIG: return "E2BIG";
	case -EMSGSIZE: return "EMSGSIZE";
	default: return "other";
	}
}

static unsigned int ipeh_max_opts_cnt_like_kernel(int s)
{
	return s < 0 ? -(unsigned int)s : (unsigned int)s;
}

static unsigned int ipeh_max_opts_len_like_kernel(int s)
{
	return s < 0 ? 0 : (unsigned int)s;
}

static void test_libipeh_matches_kernel_validator(void **state)
{
	static const enum ipeh_hdr hdrs[3] = { IPEH_HDR_HOPOPTS,
		IPEH_HDR_DSTOPTS, IPEH_HDR_RTHDRDSTOPTS };
	static const int optnames[3] = { IPV6_HOPOPTS, IPV6_DSTOPTS,
		IPV6_RTHDRDSTOPTS };
	static uint8_t b[IPEH_HDR_MAX];
	static struct env e, z;
	unsigned long blocks = 0, checks = 0, accepted = 0;
	unsigned long by_err[5] = { 0 };
	unsigned int it;

	(void)state;
	for (it = 0; it < 300000; it++) {
		unsigned int h = below(3), c;
		size_t len;
		uint8_t *exact;

		if (it % 50 == 0) {
			random_table(&e);
			grant_nothing(&z, &e);
		}
		len = random_block(&e, hdrs[h], b);
		exact = malloc(len);	/* ASan: no read past the header */
		memcpy(exact, b, len);
		blocks++;
		for (c = 0; c < 4; c++) {
			bool admin = c & 1, nothing = (c & 2) && below(4) == 0;
			const struct env *te = nothing ? &z : &e;
			struct ipeh_limits lim;
			unsigned int max_len, max_cnt;
			struct ipeh_error err;
			int kr, ur;

			lim.max_opts_number = below(3) ? 8 : (int)below(5) - 2;
			lim.max_opts_length = below(3) ? 0x7fffffff :
					      8 * (int)below(6) - (below(4) ? 0 : 100);
			max_len = ipeh_max_opts_len_like_kernel(lim.max_opts_length);
			max_cnt = ipeh_max_opts_cnt_like_kernel(lim.max_opts_number);
			kr = __ipeh_opt_validate_tlvs(&te->k, (const struct ipv6_opt_hdr *)exact,
						      (unsigned int)optnames[h],
						      admin, max_len, max_cnt);
			ur = ipeh_validate(&te->t, hdrs[h], exact, len, &lim,
					   admin ? IPEH_F_ADMIN : 0, &err);
			checks++;
			if (kr != ur) {
				size_t i;

				print_error("block %lu hdr %s admin %d nothing granted %d limits %d/%d: kernel %s libipeh %s (%s)\n",
					    blocks, ipeh_hdr_name(hdrs[h]), admin, nothing,
					    lim.max_opts_number, lim.max_opts_length,
					    ename(kr), ename(ur), err.msg);
				for (i = 0; i < len; i++)
					print_error("%02x%s", exact[i], i + 1 == len ? "\n" : " ");
				free(exact);
				fail();
			}
			if (!kr)
				accepted++;
			by_err[kr == 0 ? 0 : kr == -EINVAL ? 1 : kr == -EPERM ? 2 :
			       kr == -E2BIG ? 3 : 4]++;
		}
		free(exact);
	}
	print_message("kdiff: %lu blocks, %lu checks, same verdict every time: "
		      "ok %lu, EINVAL %lu, EPERM %lu, E2BIG %lu, EMSGSIZE %lu\n",
		      blocks, checks, by_err[0], by_err[1], by_err[2],
		      by_err[3], by_err[4]);
	/* the generator must reach every verdict */
	assert_true(by_err[0] > 1000 && by_err[1] > 1000 && by_err[2] > 100 &&
		    by_err[3] > 10 && by_err[4] > 10);
	(void)accepted;
}

/* Every block the builder returns passes the kernel's own validator. */
static void test_built_blocks_pass_kernel_validator(void **state)
{
	static const enum ipeh_hdr hdrs[3] = { IPEH_HDR_HOPOPTS,
		IPEH_HDR_DSTOPTS, IPEH_HDR_RTHDRDSTOPTS };
	static const int optnames[3] = { IPV6_HOPOPTS, IPV6_DSTOPTS,
		IPV6_RTHDRDSTOPTS };
	static const uint8_t data[255];
	static uint8_t b[IPEH_HDR_MAX];
	static struct env e;
	unsigned long built = 0;
	unsigned int it;

	(void)state;
	for (it = 0; it < 200000; it++) {
		struct ipeh_opt o[12];
		struct ipeh_limits lim;
		unsigned int h = below(3), i, n = below(12);
		bool admin = below(4) == 0;
		ssize_t r;

		if (it % 50 == 0)
			random_table(&e);
		for (i = 0; i < n; i++) {
			uint8_t ty = e.types[below(e.ntypes)];
			const struct ipeh_tlv_params *p = &e.t.params[ty];
			unsigned int l = p->min_data_len + below(1u + (p->max_data_len - p->min_data_len) / 8 + 1);

			l = l - l % p->data_len_mult + p->data_len_off;
			o[i] = (struct ipeh_opt){ ty, (uint8_t)(l > 255 ? 255 : l), data, 0 };
		}
		lim.max_opts_number = below(2) ? 8 : (int)below(9) - 4;
		lim.max_opts_length = below(2) ? 0x7fffffff : 8 * (int)(1 + below(40));
		r = ipeh_build(&e.t, hdrs[h], o, n, b, sizeof(b), &lim,
			       admin ? IPEH_F_ADMIN : 0, NULL);
		if (r < 0)
			continue;
		built++;
		assert_int_equal(__ipeh_opt_validate_tlvs(&e.k,
				 (const struct ipv6_opt_hdr *)b,
				 (unsigned int)optnames[h], admin,
				 ipeh_max_opts_len_like_kernel(lim.max_opts_length),
				 ipeh_max_opts_cnt_like_kernel(lim.max_opts_number)), 0);
	}
	print_message("kdiff: %lu built blocks accepted by the kernel's validator\n",
		      built);
	assert_true(built > 20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libipeh_matches_kernel_validator),
		cmocka_unit_test(test_built_blocks_pass_kernel_validator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
	printf("kdiff: kernel validator unavailable: %s\n", KDIFF_MISSING);
	return 1;
}

#endif
