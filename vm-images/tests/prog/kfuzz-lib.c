// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfuzz-lib: random numbers, the PC set, the record format and the
 * mutators of ipeh-kfuzz. Pure functions: no kernel calls.
 */
#include <linux/ipeh.h>
#include <linux/netlink.h>
#include <string.h>

#include "kfuzz-lib.h"

/* ---- random numbers ---- */

void kf_rng_seed(struct kf_rng *r, uint64_t seed)
{
	/* splitmix64 of the seed, never 0 */
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	r->s = z ? z : 0x2545f4914f6cdd1dULL;
}

uint64_t kf_rand(struct kf_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

uint32_t kf_below(struct kf_rng *r, uint32_t n)
{
	return n ? (uint32_t)((kf_rand(r) >> 32) % n) : 0;
}

/* ---- PC set ---- */

size_t kf_pcset_bytes(uint64_t cap)
{
	return sizeof(struct kf_pcset) + cap * sizeof(uint64_t);
}

void kf_pcset_init(struct kf_pcset *s, uint64_t cap)
{
	s->cap = cap;
	s->count = 0;
	s->dropped = 0;
	memset(s->slot, 0, cap * sizeof(uint64_t));
}

static uint64_t pc_mix(uint64_t pc)
{
	pc ^= pc >> 33;
	pc *= 0xff51afd7ed558ccdULL;
	pc ^= pc >> 33;
	return pc;
}

int kf_pcset_add(struct kf_pcset *s, uint64_t pc)
{
	uint64_t mask = s->cap - 1, i;

	if (!pc)	/* 0 marks an empty slot; no kernel PC is 0 */
		return 0;
	/* keep a quarter free so that probing stays short */
	for (i = pc_mix(pc) & mask;; i = (i + 1) & mask) {
		if (s->slot[i] == pc)
			return 0;
		if (!s->slot[i])
			break;
	}
	if (s->count >= s->cap - s->cap / 4) {
		s->dropped++;
		return 0;
	}
	s->slot[i] = pc;
	s->count++;
	return 1;
}

bool kf_pcset_has(const struct kf_pcset *s, uint64_t pc)
{
	uint64_t mask = s->cap - 1, i;

	if (!pc)
		return false;
	for (i = pc_mix(pc) & mask; s->slot[i]; i = (i + 1) & mask)
		if (s->slot[i] == pc)
			return true;
	return false;
}

/* ---- records ---- */

void kf_decode(const uint8_t *in, size_t len, struct kf_recs *out)
{
	size_t off = 0;

	out->n = 0;
	while (len - off >= KF_REC_HDR && out->n < KF_MAX_RECS) {
		struct kf_rec *r = &out->r[out->n++];
		size_t dl = (size_t)in[off + 4] | (size_t)in[off + 5] << 8;

		r->op = in[off];
		r->a = in[off + 1];
		r->b = in[off + 2];
		r->c = in[off + 3];
		off += KF_REC_HDR;
		if (dl > len - off)
			dl = len - off;
		r->len = (uint16_t)(dl > KF_MAX_DATA ? KF_MAX_DATA : dl);
		memcpy(r->data, in + off, r->len);
		off += dl;
	}
}

size_t kf_encode(const struct kf_recs *in, uint8_t *out, size_t cap)
{
	size_t off = 0;

	for (unsigned int i = 0; i < in->n; i++) {
		const struct kf_rec *r = &in->r[i];

		if (off + KF_REC_HDR + r->len > cap)
			continue;
		out[off] = r->op;
		out[off + 1] = r->a;
		out[off + 2] = r->b;
		out[off + 3] = r->c;
		out[off + 4] = (uint8_t)r->len;
		out[off + 5] = (uint8_t)(r->len >> 8);
		memcpy(out + off + KF_REC_HDR, r->data, r->len);
		off += KF_REC_HDR + r->len;
	}
	return off;
}

/* ---- netlink attributes ---- */

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static void wr16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

size_t kf_nla_put(uint8_t *buf, size_t len, size_t cap, uint16_t type,
		  const void *data, size_t dlen)
{
	size_t tot = NLA_ALIGN(NLA_HDRLEN + dlen);

	if (len + tot > cap || NLA_HDRLEN + dlen > 0xffff)
		return 0;
	memset(buf + len, 0, tot);
	wr16(buf + len, (uint16_t)(NLA_HDRLEN + dlen));
	wr16(buf + len + 2, type);
	if (dlen)
		memcpy(buf + len + NLA_HDRLEN, data, dlen);
	return len + tot;
}

static bool is_nest(uint16_t type)
{
	return (type & NLA_F_NESTED) ||
	       (type & NLA_TYPE_MASK) == IPEH_TLV_ATTR_ENTRY;
}

unsigned int kf_nla_walk(const uint8_t *buf, size_t len, size_t *off,
			 long *parent, unsigned int max)
{
	unsigned int n = 0;
	size_t o = 0;

	while (o + NLA_HDRLEN <= len && n < max) {
		uint16_t l = rd16(buf + o), t = rd16(buf + o + 2);

		if (l < NLA_HDRLEN || o + l > len)
			break;
		off[n] = o;
		parent[n++] = -1;
		if (is_nest(t)) {
			size_t i = o + NLA_HDRLEN, end = o + l;

			while (i + NLA_HDRLEN <= end && n < max) {
				uint16_t il = rd16(buf + i);

				if (il < NLA_HDRLEN || i + il > end)
					break;
				off[n] = i;
				parent[n++] = (long)o;
				i += NLA_ALIGN(il);
			}
		}
		o += NLA_ALIGN(l);
	}
	return n;
}

/* canonical payload size of an attribute type; -1: nested */
static int attr_size(uint16_t type)
{
	switch (type & NLA_TYPE_MASK) {
	case IPEH_TLV_ATTR_ORDER:
		return 2;
	case IPEH_TLV_ATTR_GENERATION:
		return 4;
	case IPEH_TLV_ATTR_ENTRY:
		return -1;
	case IPEH_TLV_ATTR_UNSET:
	case IPEH_TLV_ATTR_RESET:
		return 0;
	case IPEH_TLV_ATTR_UNSPEC:
		return 0;
	default:
		return (type & NLA_TYPE_MASK) <= IPEH_TLV_ATTR_MAX ? 1 : 4;
	}
}

static const uint32_t interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 0x1e, 0x31, 0x3e, 0x7f, 0x80, 0xc2,
	0xfe, 0xff, 0x100, 0x7fff, 0x8000, 0xfffe, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
};

