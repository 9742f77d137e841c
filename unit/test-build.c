// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Builder: exact canonical output on known blocks; every alignment, length
 * and input order of a two-option block; randomized tables.  Property:
 * every block built validates (user, cmsg and setsockopt) and parses back
 * to the same options in preferred order; every failure leaves the
 * caller's buffer untouched.
 */

#include "common.h"
#include "hexblk.h"

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static void assert_parses_back(const uint8_t *b, size_t len,
			       const struct ipeh_opt *want, size_t n)
{
	struct ipeh_opt got[IPEH_OPTS_MAX];
	int cnt;
	size_t i;

	cnt = ipeh_parse(b, len, got, IPEH_OPTS_MAX, 0, NULL);
	assert_int_equal(cnt, (int)n);
	for (i = 0; i < n; i++) {
		assert_int_equal(got[i].type, want[i].type);
		assert_int_equal(got[i].len, want[i].len);
		if (want[i].len)
			assert_memory_equal(got[i].data, want[i].data,
					    want[i].len);
	}
}

/* PMTU + 34-byte IOAM: the block the validator suite uses, byte for byte. */
static void test_pmtu_ioam_exact_bytes(void **state)
{
	struct ipeh_table t;
	uint8_t want[64], got[64], pmtu[4], ioam[34] = { 0 };
	size_t wlen = hexblk(want, sizeof(want),
			     "00 05 30 04 05 00 05 dc 31 22 00 00 z32 01 02 00 00");
	struct ipeh_pmtu pm = { 1280, 1500, false };
	struct ipeh_opt opts[2];
	ssize_t n;

	(void)state;
	test_table(&t);
	assert_int_equal(ipeh_pmtu_encode(&pm, pmtu, sizeof(pmtu)), 4);
	/* given in reverse preferred order on purpose */
	opts[0] = (struct ipeh_opt){ .type = IPEH_OPT_IOAM, .len = 34, .data = ioam };
	opts[1] = (struct ipeh_opt){ .type = IPEH_OPT_PMTU, .len = 4, .data = pmtu };
	memset(got, 0xaa, sizeof(got));
	n = ipeh_build(&t, IPEH_HDR_HOPOPTS, opts, 2, got, sizeof(got), NULL, 0, NULL);
	assert_int_equal(n, (ssize_t)wlen);
	assert_memory_equal(got, want, wlen);
}

/* Option B at every align mult/off after option A of every length. */
static void test_every_alignment_length_order(void **state)
{
	uint8_t da[32], db[32], buf[128];
	unsigned int m, o, la, lb;
	struct ipeh_table t;
	unsigned long built = 0;

	(void)state;
	for (la = 0; la < sizeof(da); la++)
		da[la] = (uint8_t)(0xa0 + la);
	for (lb = 0; lb < sizeof(db); lb++)
		db[lb] = (uint8_t)(0xb0 + lb);

	for (m = 1; m <= 16; m++) {
		for (o = 0; o < m; o++) {
			struct ipeh_tlv_params pa = { .order = 10,
				.admin_perm = IPEH_PERM_CHECK,
				.user_perm = IPEH_PERM_CHECK,
				.class_mask = IPEH_CLASS_MASK, .align_mult = 1,
				.max_data_len = 255, .data_len_mult = 1 };
			struct ipeh_tlv_params pb = pa;

			pb.order = 20;
			pb.align_mult = (uint8_t)m;
			pb.align_off = (uint8_t)o;
			ipeh_table_init_empty(&t);
			assert_int_equal(ipeh_table_set(&t, 0x1e, &pa, NULL), 0);
			assert_int_equal(ipeh_table_set(&t, 0x7e, &pb, NULL), 0);

			for (la = 0; la <= 17; la++) {
				for (lb = 0; lb <= 9; lb++) {
					struct ipeh_opt in[2], sorted[2];
					size_t enda = 4 + la;
					size_t offb = enda + (o + m - enda % m) % m;
					size_t total = round8(offb + 2 + lb);
					int rev;

					sorted[0] = (struct ipeh_opt){ 0x1e, (uint8_t)la, da, 0 };
					sorted[1] = (struct ipeh_opt){ 0x7e, (uint8_t)lb, db, 0 };
					for (rev = 0; rev < 2; rev++) {
						ssize_t n;

						in[0] = sorted[rev];
						in[1] = sorted[!rev];
						n = ipeh_build(&t, IPEH_HDR_DSTOPTS, in, 2,
							       buf, sizeof(buf), NULL, 0, NULL);
						assert_int_equal(n, (ssize_t)total);
						assert_int_equal(buf[offb], 0x7e);
						assert_int_equal(ipeh_validate(&t, IPEH_HDR_DSTOPTS,
								buf, (size_t)n, NULL, 0, NULL), 0);
						assert_int_equal(ipeh_validate(&t, IPEH_HDR_DSTOPTS,
								buf, (size_t)n, NULL,
								IPEH_F_SETSOCKOPT | IPEH_F_ADMIN, NULL), 0);
						assert_parses_back(buf, (size_t)n, sorted, 2);
						built++;
					}
				}
			}
		}
	}
	assert_int_equal(built, 136UL * 18 * 10 * 2);
}

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	/* xorshift32: reproducible on every libc */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static unsigned int rnd_below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

