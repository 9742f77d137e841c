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

	return (unsigned int)((p->align_off + mult - offset % mult) % mult);
}

static inline uint8_t *put_pad(uint8_t *w, unsigned int pad)
{
	if (pad == 1) {
		*w++ = IPEH_OPT_PAD1;
	} else if (pad > 1) {
		w[0] = IPEH_OPT_PADN;
		w[1] = (uint8_t)(pad - 2);
		memset(w + 2, 0, pad - 2);
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
	    o->len % p->data_len_mult != p->data_len_off)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_DATA_LEN_MULT,
				  o->type, -1,
				  "option 0x%02x data length %u is not %un+%u",
				  o->type, o->len, p->data_len_mult,
				  p->data_len_off);
	return 1;
}

ssize_t ipeh_build(const struct ipeh_table *t, enum ipeh_hdr hdr,
		   const struct ipeh_opt *opts, size_t nopts,
		   void *buf, size_t buflen,
		   const struct ipeh_limits *lim, unsigned int flags,
		   struct ipeh_error *err)
{
	uint16_t idx[IPEH_OPTS_MAX];
	unsigned int max_cnt, max_len, cnt = 0;
	bool did_deep_check = false;
	size_t i, j, offset, total, hdr_max;
	uint8_t *w;

	if (!ipeh__hdr_ok(hdr))
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "invalid header kind %d", (int)hdr);
	if (nopts > IPEH_OPTS_MAX)
		return ipeh__fail(err, -EMSGSIZE, IPEH_RULE_LENGTH, -1, -1,
				  "%zu options cannot fit in one header", nopts);
	if (lim) {
		max_cnt = (unsigned int)lim->max_opts_number;
		max_len = (unsigned int)lim->max_opts_length;
	} else {
		max_cnt = IPEH_DEFAULT_MAX_OPTS_NUMBER;
		max_len = IPEH_DEFAULT_MAX_OPTS_LENGTH;
	}
	hdr_max = flags & IPEH_F_SETSOCKOPT ? IPEH_BLOCK_MAX : IPEH_HDR_MAX;

	/* stable insertion sort by preferred order */
	for (i = 0; i < nopts; i++) {
		unsigned int order = t->params[opts[i].type].order;

		for (j = i; j > 0 && t->params[opts[idx[j - 1]].type].order > order; j--)
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
		offset += pad_needed(offset, p);
		if (deep) {
			if (++cnt > max_cnt)
				return ipeh__fail(err, -E2BIG, IPEH_RULE_COUNT,
						  o->type, (long)offset,
						  "more than %u options",
						  max_cnt);
			did_deep_check = true;
		}
		offset += 2 + (size_t)o->len;
	}
	total = (offset + 7) & ~(size_t)7;
	if (total > hdr_max)
		return ipeh__fail(err, -EMSGSIZE, IPEH_RULE_LENGTH, -1, -1,
				  "block would be %zu bytes, more than %zu",
				  total, hdr_max);
	if (did_deep_check && total > max_len)
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
		unsigned int pad = pad_needed(offset, &t->params[o->type]);

		w = put_pad(w, pad);
		w[0] = o->type;
		w[1] = o->len;
		if (o->len)
			memcpy(w + 2, o->data, o->len);
		w += 2 + (size_t)o->len;
		offset += pad + 2 + (size_t)o->len;
	}
	put_pad(w, (unsigned int)(total - offset));
	return (ssize_t)total;
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
}

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

ssize_t ipeh_builder_finish(struct ipeh_builder *b, void *buf, size_t buflen,
			    struct ipeh_error *err)
{
	if (b->error)
		return ipeh__fail(err, b->error, IPEH_RULE_PARAM, -1, -1,
				  "an option could not be added (%s)",
				  b->error == -E2BIG ? "builder full" :
				  "invalid type or length");
	return ipeh_build(b->table, b->hdr, b->opts, b->nopts, buf, buflen,
			  &b->limits, b->flags, err);
}

void ipeh_builder_reset(struct ipeh_builder *b)
{
	b->error = 0;
	b->nopts = 0;
}