static uint32_t pick_value(struct kf_rng *r)
{
	if (kf_below(r, 4) == 0)
		return (uint32_t)kf_rand(r);
	return interesting[kf_below(r, sizeof(interesting) / sizeof(interesting[0]))];
}

/* insert @n bytes at @at (zeroed); false if no room */
static bool make_room(uint8_t *d, size_t *len, size_t cap, size_t at, size_t n)
{
	if (*len + n > cap || at > *len)
		return false;
	memmove(d + at + n, d + at, *len - at);
	memset(d + at, 0, n);
	*len += n;
	return true;
}

static void cut(uint8_t *d, size_t *len, size_t at, size_t n)
{
	if (at >= *len)
		return;
	if (n > *len - at)
		n = *len - at;
	memmove(d + at, d + at + n, *len - at - n);
	*len -= n;
}

/* adjust the length of the enclosing attribute by @delta */
static void parent_grow(uint8_t *d, long parent, long delta)
{
	if (parent >= 0)
		wr16(d + parent, (uint16_t)(rd16(d + parent) + delta));
}

/* a well-formed attribute of a random type, written at @p; its size
 * (aligned), 0 if @room is too small */
static size_t random_attr(struct kf_rng *r, uint8_t *p, size_t room, bool inner)
{
	uint16_t type = (uint16_t)(1 + kf_below(r, IPEH_TLV_ATTR_MAX + 1));
	uint8_t tmp[64];
	size_t tl = 0;
	int sz;

	if (inner && type == IPEH_TLV_ATTR_ENTRY)
		type = IPEH_TLV_ATTR_TYPE;
	sz = attr_size(type);
	if (sz < 0) {
		/* ENTRY: TYPE and one or two more */
		uint8_t t8 = (uint8_t)(kf_below(r, 3) ? 2 + kf_below(r, 254) : pick_value(r));

		tl = kf_nla_put(tmp, tl, sizeof(tmp), IPEH_TLV_ATTR_TYPE, &t8, 1);
		for (unsigned int i = kf_below(r, 3); i > 0; i--)
			tl += random_attr(r, tmp + tl, sizeof(tmp) - tl, true);
		type |= NLA_F_NESTED;
		sz = (int)tl;
	} else {
		uint32_t v = pick_value(r);

		memcpy(tmp, &v, sizeof(v));
		if (kf_below(r, 16) == 0)	/* wrong size */
			sz = (int)kf_below(r, 9);
	}
	if (!kf_nla_put(p, 0, room, type, tmp, (size_t)sz))
		return 0;
	return NLA_ALIGN(NLA_HDRLEN + (size_t)sz);
}