/* A length valid for p, or -1 when none is. */
static int valid_len(const struct ipeh_tlv_params *p)
{
	int cands[256], n = 0, l;

	for (l = p->min_data_len; l <= p->max_data_len; l++)
		if (l % p->data_len_mult == p->data_len_off)
			cands[n++] = l;
	return n ? cands[rnd_below((unsigned int)n)] : -1;
}

static void test_random_tables_property(void **state)
{
	static uint8_t data[256];
	uint8_t buf[IPEH_HDR_MAX + 8];
	unsigned int iter, ok = 0, too_long = 0;
	enum ipeh_hdr hdrs[3] = { IPEH_HDR_HOPOPTS, IPEH_HDR_DSTOPTS,
				  IPEH_HDR_RTHDRDSTOPTS };
	struct ipeh_limits lim = { 64, 0x7fffffff };

	(void)state;
	for (iter = 0; iter < 256; iter++)
		data[iter] = (uint8_t)rnd();

	for (iter = 0; iter < 20000; iter++) {
		struct ipeh_table t;
		uint8_t types[8];
		unsigned int ntypes = 1 + rnd_below(8), i, j;
		struct ipeh_opt in[16], sorted[16];
		size_t nopts = rnd_below(17);
		enum ipeh_hdr hdr = hdrs[rnd_below(3)];
		struct ipeh_error e;
		unsigned int flags = rnd_below(4) ? 0 : IPEH_F_ADMIN;
		ssize_t n;

		ipeh_table_init_empty(&t);
		for (i = 0; i < ntypes; i++) {
			struct ipeh_tlv_params p;
			int r;

			types[i] = (uint8_t)(2 + rnd_below(254));
			p.order = (uint16_t)(1 + rnd_below(65535));
			p.admin_perm = rnd_below(3) ? IPEH_PERM_CHECK : IPEH_PERM_NO_CHECK;
			p.user_perm = rnd_below(3) ? IPEH_PERM_CHECK : IPEH_PERM_NO_CHECK;
			p.class_mask = (uint8_t)(hdr | rnd_below(8));
			p.align_mult = (uint8_t)(1 + rnd_below(16));
			p.align_off = (uint8_t)rnd_below(p.align_mult);
			p.min_data_len = (uint8_t)rnd_below(rnd_below(2) ? 8 : 256);
			p.max_data_len = (uint8_t)(p.min_data_len +
					 rnd_below(256u - p.min_data_len));
			if (rnd_below(2)) {
				unsigned int mx = p.min_data_len + rnd_below(9);

				p.max_data_len = (uint8_t)(mx > 255 ? 255 : mx);
			}
			p.data_len_mult = (uint8_t)(1 + rnd_below(rnd_below(2) ? 4 : 16));
			p.data_len_off = (uint8_t)rnd_below(p.data_len_mult);
			/* orders are unique in a table: retry on a clash */
			while ((r = ipeh_table_set(&t, types[i], &p, &e)) == -EALREADY)
				p.order = (uint16_t)(1 + rnd_below(65535));
			if (r)
				print_error("set: %s\n", e.msg);
			assert_int_equal(r, 0);
		}
		for (i = 0; i < nopts; i++) {
			uint8_t ty = types[rnd_below(ntypes)];
			int l = valid_len(&t.params[ty]);

			if (l < 0) {
				nopts = i;
				break;
			}
			in[i] = (struct ipeh_opt){ ty, (uint8_t)l,
				data + rnd_below(256u - (unsigned int)l), 0 };
		}
		/* expected output order: stable by preferred order */
		for (i = 0; i < nopts; i++)
			sorted[i] = in[i];
		for (i = 1; i < nopts; i++) {
			struct ipeh_opt x = sorted[i];

			for (j = i; j > 0 && t.params[sorted[j - 1].type].order >
					     t.params[x.type].order; j--)
				sorted[j] = sorted[j - 1];
			sorted[j] = x;
		}

		n = ipeh_build(&t, hdr, in, nopts, buf, sizeof(buf), &lim,
			       flags, &e);
		if (n < 0 && n != -EMSGSIZE)
			print_error("iter %u: %zd %s\n", iter, n, e.msg);
		if (n == -EMSGSIZE) {
			too_long++;
			continue;
		}
		/* a user may not send a header with no option */
		if (nopts == 0 && !(flags & IPEH_F_ADMIN)) {
			assert_int_equal(n, -EPERM);
			continue;
		}
		assert_true(n >= 8);
		assert_int_equal(n % 8, 0);
		assert_int_equal(ipeh_validate(&t, hdr, buf, (size_t)n, &lim,
					       flags, NULL), 0);
		/* canonical for users is also fine for the other perms */
		assert_int_equal(ipeh_validate(&t, hdr, buf, (size_t)n, &lim,
					       flags ^ IPEH_F_ADMIN, NULL),
				 nopts ? 0 : -EPERM);
		if (n <= IPEH_BLOCK_MAX)
			assert_int_equal(ipeh_validate(&t, hdr, buf, (size_t)n,
					 &lim, flags | IPEH_F_SETSOCKOPT, NULL), 0);
		assert_parses_back(buf, (size_t)n, sorted, nopts);
		if (nopts <= IPEH_BUILDER_MAX_OPTS) {
			static struct ipeh_prepared pr;
			const void *datas[16];

			/* prepared with zeros, emitted with the data */
			for (i = 0; i < nopts; i++) {
				datas[i] = in[i].data;
				in[i].data = NULL;
			}
			assert_int_equal(ipeh_prepare(&pr, &t, hdr, in, nopts, &lim, flags, NULL), n);
			for (i = 0; i < nopts; i++)
				in[i].data = datas[i];
			{
				static uint8_t b3[IPEH_HDR_MAX + 8];

				assert_int_equal(ipeh_prepared_emit(&pr, b3, sizeof(b3), datas), n);
				assert_memory_equal(b3, buf, (size_t)n);
				/* in place */
				for (i = 0; i < nopts; i++)
					if (in[i].len)
						memcpy(ipeh_prepared_data(&pr, i), in[i].data, in[i].len);
				assert_memory_equal(pr.block, buf, (size_t)n);
				assert_null(ipeh_prepared_data(&pr, nopts));
				assert_int_equal(ipeh_prepared_emit(&pr, b3, (size_t)n - 1, datas), -ENOBUFS);
			}
		}
		if (nopts <= IPEH_BUILDER_MAX_OPTS) {
			struct ipeh_builder *bl;
			static uint8_t b2[IPEH_HDR_MAX + 8];
			int pass;

			bl = ipeh_builder_new(&t, hdr, &lim, flags);
			assert_non_null(bl);
			for (pass = 0; pass < 2; pass++) {	/* 2nd: memo */
				ipeh_builder_reset(bl);
				for (i = 0; i < nopts; i++)
					ipeh_builder_add(bl, in[i].type, in[i].data, in[i].len);
				assert_int_equal(ipeh_builder_finish(bl, b2, sizeof(b2), NULL), n);
				assert_memory_equal(b2, buf, (size_t)n);
			}
			ipeh_builder_free(bl);
		}
		ok++;
	}
	assert_true(ok > 15000);
	print_message("random tables: %u built and checked, %u too long\n",
		      ok, too_long);
}

