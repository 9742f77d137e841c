// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Validation of an option block as the kernel validates one set by an
 * application: kernel/TLV-TABLE.md, including its "Precisely, as the
 * kernel port implements it" section, which differs from seed patch 9/9 in
 * where the rules on the header as a whole apply and in the negative count
 * limit (see the comments below).  The loop follows the kernel's so that the verdict
 * and the errno are the same for every block; where a check fails, the
 * error record says why.
 */

#include "internal.h"

static int bad_param(struct ipeh_error *err, int type, long off)
{
	return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, type, off,
			  "type %d: table entry has an invalid multiple", type);
}

static int fail_padding(struct ipeh_error *err, int type, long off,
			unsigned int numpad, unsigned int padding,
			bool nonzero, unsigned int mult)
{
	if (numpad > 1)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PADDING, type, off,
				  "%u padding options before option at offset %ld, at most one allowed",
				  numpad, off);
	if (nonzero)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PADDING, type, off,
				  "non-zero PadN before option at offset %ld",
				  off);
	return ipeh__fail(err, -EINVAL, IPEH_RULE_PADDING, type, off,
			  "%u bytes of padding before option at offset %ld, at most %u allowed",
			  padding, off, mult - 1);
}

/*
 * While the table grants users no option at all, the kernel refuses a user
 * with -EPERM before it looks at the header (as Linux 6.12 did).  Only a
 * structural error can come before the first option's own -EPERM, so this
 * is asked on those paths only, never on the way to success.
 */
static bool user_granted_nothing(const struct ipeh_table *t)
{
	unsigned int i;

	for (i = 2; i < 256; i++)
		if (t->params[i].user_perm != IPEH_PERM_NONE)
			return false;
	return true;
}

static int fail_nothing_granted(struct ipeh_error *err)
{
	return ipeh__fail(err, -EPERM, IPEH_RULE_PERM, -1, -1,
			  "the table grants users no option");
}

int ipeh_validate(const struct ipeh_table *t, enum ipeh_hdr hdr,
		  const void *block, size_t len,
		  const struct ipeh_limits *lim, unsigned int flags,
		  struct ipeh_error *err)
{
	const uint8_t *tlv = block;
	bool admin = flags & IPEH_F_ADMIN;
	bool deep_check = false, header_rules;
	bool nonzero_padding = false;
	unsigned int padding = 0, numpad = 0, cnt = 0;
	long over_off = -1;
	int over_type = -1;
	unsigned int prev_order = 0;
	unsigned int max_cnt, max_len;
	size_t opt_len, offset, tlv_len;
	unsigned int class = (unsigned int)hdr;

