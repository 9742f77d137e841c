// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Option data codecs: Minimum Path MTU (RFC 9268), Router Alert (RFC 2711),
 * Tunnel Encapsulation Limit (RFC 2473), RFC 4727 experimental types and
 * the IOAM pre-allocated trace (RFC 9197 carried as in RFC 9486).  They
 * encode/decode option data only (not type and length bytes): the result
 * goes into ipeh_build()/ipeh_builder_add().
 */

#include "internal.h"

int ipeh_pmtu_encode(const struct ipeh_pmtu *p, uint8_t *data, size_t cap)
{
	/* Rtn-PMTU has 15 bits on the wire: an odd value cannot be sent */
	if (p->rtn_pmtu & 1u)
		return -EINVAL;
	if (cap < IPEH_PMTU_DATA_LEN)
		return -ENOBUFS;
	ipeh__put16(data, p->min_pmtu);
	/* Rtn-PMTU is the 15 most significant bits; R is the last bit */
	ipeh__put16(data + 2, (p->rtn_pmtu & 0xfffeu) | (p->r ? 1u : 0u));
	return IPEH_PMTU_DATA_LEN;
}

int ipeh_pmtu_decode(const uint8_t *data, size_t len, struct ipeh_pmtu *p)
{
	unsigned int v;

	if (len != IPEH_PMTU_DATA_LEN)
		return -EINVAL;
	p->min_pmtu = (uint16_t)ipeh__get16(data);
	v = ipeh__get16(data + 2);
	p->rtn_pmtu = (uint16_t)(v & 0xfffeu);
	p->r = v & 1u;
	return 0;
}

int ipeh_ra_encode(uint16_t value, uint8_t *data, size_t cap)
{
	if (cap < IPEH_RA_DATA_LEN)
		return -ENOBUFS;
	ipeh__put16(data, value);
	return IPEH_RA_DATA_LEN;
}

int ipeh_ra_decode(const uint8_t *data, size_t len, uint16_t *value)
{
	if (len != IPEH_RA_DATA_LEN)
		return -EINVAL;
	*value = (uint16_t)ipeh__get16(data);
	return 0;
}

int ipeh_tel_encode(uint8_t limit, uint8_t *data, size_t cap)
{
	if (cap < IPEH_TEL_DATA_LEN)
		return -ENOBUFS;
	data[0] = limit;
	return IPEH_TEL_DATA_LEN;
}

int ipeh_tel_decode(const uint8_t *data, size_t len, uint8_t *limit)
{
	if (len != IPEH_TEL_DATA_LEN)
		return -EINVAL;
	*limit = data[0];
	return 0;
}

int ipeh_exp_encode(uint8_t type, const void *payload, size_t len,
		    uint8_t *data, size_t cap)
{
	if (!IPEH_OPT_IS_EXP(type) || len > 255 || (len && !payload))
		return -EINVAL;
	if (cap < len)
		return -ENOBUFS;
	if (len)
		memmove(data, payload, len);
	return (int)len;
}

int ipeh_exp_decode(uint8_t type, const uint8_t *data, size_t len,
		    const uint8_t **payload, size_t *payload_len)
{
	if (!IPEH_OPT_IS_EXP(type) || len > 255)
		return -EINVAL;
	*payload = data;
	*payload_len = len;
	return 0;
}

/* IOAM */

#define IOAM_SHORT_FIELDS	0xff1ffcu	/* Linux's 0xff1ffc00 >> 8 */
#define IOAM_WIDE_FIELDS	0x00e000u	/* Linux's 0x00e00000 >> 8 */
#define IOAM_OPT_HDR_LEN	2		/* reserved, IOAM type */
#define IOAM_TRACE_OFF		(IOAM_OPT_HDR_LEN + IPEH_IOAM_TRACE_HDR_LEN)

unsigned int ipeh_ioam_node_len(uint32_t trace_type)
{
	return (unsigned int)__builtin_popcount(trace_type & IOAM_SHORT_FIELDS) +
	       2u * (unsigned int)__builtin_popcount(trace_type & IOAM_WIDE_FIELDS);
}

size_t ipeh_ioam_data_len(uint32_t trace_type, unsigned int nodes)
{
	size_t words = (size_t)nodes * ipeh_ioam_node_len(trace_type);

	/* RemainingLen has 7 bits, and the data must fit one option */
	if (words > 0x7f || IOAM_TRACE_OFF + words * 4 > 254)
		return 0;
	return IOAM_TRACE_OFF + words * 4;
}