static struct ipeh_table tt;

static void assert_build_fails(struct ipeh_opt *opts, size_t n,
			       enum ipeh_hdr hdr, const struct ipeh_limits *lim,
			       unsigned int flags, size_t buflen, int err,
			       enum ipeh_rule rule)
{
	uint8_t buf[IPEH_HDR_MAX + 8], copy[sizeof(buf)];
	struct ipeh_error e;
	ssize_t r;

	memset(buf, 0x5a, sizeof(buf));
	memcpy(copy, buf, sizeof(buf));
	r = ipeh_build(&tt, hdr, opts, n, buf, buflen, lim, flags, &e);
	if (r != err || e.rule != rule)
		print_error("build: %zd %s: %s\n", r, ipeh_rule_name(e.rule), e.msg);
	assert_int_equal(r, err);
	assert_int_equal(e.err, err);
	assert_int_equal(e.rule, rule);
	assert_memory_equal(buf, copy, sizeof(buf));	/* no partial output */
}

static void test_failures_are_precise_and_write_nothing(void **state)
{
	static const uint8_t z[255];
	struct ipeh_opt o[IPEH_OPTS_MAX + 1];
	struct ipeh_limits lim;
	size_t i;

	(void)state;
	test_table(&tt);
	ipeh_limits_default(&lim);

	o[0] = (struct ipeh_opt){ IPEH_OPT_RA, 2, z, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, NULL, 0, 64, -EPERM, IPEH_RULE_PERM);
	o[0] = (struct ipeh_opt){ T_DSTONLY, 2, z, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, NULL, 0, 64, -EINVAL, IPEH_RULE_CLASS);
	o[0] = (struct ipeh_opt){ T_PMTU, 5, z, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, NULL, 0, 64, -EINVAL, IPEH_RULE_DATA_LEN);
	o[0] = (struct ipeh_opt){ T_IOAM, 12, z, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, NULL, 0, 64, -EINVAL, IPEH_RULE_DATA_LEN_MULT);
	o[0] = (struct ipeh_opt){ IPEH_OPT_PADN, 2, z, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, NULL, 0, 64, -EINVAL, IPEH_RULE_PARAM);
	o[0] = (struct ipeh_opt){ T_EXP1, 2, NULL, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, NULL, 0, 64, -EINVAL, IPEH_RULE_PARAM);
	for (i = 0; i < 9; i++)
		o[i] = (struct ipeh_opt){ T_EXP1, 0, NULL, 0 };
	assert_build_fails(o, 9, IPEH_HDR_HOPOPTS, NULL, 0, 64, -E2BIG, IPEH_RULE_COUNT);
	/*
	 * no-check options count against a user's limit too, as in the
	 * kernel; an admin's header with no checked option has no limit
	 */
	for (i = 0; i < 9; i++)
		o[i] = (struct ipeh_opt){ T_NOCHK, 0, NULL, 0 };
	assert_build_fails(o, 9, IPEH_HDR_HOPOPTS, NULL, 0, 64, -E2BIG, IPEH_RULE_COUNT);
	{
		uint8_t b[64];

		assert_int_equal(ipeh_build(&tt, IPEH_HDR_HOPOPTS, o, 8, b,
					    sizeof(b), NULL, 0, NULL), 24);
		assert_int_equal(ipeh_build(&tt, IPEH_HDR_HOPOPTS, o, 9, b,
					    sizeof(b), NULL, IPEH_F_ADMIN,
					    NULL), 24);
	}
	o[8] = (struct ipeh_opt){ T_ODD, 3, z, 0 };	/* sorts last: 9th */
	assert_build_fails(o, 9, IPEH_HDR_HOPOPTS, NULL, 0, 64, -E2BIG, IPEH_RULE_COUNT);
	lim.max_opts_number = -9;			/* |limit| */
	{
		uint8_t b[64];

		assert_true(ipeh_build(&tt, IPEH_HDR_HOPOPTS, o, 9, b,
				       sizeof(b), &lim, 0, NULL) > 0);
	}
	lim.max_opts_number = 8;
	lim.max_opts_length = 8;
	o[0] = (struct ipeh_opt){ T_EXP1, 7, z, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, &lim, 0, 64, -EMSGSIZE, IPEH_RULE_LENGTH);
	o[0] = (struct ipeh_opt){ T_EXP1, 4, z, 0 };
	assert_build_fails(o, 1, IPEH_HDR_HOPOPTS, NULL, 0, 7, -ENOBUFS, IPEH_RULE_BUFFER);
	/* 9 x 255-byte options: 2 + 9 * 257 > 2048 */
	lim.max_opts_number = 100;
	lim.max_opts_length = 100000;
	for (i = 0; i < 9; i++)
		o[i] = (struct ipeh_opt){ T_EXP1, 255, z, 0 };
	assert_build_fails(o, 9, IPEH_HDR_HOPOPTS, &lim, 0, sizeof(o), -EMSGSIZE, IPEH_RULE_LENGTH);
	/* 8 fit in a cmsg (2058 -> no: 2 + 8 * 257 = 2058) */
	for (i = 0; i < 7; i++)
		o[i] = (struct ipeh_opt){ T_EXP1, 255, z, 0 };
	o[7] = (struct ipeh_opt){ T_EXP1, 244, z, 0 };
	{
		static uint8_t b[IPEH_HDR_MAX];

		assert_int_equal(ipeh_build(&tt, IPEH_HDR_HOPOPTS, o, 8, b,
					    sizeof(b), &lim, 0, NULL), 2048);
		assert_int_equal(ipeh_validate(&tt, IPEH_HDR_HOPOPTS, b, 2048,
					       &lim, 0, NULL), 0);
	}
	assert_build_fails(o, 8, IPEH_HDR_HOPOPTS, &lim, IPEH_F_SETSOCKOPT,
			   IPEH_HDR_MAX, -EMSGSIZE, IPEH_RULE_LENGTH);
	assert_build_fails(o, IPEH_OPTS_MAX + 1, IPEH_HDR_HOPOPTS, &lim, 0,
			   IPEH_HDR_MAX, -EMSGSIZE, IPEH_RULE_LENGTH);
	assert_build_fails(o, 1, 3, &lim, 0, IPEH_HDR_MAX, -EINVAL, IPEH_RULE_PARAM);
}

