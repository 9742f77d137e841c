// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: the option data codecs (IOAM pre-allocated trace,
 * Minimum Path MTU, Router Alert, Tunnel Encapsulation Limit, RFC 4727
 * experimental types).  Two directions, both on every input:
 *
 *  - decode: the input is option data for every decoder (whole, and its
 *    prefix of each fixed-size codec's length), each time in a heap buffer
 *    of exactly that size so ASan sees any read past it.  What decodes must
 *    re-encode to the same values; where the format is canonical (PMTU, RA,
 *    TEL, experimental, and an IOAM trace whose nodes all parse) the
 *    encoding must equal the input bytes.
 *  - encode: the input is also read as a stream of field values; what
 *    encodes must decode to the same values, and nodes filled into an
 *    encoded trace must come back from the node iterator as filled.
 *
 * Any mismatch is an abort().
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipeh.h>

#define IOAM_OPT_HDR_LEN	2	/* reserved, IOAM type */
#define IOAM_TRACE_OFF		(IOAM_OPT_HDR_LEN + IPEH_IOAM_TRACE_HDR_LEN)
#define IOAM_OVERFLOW_BYTE4	(IPEH_IOAM_FLAG_OVERFLOW << 7 >> 8)
#define IOAM_NODES_MAX		(IPEH_IOAM_DATA_SIZE_MAX / 4 + 1)

/* abort() on a broken expectation, naming it */
#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* A heap copy of exactly len bytes (at least one allocated byte). */
static uint8_t *dup_exact(const uint8_t *data, size_t len)
{
	uint8_t *p = calloc(len ? len : 1, 1);

	if (!p)
		abort();
	if (len)
		memcpy(p, data, len);
	return p;
}

/* ---------------------------------------------------------------- decode */

static void decode_pmtu(const uint8_t *d, size_t len)
{
	struct ipeh_pmtu p, q;
	uint8_t out[IPEH_PMTU_DATA_LEN];

	if (ipeh_pmtu_decode(d, len, &p) < 0) {
		check(len != IPEH_PMTU_DATA_LEN);
		return;
	}
	check(len == IPEH_PMTU_DATA_LEN);
	check(!(p.rtn_pmtu & 1));
	check(ipeh_pmtu_encode(&p, out, sizeof(out)) == IPEH_PMTU_DATA_LEN);
	check(!memcmp(out, d, len));	/* every bit is a field */
	check(ipeh_pmtu_decode(out, sizeof(out), &q) == 0);
	check(q.min_pmtu == p.min_pmtu && q.rtn_pmtu == p.rtn_pmtu &&
	      q.r == p.r);
}

static void decode_ra(const uint8_t *d, size_t len)
{
	uint8_t out[IPEH_RA_DATA_LEN];
	uint16_t v, w;

	if (ipeh_ra_decode(d, len, &v) < 0) {
		check(len != IPEH_RA_DATA_LEN);
		return;
	}
	check(len == IPEH_RA_DATA_LEN);
	check(ipeh_ra_encode(v, out, sizeof(out)) == IPEH_RA_DATA_LEN);
	check(!memcmp(out, d, len));
	check(ipeh_ra_decode(out, sizeof(out), &w) == 0 && w == v);
}

static void decode_tel(const uint8_t *d, size_t len)
{
	uint8_t out[IPEH_TEL_DATA_LEN], v, w;

	if (ipeh_tel_decode(d, len, &v) < 0) {
		check(len != IPEH_TEL_DATA_LEN);
		return;
	}
	check(len == IPEH_TEL_DATA_LEN);
	check(ipeh_tel_encode(v, out, sizeof(out)) == IPEH_TEL_DATA_LEN);
	check(!memcmp(out, d, len));
	check(ipeh_tel_decode(out, sizeof(out), &w) == 0 && w == v);
}

static void decode_exp(uint8_t type, const uint8_t *d, size_t len)
{
	const uint8_t *payload;
	uint8_t out[255];
	size_t plen;

	if (ipeh_exp_decode(type, d, len, &payload, &plen) < 0) {
		check(!IPEH_OPT_IS_EXP(type) || len > 255);
		return;
	}
	check(IPEH_OPT_IS_EXP(type) && len <= 255);
	check(payload == d && plen == len);
	check(ipeh_exp_encode(type, payload, plen, out, sizeof(out)) ==
	      (int)len);
	check(!len || !memcmp(out, d, len));
}

static int node_equal(const struct ipeh_ioam_node *a,
		      const struct ipeh_ioam_node *b, uint32_t type)
{
	unsigned int bit;

	if (a->present != b->present)
		return 0;
	if ((type & IPEH_IOAM_BIT(0)) &&
	    (a->hop_limit != b->hop_limit ||
	     (a->node_id & 0xffffff) != (b->node_id & 0xffffff)))
		return 0;
	if ((type & IPEH_IOAM_BIT(1)) &&
	    (a->ingress_if != b->ingress_if || a->egress_if != b->egress_if))
		return 0;
	if ((type & IPEH_IOAM_BIT(2)) && a->ts_sec != b->ts_sec)
		return 0;
	if ((type & IPEH_IOAM_BIT(3)) && a->ts_frac != b->ts_frac)
		return 0;
	if ((type & IPEH_IOAM_BIT(4)) && a->transit_delay != b->transit_delay)
		return 0;
	if ((type & IPEH_IOAM_BIT(5)) && a->ns_data != b->ns_data)
		return 0;
	if ((type & IPEH_IOAM_BIT(6)) && a->queue_depth != b->queue_depth)
		return 0;
	if ((type & IPEH_IOAM_BIT(7)) && a->csum_comp != b->csum_comp)
		return 0;
	if ((type & IPEH_IOAM_BIT(8)) &&
	    (a->hop_limit_wide != b->hop_limit_wide ||
	     (a->node_id_wide & 0x00ffffffffffffffull) !=
	     (b->node_id_wide & 0x00ffffffffffffffull)))
		return 0;
	if ((type & IPEH_IOAM_BIT(9)) &&
	    (a->ingress_if_wide != b->ingress_if_wide ||
	     a->egress_if_wide != b->egress_if_wide))
		return 0;
	if ((type & IPEH_IOAM_BIT(10)) && a->ns_data_wide != b->ns_data_wide)
		return 0;
	if ((type & IPEH_IOAM_BIT(11)) &&
	    a->buffer_occupancy != b->buffer_occupancy)
		return 0;
	for (bit = 12; bit <= 21; bit++)
		if ((type & IPEH_IOAM_BIT(bit)) &&
		    a->undefined[bit - 12] != b->undefined[bit - 12])
			return 0;
	if (type & IPEH_IOAM_TRACE_OPAQUE) {
		if (a->opaque_len != b->opaque_len ||
		    (a->schema_id & 0xffffff) != (b->schema_id & 0xffffff))
			return 0;
		if (a->opaque_len &&
		    memcmp(a->opaque, b->opaque, (size_t)a->opaque_len * 4))
			return 0;
	}
	return 1;
}

static int trace_hdr_equal(const struct ipeh_ioam_trace *a,
			   const struct ipeh_ioam_trace *b)
{
	return a->ioam_type == b->ioam_type &&
	       a->namespace_id == b->namespace_id &&
	       a->node_len == b->node_len && a->flags == b->flags &&
	       a->remaining_len == b->remaining_len &&
	       a->trace_type == b->trace_type;
}

/* The node data area rebuilt from its decoded nodes, as the routers on
 * the path filled it: starting from an empty trace with room for all of
 * them, the oldest (last in the packet) first.
 */
static void ioam_rebuild(const uint8_t *d, size_t len,
			 const struct ipeh_ioam_trace *t,
			 const struct ipeh_ioam_node *nodes, unsigned int n)
{
	struct ipeh_ioam_trace e = *t, u;
	uint8_t *out = malloc(len);
	unsigned int i;

	if (!out)
		abort();
	e.remaining_len = (uint8_t)(t->node_data_len / 4);
	e.flags = t->flags & ~IPEH_IOAM_FLAG_OVERFLOW;
	check(ipeh_ioam_trace_encode(&e, out, len) == (int)len);
	for (i = n; i-- > 0;)
		check(ipeh_ioam_trace_fill_node(out, len, &nodes[i]) == 0);
	check(ipeh_ioam_trace_decode(out, len, &u) == 0);
	check(u.remaining_len == t->remaining_len);
	/* what encode cannot know: the reserved bytes, the overflow flag,
	 * the content of the free space (zeros when sent, not checked)
	 */
	out[0] = d[0];
	out[9] = d[9];
	memcpy(out + IOAM_TRACE_OFF, d + IOAM_TRACE_OFF,
	       (size_t)t->remaining_len * 4);
	if (t->flags & IPEH_IOAM_FLAG_OVERFLOW)
		out[4] |= IOAM_OVERFLOW_BYTE4;
	check(!memcmp(out, d, len));
	free(out);
}

static void decode_ioam(const uint8_t *d, size_t len)
{
	static struct ipeh_ioam_node nodes[IOAM_NODES_MAX];
	struct ipeh_ioam_trace t, u;
	size_t pos = 0, need, end;
	unsigned int n = 0;
	uint8_t *out;
	int r;

	r = ipeh_ioam_trace_decode(d, len, &t);
	if (r < 0) {
		check(r == -EINVAL || r == -EOPNOTSUPP);
		check(r != -EOPNOTSUPP || d[1] != IPEH_IOAM_TYPE_PREALLOC);
		return;
	}
	check(len >= IOAM_TRACE_OFF && len <= 255);
	check(t.ioam_type == IPEH_IOAM_TYPE_PREALLOC);
	check(t.node_len == ipeh_ioam_node_len(t.trace_type));
	check(t.flags <= 0xf && t.remaining_len <= 0x7f);
	check(t.node_data == d + IOAM_TRACE_OFF &&
	      t.node_data_len == len - IOAM_TRACE_OFF);
	check((size_t)t.remaining_len * 4 <= t.node_data_len);

	/* the header alone re-encodes: same fields, zeroed free space */
	need = IOAM_TRACE_OFF + (size_t)t.remaining_len * 4;
	out = malloc(need);
	if (!out)
		abort();
	r = ipeh_ioam_trace_encode(&t, out, need);
	if (t.trace_type & ~(uint32_t)IPEH_IOAM_TRACE_MASK) {
		check(r == -EINVAL);	/* reserved bit 23: decoded, not sent */
	} else {
		check(r == (int)need);
		check(out[0] == 0 && out[9] == 0);
		check(!memcmp(out + 1, d + 1, IOAM_TRACE_OFF - 2));
		for (size_t i = IOAM_TRACE_OFF; i < need; i++)
			check(out[i] == 0);
		check(ipeh_ioam_trace_decode(out, need, &u) == 0);
		check(trace_hdr_equal(&t, &u));
	}
	free(out);

	/* the filled nodes: in bounds, and, when they tile the area, the
	 * area rebuilt from them is the input
	 */
	end = t.node_data_len;
	while ((r = ipeh_ioam_trace_next_node(&t, &pos, &nodes[n])) > 0) {
		check(pos <= end);
		check(nodes[n].present == t.trace_type);
		check(!nodes[n].opaque_len ||
		      (nodes[n].opaque >= t.node_data &&
		       nodes[n].opaque + nodes[n].opaque_len * 4 <=
		       t.node_data + end));
		check(++n < IOAM_NODES_MAX);
	}
	if (r == 0 && n && pos == end &&
	    !(t.trace_type & ~(uint32_t)IPEH_IOAM_TRACE_MASK))
		ioam_rebuild(d, len, &t, nodes, n);
}

static void decode_all(const uint8_t *data, size_t size)
{
	static const size_t fixed[] = { IPEH_PMTU_DATA_LEN, IPEH_RA_DATA_LEN,
					IPEH_TEL_DATA_LEN };
	uint8_t *b = dup_exact(data, size);
	unsigned int i;

	decode_pmtu(b, size);
	decode_ra(b, size);
	decode_tel(b, size);
	decode_ioam(b, size);
	decode_exp(IPEH_OPT_EXP(size & 7), b, size);
	decode_exp(size ? data[0] : 0, b, size);
	free(b);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (size <= fixed[i])
			continue;
		b = dup_exact(data, fixed[i]);
		decode_pmtu(b, fixed[i]);
		decode_ra(b, fixed[i]);
		decode_tel(b, fixed[i]);
		free(b);
	}
}