static void put_trace_hdr(uint8_t *d, uint8_t node_len, uint8_t flags,
			  uint8_t remlen)
{
	ipeh__put16(d, (unsigned int)(node_len & 0x1f) << 11 |
		       (unsigned int)(flags & 0xf) << 7 | (remlen & 0x7f));
}

int ipeh_ioam_trace_encode(const struct ipeh_ioam_trace *t, uint8_t *data,
			   size_t cap)
{
	unsigned int node_len = ipeh_ioam_node_len(t->trace_type);
	size_t len = IOAM_TRACE_OFF + (size_t)t->remaining_len * 4;

	if (t->trace_type & ~(uint32_t)IPEH_IOAM_TRACE_MASK)
		return -EINVAL;
	if (t->node_len && t->node_len != node_len)
		return -EINVAL;
	if (node_len > 0x1f || t->flags > 0xf || t->remaining_len > 0x7f)
		return -EINVAL;
	if ((size_t)t->remaining_len * 4 > IPEH_IOAM_DATA_SIZE_MAX)
		return -EINVAL;
	if (cap < len)
		return -ENOBUFS;
	data[0] = 0;
	data[1] = t->ioam_type;
	ipeh__put16(data + 2, t->namespace_id);
	put_trace_hdr(data + 4, (uint8_t)node_len, t->flags, t->remaining_len);
	data[6] = (uint8_t)(t->trace_type >> 16);
	data[7] = (uint8_t)(t->trace_type >> 8);
	data[8] = (uint8_t)t->trace_type;
	data[9] = 0;
	memset(data + IOAM_TRACE_OFF, 0, len - IOAM_TRACE_OFF);
	return (int)len;
}

int ipeh_ioam_trace_decode(const uint8_t *data, size_t len,
			   struct ipeh_ioam_trace *t)
{
	unsigned int v;

	/* the checks of Linux's ipv6_hop_ioam(), in its order */
	if (len < IOAM_OPT_HDR_LEN || len > 255)
		return -EINVAL;
	if (data[1] != IPEH_IOAM_TYPE_PREALLOC)
		return -EOPNOTSUPP;
	if (len < IOAM_TRACE_OFF)
		return -EINVAL;
	v = ipeh__get16(data + 4);
	t->ioam_type = data[1];
	t->namespace_id = (uint16_t)ipeh__get16(data + 2);
	t->node_len = (uint8_t)(v >> 11);
	t->flags = (uint8_t)((v >> 7) & 0xf);
	t->remaining_len = (uint8_t)(v & 0x7f);
	t->trace_type = (uint32_t)data[6] << 16 | (uint32_t)data[7] << 8 |
			data[8];
	if (len < IOAM_TRACE_OFF + (size_t)t->remaining_len * 4)
		return -EINVAL;
	if (t->node_len != ipeh_ioam_node_len(t->trace_type))
		return -EINVAL;
	t->node_data = data + IOAM_TRACE_OFF;
	t->node_data_len = len - IOAM_TRACE_OFF;
	return 0;
}

int ipeh_ioam_trace_next_node(const struct ipeh_ioam_trace *t, size_t *pos,
			      struct ipeh_ioam_node *n)
{
	size_t start = (size_t)t->remaining_len * 4;
	size_t off = *pos < start ? start : *pos;
	size_t end = t->node_data_len;
	const uint8_t *d;
	unsigned int bit;
	uint32_t type = t->trace_type;