static void test_prepare_failure_leaves_nothing_to_emit(void **state)
{
	static struct ipeh_prepared pr;
	struct ipeh_table t;
	struct ipeh_opt o = { IPEH_OPT_RA, 2, NULL, 0 };
	struct ipeh_error e;
	uint8_t b[64];

	(void)state;
	test_table(&t);
	assert_int_equal(ipeh_prepare(&pr, &t, IPEH_HDR_HOPOPTS, &o, 1, NULL, 0, &e), -EPERM);
	assert_int_equal(e.rule, IPEH_RULE_PERM);
	assert_int_equal(ipeh_prepared_emit(&pr, b, sizeof(b), NULL), -EINVAL);
	assert_null(ipeh_prepared_data(&pr, 0));
	assert_int_equal(ipeh_prepare(&pr, &t, IPEH_HDR_HOPOPTS, &o,
				      IPEH_BUILDER_MAX_OPTS + 1, NULL, 0, &e), -E2BIG);
	/* admin may send Router Alert: prepared with zero data */
	assert_int_equal(ipeh_prepare(&pr, &t, IPEH_HDR_HOPOPTS, &o, 1, NULL,
				      IPEH_F_ADMIN, &e), 8);
	assert_int_equal(ipeh_prepared_emit(&pr, b, sizeof(b), NULL), 8);
	assert_int_equal(b[2], IPEH_OPT_RA);
	assert_int_equal(b[4], 0);
	assert_int_equal(b[5], 0);
}

