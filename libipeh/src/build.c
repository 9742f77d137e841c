// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Builder: the canonical block (DESIGN.md "Canonical form") for a set of
 * options given in any order.  Options are sorted by preferred order
 * (stable), each one is preceded by the single minimal zero-filled padding
 * option its alignment needs, and the header is padded to a multiple of 8
 * with one trailing padding option.  Before anything is written the request
 * is checked against the same rules ipeh_validate() applies, in the same
 * order, so every block returned validates.
 */

#include "internal.h"

static inline unsigned int pad_needed(size_t offset,
				      const struct ipeh_tlv_params *p)
{
	unsigned int mult = p->align_mult;
	unsigned int r = ipeh__mod(offset, mult);

	return p->align_off >= r ? p->align_off - r : p->align_off + mult - r;
}

/*
 * Small copies without a call: 16-byte (or 8- or 4-byte) moves, the last one
 * overlapping the previous so that no byte outside [dst, dst + len) is written.
 */
static inline void copy_small(uint8_t *dst, const uint8_t *src, size_t len)
{
	struct { uint64_t a, b; } x;	/* one 16-byte move on x86-64, arm64 */
	uint64_t v;
	uint32_t w;
	size_t i;

	if (len >= 16) {
		for (i = 0; i + 16 <= len; i += 16) {
			memcpy(&x, src + i, 16);
			memcpy(dst + i, &x, 16);
		}
		if (i < len) {
			memcpy(&x, src + len - 16, 16);
			memcpy(dst + len - 16, &x, 16);
		}
	} else if (len >= 8) {
		memcpy(&v, src, 8);
		memcpy(dst, &v, 8);
		memcpy(&v, src + len - 8, 8);
		memcpy(dst + len - 8, &v, 8);
	} else if (len >= 4) {
		memcpy(&w, src, 4);
		memcpy(dst, &w, 4);
		memcpy(&w, src + len - 4, 4);
		memcpy(dst + len - 4, &w, 4);
	} else if (len) {
		/* 1..3 bytes: explicit, or the compiler calls memcpy() */
		dst[0] = src[0];
		dst[len / 2] = src[len / 2];
		dst[len - 1] = src[len - 1];
	}
}

/* Small zero fills without a call, same idea (at most 13 bytes here). */
static inline void zero_small(uint8_t *dst, size_t len)
{
	static const uint64_t z;
	uint32_t w = 0;

	if (len >= 8) {
		memcpy(dst, &z, 8);
		memcpy(dst + len - 8, &z, 8);
	} else if (len >= 4) {
		memcpy(dst, &w, 4);
		memcpy(dst + len - 4, &w, 4);
	} else if (len) {
		dst[0] = 0;
		dst[len / 2] = 0;
		dst[len - 1] = 0;
	}
}

static inline uint8_t *put_pad(uint8_t *w, unsigned int pad)
{
	if (pad == 1) {
		*w++ = IPEH_OPT_PAD1;
	} else if (pad > 1) {
		w[0] = IPEH_OPT_PADN;
		w[1] = (uint8_t)(pad - 2);
		zero_small(w + 2, pad - 2);
		w += pad;
	}
	return w;
}

/* Checks one option as the kernel would; 1 = deep-checked, 0 = not. */
static int check_opt(const struct ipeh_tlv_params *p, const struct ipeh_opt *o,
		     enum ipeh_hdr hdr, unsigned int flags,
		     struct ipeh_error *err)
{
	unsigned int perm = flags & IPEH_F_ADMIN ? p->admin_perm : p->user_perm;
	unsigned int class = (unsigned int)hdr;

	if (p->align_mult < 1 || p->align_mult > 16 ||
	    p->align_off >= p->align_mult)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, o->type, -1,
				  "type 0x%02x: table entry has invalid alignment %un+%u",
				  o->type, p->align_mult, p->align_off);
	if (perm == IPEH_PERM_NO_CHECK)
		return 0;
	if (perm != IPEH_PERM_CHECK)
		return ipeh__fail(err, -EPERM, IPEH_RULE_PERM, o->type, -1,
				  "option 0x%02x may not be sent by %s",
				  o->type, flags & IPEH_F_ADMIN ? "admin" : "user");
	if ((p->class_mask & class) != class)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_CLASS, o->type, -1,
				  "option 0x%02x not allowed in %s header",
				  o->type, ipeh_hdr_name(hdr));
	if (o->len < p->min_data_len || o->len > p->max_data_len)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_DATA_LEN, o->type, -1,
				  "option 0x%02x data length %u not in %u..%u",
				  o->type, o->len, p->min_data_len,
				  p->max_data_len);
	if (p->data_len_mult < 1 || p->data_len_mult > 16 ||
	    ipeh__mod(o->len, p->data_len_mult) != p->data_len_off)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_DATA_LEN_MULT,
				  o->type, -1,
				  "option 0x%02x data length %u is not %un+%u",
				  o->type, o->len, p->data_len_mult,
				  p->data_len_off);
	return 1;
}