/* ---------------------------------------------------------------- encode */

/* The input read as field values; zeros once it runs out. */
struct stream {
	const uint8_t *p;
	size_t len, off;
};

static uint8_t get8(struct stream *s)
{
	return s->off < s->len ? s->p[s->off++] : 0;
}

static uint16_t get16(struct stream *s)
{
	uint16_t hi = get8(s);

	return (uint16_t)(hi << 8 | get8(s));
}

static uint32_t get32(struct stream *s)
{
	uint32_t hi = get16(s);

	return hi << 16 | get16(s);
}

static uint64_t get64(struct stream *s)
{
	uint64_t hi = get32(s);

	return hi << 32 | get32(s);
}

static void encode_simple(struct stream *s)
{
	struct ipeh_pmtu p = { 0 }, q;
	uint8_t d[255], cap, v8, w8, type;
	uint16_t v16, w16;
	const uint8_t *payload;
	size_t plen, len;
	int r;

	p.min_pmtu = get16(s);
	p.rtn_pmtu = get16(s);
	p.r = get8(s) & 1;
	cap = get8(s) % (IPEH_PMTU_DATA_LEN + 2);
	r = ipeh_pmtu_encode(&p, d, cap);
	if (p.rtn_pmtu & 1) {
		check(r == -EINVAL);
	} else if (cap < IPEH_PMTU_DATA_LEN) {
		check(r == -ENOBUFS);
	} else {
		check(r == IPEH_PMTU_DATA_LEN);
		check(ipeh_pmtu_decode(d, (size_t)r, &q) == 0);
		check(q.min_pmtu == p.min_pmtu && q.r == p.r &&
		      q.rtn_pmtu == (p.rtn_pmtu & 0xfffe));
	}

	v16 = get16(s);
	cap = get8(s) % (IPEH_RA_DATA_LEN + 2);
	r = ipeh_ra_encode(v16, d, cap);
	if (cap < IPEH_RA_DATA_LEN) {
		check(r == -ENOBUFS);
	} else {
		check(r == IPEH_RA_DATA_LEN);
		check(ipeh_ra_decode(d, (size_t)r, &w16) == 0 && w16 == v16);
	}

	v8 = get8(s);
	cap = get8(s) % (IPEH_TEL_DATA_LEN + 2);
	r = ipeh_tel_encode(v8, d, cap);
	if (cap < IPEH_TEL_DATA_LEN) {
		check(r == -ENOBUFS);
	} else {
		check(r == IPEH_TEL_DATA_LEN);
		check(ipeh_tel_decode(d, (size_t)r, &w8) == 0 && w8 == v8);
	}

	/* experimental: the payload is the next bytes of the input */
	type = get8(s);
	len = get8(s);
	cap = get8(s);
	if (len > s->len - s->off)
		len = s->len - s->off;
	r = ipeh_exp_encode(type, len ? s->p + s->off : NULL, len, d, cap);
	if (!IPEH_OPT_IS_EXP(type)) {
		check(r == -EINVAL);
	} else if (cap < len) {
		check(r == -ENOBUFS);
	} else {
		check(r == (int)len);
		check(ipeh_exp_decode(type, d, len, &payload, &plen) == 0);
		check(payload == d && plen == len);
		check(!len || !memcmp(d, s->p + s->off, len));
	}
	s->off += len;
}