static void test_empty_block(void **state)
{
	uint8_t b[8];
	struct ipeh_table t;

	(void)state;
	ipeh_table_init_default(&t, 0);
	/* the kernel refuses a user a header with no option (as 6.12 did) */
	assert_int_equal(ipeh_build(&t, IPEH_HDR_DSTOPTS, NULL, 0, b, 8, NULL, 0, NULL), -EPERM);
	assert_int_equal(ipeh_build(&t, IPEH_HDR_DSTOPTS, NULL, 0, b, 8, NULL,
				    IPEH_F_ADMIN, NULL), 8);
	assert_int_equal(b[1], 0);
	assert_int_equal(b[2], IPEH_OPT_PADN);
	assert_int_equal(b[3], 4);
	assert_int_equal(ipeh_validate(&t, IPEH_HDR_DSTOPTS, b, 8, NULL, IPEH_F_ADMIN, NULL), 0);
	assert_int_equal(ipeh_validate(&t, IPEH_HDR_DSTOPTS, b, 8, NULL, 0, NULL), -EPERM);
}

static void test_builder_api(void **state)
{
	struct ipeh_builder *b;
	struct ipeh_table t;
	uint8_t pmtu[4] = { 5, 0, 5, 0xdc }, ioam[34] = { 0 }, out[64], ref[64];
	struct ipeh_opt o[2] = {
		{ IPEH_OPT_PMTU, 4, pmtu, 0 }, { IPEH_OPT_IOAM, 34, ioam, 0 } };
	struct ipeh_error e;
	size_t i;

	(void)state;
	test_table(&t);
	b = ipeh_builder_new(&t, IPEH_HDR_HOPOPTS, NULL, 0);
	assert_non_null(b);
	assert_int_equal(ipeh_builder_add(b, IPEH_OPT_IOAM, ioam, 34), 0);
	assert_int_equal(ipeh_builder_add(b, IPEH_OPT_PMTU, pmtu, 4), 0);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), 48);
	assert_int_equal(ipeh_build(&t, IPEH_HDR_HOPOPTS, o, 2, ref, sizeof(ref),
				    NULL, 0, NULL), 48);
	assert_memory_equal(out, ref, 48);

	ipeh_builder_reset(b);
	assert_int_equal(ipeh_builder_add(b, IPEH_OPT_PAD1, NULL, 0), -EINVAL);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, NULL, 3), -EINVAL);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, ioam, 256), -EINVAL);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_PARAM);

	ipeh_builder_reset(b);
	for (i = 0; i < IPEH_BUILDER_MAX_OPTS; i++)
		assert_int_equal(ipeh_builder_add(b, T_EXP1, NULL, 0), 0);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, NULL, 0), -E2BIG);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -E2BIG);
	ipeh_builder_free(b);
}