/*
 * ipeh_build(), also reporting where each input option's data went
 * (data_off[i] for opts[i]) when data_off is not NULL.
 */
static ssize_t build(const struct ipeh_table *t, enum ipeh_hdr hdr,
		     const struct ipeh_opt *opts, size_t nopts,
		     void *buf, size_t buflen,
		     const struct ipeh_limits *lim, unsigned int flags,
		     struct ipeh_error *err, uint16_t *data_off)
{
	uint16_t idx[IPEH_OPTS_MAX], ord[IPEH_OPTS_MAX];
	uint8_t pads[IPEH_OPTS_MAX];
	unsigned int max_cnt, max_len, cnt = 0;
	/* the header-wide rules, as in ipeh_validate() */
	bool header_rules = !(flags & IPEH_F_ADMIN);
	long over_off = -1;
	int over_type = -1;
	size_t i, j, offset, total, hdr_max;
	uint8_t *w;

	if (!ipeh__hdr_ok(hdr))
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "invalid header kind %d", (int)hdr);
	if (!t)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "no table");
	if (nopts > IPEH_OPTS_MAX)
		return ipeh__fail(err, -EMSGSIZE, IPEH_RULE_LENGTH, -1, -1,
				  "%zu options cannot fit in one header", nopts);
	ipeh__limits(lim, &max_cnt, &max_len);
	hdr_max = flags & IPEH_F_SETSOCKOPT ? IPEH_BLOCK_MAX : IPEH_HDR_MAX;

	/* stable insertion sort by preferred order (input often sorted) */
	for (i = 0; i < nopts; i++) {
		unsigned int order = t->params[opts[i].type].order;

		ord[i] = (uint16_t)order;
		for (j = i; j > 0 && ord[idx[j - 1]] > order; j--)
			idx[j] = idx[j - 1];
		idx[j] = (uint16_t)i;
	}

	/* layout and checks, in the order the kernel will see the options */
	offset = 2;
	for (i = 0; i < nopts; i++) {
		const struct ipeh_opt *o = &opts[idx[i]];
		const struct ipeh_tlv_params *p = &t->params[o->type];
		int deep;

		if (o->type < 2)
			return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, o->type,
					  -1, "padding is not an option to add");
		if (o->len && !o->data)
			return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, o->type,
					  -1, "option 0x%02x has no data",
					  o->type);
		deep = check_opt(p, o, hdr, flags, err);
		if (deep < 0)
			return deep;
		pads[i] = (uint8_t)pad_needed(offset, p);
		offset += pads[i];
		if (cnt++ == max_cnt) {	/* every option counts */
			over_off = (long)offset;
			over_type = o->type;
		}
		if (deep)
			header_rules = true;
		offset += 2 + (size_t)o->len;
	}
	if (!(flags & IPEH_F_ADMIN) && !cnt)
		return ipeh__fail(err, -EPERM, IPEH_RULE_PERM, -1, -1,
				  "a header of padding only may not be sent by user");
	if (header_rules && cnt > max_cnt)
		return ipeh__fail(err, -E2BIG, IPEH_RULE_COUNT, over_type,
				  over_off, "%u options, at most %u allowed",
				  cnt, max_cnt);
	total = (offset + 7) & ~(size_t)7;
	if (total > hdr_max)
		return ipeh__fail(err, -EMSGSIZE, IPEH_RULE_LENGTH, -1, -1,
				  "block would be %zu bytes, more than %zu",
				  total, hdr_max);
	if (header_rules && total > max_len)
		return ipeh__fail(err, -EMSGSIZE, IPEH_RULE_LENGTH, -1, -1,
				  "block would be %zu bytes, above the limit %u",
				  total, max_len);
	if (!buf || buflen < total)
		return ipeh__fail(err, -ENOBUFS, IPEH_RULE_BUFFER, -1, -1,
				  "block needs %zu bytes, buffer has %zu",
				  total, buflen);

	w = buf;
	w[0] = 0;
	w[1] = (uint8_t)(total / 8 - 1);
	w += 2;
	offset = 2;
	for (i = 0; i < nopts; i++) {
		const struct ipeh_opt *o = &opts[idx[i]];
		unsigned int pad = pads[i];

		w = put_pad(w, pad);
		w[0] = o->type;
		w[1] = o->len;
		if (data_off)
			data_off[idx[i]] = (uint16_t)(offset + pad + 2);
		copy_small(w + 2, o->data, o->len);
		w += 2 + (size_t)o->len;
		offset += pad + 2 + (size_t)o->len;
	}
	put_pad(w, (unsigned int)(total - offset));
	return (ssize_t)total;
}