size_t kf_mutate_attrs(struct kf_rng *r, uint8_t *d, size_t len, size_t cap)
{
	size_t off[64];
	long parent[64];
	unsigned int n = kf_nla_walk(d, len, off, parent, 64), k;
	size_t o, al;
	uint16_t t, l;
	uint8_t tmp[128];

	if (!n || kf_below(r, 6) == 0) {
		/* insert a new attribute at the end (or into an ENTRY) */
		size_t got = random_attr(r, tmp, sizeof(tmp), false);

		if (got && n && kf_below(r, 2)) {
			k = kf_below(r, n);
			if (parent[k] < 0 && is_nest(rd16(d + off[k] + 2))) {
				size_t at = off[k] + NLA_ALIGN(rd16(d + off[k]));

				got = random_attr(r, tmp, sizeof(tmp), true);
				if (got && make_room(d, &len, cap, at, got)) {
					memcpy(d + at, tmp, got);
					wr16(d + off[k], (uint16_t)(rd16(d + off[k]) + got));
				}
				return len;
			}
		}
		if (got && NLA_ALIGN(len) + got <= cap) {
			memset(d + len, 0, NLA_ALIGN(len) - len);
			len = NLA_ALIGN(len);
			{
				memcpy(d + len, tmp, got);
				len += got;
			}
		}
		return len;
	}
	k = kf_below(r, n);
	o = off[k];
	l = rd16(d + o);
	t = rd16(d + o + 2);
	al = NLA_ALIGN(l);
	if (o + al > len)
		al = len - o;
	switch (kf_below(r, 8)) {
	case 0: { /* an interesting value, in the payload's own size */
		uint32_t v = pick_value(r);
		size_t pl = l - NLA_HDRLEN;

		memcpy(d + o + NLA_HDRLEN, &v, pl < 4 ? pl : 4);
		break;
	}
	case 1: /* another type, flags kept */
		wr16(d + o + 2, (uint16_t)((t & ~NLA_TYPE_MASK) |
				 kf_below(r, IPEH_TLV_ATTR_MAX + 3)));
		break;
	case 2: /* delete */
		cut(d, &len, o, al);
		parent_grow(d, parent[k], -(long)al);
		break;
	case 3: /* duplicate */
		if (al <= sizeof(tmp)) {
			memcpy(tmp, d + o, al);
			if (make_room(d, &len, cap, o, al)) {
				memcpy(d + o, tmp, al);
				parent_grow(d, parent[k], (long)al);
			}
		}
		break;
	case 4: /* the flag bits */
		wr16(d + o + 2, (uint16_t)(t ^ (kf_below(r, 2) ? NLA_F_NESTED
							      : NLA_F_NET_BYTEORDER)));
		break;
	case 5: /* a length that lies a little */
		wr16(d + o, (uint16_t)(l + (int)kf_below(r, 9) - 4));
		break;
	case 6: { /* a payload of another size (grown or shrunk by 1 to 4) */
		size_t pl = l - NLA_HDRLEN, npl = kf_below(r, 2) && pl ?
			pl - 1 - kf_below(r, (uint32_t)(pl < 4 ? pl : 4)) :
			pl + 1 + kf_below(r, 4);
		size_t nal = NLA_ALIGN(NLA_HDRLEN + npl);

		if (nal > al) {
			if (!make_room(d, &len, cap, o + al, nal - al))
				break;
		} else {
			cut(d, &len, o + nal, al - nal);
		}
		wr16(d + o, (uint16_t)(NLA_HDRLEN + npl));
		parent_grow(d, parent[k], (long)nal - (long)al);
		break;
	}
	default: { /* move it to the front (order of attributes) */
		size_t start = parent[k] >= 0 ? (size_t)parent[k] + NLA_HDRLEN : 0;

		if (al <= sizeof(tmp) && o > start) {
			memcpy(tmp, d + o, al);
			memmove(d + start + al, d + start, o - start);
			memcpy(d + start, tmp, al);
		}
		break;
	}
	}
	return len;
}