/* The builder's layout memo never yields a block ipeh_build() would not. */
static void test_builder_memo_tracks_data_table_and_lengths(void **state)
{
	struct ipeh_builder *b;
	struct ipeh_table t;
	uint8_t d1[34] = { 1 }, d2[34] = { 2 }, pm[4] = { 5, 0, 5, 0xdc };
	uint8_t out[64], ref[64];
	struct ipeh_opt o[2] = { { IPEH_OPT_IOAM, 34, d1, 0 },
				 { IPEH_OPT_PMTU, 4, pm, 0 } };
	struct ipeh_error e;

	(void)state;
	test_table(&t);
	b = ipeh_builder_new(&t, IPEH_HDR_HOPOPTS, NULL, 0);
	assert_non_null(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, d1, 34);
	ipeh_builder_add(b, IPEH_OPT_PMTU, pm, 4);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), NULL), 48);

	/* same shape, new data: the new data is in the block */
	ipeh_builder_reset(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, d2, 34);
	ipeh_builder_add(b, IPEH_OPT_PMTU, pm, 4);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), NULL), 48);
	o[0].data = d2;
	assert_int_equal(ipeh_build(&t, IPEH_HDR_HOPOPTS, o, 2, ref, sizeof(ref), NULL, 0, NULL), 48);
	assert_memory_equal(out, ref, 48);

	/* the table changes under the builder: the layout follows */
	t.params[IPEH_OPT_PMTU].align_mult = 8;
	t.params[IPEH_OPT_PMTU].align_off = 6;
	ipeh_builder_reset(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, d2, 34);
	ipeh_builder_add(b, IPEH_OPT_PMTU, pm, 4);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), NULL),
			 ipeh_build(&t, IPEH_HDR_HOPOPTS, o, 2, ref, sizeof(ref), NULL, 0, NULL));
	assert_memory_equal(out, ref, 48);
	assert_int_equal(out[6], IPEH_OPT_PMTU);

	/* ... and so do the checks */
	t.params[IPEH_OPT_PMTU].user_perm = IPEH_PERM_NONE;
	ipeh_builder_reset(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, d2, 34);
	ipeh_builder_add(b, IPEH_OPT_PMTU, pm, 4);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -EPERM);

	/* another length is another layout */
	t.params[IPEH_OPT_PMTU].user_perm = IPEH_PERM_CHECK;
	ipeh_builder_reset(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, d2, 30);
	ipeh_builder_add(b, IPEH_OPT_PMTU, pm, 4);
	o[0].len = 30;
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), NULL),
			 ipeh_build(&t, IPEH_HDR_HOPOPTS, o, 2, ref, sizeof(ref), NULL, 0, NULL));
	assert_memory_equal(out, ref, 40);
	/* a short buffer on a memo hit */
	ipeh_builder_reset(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, d2, 30);
	ipeh_builder_add(b, IPEH_OPT_PMTU, pm, 4);
	assert_int_equal(ipeh_builder_finish(b, out, 39, &e), -ENOBUFS);
	ipeh_builder_free(b);
}