static void get_node(struct stream *s, struct ipeh_ioam_node *n,
		     uint8_t **opaque)
{
	unsigned int i;

	memset(n, 0, sizeof(*n));
	n->hop_limit = get8(s);
	n->node_id = get32(s);	/* 24 bits are sent */
	n->ingress_if = get16(s);
	n->egress_if = get16(s);
	n->ts_sec = get32(s);
	n->ts_frac = get32(s);
	n->transit_delay = get32(s);
	n->ns_data = get32(s);
	n->queue_depth = get32(s);
	n->csum_comp = get32(s);
	n->hop_limit_wide = get8(s);
	n->node_id_wide = get64(s);	/* 56 bits are sent */
	n->ingress_if_wide = get32(s);
	n->egress_if_wide = get32(s);
	n->ns_data_wide = get64(s);
	n->buffer_occupancy = get32(s);
	for (i = 0; i < 10; i++)
		n->undefined[i] = get32(s);
	n->opaque_len = get8(s) % 8;
	n->schema_id = get32(s);
	/* the opaque data in a buffer of exactly its size */
	*opaque = malloc((size_t)n->opaque_len * 4 + 1);
	if (!*opaque)
		abort();
	for (i = 0; i < (unsigned int)n->opaque_len * 4; i++)
		(*opaque)[i] = get8(s);
	n->opaque = n->opaque_len ? *opaque : NULL;
}