	if (!ipeh__hdr_ok(hdr))
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "invalid header kind %d", (int)hdr);
	if (!t)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "no table");

	/* removing options is allowed to everyone (TLV-TABLE.md) */
	if (flags & IPEH_F_DELETING)
		return 0;

	ipeh__limits(lim, &max_cnt, &max_len);

	if (flags & IPEH_F_SETSOCKOPT) {
		if (len == 0)
			return 0;	/* removes the sticky options */
		if (!block || len < 2 || (len & 7) || len > IPEH_BLOCK_MAX) {
			if (!admin && user_granted_nothing(t))
				return fail_nothing_granted(err);
			return ipeh__fail(err, -EINVAL, IPEH_RULE_STRUCTURE,
					  -1, -1,
					  "setsockopt length %zu is not a multiple of 8 in 8..%u",
					  len, IPEH_BLOCK_MAX);
		}
	} else if (!block || len < 2) {
		return ipeh__fail(err, -EINVAL, IPEH_RULE_STRUCTURE, -1, -1,
				  "block of %zu bytes is shorter than the 2-byte header",
				  len);
	}
	opt_len = ((size_t)tlv[1] + 1) * 8;
	if (opt_len > len) {
		/* after the copy in setsockopt(), a cmsg's framing for sendmsg() */
		if ((flags & IPEH_F_SETSOCKOPT) && !admin &&
		    user_granted_nothing(t))
			return fail_nothing_granted(err);
		return ipeh__fail(err, -EINVAL, IPEH_RULE_STRUCTURE, -1, 1,
				  "header length %zu exceeds the %zu bytes given",
				  opt_len, len);
	}

	/*
	 * TLV-TABLE.md: the rules on the header as a whole (count, trailing
	 * padding, length) hold for every header of an unprivileged caller,
	 * and for a privileged caller's header once one of its options is
	 * deep-checked; a no-check option skips only its own checks.  Seed
	 * 9/9 decided them from the last option's permission.
	 */
	header_rules = !admin;

	offset = 2;
	while (offset < opt_len) {
		const struct ipeh_tlv_params *p;
		uint8_t type = tlv[offset];
		unsigned int perm, dlen;
		size_t i;

		switch (type) {
		case IPEH_OPT_PAD1:
			tlv_len = 1;
			padding++;
			numpad++;
			break;
		case IPEH_OPT_PADN:
			if (offset + 2 > opt_len)
				goto truncated;
			tlv_len = (size_t)tlv[offset + 1] + 2;
			if (offset + tlv_len > opt_len)
				goto truncated;
			for (i = 2; i < tlv_len; i++) {
				if (tlv[offset + i]) {
					nonzero_padding = true;
					break;
				}
			}
			padding += (unsigned int)tlv_len;
			numpad++;
			break;
		default:
			if (offset + 2 > opt_len)
				goto truncated;
			tlv_len = (size_t)tlv[offset + 1] + 2;
			if (offset + tlv_len > opt_len)
				goto truncated;

			p = &t->params[type];
			perm = admin ? p->admin_perm : p->user_perm;
			if (perm == IPEH_PERM_NO_CHECK) {
				deep_check = false;
			} else if (perm == IPEH_PERM_CHECK) {
				deep_check = true;
				if ((p->class_mask & class) != class)
					return ipeh__fail(err, -EINVAL,
							  IPEH_RULE_CLASS, type,
							  (long)offset,
							  "option 0x%02x not allowed in %s header",
							  type, ipeh_hdr_name(hdr));
				dlen = tlv[offset + 1];
				if (dlen < p->min_data_len ||
				    dlen > p->max_data_len)
					return ipeh__fail(err, -EINVAL,
							  IPEH_RULE_DATA_LEN,
							  type, (long)offset,
							  "option 0x%02x data length %u not in %u..%u",
							  type, dlen,
							  p->min_data_len,
							  p->max_data_len);
				if (p->data_len_mult < 1 ||
				    p->data_len_mult > 16)
					return bad_param(err, type,
							 (long)offset);
				if (ipeh__mod(dlen, p->data_len_mult) !=
				    p->data_len_off)
					return ipeh__fail(err, -EINVAL,
							  IPEH_RULE_DATA_LEN_MULT,
							  type, (long)offset,
							  "option 0x%02x data length %u is not %un+%u",
							  type, dlen,
							  p->data_len_mult,
							  p->data_len_off);
			} else {
				return ipeh__fail(err, -EPERM, IPEH_RULE_PERM,
						  type, (long)offset,
						  "option 0x%02x may not be sent by %s",
						  type, admin ? "admin" : "user");
			}

			/* every non-padding option counts, as on receive */
			cnt++;
			if (cnt - 1 == max_cnt) {
				over_off = (long)offset;
				over_type = type;
			}
			if (deep_check) {
				if (p->order < prev_order)
					return ipeh__fail(err, -EINVAL,
							  IPEH_RULE_ORDER, type,
							  (long)offset,
							  "option 0x%02x (order %u) after order %u",
							  type, p->order,
							  prev_order);
				if (p->align_mult < 1 || p->align_mult > 16)
					return bad_param(err, type,
							 (long)offset);
				if (ipeh__mod(offset, p->align_mult) !=
				    p->align_off)
					return ipeh__fail(err, -EINVAL,
							  IPEH_RULE_ALIGN, type,
							  (long)offset,
							  "option 0x%02x at offset %zu, must be at %un+%u",
							  type, offset,
							  p->align_mult,
							  p->align_off);
				/* kernel: padding > align_mult - 1 */
				if (numpad > 1 ||
				    padding > p->align_mult - 1u ||
				    nonzero_padding)
					return fail_padding(err, type,
							    (long)offset,
							    numpad, padding,
							    nonzero_padding,
							    p->align_mult);
				prev_order = p->order;
				header_rules = true;
			}
			nonzero_padding = false;
			padding = 0;
			numpad = 0;
		}
		offset += tlv_len;
	}

	/* a header with no option gives a user nothing to be granted */
	if (!admin && !cnt)
		return ipeh__fail(err, -EPERM, IPEH_RULE_PERM, -1, 2,
				  "a header of padding only may not be sent by user");
	if (!header_rules)
		return 0;
	if (cnt > max_cnt)
		return ipeh__fail(err, -E2BIG, IPEH_RULE_COUNT, over_type,
				  over_off, "%u options, at most %u allowed",
				  cnt, max_cnt);
	if (numpad > 1 || padding > 7 || nonzero_padding)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_TRAILING_PADDING, -1,
				  (long)(opt_len - padding),
				  "trailing padding: %u option(s), %u bytes%s; one option of at most 7 zero bytes allowed",
				  numpad, padding,
				  nonzero_padding ? ", non-zero" : "");

	if (opt_len > max_len)
		return ipeh__fail(err, -EMSGSIZE, IPEH_RULE_LENGTH, -1, -1,
				  "header length %zu above the limit %u",
				  opt_len, max_len);
	return 0;

truncated:
	if (!admin && user_granted_nothing(t))
		return fail_nothing_granted(err);
	return ipeh__fail(err, -EINVAL, IPEH_RULE_STRUCTURE, tlv[offset],
			  (long)offset,
			  "option at offset %zu runs past the header end %zu",
			  offset, opt_len);
}