/* ---- option headers ---- */

size_t kf_block_fixup(uint8_t *d, size_t len, size_t cap)
{
	size_t want = len < 8 ? 8 : (len + 7) & ~(size_t)7, pad;

	if (want > cap || want > 2048)
		want = len & ~(size_t)7;
	if (want < 8)
		return len;
	if (len < 2)
		memset(d + len, 0, 2 - len), len = 2;
	pad = want > len ? want - len : 0;
	if (pad == 1) {
		d[len] = 0;		/* Pad1 */
	} else if (pad >= 2) {
		d[len] = 1;		/* PadN */
		d[len + 1] = (uint8_t)(pad - 2);
		memset(d + len + 2, 0, pad - 2);
	}
	d[1] = (uint8_t)(want / 8 - 1);
	return want;
}

/* option types worth trying: padding, the known options, the RFC 4727
 * experimental ones (0x1e 0x3e 0x5e 0x7e 0x9e 0xbe 0xde 0xfe), and the
 * action bits */
static const uint8_t opt_types[] = {
	0x00, 0x01, 0x04, 0x05, 0x07, 0x08, 0x30, 0x31, 0x3e, 0x1e, 0x5e,
	0x7e, 0x9e, 0xbe, 0xde, 0xfe, 0xc2, 0xc9, 0x8b, 0x63, 0x6d, 0x26,
	0x02, 0x03, 0xff, 0x40, 0x80,
};

/* natural data length of a known option type */
static uint8_t opt_len(struct kf_rng *r, uint8_t type)
{
	switch (type) {
	case 0x04: return 1;	/* tunnel encapsulation limit */
	case 0x05: return 2;	/* router alert */
	case 0x30: return 4;	/* minimum path MTU */
	case 0x31: return (uint8_t)(2 + 8 + 4 * kf_below(r, 4));	/* IOAM */
	case 0xc2: return 4;	/* jumbo */
	case 0xc9: return 16;	/* home address */
	default: return (uint8_t)(kf_below(r, 4) ? kf_below(r, 13) : kf_below(r, 256));
	}
}

/* offsets of the options of a header (after its two first bytes) */
static unsigned int opt_walk(const uint8_t *d, size_t len, size_t *off,
			     unsigned int max)
{
	unsigned int n = 0;
	size_t o = 2;

	while (o < len && n < max) {
		off[n++] = o;
		if (d[o] == 0)
			o++;
		else if (o + 1 >= len)
			break;
		else
			o += 2 + (size_t)d[o + 1];
	}
	return n;
}