static int ioam_encode_valid(const struct ipeh_ioam_trace *t)
{
	unsigned int node_len = ipeh_ioam_node_len(t->trace_type);

	return !(t->trace_type & ~(uint32_t)IPEH_IOAM_TRACE_MASK) &&
	       (!t->node_len || t->node_len == node_len) &&
	       t->flags <= 0xf && t->remaining_len <= 0x7f &&
	       (size_t)t->remaining_len * 4 <= IPEH_IOAM_DATA_SIZE_MAX;
}

static void encode_ioam(struct stream *s)
{
	static struct ipeh_ioam_node nodes[IOAM_NODES_MAX], got;
	static uint8_t *opaque[IOAM_NODES_MAX];
	struct ipeh_ioam_trace t = { 0 }, u;
	unsigned int node_len, used = 0, n = 0, i, k, want;
	size_t need, cap, pos = 0;
	uint8_t *d, sel;
	int r;

	sel = get8(s);
	t.ioam_type = (sel & 0x80) ? get8(s) : IPEH_IOAM_TYPE_PREALLOC;
	t.namespace_id = get16(s);
	t.trace_type = get32(s) & ((sel & 0x40) ? 0xffffffffu : 0xffffffu);
	node_len = ipeh_ioam_node_len(t.trace_type);
	t.node_len = (sel & 0x20) ? get8(s) : (sel & 0x10) ? node_len : 0;
	t.flags = get8(s) & ((sel & 0x08) ? 0xff : 0x7);
	t.remaining_len = get8(s) & ((sel & 0x04) ? 0xff : 0x3f);
	need = IOAM_TRACE_OFF + (size_t)t.remaining_len * 4;
	cap = (sel & 0x02) ? need - (get8(s) % 3) : need;

	d = malloc(cap ? cap : 1);
	if (!d)
		abort();
	r = ipeh_ioam_trace_encode(&t, d, cap);
	if (!ioam_encode_valid(&t)) {
		check(r == -EINVAL);
		goto out;
	}
	if (cap < need) {
		check(r == -ENOBUFS);
		goto out;
	}
	check(r == (int)need);
	r = ipeh_ioam_trace_decode(d, need, &u);
	if (t.ioam_type != IPEH_IOAM_TYPE_PREALLOC) {
		check(r == -EOPNOTSUPP);
		goto out;
	}
	check(r == 0);
	t.node_len = (uint8_t)node_len;
	check(trace_hdr_equal(&t, &u));

	/* routers fill nodes until one does not fit */
	want = get8(s) % 8;
	for (k = 0; k < want; k++) {
		get_node(s, &nodes[n], &opaque[n]);
		nodes[n].present = t.trace_type;
		r = ipeh_ioam_trace_fill_node(d, need, &nodes[n]);
		check(ipeh_ioam_trace_decode(d, need, &u) == 0);
		if (r == -ENOSPC) {
			check(u.flags & IPEH_IOAM_FLAG_OVERFLOW);
			free(opaque[n]);
			break;
		}
		check(r == 0);
		if (t.trace_type & IPEH_IOAM_TRACE_OPAQUE)
			used += node_len + 1 + nodes[n].opaque_len;
		else
			used += node_len;
		check(u.remaining_len + used == t.remaining_len);
		check(!(u.flags & IPEH_IOAM_FLAG_OVERFLOW) ||
		      (t.flags & IPEH_IOAM_FLAG_OVERFLOW));
		n++;
	}
	check(ipeh_ioam_trace_decode(d, need, &u) == 0);
	/* ... and a receiver reads them back, most recent first */
	for (i = n; i-- > 0;) {
		r = ipeh_ioam_trace_next_node(&u, &pos, &got);
		if (!node_len && !(t.trace_type & IPEH_IOAM_TRACE_OPAQUE)) {
			check(r == 0);	/* empty nodes take no room */
			break;
		}
		check(r == 1);
		check(node_equal(&got, &nodes[i], t.trace_type));
	}
	check(ipeh_ioam_trace_next_node(&u, &pos, &got) == 0);
	for (i = 0; i < n; i++)
		free(opaque[i]);
out:
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stream s = { data, size, 0 };

	decode_all(data, size);
	encode_simple(&s);
	encode_ioam(&s);
	return 0;
}