ssize_t ipeh_build(const struct ipeh_table *t, enum ipeh_hdr hdr,
		   const struct ipeh_opt *opts, size_t nopts,
		   void *buf, size_t buflen,
		   const struct ipeh_limits *lim, unsigned int flags,
		   struct ipeh_error *err)
{
	return build(t, hdr, opts, nopts, buf, buflen, lim, flags, err, NULL);
}

/*
 * All 12 bytes, padding included, as two wide loads: a padding byte that
 * differs only costs a rebuild, never a wrong block.
 */
static inline bool params_equal(const struct ipeh_tlv_params *a,
				const struct ipeh_tlv_params *b)
{
	uint64_t a8, b8;
	uint32_t a4, b4;

	_Static_assert(sizeof(struct ipeh_tlv_params) == 12,
		       "ipeh_tlv_params layout");
	memcpy(&a8, a, 8);
	memcpy(&b8, b, 8);
	memcpy(&a4, (const char *)a + 8, 4);
	memcpy(&b4, (const char *)b + 8, 4);
	return ((a8 ^ b8) | (a4 ^ b4)) == 0;
}

static inline bool memo_hit(const struct ipeh_builder *b)
{
	const struct ipeh_builder_memo *m = &b->memo;
	const struct ipeh_tlv_params *tp;
	size_t i, n = b->nopts;

	/* table, header, flags and limits change only through init(),
	 * which drops the memo; the table's entries are compared here
	 */
	if (!m->valid || m->nopts != n || m->table != b->table || !b->table)
		return false;
	tp = b->table->params;
	for (i = 0; i < n; i++) {
		const struct ipeh_builder_memo_opt *mo = &m->opt[i];
		const struct ipeh_opt *o = &b->opts[i];

		/*
		 * type and len one byte at a time: add() stored them so,
		 * and a two-byte load of both would wait for both stores
		 * (no store forwarding), a stall per option per packet
		 */
		uint8_t type = o->type;

		if (mo->type != type ||
		    !params_equal(&mo->params, &tp[type]))
			return false;
		if (mo->len != o->len)
			return false;
	}
	return true;
}

static void memo_store(struct ipeh_builder *b, const void *blk, size_t len)
{
	struct ipeh_builder_memo *m = &b->memo;
	size_t i;

	for (i = 0; i < b->nopts; i++) {
		struct ipeh_builder_memo_opt *mo = &m->opt[i];
		const struct ipeh_opt *o = &b->opts[i];

		mo->type = o->type;
		mo->len = o->len;
		mo->data_off = m->data_off[i];
		memcpy(&mo->params, &b->table->params[o->type],
		       sizeof(mo->params));
	}
	m->nopts = (uint8_t)b->nopts;
	m->len = (uint16_t)len;
	m->table = b->table;
	m->hdr = b->hdr;
	m->flags = b->flags;
	m->limits = b->limits;
	memcpy(m->skel, blk, len);
	m->valid = true;
}

void ipeh_builder_init(struct ipeh_builder *b, const struct ipeh_table *t,
		       enum ipeh_hdr hdr, const struct ipeh_limits *lim,
		       unsigned int flags)
{
	b->table = t;
	b->hdr = hdr;
	b->flags = flags;
	if (lim)
		b->limits = *lim;
	else
		ipeh_limits_default(&b->limits);
	b->error = 0;
	b->nopts = 0;
	b->memo.valid = false;
}

