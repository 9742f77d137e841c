// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Codecs: byte layouts and round trips for PMTU (RFC 9268), Router Alert
 * (RFC 2711), Tunnel Encapsulation Limit (RFC 2473), RFC 4727 experimental
 * types and the IOAM pre-allocated trace (RFC 9197/9486), whose node data
 * is filled as Linux 6.12's __ioam6_fill_trace_data() fills it.
 */

#include "common.h"
#include "hexblk.h"

static void test_pmtu_layout_and_round_trip(void **state)
{
	struct ipeh_pmtu in = { .min_pmtu = 1280, .rtn_pmtu = 1500, .r = true }, out;
	uint8_t d[4], want[4] = { 0x05, 0x00, 0x05, 0xdd };

	(void)state;
	assert_int_equal(ipeh_pmtu_encode(&in, d, sizeof(d)), 4);
	assert_memory_equal(d, want, 4);
	assert_int_equal(ipeh_pmtu_decode(d, 4, &out), 0);
	assert_int_equal(out.min_pmtu, 1280);
	assert_int_equal(out.rtn_pmtu, 1500);
	assert_true(out.r);
	/* Rtn-PMTU carries 15 bits: an odd value cannot be encoded */
	in.rtn_pmtu = 9001;
	in.r = false;
	assert_int_equal(ipeh_pmtu_encode(&in, d, sizeof(d)), -EINVAL);
	in.rtn_pmtu = 9000;
	assert_int_equal(ipeh_pmtu_encode(&in, d, sizeof(d)), 4);
	assert_int_equal(ipeh_pmtu_decode(d, 4, &out), 0);
	assert_int_equal(out.rtn_pmtu, 9000);
	assert_false(out.r);
	assert_int_equal(ipeh_pmtu_encode(&in, d, 3), -ENOBUFS);
	assert_int_equal(ipeh_pmtu_decode(d, 3, &out), -EINVAL);
	assert_int_equal(ipeh_pmtu_decode(d, 5, &out), -EINVAL);
}

static void test_ra_tel_exp(void **state)
{
	uint8_t d[255], lim;
	uint16_t v;
	const uint8_t *p;
	size_t plen;

	(void)state;
	assert_int_equal(ipeh_ra_encode(IPEH_RA_RSVP, d, 2), 2);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 1);
	assert_int_equal(ipeh_ra_decode(d, 2, &v), 0);
	assert_int_equal(v, IPEH_RA_RSVP);
	assert_int_equal(ipeh_ra_decode(d, 1, &v), -EINVAL);
	assert_int_equal(ipeh_ra_encode(0, d, 1), -ENOBUFS);

	assert_int_equal(ipeh_tel_encode(4, d, 1), 1);	/* RFC 2473 default */
	assert_int_equal(ipeh_tel_decode(d, 1, &lim), 0);
	assert_int_equal(lim, 4);
	assert_int_equal(ipeh_tel_decode(d, 2, &lim), -EINVAL);

	assert_int_equal(ipeh_exp_encode(0x1e, "abc", 3, d, sizeof(d)), 3);
	assert_int_equal(ipeh_exp_decode(0xfe, d, 3, &p, &plen), 0);
	assert_int_equal(plen, 3);
	assert_memory_equal(p, "abc", 3);
	assert_int_equal(ipeh_exp_encode(0x1f, "abc", 3, d, sizeof(d)), -EINVAL);
	assert_int_equal(ipeh_exp_decode(0x30, d, 3, &p, &plen), -EINVAL);
	assert_int_equal(ipeh_exp_encode(0x3e, "abc", 3, d, 2), -ENOBUFS);
	assert_true(IPEH_OPT_IS_EXP(IPEH_OPT_EXP(7)));
	assert_int_equal(IPEH_OPT_EXP(7), 0xfe);
}

