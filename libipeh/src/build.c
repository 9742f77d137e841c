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

#include <stdlib.h>

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

/* An input option's failure: say which one (ipeh_error's index). */
static inline int at_input(struct ipeh_error *err, size_t index, int ret)
{
	if (err)
		err->index = (int)index;
	return ret;
}

/*
 * Checks one option as the kernel would; 1 = deep-checked, 0 = not.
 * i is its input index, at the offset its type byte would have.
 */
static int check_opt(const struct ipeh_tlv_params *p, const struct ipeh_opt *o,
		     size_t i, long at, enum ipeh_hdr hdr, unsigned int flags,
		     struct ipeh_error *err)
{
	unsigned int perm = flags & IPEH_F_ADMIN ? p->admin_perm : p->user_perm;
	unsigned int class = (unsigned int)hdr;
	int t = o->type;

	if (perm == IPEH_PERM_NO_CHECK)
		return 0;
	if (perm != IPEH_PERM_CHECK)
		return at_input(err, i, ipeh__fail(err, -EPERM, IPEH_RULE_PERM, t, at,
				  "option %zu (type 0x%02x, byte %ld): may not be sent by %s",
				  i, t, at, flags & IPEH_F_ADMIN ? "admin" : "user"));
	if ((p->class_mask & class) != class)
		return at_input(err, i, ipeh__fail(err, -EINVAL, IPEH_RULE_CLASS, t, at,
				  "option %zu (type 0x%02x, byte %ld): not allowed in a %s header",
				  i, t, at, ipeh_hdr_name(hdr)));
	if (o->len < p->min_data_len || o->len > p->max_data_len)
		return at_input(err, i, ipeh__fail(err, -EINVAL, IPEH_RULE_DATA_LEN, t, at,
				  "option %zu (type 0x%02x, byte %ld): data length %u not in %u..%u",
				  i, t, at, o->len, p->min_data_len,
				  p->max_data_len));
	if (p->data_len_mult < 1 || p->data_len_mult > 16 ||
	    ipeh__mod(o->len, p->data_len_mult) != p->data_len_off)
		return at_input(err, i, ipeh__fail(err, -EINVAL, IPEH_RULE_DATA_LEN_MULT,
				  t, at,
				  "option %zu (type 0x%02x, byte %ld): data length %u is not %un+%u",
				  i, t, at, o->len, p->data_len_mult,
				  p->data_len_off));
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
	size_t over_in = 0;
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
		size_t in = idx[i];
		const struct ipeh_opt *o = &opts[in];
		const struct ipeh_tlv_params *p = &t->params[o->type];
		int deep;

		if (o->type < 2)
			return at_input(err, in, ipeh__fail(err, -EINVAL,
					  IPEH_RULE_PARAM, o->type, -1,
					  "option %zu: type %u is padding, which the builder adds itself",
					  in, o->type));
		if (o->len && !o->data)
			return at_input(err, in, ipeh__fail(err, -EINVAL,
					  IPEH_RULE_PARAM, o->type, -1,
					  "option %zu (type 0x%02x): no data for length %u",
					  in, o->type, o->len));
		if (p->align_mult < 1 || p->align_mult > 16 ||
		    p->align_off >= p->align_mult)
			return at_input(err, in, ipeh__fail(err, -EINVAL,
					  IPEH_RULE_PARAM, o->type, -1,
					  "option %zu (type 0x%02x): table entry has invalid alignment %un+%u",
					  in, o->type, p->align_mult, p->align_off));
		pads[i] = (uint8_t)pad_needed(offset, p);
		offset += pads[i];
		deep = check_opt(p, o, in, (long)offset, hdr, flags, err);
		if (deep < 0)
			return deep;
		if (cnt++ == max_cnt) {	/* every option counts */
			over_off = (long)offset;
			over_type = o->type;
			over_in = in;
		}
		if (deep)
			header_rules = true;
		offset += 2 + (size_t)o->len;
	}
	if (!(flags & IPEH_F_ADMIN) && !cnt)
		return ipeh__fail(err, -EPERM, IPEH_RULE_PERM, -1, -1,
				  "a header of padding only may not be sent by user");
	if (header_rules && cnt > max_cnt)
		return at_input(err, over_in, ipeh__fail(err, -E2BIG,
				  IPEH_RULE_COUNT, over_type, over_off,
				  "%u options, at most %u allowed: option %zu (type 0x%02x, byte %ld) is one too many",
				  cnt, max_cnt, over_in, over_type, over_off));
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
 * The builder's state, opaque to applications (ipeh.h): what new() was
 * given, the options added since reset(), the first add() that failed,
 * and the layout of the last block written.
 */
struct memo_opt {		/* one per option, input order */
	uint8_t type;
	uint8_t len;
	uint16_t data_off;
	struct ipeh_tlv_params params;	/* the table entry used */
};

struct ipeh_builder {
	/* first: the options and add() errors, public for the inline add() */
	struct ipeh_builder_head h;
	const struct ipeh_table *table;
	enum ipeh_hdr hdr;
	unsigned int flags;
	struct ipeh_limits limits;
	/* the last block written: valid when memo_valid */
	bool memo_valid;
	uint8_t memo_nopts;
	uint16_t memo_len;
	struct memo_opt memo[IPEH_BUILDER_MAX_OPTS];
	uint16_t data_off[IPEH_BUILDER_MAX_OPTS]; /* build()'s output */
	uint8_t skel[IPEH_HDR_MAX];	/* the block; data areas overwritten */
};

