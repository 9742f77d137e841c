// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parser over a received option block.  Every read is bounded by the
 * header length, itself checked against the buffer length.
 */

#include "internal.h"

int ipeh_iter_init(struct ipeh_iter *it, const void *block, size_t buflen,
		   unsigned int flags)
{
	const uint8_t *b = block;
	size_t len;

	it->block = b;
	it->len = 0;
	it->off = 0;
	it->flags = flags;
	it->error = -EINVAL;
	if (!b || buflen < 2)
		return -EINVAL;
	len = ((size_t)b[1] + 1) * 8;
	if (len > buflen)
		return -EINVAL;
	it->len = len;
	it->off = 2;
	it->error = 0;
	return 0;
}

int ipeh_iter_next(struct ipeh_iter *it, struct ipeh_opt *opt)
{
	const uint8_t *b = it->block;

	if (it->error)
		return it->error;
	while (it->off < it->len) {
		size_t off = it->off;
		uint8_t type = b[off];
		size_t dlen;

		if (type == IPEH_OPT_PAD1) {
			it->off++;
			if (!(it->flags & IPEH_ITER_PADDING))
				continue;
			opt->type = type;
			opt->len = 0;
			opt->data = NULL;
			opt->offset = (uint16_t)off;
			return 1;
		}
		if (off + 2 > it->len)
			return it->error = -EINVAL;
		dlen = b[off + 1];
		if (off + 2 + dlen > it->len)
			return it->error = -EINVAL;
		it->off = off + 2 + dlen;
		if (type == IPEH_OPT_PADN && !(it->flags & IPEH_ITER_PADDING))
			continue;
		opt->type = type;
		opt->len = (uint8_t)dlen;
		opt->data = b + off + 2;
		opt->offset = (uint16_t)off;
		return 1;
	}
	return 0;
}

int ipeh_parse(const void *block, size_t buflen, struct ipeh_opt *opts,
	       size_t max, unsigned int flags, struct ipeh_error *err)
{
	struct ipeh_iter it;
	struct ipeh_opt o;
	size_t n = 0;
	int ret;

	if (ipeh_iter_init(&it, block, buflen, flags) < 0)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_STRUCTURE, -1,
				  buflen < 2 ? -1 : 1,
				  "block of %zu bytes shorter than its header length",
				  buflen);
	/* opts NULL: only count the options (and check the structure) */
	while ((ret = ipeh_iter_next(&it, &o)) > 0) {
		if (!opts) {
			n++;
			continue;
		}
		if (n >= max)
			return ipeh__fail(err, -ENOBUFS, IPEH_RULE_BUFFER,
					  o.type, o.offset,
					  "more than %zu options", max);
		opts[n++] = o;
	}
	if (ret < 0)
		return ipeh__fail(err, ret, IPEH_RULE_STRUCTURE,
				  ((const uint8_t *)block)[it.off], (long)it.off,
				  "option at offset %zu runs past the header end %zu",
				  it.off, it.len);
	return (int)n;
}

int ipeh_find(const void *block, size_t buflen, uint8_t type,
	      struct ipeh_opt *opt)
{
	struct ipeh_iter it;
	int ret;

	ret = ipeh_iter_init(&it, block, buflen,
			     type < 2 ? IPEH_ITER_PADDING : 0);
	if (ret < 0)
		return ret;
	while ((ret = ipeh_iter_next(&it, opt)) > 0) {
		if (opt->type == type)
			return 1;
	}
	return ret;
}