static void test_ioam_node_len_as_linux(void **state)
{
	(void)state;
	assert_int_equal(ipeh_ioam_node_len(0x800000), 1);
	assert_int_equal(ipeh_ioam_node_len(0xc00000), 2);
	assert_int_equal(ipeh_ioam_node_len(0x008000), 2);	/* bit 8, wide */
	assert_int_equal(ipeh_ioam_node_len(0xfff000), 8 + 6 + 1);
	assert_int_equal(ipeh_ioam_node_len(0x000002), 0);	/* bit 22 not counted */
	assert_int_equal(ipeh_ioam_node_len(0x000ffc), 10);	/* bits 12..21 */
	/* the benchmark's 34-byte trace: 3 nodes of hop_lim/node_id + if ids */
	assert_int_equal(ipeh_ioam_data_len(0xc00000, 3), 34);
	/* more nodes than one option holds: 0, not a length that cannot be sent */
	assert_int_equal(ipeh_ioam_data_len(0xc00000, 200), 0);
	assert_int_equal(ipeh_ioam_data_len(0xc00000, 30), 250);	/* 10 + 30 * 8 */
	assert_int_equal(ipeh_ioam_data_len(0xc00000, 31), 0);
}

static void test_ioam_encode_layout(void **state)
{
	struct ipeh_ioam_trace t = { .ioam_type = IPEH_IOAM_TYPE_PREALLOC,
		.namespace_id = 123, .remaining_len = 3, .trace_type = 0x800000 };
	uint8_t d[64], want[64];
	size_t wlen = hexblk(want, sizeof(want), "00 00 00 7b 08 03 80 00 00 00 z12");

	(void)state;
	assert_int_equal(ipeh_ioam_trace_encode(&t, d, sizeof(d)), 22);
	assert_memory_equal(d, want, wlen);
	t.flags = IPEH_IOAM_FLAG_OVERFLOW;
	assert_int_equal(ipeh_ioam_trace_encode(&t, d, sizeof(d)), 22);
	assert_int_equal(d[4], 0x0c);	/* nodelen 1, overflow bit */
	t.flags = 0;
	assert_int_equal(ipeh_ioam_trace_encode(&t, d, 21), -ENOBUFS);
	t.trace_type = 0x000001;		/* bit 23 reserved */
	assert_int_equal(ipeh_ioam_trace_encode(&t, d, sizeof(d)), -EINVAL);
	t.trace_type = 0x800000;
	t.node_len = 2;			/* inconsistent with the type */
	assert_int_equal(ipeh_ioam_trace_encode(&t, d, sizeof(d)), -EINVAL);
	t.node_len = 0;
	t.remaining_len = 62;		/* 248 > 244 bytes */
	assert_int_equal(ipeh_ioam_trace_encode(&t, d, sizeof(d)), -EINVAL);
}

static void test_ioam_fill_and_decode_nodes(void **state)
{
	struct ipeh_ioam_trace t = { .namespace_id = 123, .remaining_len = 6,
		.trace_type = 0xc00000 };
	struct ipeh_ioam_node n = { 0 }, got;
	uint8_t d[64];
	size_t pos = 0;
	int len, i;

	(void)state;
	len = ipeh_ioam_trace_encode(&t, d, sizeof(d));
	assert_int_equal(len, 34);
	for (i = 1; i <= 3; i++) {
		n.hop_limit = (uint8_t)(64 - i);
		n.node_id = (uint32_t)i;
		n.ingress_if = (uint16_t)(10 * i);
		n.egress_if = (uint16_t)(10 * i + 1);
		assert_int_equal(ipeh_ioam_trace_fill_node(d, (size_t)len, &n), 0);
	}
	/* the first router wrote the last 8 bytes, as Linux does */
	assert_int_equal(d[26], 63);
	assert_int_equal(d[29], 1);
	assert_int_equal(d[30], 0);
	assert_int_equal(d[31], 10);
	assert_int_equal(ipeh_ioam_trace_fill_node(d, (size_t)len, &n), -ENOSPC);
	assert_int_equal(ipeh_ioam_trace_decode(d, (size_t)len, &t), 0);
	assert_true(t.flags & IPEH_IOAM_FLAG_OVERFLOW);
	assert_int_equal(t.remaining_len, 0);
	assert_int_equal(t.node_len, 2);
	for (i = 3; i >= 1; i--) {
		assert_int_equal(ipeh_ioam_trace_next_node(&t, &pos, &got), 1);
		assert_int_equal(got.hop_limit, 64 - i);
		assert_int_equal(got.node_id, i);
		assert_int_equal(got.ingress_if, 10 * i);
		assert_int_equal(got.egress_if, 10 * i + 1);
	}
	assert_int_equal(ipeh_ioam_trace_next_node(&t, &pos, &got), 0);
	/* overflow set: routers stop filling */
	assert_int_equal(ipeh_ioam_trace_fill_node(d, (size_t)len, &n), -ENOSPC);
}