#ifdef IPEH_BUILDER_INLINE
/* The external definitions of the header's inline functions. */
extern inline int ipeh_builder_add(struct ipeh_builder *b, uint8_t type,
				   const void *data, size_t len);
extern inline void ipeh_builder_reset(struct ipeh_builder *b);
#else
int ipeh_builder_add(struct ipeh_builder *b, uint8_t type, const void *data,
		     size_t len)
{
	struct ipeh_opt *o;

	if (type < 2 || len > 255 || (len && !data)) {
		if (!b->error)
			b->error = -EINVAL;
		return -EINVAL;
	}
	if (b->nopts >= IPEH_BUILDER_MAX_OPTS) {
		if (!b->error)
			b->error = -E2BIG;
		return -E2BIG;
	}
	o = &b->opts[b->nopts++];
	o->type = type;
	o->len = (uint8_t)len;
	o->data = data;
	o->offset = 0;
	return 0;
}

void ipeh_builder_reset(struct ipeh_builder *b)
{
	b->error = 0;
	b->nopts = 0;
}
#endif

ssize_t ipeh_builder_finish(struct ipeh_builder *b, void *buf, size_t buflen,
			    struct ipeh_error *err)
{
	struct ipeh_builder_memo *m = &b->memo;
	uint8_t *w = buf;
	ssize_t n;
	size_t i;

	if (b->error)
		return ipeh__fail(err, b->error, IPEH_RULE_PARAM, -1, -1,
				  "an option could not be added (%s)",
				  b->error == -E2BIG ? "builder full" :
				  "invalid type or length");
	if (memo_hit(b)) {
		if (!buf || buflen < m->len)
			return ipeh__fail(err, -ENOBUFS, IPEH_RULE_BUFFER, -1,
					  -1, "block needs %u bytes, buffer has %zu",
					  m->len, buflen);
		copy_small(w, m->skel, m->len);
		for (i = 0; i < b->nopts; i++)
			copy_small(w + m->opt[i].data_off, b->opts[i].data,
				   b->opts[i].len);
		return m->len;
	}
	n = build(b->table, b->hdr, b->opts, b->nopts, buf, buflen,
		  &b->limits, b->flags, err, m->data_off);
	if (n > 0)
		memo_store(b, buf, (size_t)n);
	return n;
}

ssize_t ipeh_prepare(struct ipeh_prepared *p, const struct ipeh_table *t,
		     enum ipeh_hdr hdr, const struct ipeh_opt *opts,
		     size_t nopts, const struct ipeh_limits *lim,
		     unsigned int flags, struct ipeh_error *err)
{
	static const uint8_t zeros[255];
	struct ipeh_opt o[IPEH_BUILDER_MAX_OPTS];
	ssize_t n;
	size_t i;

	if (nopts > IPEH_BUILDER_MAX_OPTS)
		return ipeh__fail(err, -E2BIG, IPEH_RULE_PARAM, -1, -1,
				  "%zu options, at most %u can be prepared",
				  nopts, IPEH_BUILDER_MAX_OPTS);
	for (i = 0; i < nopts; i++) {
		o[i] = opts[i];
		if (!o[i].data)
			o[i].data = zeros;
		p->data_len[i] = o[i].len;
	}
	n = build(t, hdr, o, nopts, p->block, sizeof(p->block), lim, flags,
		  err, p->data_off);
	if (n < 0) {
		p->len = 0;
		p->nopts = 0;
		return n;
	}
	p->len = (uint16_t)n;
	p->nopts = (uint16_t)nopts;
	return n;
}

ssize_t ipeh_prepared_emit(const struct ipeh_prepared *p, void *buf,
			   size_t buflen, const void *const *data)
{
	uint8_t *w = buf;
	size_t i;

	if (!p->len)
		return -EINVAL;		/* not prepared, or preparing failed */
	if (!buf || buflen < p->len)
		return -ENOBUFS;
	copy_small(w, p->block, p->len);
	if (data) {
		for (i = 0; i < p->nopts; i++) {
			if (data[i])
				copy_small(w + p->data_off[i], data[i],
					   p->data_len[i]);
		}
	}
	return p->len;
}

uint8_t *ipeh_prepared_data(struct ipeh_prepared *p, size_t i)
{
	if (i >= p->nopts)
		return NULL;
	return p->block + p->data_off[i];
}
