// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit test of kfuzz-lib (ipeh-kfuzz's pure part): the random
 * generator, the PC set, the record format and the mutators. No kernel
 * call beyond ordinary ones (memory, stdio); ipeh-kfuzz itself runs only in
 * test guests.
 */
#include <dirent.h>
#include <linux/ipeh.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfuzz-lib.h"

static int failed;

#define CHECK(c)							\
	do {								\
		if (!(c)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #c);		\
			failed = 1;					\
		}							\
	} while (0)

static void test_rng(void)
{
	struct kf_rng a, b;
	unsigned int hist[7] = { 0 };

	kf_rng_seed(&a, 42);
	kf_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		CHECK(kf_rand(&a) == kf_rand(&b));
	kf_rng_seed(&b, 43);
	CHECK(kf_rand(&a) != kf_rand(&b));
	kf_rng_seed(&a, 0);
	CHECK(a.s != 0);
	for (int i = 0; i < 70000; i++) {
		uint32_t v = kf_below(&a, 7);

		CHECK(v < 7);
		if (v < 7)
			hist[v]++;
	}
	for (int i = 0; i < 7; i++)
		CHECK(hist[i] > 9000 && hist[i] < 11000);
	CHECK(kf_below(&a, 0) == 0);
}

static void test_pcset(void)
{
	const uint64_t cap = 1024;
	struct kf_pcset *s = malloc(kf_pcset_bytes(cap));
	uint64_t added = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	kf_pcset_init(s, cap);
	CHECK(kf_pcset_add(s, 0xffffffff81000010ULL) == 1);
	CHECK(kf_pcset_add(s, 0xffffffff81000010ULL) == 0);
	CHECK(kf_pcset_has(s, 0xffffffff81000010ULL));
	CHECK(!kf_pcset_has(s, 0xffffffff81000014ULL));
	CHECK(kf_pcset_add(s, 0) == 0);
	CHECK(s->count == 1);
	/* PCs close together (as kernel PCs are) until the set is full */
	for (uint64_t pc = 0xffffffff81000000ULL; pc < 0xffffffff81000000ULL + 4 * 2000; pc += 4)
		added += (uint64_t)kf_pcset_add(s, pc);
	CHECK(s->count == cap - cap / 4);
	CHECK(added == s->count - 1 + 0);	/* ...010 was there already */
	CHECK(s->dropped == 2000 - added - 1);
	for (uint64_t pc = 0xffffffff81000000ULL, n = 0; n < s->count - 1; pc += 4, n++)
		CHECK(kf_pcset_has(s, pc));
	free(s);
}

static void test_records(void)
{
	static struct kf_recs a, b;
	static uint8_t buf[KF_MAX_INPUT], buf2[KF_MAX_INPUT];
	const uint8_t in[] = { 3, 1, 2, 0x41, 4, 0, 9, 9, 9, 9,	/* 4 data bytes */
			       1, 0, 0, 0, 200, 0, 7, 7 };	/* cut to 2 */
	size_t len;

	kf_decode(in, sizeof(in), &a);
	CHECK(a.n == 2);
	CHECK(a.r[0].op == 3 && a.r[0].a == 1 && a.r[0].b == 2 && a.r[0].c == 0x41);
	CHECK(a.r[0].len == 4 && a.r[0].data[3] == 9);
	CHECK(a.r[1].len == 2 && a.r[1].data[1] == 7);
	len = kf_encode(&a, buf, sizeof(buf));
	CHECK(len == sizeof(in));
	CHECK(buf[10 + 4] == 2);		/* the length now says what is there */
	kf_decode(buf, len, &b);
	CHECK(kf_encode(&b, buf2, sizeof(buf2)) == len && !memcmp(buf, buf2, len));
	kf_decode(in, 5, &a);			/* shorter than a header */
	CHECK(a.n == 0);
	/* records that do not fit are left out */
	CHECK(kf_encode(&b, buf, 12) == 10);
}