static void test_ioam_every_field_round_trip(void **state)
{
	static const uint8_t opaque[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ipeh_ioam_trace t = { .namespace_id = 0xbeef,
		.trace_type = 0xfffffe };
	struct ipeh_ioam_node n = { 0 }, got;
	unsigned int nl = ipeh_ioam_node_len(t.trace_type), i;
	uint8_t d[255];
	size_t pos = 0;
	int len;

	(void)state;
	assert_int_equal(nl, 25);
	t.remaining_len = (uint8_t)(nl + 1 + 2);	/* one node + opaque(8) */
	len = ipeh_ioam_trace_encode(&t, d, sizeof(d));
	assert_int_equal(len, 10 + 4 * (25 + 3));
	n.hop_limit = 7;
	n.node_id = 0xabcdef;
	n.ingress_if = 0x1111;
	n.egress_if = 0x2222;
	n.ts_sec = 0x5f5e1000;
	n.ts_frac = 999999;
	n.transit_delay = 0xffffffff;
	n.ns_data = 0x01020304;
	n.queue_depth = 1500;
	n.csum_comp = 0xffffffff;
	n.hop_limit_wide = 6;
	n.node_id_wide = 0x00123456789abcdeULL;
	n.ingress_if_wide = 0x33333333;
	n.egress_if_wide = 0x44444444;
	n.ns_data_wide = 0x0102030405060708ULL;
	n.buffer_occupancy = 42;
	for (i = 0; i < 10; i++)
		n.undefined[i] = 0xffffffff;
	n.opaque_len = 2;
	n.schema_id = 0x00abcd;
	n.opaque = opaque;
	assert_int_equal(ipeh_ioam_trace_fill_node(d, (size_t)len, &n), 0);
	assert_int_equal(ipeh_ioam_trace_decode(d, (size_t)len, &t), 0);
	assert_int_equal(t.remaining_len, 0);
	assert_int_equal(ipeh_ioam_trace_next_node(&t, &pos, &got), 1);
	assert_int_equal(got.node_id, n.node_id);
	assert_int_equal(got.hop_limit, 7);
	assert_int_equal(got.ts_sec, n.ts_sec);
	assert_int_equal(got.ts_frac, n.ts_frac);
	assert_int_equal(got.queue_depth, 1500);
	assert_int_equal(got.hop_limit_wide, 6);
	assert_true(got.node_id_wide == n.node_id_wide);
	assert_int_equal(got.ingress_if_wide, n.ingress_if_wide);
	assert_int_equal(got.egress_if_wide, n.egress_if_wide);
	assert_true(got.ns_data_wide == n.ns_data_wide);
	assert_int_equal(got.buffer_occupancy, 42);
	assert_int_equal(got.undefined[9], 0xffffffff);
	assert_int_equal(got.opaque_len, 2);
	assert_int_equal(got.schema_id, 0xabcd);
	assert_memory_equal(got.opaque, opaque, 8);
	assert_int_equal(ipeh_ioam_trace_next_node(&t, &pos, &got), 0);
}

/* The checks Linux's ipv6_hop_ioam() applies before it fills a trace. */
static void test_ioam_decode_rejects_what_linux_drops(void **state)
{
	struct ipeh_ioam_trace t;
	uint8_t d[32];
	size_t len = hexblk(d, sizeof(d), "00 00 00 7b 08 03 80 00 00 00 z12");

	(void)state;
	assert_int_equal(ipeh_ioam_trace_decode(d, 1, &t), -EINVAL);
	assert_int_equal(ipeh_ioam_trace_decode(d, 9, &t), -EINVAL);
	assert_int_equal(ipeh_ioam_trace_decode(d, len - 1, &t), -EINVAL);	/* remlen */
	d[4] = 0x10;	/* nodelen 2 for a 1-word type */
	assert_int_equal(ipeh_ioam_trace_decode(d, len, &t), -EINVAL);
	d[4] = 0x08;
	d[1] = IPEH_IOAM_TYPE_INCREMENTAL;
	assert_int_equal(ipeh_ioam_trace_decode(d, len, &t), -EOPNOTSUPP);
	d[1] = 0;
	assert_int_equal(ipeh_ioam_trace_decode(d, len, &t), 0);
	/* a filled node that claims to run past the data */
	t.remaining_len = 0;
	t.node_data_len = 2;
	{
		size_t pos = 0;
		struct ipeh_ioam_node n;

		assert_int_equal(ipeh_ioam_trace_next_node(&t, &pos, &n), -EINVAL);
	}
}

/* An IOAM + PMTU block built from the codecs validates and decodes back. */
static void test_codecs_through_builder(void **state)
{
	struct ipeh_table tab;
	struct ipeh_pmtu pm = { 1400, 0, true }, pm2;
	struct ipeh_ioam_trace tr = { .namespace_id = 1, .trace_type = 0xc00000,
		.remaining_len = 6 }, tr2;
	uint8_t pd[4], id[64], blk[64];
	struct ipeh_builder *b;
	struct ipeh_opt o;
	ssize_t n;

	(void)state;
	test_table(&tab);
	assert_int_equal(ipeh_pmtu_encode(&pm, pd, sizeof(pd)), 4);
	assert_int_equal(ipeh_ioam_trace_encode(&tr, id, sizeof(id)), 34);
	b = ipeh_builder_new(&tab, IPEH_HDR_HOPOPTS, NULL, 0);
	assert_non_null(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, id, 34);
	ipeh_builder_add(b, IPEH_OPT_PMTU, pd, 4);
	n = ipeh_builder_finish(b, blk, sizeof(blk), NULL);
	ipeh_builder_free(b);
	assert_int_equal(n, 48);
	assert_int_equal(ipeh_validate(&tab, IPEH_HDR_HOPOPTS, blk, (size_t)n,
				       NULL, IPEH_F_SETSOCKOPT, NULL), 0);
	assert_int_equal(ipeh_find(blk, (size_t)n, IPEH_OPT_PMTU, &o), 1);
	assert_int_equal(ipeh_pmtu_decode(o.data, o.len, &pm2), 0);
	assert_int_equal(pm2.min_pmtu, 1400);
	assert_int_equal(ipeh_find(blk, (size_t)n, IPEH_OPT_IOAM, &o), 1);
	assert_int_equal(o.offset % 4, 0);	/* ipv6_hop_ioam() wants 4n */
	assert_int_equal(ipeh_ioam_trace_decode(o.data, o.len, &tr2), 0);
	assert_int_equal(tr2.remaining_len, 6);
	assert_int_equal(tr2.namespace_id, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmtu_layout_and_round_trip),
		cmocka_unit_test(test_ra_tel_exp),
		cmocka_unit_test(test_ioam_node_len_as_linux),
		cmocka_unit_test(test_ioam_encode_layout),
		cmocka_unit_test(test_ioam_fill_and_decode_nodes),
		cmocka_unit_test(test_ioam_every_field_round_trip),
		cmocka_unit_test(test_ioam_decode_rejects_what_linux_drops),
		cmocka_unit_test(test_codecs_through_builder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
