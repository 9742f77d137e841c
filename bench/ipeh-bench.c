// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ipeh-bench: libipeh's builder against glibc's RFC 3542 inet6_opt_*()
 * building the same blocks in the same run, plus validator and parser cost.
 *
 *   BENCH <case> libipeh=<ns> glibc=<ns> ratio=<libipeh/glibc>
 *   BENCH <case>-prepared libipeh=<ns> glibc=<ns> ratio=<libipeh/glibc>
 *   BENCH <case>-oneshot libipeh=<ns> glibc=<ns> ratio=<libipeh/glibc>
 *   BENCH validate-<case> ns=<ns>
 *   BENCH parse-<case> ns=<ns>
 *
 * <case> is the per-packet path (a builder reused, so the layout memo of
 * ipeh_builder_finish() applies; it still compares the table entries
 * used); -prepared is ipeh_prepared_emit() of a layout prepared once
 * per flow (no table lookup per packet); -oneshot is ipeh_build() from
 * scratch every time.
 * Each figure is the best of several rounds (the machine is shared); the
 * blocks both sides produce are compared byte for byte first.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/ip6.h>

#include <ipeh.h>

#define ROUNDS	25

static unsigned long iters = 200000;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#define BARRIER(p) __asm__ volatile("" : : "r"(p) : "memory")

struct bopt {
	uint8_t type;
	uint8_t len;
	uint8_t glibc_align;	/* data offset multiple for inet6_opt_append */
	const uint8_t *data;
};

struct bcase {
	const char *name;
	enum ipeh_hdr hdr;
	size_t n;
	struct bopt opt[4];
	const unsigned int *add_order;	/* libipeh adds in this order */
	uint8_t block[256];
	size_t block_len;
};

static const struct ipeh_table *table;

/*
 * RFC 3542 usage is two passes (a NULL pass for the length, then the
 * real one, since inet6_opt_init() writes the length it is given).  In
 * glibc's favour we do a single pass with the final length already known.
 */
static ssize_t build_glibc(const struct bcase *c, uint8_t *buf, size_t cap)
{
	int off;

	if (c->block_len && c->block_len <= cap)
		cap = c->block_len;
	off = inet6_opt_init(buf, (socklen_t)cap);
	size_t i;

	for (i = 0; i < c->n; i++) {
		void *db;

		off = inet6_opt_append(buf, (socklen_t)cap, off, c->opt[i].type,
				       c->opt[i].len, c->opt[i].glibc_align, &db);
		if (off < 0)
			return -1;
		inet6_opt_set_val(db, 0, (void *)c->opt[i].data, c->opt[i].len);
	}
	return inet6_opt_finish(buf, (socklen_t)cap, off);
}

/* The per-packet path: one builder kept by the application, reset and
 * refilled for every packet (the data could differ every time).
 */
static struct ipeh_builder builder;

static ssize_t build_ipeh(const struct bcase *c, uint8_t *buf, size_t cap)
{
	struct ipeh_builder *b = &builder;
	size_t i;

	ipeh_builder_reset(b);
	for (i = 0; i < c->n; i++) {
		const struct bopt *o = &c->opt[c->add_order[i]];

		ipeh_builder_add(b, o->type, o->data, o->len);
	}
	return ipeh_builder_finish(b, buf, cap, NULL);
}

/* Layout prepared once per flow; per packet only the data is written. */
static struct ipeh_prepared prepared;
static const void *prepared_data[4];

static ssize_t build_ipeh_prepared(const struct bcase *c, uint8_t *buf,
				   size_t cap)
{
	(void)c;
	return ipeh_prepared_emit(&prepared, buf, cap, prepared_data);
}

static int prepare(const struct bcase *c)
{
	struct ipeh_opt opts[4];
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct bopt *o = &c->opt[c->add_order[i]];

		opts[i] = (struct ipeh_opt){ o->type, o->len, NULL, 0 };
		prepared_data[i] = o->data;
	}
	return ipeh_prepare(&prepared, table, c->hdr, opts, c->n, NULL, 0,
			    NULL) < 0 ? -1 : 0;
}