/*
 * Errors name the input option at fault (index), its type, and the byte
 * of the block where its type byte would have gone; errors of the input
 * itself have no byte, and header-wide errors name no option.
 */
static void test_builder_error_reports(void **state)
{
	struct ipeh_builder *b;
	struct ipeh_table t;
	struct ipeh_limits one = { .max_opts_number = 1,
				   .max_opts_length = 2048 };
	uint8_t d[8] = { 0 }, out[64];
	struct ipeh_opt o[2] = { { T_DSTONLY, 2, d, 0 }, { T_EXP1, 3, d, 0 } };
	struct ipeh_opt found;
	struct ipeh_error e;
	size_t i;

	(void)state;
	test_table(&t);
	/* where T_DSTONLY's type byte goes: EXP1 (order 70) at 2..6, then
	 * one Pad1 for DSTONLY's 2n alignment, the layout both headers share
	 */
	assert_int_equal(ipeh_build(&t, IPEH_HDR_DSTOPTS, o, 2, out, sizeof(out),
				    NULL, 0, NULL), 16);
	assert_int_equal(ipeh_find(out, 16, T_DSTONLY, &found), 1);
	assert_int_equal(found.offset, 8);

	/* ipeh_build(): opts[0] is not allowed in a Hop-by-Hop header */
	assert_int_equal(ipeh_build(&t, IPEH_HDR_HOPOPTS, o, 2, out, sizeof(out),
				    NULL, 0, &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_CLASS);
	assert_int_equal(e.index, 0);
	assert_int_equal(e.type, T_DSTONLY);
	assert_int_equal(e.offset, 8);
	assert_non_null(strstr(e.msg, "option 0 (type 0x5e, byte 8)"));

	/* the builder: the same, named by its add() */
	b = ipeh_builder_new(&t, IPEH_HDR_HOPOPTS, NULL, 0);
	assert_non_null(b);
	assert_int_equal(ipeh_builder_add(b, T_DSTONLY, d, 2), 0);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, d, 3), 0);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -EINVAL);
	assert_int_equal(e.index, 0);
	assert_int_equal(e.type, T_DSTONLY);
	assert_int_equal(e.offset, 8);

	/* count: the first option past the limit, where it would start */
	ipeh_builder_free(b);
	b = ipeh_builder_new(&t, IPEH_HDR_HOPOPTS, &one, 0);
	assert_non_null(b);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, d, 3), 0);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, d, 1), 0);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -E2BIG);
	assert_int_equal(e.rule, IPEH_RULE_COUNT);
	assert_int_equal(e.index, 1);
	assert_int_equal(e.type, T_EXP1);
	assert_int_equal(e.offset, 7);

	/* an add() that failed: its index, its type, no byte; the first
	 * failure is the one reported, later ones change nothing
	 */
	ipeh_builder_reset(b);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, d, 1), 0);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, d, 256), -EINVAL);
	assert_int_equal(ipeh_builder_add(b, IPEH_OPT_PAD1, NULL, 0), -EINVAL);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_PARAM);
	assert_int_equal(e.index, 1);
	assert_int_equal(e.type, T_EXP1);
	assert_int_equal(e.offset, -1);
	assert_non_null(strstr(e.msg, "option 1 (type 0x1e): data length 256"));

	ipeh_builder_reset(b);
	assert_int_equal(ipeh_builder_add(b, IPEH_OPT_PADN, NULL, 0), -EINVAL);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -EINVAL);
	assert_int_equal(e.index, 0);
	assert_int_equal(e.type, IPEH_OPT_PADN);
	assert_non_null(strstr(e.msg, "padding"));

	ipeh_builder_reset(b);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, NULL, 3), -EINVAL);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -EINVAL);
	assert_non_null(strstr(e.msg, "no data"));

	ipeh_builder_reset(b);
	for (i = 0; i < IPEH_BUILDER_MAX_OPTS; i++)
		assert_int_equal(ipeh_builder_add(b, T_EXP1, NULL, 0), 0);
	assert_int_equal(ipeh_builder_add(b, T_PMTU, d, 4), -E2BIG);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), -E2BIG);
	assert_int_equal(e.index, IPEH_BUILDER_MAX_OPTS);
	assert_int_equal(e.type, T_PMTU);

	/* a reset forgets the failure */
	ipeh_builder_reset(b);
	assert_int_equal(ipeh_builder_add(b, T_EXP1, d, 3), 0);
	assert_int_equal(ipeh_builder_finish(b, out, sizeof(out), &e), 8);

	/* header-wide: no option named */
	assert_int_equal(ipeh_builder_finish(b, out, 7, &e), -ENOBUFS);
	assert_int_equal(e.index, -1);
	assert_int_equal(e.type, -1);
	assert_int_equal(e.offset, -1);
	ipeh_builder_free(b);
}

static void test_builder_new_refuses(void **state)
{
	struct ipeh_table t;

	(void)state;
	test_table(&t);
	errno = 0;
	assert_null(ipeh_builder_new(NULL, IPEH_HDR_HOPOPTS, NULL, 0));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ipeh_builder_new(&t, (enum ipeh_hdr)3, NULL, 0));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ipeh_builder_new(&t, IPEH_HDR_DSTOPTS, NULL, 0x100));
	assert_int_equal(errno, EINVAL);
	ipeh_builder_free(NULL);	/* as free(NULL) */
}
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmtu_ioam_exact_bytes),
		cmocka_unit_test(test_every_alignment_length_order),
		cmocka_unit_test(test_random_tables_property),
		cmocka_unit_test(test_failures_are_precise_and_write_nothing),
		cmocka_unit_test(test_empty_block),
		cmocka_unit_test(test_prepare_failure_leaves_nothing_to_emit),
		cmocka_unit_test(test_builder_api),
		cmocka_unit_test(test_builder_memo_tracks_data_table_and_lengths),
		cmocka_unit_test(test_builder_error_reports),
		cmocka_unit_test(test_builder_new_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