static void test_nla(void)
{
	uint8_t d[256], inner[64];
	size_t len = 0, il = 0, off[16];
	long parent[16];
	uint8_t t = 0x1e, u = IPEH_TLV_PERM_WITH_CHECK;
	uint16_t order = 100;
	unsigned int n;

	len = kf_nla_put(d, len, sizeof(d), IPEH_TLV_ATTR_TYPE, &t, 1);
	CHECK(len == 8);
	len = kf_nla_put(d, len, sizeof(d), IPEH_TLV_ATTR_ORDER, &order, 2);
	il = kf_nla_put(inner, il, sizeof(inner), IPEH_TLV_ATTR_TYPE, &t, 1);
	il = kf_nla_put(inner, il, sizeof(inner), IPEH_TLV_ATTR_USER_PERM, &u, 1);
	len = kf_nla_put(d, len, sizeof(d), IPEH_TLV_ATTR_ENTRY | NLA_F_NESTED, inner, il);
	len = kf_nla_put(d, len, sizeof(d), IPEH_TLV_ATTR_RESET, NULL, 0);
	CHECK(len == 8 + 8 + 4 + 16 + 4);
	n = kf_nla_walk(d, len, off, parent, 16);
	CHECK(n == 6);
	CHECK(off[2] == 16 && parent[2] == -1);
	CHECK(off[3] == 20 && parent[3] == 16);
	CHECK(off[4] == 28 && parent[4] == 16);
	CHECK(off[5] == 36 && parent[5] == -1);
	CHECK(kf_nla_put(d, len, len + 4, IPEH_TLV_ATTR_TYPE, &t, 1) == 0);
}

/* every attribute the walk finds lies inside the buffer */
static int attrs_sane(const uint8_t *d, size_t len)
{
	size_t off[64];
	long parent[64];
	unsigned int n = kf_nla_walk(d, len, off, parent, 64);

	for (unsigned int i = 0; i < n; i++) {
		uint16_t l;

		memcpy(&l, d + off[i], 2);
		if (off[i] + l > len || l < NLA_HDRLEN)
			return 0;
		if (parent[i] >= 0) {
			uint16_t pl;

			memcpy(&pl, d + parent[i], 2);
			if (off[i] + l > (size_t)parent[i] + pl)
				return 0;
		}
	}
	return 1;
}

static void test_mutate_attrs(void)
{
	struct kf_rng r;
	uint8_t d[KF_MAX_DATA];
	size_t len = 0;
	unsigned long walked = 0;

	kf_rng_seed(&r, 1);
	for (int i = 0; i < 200000; i++) {
		if (i % 50 == 0)
			len = 0;
		len = kf_mutate_attrs(&r, d, len, sizeof(d));
		CHECK(len <= sizeof(d));
		CHECK(attrs_sane(d, len));
		walked += len;
	}
	CHECK(walked > 0);
}

static void test_block(void)
{
	struct kf_rng r;
	uint8_t d[KF_MAX_DATA];
	size_t len, fixed = 0;
	const uint8_t pmtu[] = { 0x11, 0, 0x30, 4, 5, 0x78, 0, 0 };

	/* a bare header becomes 8 bytes of PadN */
	d[0] = 17;
	d[1] = 9;
	len = kf_block_fixup(d, 2, sizeof(d));
	CHECK(len == 8 && d[1] == 0 && d[2] == 1 && d[3] == 4);
	/* 7 bytes: one Pad1 */
	memcpy(d, pmtu, 6);
	d[6] = 0x3e;
	len = kf_block_fixup(d, 7, sizeof(d));
	CHECK(len == 8 && d[7] == 0);
	/* already a multiple of 8: unchanged but for the length byte */
	memcpy(d, pmtu, 8);
	d[1] = 3;
	CHECK(kf_block_fixup(d, 8, sizeof(d)) == 8 && !memcmp(d, pmtu, 8));

	kf_rng_seed(&r, 2);
	memcpy(d, pmtu, 8);
	len = 8;
	for (int i = 0; i < 200000; i++) {
		if (i % 40 == 0) {
			memcpy(d, pmtu, 8);
			len = 8;
		}
		len = kf_mutate_block(&r, d, len, sizeof(d));
		CHECK(len <= sizeof(d));
		if (len >= 8 && len % 8 == 0 && d[1] == len / 8 - 1)
			fixed++;
	}
	/* most results are framed (the length byte matches, a multiple of 8) */
	CHECK(fixed > 100000);
}