_Static_assert(offsetof(struct ipeh_builder, h) == 0,
	       "the inline add() finds the head at the builder's address");

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

/*
 * The table, header, flags and limits are fixed at new(); the options'
 * types and lengths and the table's entries for them are compared here.
 */
static inline bool memo_hit(const struct ipeh_builder *b)
{
	const struct ipeh_tlv_params *tp = b->table->params;
	size_t i, n = b->h.nopts;

	if (!b->memo_valid || b->memo_nopts != n)
		return false;
	for (i = 0; i < n; i++) {
		const struct memo_opt *mo = &b->memo[i];
		const struct ipeh_opt *o = &b->h.opts[i];

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
	size_t i;

	for (i = 0; i < b->h.nopts; i++) {
		struct memo_opt *mo = &b->memo[i];
		const struct ipeh_opt *o = &b->h.opts[i];

		mo->type = o->type;
		mo->len = o->len;
		mo->data_off = b->data_off[i];
		memcpy(&mo->params, &b->table->params[o->type],
		       sizeof(mo->params));
	}
	b->memo_nopts = (uint8_t)b->h.nopts;
	b->memo_len = (uint16_t)len;
	memcpy(b->skel, blk, len);
	b->memo_valid = true;
}

#define IPEH_F_ALL	(IPEH_F_ADMIN | IPEH_F_SETSOCKOPT | IPEH_F_DELETING)

struct ipeh_builder *ipeh_builder_new(const struct ipeh_table *t,
				      enum ipeh_hdr hdr,
				      const struct ipeh_limits *lim,
				      unsigned int flags)
{
	struct ipeh_builder *b;

	if (!t || !ipeh__hdr_ok(hdr) || (flags & ~IPEH_F_ALL)) {
		errno = EINVAL;
		return NULL;
	}
	b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	b->table = t;
	b->hdr = hdr;
	b->flags = flags;
	if (lim)
		b->limits = *lim;
	else
		ipeh_limits_default(&b->limits);
	b->h.nopts = 0;
	b->h.add_error = 0;
	b->memo_valid = false;
	return b;
}

void ipeh_builder_free(struct ipeh_builder *b)
{
	free(b);
}

#ifdef IPEH_BUILDER_INLINE
/* The external definitions of the header's inline functions. */
extern inline int ipeh_builder_add(struct ipeh_builder *b, uint8_t type,
				   const void *data, size_t len);
extern inline void ipeh_builder_reset(struct ipeh_builder *b);
#else
/* As the header's inline functions (IPEH_NO_INLINE, GNU89 inline mode). */
static IPEH_COLD int add_failed(struct ipeh_builder *b, int err,
				uint8_t type, size_t len)
{
	if (!b->h.add_error) {
		b->h.add_error = err;
		b->h.add_index = (int)b->h.nopts;
		b->h.add_type = type;
		b->h.add_len = len;
	}
	return err;
}

int ipeh_builder_add(struct ipeh_builder *b, uint8_t type, const void *data,
		     size_t len)
{
	struct ipeh_opt *o;

	if (type < 2 || len > 255 || (len && !data))
		return add_failed(b, -EINVAL, type, len);
	if (b->h.nopts >= IPEH_BUILDER_MAX_OPTS)
		return add_failed(b, -E2BIG, type, len);
	o = &b->h.opts[b->h.nopts++];
	o->type = type;
	o->len = (uint8_t)len;
	o->data = data;
	o->offset = 0;
	return 0;
}

void ipeh_builder_reset(struct ipeh_builder *b)
{
	b->h.add_error = 0;
	b->h.nopts = 0;
}
#endif

static IPEH_COLD int add_error_report(const struct ipeh_builder *b,
				      struct ipeh_error *err)
{
	int i = b->h.add_index, type = b->h.add_type;

	if (b->h.add_error == -E2BIG)
		ipeh__fail(err, -E2BIG, IPEH_RULE_PARAM, type, -1,
			   "option %d (type 0x%02x): the builder holds at most %d options",
			   i, type, IPEH_BUILDER_MAX_OPTS);
	else if (type < 2)
		ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, type, -1,
			   "option %d: type %d is padding, which the builder adds itself",
			   i, type);
	else if (b->h.add_len > 255)
		ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, type, -1,
			   "option %d (type 0x%02x): data length %zu is more than 255",
			   i, type, b->h.add_len);
	else
		ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, type, -1,
			   "option %d (type 0x%02x): no data for length %zu",
			   i, type, b->h.add_len);
	if (err)
		err->index = i;
	return b->h.add_error;
}

ssize_t ipeh_builder_finish(struct ipeh_builder *b, void *buf, size_t buflen,
			    struct ipeh_error *err)
{
	uint8_t *w = buf;
	size_t i;
	ssize_t n;

	if (b->h.add_error)
		return add_error_report(b, err);
	if (memo_hit(b)) {
		if (!buf || buflen < b->memo_len)
			return ipeh__fail(err, -ENOBUFS, IPEH_RULE_BUFFER, -1,
					  -1, "block needs %u bytes, buffer has %zu",
					  b->memo_len, buflen);
		copy_small(w, b->skel, b->memo_len);
		for (i = 0; i < b->h.nopts; i++)
			copy_small(w + b->memo[i].data_off, b->h.opts[i].data,
				   b->h.opts[i].len);
		return b->memo_len;
	}
	n = build(b->table, b->hdr, b->h.opts, b->h.nopts, buf, buflen,
		  &b->limits, b->flags, err, b->data_off);
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
