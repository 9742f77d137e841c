// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "backend-nl.h"
#include "tlvctl.h"

/* Parses KEY VALUE pairs over @p; returns the IPEH_ATTR_* mask of the
 * keys given, or -1 after printing an error. */
static int parse_pairs(int argc, char **argv, struct ipeh_tlv_params *p)
{
	int mask = 0;

	if (argc % 2) {
		tlvctl_error("'%s' has no value", argv[argc - 1]);
		return -1;
	}
	for (int i = 0; i < argc; i += 2) {
		const char *key = argv[i], *val = argv[i + 1], *why = "";
		int ret, bits;

		if (!strcmp(key, "order")) {
			ret = tlv_parse_order(val, &p->order, &why);
			bits = IPEH_ATTR_ORDER;
		} else if (!strcmp(key, "class")) {
			ret = tlv_parse_class(val, &p->class_mask, &why);
			bits = IPEH_ATTR_CLASS;
		} else if (!strcmp(key, "admin")) {
			ret = tlv_parse_perm(val, &p->admin_perm, &why);
			bits = IPEH_ATTR_ADMIN_PERM;
		} else if (!strcmp(key, "user")) {
			ret = tlv_parse_perm(val, &p->user_perm, &why);
			bits = IPEH_ATTR_USER_PERM;
		} else if (!strcmp(key, "align")) {
			ret = tlv_parse_mult(val, &p->align_mult, &p->align_off,
					     &why);
			bits = IPEH_ATTR_ALIGN_MULT | IPEH_ATTR_ALIGN_OFF;
		} else if (!strcmp(key, "length")) {
			ret = tlv_parse_len_range(val, &p->min_data_len,
						  &p->max_data_len, &why);
			bits = IPEH_ATTR_MIN_DATA_LEN | IPEH_ATTR_MAX_DATA_LEN;
		} else if (!strcmp(key, "length-mult")) {
			ret = tlv_parse_mult(val, &p->data_len_mult,
					     &p->data_len_off, &why);
			bits = IPEH_ATTR_DATA_LEN_MULT | IPEH_ATTR_DATA_LEN_OFF;
		} else {
			tlvctl_error("unknown key '%s' (expected order, class, admin, user, align, length or length-mult)",
				     key);
			return -1;
		}
		if (ret) {
			tlvctl_error("invalid %s '%s': %s", key, val, why);
			return -1;
		}
		if (mask & bits) {
			tlvctl_error("'%s' given twice", key);
			return -1;
		}
		mask |= bits;
	}
	return mask;
}

int cmd_set(int argc, char **argv, const struct cmd_opts *o)
{
	struct ipeh_tlv_params p;
	struct ipeh_table t;
	struct ipeh_error e;
	struct backend be;
	char msg[256], name[32];
	const char *why;
	int type, mask, ret, lock;

	(void)o;
	if (argc < 4) {
		tlvctl_error("usage: tlvctl set TYPE KEY VALUE [KEY VALUE]...");
		return 2;
	}
	type = tlvctl_type_arg(argv[1]);
	if (type < 0)
		return 2;
	/* argument errors first, even on a kernel without the family */
	ipeh_tlv_params_unset(&p);
	if (parse_pairs(argc - 2, argv + 2, &p) < 0)
		return 2;
	if (tlvctl_open(&be))
		return 1;
	ret = be.ops->dump(be.ctx, &t, msg, sizeof(msg));
	if (ret) {
		tlvctl_error("cannot read the table: %s", msg);
		goto out;
	}
	p = t.params[type];
	mask = parse_pairs(argc - 2, argv + 2, &p);
	if (mask < 0) {
		ret = 2;
		goto out_close;
	}
	tlv_type_format((unsigned int)type, name, sizeof(name));
	if (!tlv_params_has_entry(&t.params[type]) &&
	    !(mask & IPEH_ATTR_ORDER)) {
		tlvctl_error("%s has no entry: 'order' is required", name);
		ret = 2;
		goto out_close;
	}
	if (tlv_params_check(&p, &why)) {
		tlvctl_error("%s: %s", name, why);
		ret = 2;
		goto out_close;
	}
	tlvctl_warn_managed(type);
	lock = tlvctl_lock();
	ipeh_error_clear(&e);
	ret = ipeh_nl_set(be.ctx, (uint8_t)type, &p, (unsigned int)mask, &e);
	tlvctl_unlock(lock);
	if (ret < 0) {
		tlvctl_error("set %s: %s", name,
			     nl_strerror(ret, e.msg, msg, sizeof(msg)));
		goto out;
	}
	ret = 0;
	goto out_close;
out:
	ret = 1;
out_close:
	nl_backend_close(&be);
	return ret;
}