/* No state kept between calls: sort, checks and layout every time. */
static ssize_t build_ipeh_oneshot(const struct bcase *c, uint8_t *buf,
				  size_t cap)
{
	struct ipeh_opt opts[4];
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct bopt *o = &c->opt[c->add_order[i]];

		opts[i].type = o->type;
		opts[i].len = o->len;
		opts[i].data = o->data;
	}
	return ipeh_build(table, c->hdr, opts, c->n, buf, cap, NULL, 0, NULL);
}

/* One round of iters calls: ns per call. */
static double round_build(const struct bcase *c,
			  ssize_t (*fn)(const struct bcase *, uint8_t *, size_t))
{
	uint8_t buf[256];
	double t0 = now_ns();
	unsigned long i;

	for (i = 0; i < iters; i++) {
		ssize_t n = fn(c, buf, sizeof(buf));

		BARRIER(buf);
		BARRIER(n);
	}
	return (now_ns() - t0) / (double)iters;
}

static double time_validate(const struct bcase *c)
{
	double best = 1e30;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), dt;
		unsigned long i;

		for (i = 0; i < iters; i++) {
			int v = ipeh_validate(table, c->hdr, c->block,
					      c->block_len, NULL,
					      IPEH_F_SETSOCKOPT, NULL);
			BARRIER(v);
		}
		dt = (now_ns() - t0) / (double)iters;
		if (dt < best)
			best = dt;
	}
	return best;
}

static double time_parse(const struct bcase *c)
{
	double best = 1e30;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), dt;
		unsigned long i;

		for (i = 0; i < iters; i++) {
			struct ipeh_iter it;
			struct ipeh_opt o;
			unsigned int sum = 0;

			ipeh_iter_init(&it, c->block, c->block_len, 0);
			while (ipeh_iter_next(&it, &o) > 0)
				sum += o.len;
			BARRIER(sum);
		}
		dt = (now_ns() - t0) / (double)iters;
		if (dt < best)
			best = dt;
	}
	return best;
}

static int set(struct ipeh_table *t, uint8_t type, uint16_t order,
	       uint8_t cls, uint8_t am, uint8_t ao, uint8_t mn, uint8_t mx,
	       uint8_t lm, uint8_t lo)
{
	struct ipeh_tlv_params p = { order, IPEH_PERM_NO_CHECK, IPEH_PERM_CHECK,
				     cls, am, ao, mn, mx, lm, lo };
	struct ipeh_error e;

	if (ipeh_table_set(t, type, &p, &e) < 0) {
		fprintf(stderr, "ipeh-bench: %s\n", e.msg);
		return -1;
	}
	return 0;
}

static int run_case(struct bcase *c)
{
	uint8_t g[256];
	ssize_t gl, il;
	double ti, tg, tv, tp, to, tpr;
	uint8_t pb[256];
	struct ipeh_error e;
	int v, r;

	ipeh_builder_init(&builder, table, c->hdr, NULL, 0);
	il = build_ipeh(c, c->block, sizeof(c->block));
	c->block_len = il > 0 ? (size_t)il : 0;
	gl = build_glibc(c, g, sizeof(g));
	if (gl < 0 || il < 0) {
		fprintf(stderr, "ipeh-bench: %s: build failed (glibc %zd, libipeh %zd)\n",
			c->name, gl, il);
		return -1;
	}
	c->block_len = (size_t)il;
	/* glibc leaves the header's first byte alone; compare from byte 1 */
	g[0] = 0;
	if (gl != il || memcmp(g, c->block, (size_t)il)) {
		ssize_t i;

		fprintf(stderr, "ipeh-bench: %s: blocks differ\n glibc:", c->name);
		for (i = 0; i < gl; i++)
			fprintf(stderr, " %02x", g[i]);
		fprintf(stderr, "\n ipeh: ");
		for (i = 0; i < il; i++)
			fprintf(stderr, " %02x", c->block[i]);
		fprintf(stderr, "\n");
		return -1;
	}
	if (prepare(c) < 0 ||
	    build_ipeh_prepared(c, pb, sizeof(pb)) != il ||
	    memcmp(pb, c->block, (size_t)il)) {
		fprintf(stderr, "ipeh-bench: %s: prepared block differs\n",
			c->name);
		return -1;
	}
	v = ipeh_validate(table, c->hdr, c->block, c->block_len, NULL,
			  IPEH_F_SETSOCKOPT, &e);
	if (v) {
		fprintf(stderr, "ipeh-bench: %s: %s\n", c->name, e.msg);
		return -1;
	}
	/*
	 * Interleave short rounds of every variant and keep each one's best:
	 * the machine is shared, and the minimum of many short rounds is the
	 * least disturbed figure for all of them alike.
	 */
	tg = ti = to = tpr = 1e30;
	for (r = 0; r < ROUNDS; r++) {
		tg = fmin(tg, round_build(c, build_glibc));
		ti = fmin(ti, round_build(c, build_ipeh));
		tpr = fmin(tpr, round_build(c, build_ipeh_prepared));
		to = fmin(to, round_build(c, build_ipeh_oneshot));
	}
	tv = time_validate(c);
	tp = time_parse(c);
	printf("BENCH %s libipeh=%.1f glibc=%.1f ratio=%.2f\n", c->name, ti, tg,
	       ti / tg);
	printf("BENCH %s-prepared libipeh=%.1f glibc=%.1f ratio=%.2f\n", c->name,
	       tpr, tg, tpr / tg);
	printf("BENCH %s-oneshot libipeh=%.1f glibc=%.1f ratio=%.2f\n", c->name,
	       to, tg, to / tg);
	printf("BENCH validate-%s ns=%.1f bytes=%zu\n", c->name, tv, c->block_len);
	printf("BENCH parse-%s ns=%.1f\n", c->name, tp);
	return 0;
}