size_t kf_mutate_block(struct kf_rng *r, uint8_t *d, size_t len, size_t cap)
{
	size_t off[128], at, ol;
	unsigned int n, k;
	bool fix = kf_below(r, 10) < 7;

	if (len < 2) {
		if (cap < 8)
			return len;
		memset(d, 0, 8);
		len = 2;
	}
	n = opt_walk(d, len, off, 128);
	k = kf_below(r, n + 1);
	at = k < n ? off[k] : len;
	ol = k < n ? (d[at] == 0 ? 1 : (at + 1 < len ? 2 + (size_t)d[at + 1] : 1)) : 0;
	if (at + ol > len)
		ol = len - at;
	switch (kf_below(r, 9)) {
	case 0:
	case 1: { /* insert an option before option k (or at the end) */
		uint8_t type = opt_types[kf_below(r, sizeof(opt_types))];
		uint8_t dl = type == 0 ? 0 : opt_len(r, type);
		size_t tot = type == 0 ? 1 : 2 + (size_t)dl;

		if (!make_room(d, &len, cap, at, tot))
			break;
		d[at] = type;
		if (type) {
			d[at + 1] = dl;
			for (size_t i = 0; i < dl; i++)
				d[at + 2 + i] = kf_below(r, 2) ? 0 : (uint8_t)kf_rand(r);
			if (type == 0x30 && dl == 4) {	/* a plausible MTU */
				d[at + 2] = 0x05;
				d[at + 3] = 0x00;
			}
		}
		break;
	}
	case 2: /* delete option k */
		if (k < n)
			cut(d, &len, at, ol);
		break;
	case 3: /* another type */
		if (k < n)
			d[at] = opt_types[kf_below(r, sizeof(opt_types))] ^
				(kf_below(r, 4) ? 0 : (uint8_t)kf_rand(r));
		break;
	case 4: /* another length byte */
		if (k < n && d[at] && at + 1 < len)
			d[at + 1] = (uint8_t)(kf_below(r, 2) ? d[at + 1] + kf_below(r, 5) - 2
							 : kf_rand(r));
		fix = false;
		break;
	case 5: /* padding before option k */
		if (kf_below(r, 2)) {
			if (make_room(d, &len, cap, at, 1))
				d[at] = 0;
		} else {
			uint8_t pl = (uint8_t)kf_below(r, kf_below(r, 4) ? 6 : 40);

			if (make_room(d, &len, cap, at, 2 + (size_t)pl)) {
				d[at] = 1;
				d[at + 1] = pl;
				if (kf_below(r, 8) == 0 && pl)
					d[at + 2] = (uint8_t)kf_rand(r);	/* non-zero padding */
			}
		}
		break;
	case 6: /* the header's length byte */
		d[1] = (uint8_t)(kf_below(r, 2) ? d[1] + kf_below(r, 3) - 1 : kf_rand(r));
		fix = false;
		break;
	case 7: /* cut the header short */
		len = kf_below(r, (uint32_t)len + 1);
		fix = kf_below(r, 2);
		break;
	default: /* option data bytes */
		if (k < n && ol > 2) {
			size_t i = at + 2 + kf_below(r, (uint32_t)(ol - 2));

			d[i] = kf_below(r, 2) ? (uint8_t)pick_value(r) : (uint8_t)(d[i] ^ (1u << kf_below(r, 8)));
		}
		break;
	}
	if (fix) {
		/* drop a trailing padding left by an earlier fixup first, so
		 * that blocks do not grow by padding alone */
		n = opt_walk(d, len, off, 128);
		if (n && (d[off[n - 1]] == 0 || d[off[n - 1]] == 1) && kf_below(r, 2))
			len = off[n - 1];
		len = kf_block_fixup(d, len, cap);
	}
	return len;
}

/* ---- whole inputs ---- */