	if (off >= end ||
	    (!t->node_len && !(type & IPEH_IOAM_TRACE_OPAQUE)))
		return 0;
	if (off + (size_t)t->node_len * 4 > end)
		return -EINVAL;
	memset(n, 0, sizeof(*n));
	n->present = type;
	d = t->node_data + off;
	if (type & IPEH_IOAM_BIT(0)) {
		n->hop_limit = d[0];
		n->node_id = ipeh__get32(d) & 0xffffff;
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(1)) {
		n->ingress_if = (uint16_t)ipeh__get16(d);
		n->egress_if = (uint16_t)ipeh__get16(d + 2);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(2)) {
		n->ts_sec = ipeh__get32(d);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(3)) {
		n->ts_frac = ipeh__get32(d);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(4)) {
		n->transit_delay = ipeh__get32(d);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(5)) {
		n->ns_data = ipeh__get32(d);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(6)) {
		n->queue_depth = ipeh__get32(d);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(7)) {
		n->csum_comp = ipeh__get32(d);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(8)) {
		n->hop_limit_wide = d[0];
		n->node_id_wide = ipeh__get64(d) & 0x00ffffffffffffffull;
		d += 8;
	}
	if (type & IPEH_IOAM_BIT(9)) {
		n->ingress_if_wide = ipeh__get32(d);
		n->egress_if_wide = ipeh__get32(d + 4);
		d += 8;
	}
	if (type & IPEH_IOAM_BIT(10)) {
		n->ns_data_wide = ipeh__get64(d);
		d += 8;
	}
	if (type & IPEH_IOAM_BIT(11)) {
		n->buffer_occupancy = ipeh__get32(d);
		d += 4;
	}
	for (bit = 12; bit <= 21; bit++) {
		if (type & IPEH_IOAM_BIT(bit)) {
			n->undefined[bit - 12] = ipeh__get32(d);
			d += 4;
		}
	}
	off += (size_t)t->node_len * 4;
	if (type & IPEH_IOAM_TRACE_OPAQUE) {
		uint32_t h;

		if (off + 4 > end)
			return -EINVAL;
		h = ipeh__get32(t->node_data + off);
		n->opaque_len = (uint8_t)(h >> 24);
		n->schema_id = h & 0xffffff;
		off += 4;
		if (off + (size_t)n->opaque_len * 4 > end)
			return -EINVAL;
		n->opaque = n->opaque_len ? t->node_data + off : NULL;
		off += (size_t)n->opaque_len * 4;
	}
	*pos = off;
	return 1;
}

int ipeh_ioam_trace_fill_node(uint8_t *data, size_t len,
			      const struct ipeh_ioam_node *n)
{
	struct ipeh_ioam_trace t;
	unsigned int sclen = 0, bit;
	uint8_t *d;
	uint32_t type;
	int ret;

	ret = ipeh_ioam_trace_decode(data, len, &t);
	if (ret < 0)
		return ret;
	if (t.flags & IPEH_IOAM_FLAG_OVERFLOW)
		return -ENOSPC;
	type = t.trace_type;
	if (type & IPEH_IOAM_TRACE_OPAQUE)
		sclen = 1u + n->opaque_len;
	if (!t.remaining_len || t.remaining_len < t.node_len + sclen) {
		put_trace_hdr(data + 4, t.node_len,
			      t.flags | IPEH_IOAM_FLAG_OVERFLOW,
			      t.remaining_len);
		return -ENOSPC;
	}
	d = data + IOAM_TRACE_OFF +
	    ((size_t)t.remaining_len - t.node_len - sclen) * 4;
	if (type & IPEH_IOAM_BIT(0)) {
		ipeh__put32(d, (uint32_t)n->hop_limit << 24 |
			       (n->node_id & 0xffffff));
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(1)) {
		ipeh__put16(d, n->ingress_if);
		ipeh__put16(d + 2, n->egress_if);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(2)) {
		ipeh__put32(d, n->ts_sec);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(3)) {
		ipeh__put32(d, n->ts_frac);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(4)) {
		ipeh__put32(d, n->transit_delay);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(5)) {
		ipeh__put32(d, n->ns_data);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(6)) {
		ipeh__put32(d, n->queue_depth);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(7)) {
		ipeh__put32(d, n->csum_comp);
		d += 4;
	}
	if (type & IPEH_IOAM_BIT(8)) {
		ipeh__put64(d, (uint64_t)n->hop_limit_wide << 56 |
			       (n->node_id_wide & 0x00ffffffffffffffull));
		d += 8;
	}
	if (type & IPEH_IOAM_BIT(9)) {
		ipeh__put32(d, n->ingress_if_wide);
		ipeh__put32(d + 4, n->egress_if_wide);
		d += 8;
	}
	if (type & IPEH_IOAM_BIT(10)) {
		ipeh__put64(d, n->ns_data_wide);
		d += 8;
	}
	if (type & IPEH_IOAM_BIT(11)) {
		ipeh__put32(d, n->buffer_occupancy);
		d += 4;
	}
	for (bit = 12; bit <= 21; bit++) {
		if (type & IPEH_IOAM_BIT(bit)) {
			ipeh__put32(d, n->undefined[bit - 12]);
			d += 4;
		}
	}
	if (type & IPEH_IOAM_TRACE_OPAQUE) {
		ipeh__put32(d, (uint32_t)n->opaque_len << 24 |
			       (n->schema_id & 0xffffff));
		d += 4;
		if (n->opaque_len)
			memcpy(d, n->opaque, (size_t)n->opaque_len * 4);
	}
	put_trace_hdr(data + 4, t.node_len, t.flags,
		      (uint8_t)(t.remaining_len - t.node_len - sclen));
	return 0;
}