static void test_mutate(void)
{
	static uint8_t buf[KF_MAX_INPUT], other[KF_MAX_INPUT];
	static struct kf_recs rs;
	struct kf_rng r;
	size_t len, olen;
	unsigned long changed = 0;

	kf_rng_seed(&r, 3);
	for (int t = 0; t < 2; t++) {
		uint8_t seed[] = { 3, 1, 0, 1, 8, 0, 5, 0, 1, 0, 0x1e, 0, 0, 0 };

		memcpy(buf, seed, sizeof(seed));
		len = sizeof(seed);
		memcpy(other, seed, sizeof(seed));
		olen = sizeof(seed);
		for (int i = 0; i < 100000; i++) {
			uint64_t h = kf_hash(buf, len);

			kf_mutate(&r, t ? KF_OPT : KF_NL, buf, &len, other, olen);
			CHECK(len <= KF_MAX_INPUT);
			changed += kf_hash(buf, len) != h;
			kf_decode(buf, len, &rs);
			CHECK(rs.n <= KF_MAX_RECS);
			if (i % 1000 == 999) {	/* restart, keep this one to splice */
				memcpy(other, buf, len);
				olen = len;
				memcpy(buf, seed, sizeof(seed));
				len = sizeof(seed);
			}
		}
	}
	CHECK(changed > 150000);
}

/* a name of 16 hex digits: an input a fuzzing run kept (named after its
 * hash), not one of kfuzz-gen-seeds' seeds
 */
static bool kept_by_fuzzing(const char *name)
{
	return strlen(name) == 16 && strspn(name, "0123456789abcdef") == 16;
}

/* the nl seeds that kfuzz-gen-seeds wrote: every record's data is a whole
 * chain of attributes (the inputs fuzzing kept need not be)
 */
static void test_nl_seeds(const char *dir)
{
	static struct kf_recs rs;
	static uint8_t buf[KF_MAX_INPUT];
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned int files = 0;

	CHECK(d != NULL);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[4096];
		FILE *f;
		size_t len;

		if (e->d_name[0] == '.' || kept_by_fuzzing(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		CHECK(f != NULL);
		if (!f)
			continue;
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		files++;
		kf_decode(buf, len, &rs);
		CHECK(rs.n > 0);
		for (unsigned int i = 0; i < rs.n; i++) {
			size_t off[64], end = 0;
			long parent[64];
			unsigned int n = kf_nla_walk(rs.r[i].data, rs.r[i].len, off, parent, 64);

			for (unsigned int k = 0; k < n; k++) {
				uint16_t l;

				memcpy(&l, rs.r[i].data + off[k], 2);
				if (parent[k] < 0)
					end = off[k] + NLA_ALIGN(l);
			}
			if (end != rs.r[i].len)
				fprintf(stderr, "%s: record %u: attributes end at %zu of %u\n",
					e->d_name, i, end, rs.r[i].len);
			CHECK(end == rs.r[i].len);
		}
		CHECK(kf_encode(&rs, buf + 0, sizeof(buf)) == len);
	}
	closedir(d);
	CHECK(files > 0);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		test_nl_seeds(argv[1]);
	test_rng();
	test_pcset();
	test_records();
	test_nla();
	test_mutate_attrs();
	test_block();
	test_mutate();
	if (failed)
		return 1;
	printf("kfuzz-lib: all checks passed\n");
	return 0;
}