uint64_t kf_hash(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void raw_mutate(struct kf_rng *r, uint8_t *buf, size_t *len)
{
	size_t n = *len;

	switch (kf_below(r, 5)) {
	case 0:
		if (n)
			buf[kf_below(r, (uint32_t)n)] ^= (uint8_t)(1u << kf_below(r, 8));
		break;
	case 1:
		if (n)
			buf[kf_below(r, (uint32_t)n)] = (uint8_t)pick_value(r);
		break;
	case 2: /* insert 1-8 random bytes */
		if (n + 8 <= KF_MAX_INPUT) {
			size_t at = kf_below(r, (uint32_t)n + 1), k = 1 + kf_below(r, 8);

			memmove(buf + at + k, buf + at, n - at);
			for (size_t i = 0; i < k; i++)
				buf[at + i] = (uint8_t)kf_rand(r);
			*len = n + k;
		}
		break;
	case 3: /* delete 1-8 bytes */
		if (n) {
			size_t at = kf_below(r, (uint32_t)n), k = 1 + kf_below(r, 8);

			cut(buf, len, at, k);
		}
		break;
	default: /* a 16- or 32-bit interesting value */
		if (n >= 4) {
			uint32_t v = pick_value(r);
			size_t at = kf_below(r, (uint32_t)n - 3);

			memcpy(buf + at, &v, kf_below(r, 2) ? 2 : 4);
		}
		break;
	}
}

static struct kf_recs mut_a, mut_b;	/* big: kept off the stack */

void kf_mutate(struct kf_rng *r, enum kf_target t, uint8_t *buf, size_t *len,
	       const uint8_t *other, size_t olen)
{
	unsigned int rounds = 1 + kf_below(r, 4);

	while (rounds--) {
		unsigned int what = kf_below(r, 16);
		struct kf_rec *rec;

		if (what < 2) {		/* raw bytes, framing and all */
			raw_mutate(r, buf, len);
			continue;
		}
		kf_decode(buf, *len, &mut_a);
		if (!mut_a.n) {
			mut_a.n = 1;
			memset(&mut_a.r[0], 0, sizeof(mut_a.r[0]));
			mut_a.r[0].op = (uint8_t)kf_rand(r);
		}
		rec = &mut_a.r[kf_below(r, mut_a.n)];
		if (what < 9) {		/* the record's data, structure-aware */
			size_t l = t == KF_NL ? kf_mutate_attrs(r, rec->data, rec->len, KF_MAX_DATA)
					      : kf_mutate_block(r, rec->data, rec->len, KF_MAX_DATA);

			rec->len = (uint16_t)l;
		} else if (what < 11) {	/* the record's data, raw */
			size_t l = rec->len;

			if (l + 8 <= KF_MAX_DATA)
				raw_mutate(r, rec->data, &l);
			rec->len = (uint16_t)l;
		} else if (what == 11) {	/* a header field */
			uint8_t *f = kf_below(r, 2) ? &rec->op :
				     kf_below(r, 2) ? &rec->a :
				     kf_below(r, 2) ? &rec->b : &rec->c;

			*f = kf_below(r, 2) ? (uint8_t)(*f ^ (1u << kf_below(r, 8)))
					    : (uint8_t)pick_value(r);
		} else if (what == 12 && mut_a.n > 1) {	/* delete a record */
			*rec = mut_a.r[--mut_a.n];
		} else if (what == 13 && mut_a.n < KF_MAX_RECS) {	/* duplicate */
			unsigned int at = kf_below(r, mut_a.n + 1);

			memmove(&mut_a.r[at + 1], &mut_a.r[at],
				(mut_a.n - at) * sizeof(mut_a.r[0]));
			mut_a.n++;
			mut_a.r[at] = mut_a.r[kf_below(r, mut_a.n)];
		} else if (what == 14 && mut_a.n > 1) {	/* swap two */
			struct kf_rec *o = &mut_a.r[kf_below(r, mut_a.n)];

			mut_b.r[0] = *rec;
			*rec = *o;
			*o = mut_b.r[0];
		} else if (other && olen) {	/* splice a record of another input */
			kf_decode(other, olen, &mut_b);
			if (mut_b.n) {
				struct kf_rec *src = &mut_b.r[kf_below(r, mut_b.n)];

				if (mut_a.n < KF_MAX_RECS && kf_below(r, 2))
					mut_a.r[mut_a.n++] = *src;
				else
					*rec = *src;
			}
		}
		*len = kf_encode(&mut_a, buf, KF_MAX_INPUT);
	}
}