int main(int argc, char **argv)
{
	static struct ipeh_table t;
	static const uint8_t pmtu[4] = { 0x05, 0x00, 0x05, 0xdc };
	static uint8_t ioam[34], d1[8], d2[3], d3[12];
	static const unsigned int rev2[] = { 1, 0 }, shuf4[] = { 2, 0, 3, 1 };
	struct ipeh_ioam_trace tr = { .namespace_id = 1, .trace_type = 0xc00000,
				      .remaining_len = 6 };
	uint8_t tel = 4;
	struct bcase cases[2];
	int ret = 0;

	if (argc > 1)
		iters = strtoul(argv[1], NULL, 0);
	memset(d1, 0x11, sizeof(d1));
	memset(d2, 0x22, sizeof(d2));
	memset(d3, 0x33, sizeof(d3));
	if (ipeh_ioam_trace_encode(&tr, ioam, sizeof(ioam)) != 34)
		return 1;

	/* a policy that lets users send all of these, with checks */
	ipeh_table_init_default(&t, 0);
	t.params[IPEH_OPT_IOAM].user_perm = IPEH_PERM_CHECK;
	if (set(&t, IPEH_OPT_PMTU, 5, IPEH_CLASS_HOPOPT, 4, 2, 4, 4, 1, 0) ||
	    set(&t, IPEH_OPT_TEL, 60, IPEH_CLASS_DSTOPT, 1, 0, 1, 1, 1, 0) ||
	    set(&t, 0x1e, 61, IPEH_CLASS_DSTOPT, 8, 6, 0, 255, 1, 0) ||
	    set(&t, 0x3e, 62, IPEH_CLASS_DSTOPT, 2, 0, 0, 255, 1, 0) ||
	    set(&t, 0x5e, 63, IPEH_CLASS_DSTOPT, 4, 2, 0, 255, 1, 0))
		return 1;
	table = &t;

	cases[0] = (struct bcase){ .name = "pmtu+ioam34-hop",
		.hdr = IPEH_HDR_HOPOPTS, .n = 2, .add_order = rev2,
		.opt = { { IPEH_OPT_PMTU, 4, 4, pmtu },
			 { IPEH_OPT_IOAM, 34, 2, ioam } } };
	cases[1] = (struct bcase){ .name = "4opt-dst",
		.hdr = IPEH_HDR_DSTOPTS, .n = 4, .add_order = shuf4,
		.opt = { { IPEH_OPT_TEL, 1, 1, &tel },
			 { 0x1e, sizeof(d1), 8, d1 },
			 { 0x3e, sizeof(d2), 2, d2 },
			 { 0x5e, sizeof(d3), 4, d3 } } };
	if (run_case(&cases[0]) || run_case(&cases[1]))
		ret = 1;
	return ret;
}
