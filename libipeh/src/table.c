// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The TLV parameter table, its built-in default (kernel/TLV-TABLE.md),
 * names, sysctl limits and the error record.
 */

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <netinet/in.h>

#include "internal.h"

const char *ipeh_version(void)
{
	return "0.1.0";
}

/* Error record */

static const char *const rule_names[IPEH_RULE_END] = {
	[IPEH_RULE_NONE] = "none",
	[IPEH_RULE_STRUCTURE] = "structure",
	[IPEH_RULE_PERM] = "perm",
	[IPEH_RULE_CLASS] = "class",
	[IPEH_RULE_DATA_LEN] = "data-len",
	[IPEH_RULE_DATA_LEN_MULT] = "data-len-mult",
	[IPEH_RULE_COUNT] = "count",
	[IPEH_RULE_ORDER] = "order",
	[IPEH_RULE_ALIGN] = "align",
	[IPEH_RULE_PADDING] = "padding",
	[IPEH_RULE_TRAILING_PADDING] = "trailing-padding",
	[IPEH_RULE_LENGTH] = "length",
	[IPEH_RULE_BUFFER] = "buffer",
	[IPEH_RULE_PARAM] = "param",
	[IPEH_RULE_CODEC] = "codec",
	[IPEH_RULE_NETLINK] = "netlink",
	[IPEH_RULE_SYSCALL] = "syscall",
};

const char *ipeh_rule_name(enum ipeh_rule rule)
{
	if ((unsigned int)rule >= IPEH_RULE_END)
		return "unknown";
	return rule_names[rule];
}

void ipeh_error_clear(struct ipeh_error *e)
{
	if (!e)
		return;
	e->err = 0;
	e->rule = IPEH_RULE_NONE;
	e->type = -1;
	e->offset = -1;
	e->index = -1;
	e->msg[0] = '\0';
}

int ipeh__fail(struct ipeh_error *e, int err, enum ipeh_rule rule, int type,
	       long offset, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return err;
	e->err = err;
	e->rule = rule;
	e->type = type;
	e->offset = offset;
	e->index = -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return err;
}

/* Table */

void ipeh_tlv_params_unset(struct ipeh_tlv_params *p)
{
	*p = (struct ipeh_tlv_params){
		.order = 0,
		.admin_perm = IPEH_PERM_NO_CHECK,
		.user_perm = IPEH_PERM_NONE,
		.class_mask = 0,
		.align_mult = 4,
		.align_off = 2,
		.min_data_len = 0,
		.max_data_len = 255,
		.data_len_mult = 1,
		.data_len_off = 0,
	};
}

struct builtin {
	uint8_t type;
	struct ipeh_tlv_params p;
};

/* kernel/TLV-TABLE.md, "Built-in entries" */
static const struct builtin builtins[] = {
	{ IPEH_OPT_HAO, { 10, IPEH_PERM_NO_CHECK, IPEH_PERM_NONE,
			  IPEH_CLASS_DSTOPT, 8, 6, 16, 16, 1, 0 } },
	{ IPEH_OPT_RA, { 20, IPEH_PERM_NO_CHECK, IPEH_PERM_NONE,
			 IPEH_CLASS_HOPOPT, 2, 0, 2, 2, 1, 0 } },
	{ IPEH_OPT_JUMBO, { 30, IPEH_PERM_NO_CHECK, IPEH_PERM_NONE,
			    IPEH_CLASS_HOPOPT, 4, 2, 4, 4, 1, 0 } },
	{ IPEH_OPT_CALIPSO, { 40, IPEH_PERM_NO_CHECK, IPEH_PERM_NONE,
			      IPEH_CLASS_HOPOPT, 4, 2, 8, 252, 4, 0 } },
	{ IPEH_OPT_IOAM, { 50, IPEH_PERM_NO_CHECK, IPEH_PERM_NONE,
			   IPEH_CLASS_HOPOPT, 4, 0, 10, 254, 4, 2 } },
};

void ipeh_table_default_params(uint8_t type, unsigned int flags,
			       struct ipeh_tlv_params *p)
{
	size_t i;

	ipeh_tlv_params_unset(p);
	if (type == IPEH_OPT_HAO && (flags & IPEH_TABLE_NO_MIP6))
		return;
	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		if (builtins[i].type == type) {
			*p = builtins[i].p;
			return;
		}
	}
}

void ipeh_table_init_empty(struct ipeh_table *t)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		ipeh_tlv_params_unset(&t->params[i]);
}

void ipeh_table_init_default(struct ipeh_table *t, unsigned int flags)
{
	size_t i;

	ipeh_table_init_empty(t);
	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		if (builtins[i].type == IPEH_OPT_HAO &&
		    (flags & IPEH_TABLE_NO_MIP6))
			continue;
		t->params[builtins[i].type] = builtins[i].p;
	}
}

int ipeh_tlv_params_check(const struct ipeh_tlv_params *p,
			  struct ipeh_error *err)
{
	if (p->admin_perm > IPEH_PERM_NO_CHECK)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "admin permission %u out of range",
				  p->admin_perm);
	if (p->user_perm > IPEH_PERM_NO_CHECK)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "user permission %u out of range",
				  p->user_perm);
	if (p->class_mask & ~IPEH_CLASS_MASK)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "class 0x%x has unknown bits", p->class_mask);
	if (p->align_mult < 1 || p->align_mult > 16)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "alignment multiple %u not in 1..16",
				  p->align_mult);
	if (p->align_off >= p->align_mult)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "alignment offset %u not below multiple %u",
				  p->align_off, p->align_mult);
	if (p->min_data_len > p->max_data_len)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "min data length %u above max %u",
				  p->min_data_len, p->max_data_len);
	if (p->data_len_mult < 1 || p->data_len_mult > 16)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "data length multiple %u not in 1..16",
				  p->data_len_mult);
	if (p->data_len_off >= p->data_len_mult)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, -1, -1,
				  "data length offset %u not below multiple %u",
				  p->data_len_off, p->data_len_mult);
	return 0;
}

int ipeh_table_set(struct ipeh_table *t, uint8_t type,
		   const struct ipeh_tlv_params *p, struct ipeh_error *err)
{
	unsigned int i;
	int ret;

	if (!t || !p)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, type, -1,
				  "no table or no parameters");
	if (type < 2)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, type, -1,
				  "type %u is padding, not in the table", type);
	ret = ipeh_tlv_params_check(p, err);
	if (ret < 0) {
		if (err)
			err->type = type;
		return ret;
	}
	if (!p->order)
		return ipeh__fail(err, -EINVAL, IPEH_RULE_PARAM, type, -1,
				  "type %u: preferred order 0 is invalid", type);
	for (i = 2; i < 256; i++) {
		if (i != type && t->params[i].order == p->order)
			return ipeh__fail(err, -EALREADY, IPEH_RULE_PARAM,
					  type, -1,
					  "type %u: order %u already used by type %u",
					  type, p->order, i);
	}
	t->params[type] = *p;
	return 0;
}

int ipeh_table_unset(struct ipeh_table *t, uint8_t type, unsigned int flags)
{
	struct ipeh_tlv_params p;
	unsigned int i;

	if (!t || type < 2)
		return -EINVAL;
	ipeh_table_default_params(type, flags, &p);
	/* a built-in row comes back only if its order is still free */
	for (i = 2; p.order && i < 256; i++) {
		if (i != type && t->params[i].order == p.order)
			return -EALREADY;
	}
	t->params[type] = p;
	return 0;
}

bool ipeh_table_has_entry(const struct ipeh_table *t, uint8_t type)
{
	return t && t->params[type].order != 0;
}

/* Names */

static const struct {
	uint8_t type;
	const char *name;
} opt_names[] = {
	{ IPEH_OPT_PAD1, "pad1" },
	{ IPEH_OPT_PADN, "padn" },
	{ IPEH_OPT_TEL, "tel" },
	{ IPEH_OPT_RA, "ra" },
	{ IPEH_OPT_CALIPSO, "calipso" },
	{ IPEH_OPT_PMTU, "pmtu" },
	{ IPEH_OPT_IOAM, "ioam" },
	{ IPEH_OPT_JUMBO, "jumbo" },
	{ IPEH_OPT_HAO, "hao" },
	{ 0x1E, "exp-1e" },
	{ 0x3E, "exp-3e" },
	{ 0x5E, "exp-5e" },
	{ 0x7E, "exp-7e" },
	{ 0x9E, "exp-9e" },
	{ 0xBE, "exp-be" },
	{ 0xDE, "exp-de" },
	{ 0xFE, "exp-fe" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Decimal digits with no leading zero (0 itself excepted: "0300" is
 * neither octal nor 300), or 0x and hex digits; nothing else.
 */
static int parse_number(const char *s, long max)
{
	const char *digits = "0123456789";
	int base = 10;
	char *end;
	long v;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		digits = "0123456789abcdefABCDEF";
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1]) {
		return -EINVAL;
	}
	if (!*s || strspn(s, digits) != strlen(s) || strlen(s) > 8)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, base);
	if (errno || *end || v < 0 || v > max)
		return -EINVAL;
	return (int)v;
}

int ipeh_opt_type_parse(const char *name)
{
	size_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(opt_names); i++) {
		if (!strcasecmp(name, opt_names[i].name))
			return opt_names[i].type;
	}
	/* "exp-0x1e" as well as "exp-1e" */
	if (!strncasecmp(name, "exp-0x", 6)) {
		char alt[16];

		snprintf(alt, sizeof(alt), "exp-%s", name + 6);
		for (i = 0; i < ARRAY_SIZE(opt_names); i++) {
			if (!strcasecmp(alt, opt_names[i].name))
				return opt_names[i].type;
		}
		return -EINVAL;
	}
	return parse_number(name, 255);
}

const char *ipeh_opt_type_name(uint8_t type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opt_names); i++) {
		if (opt_names[i].type == type)
			return opt_names[i].name;
	}
	return NULL;
}

int ipeh_opt_type_format(uint8_t type, char *buf, size_t len)
{
	const char *name = ipeh_opt_type_name(type);

	if (name)
		return snprintf(buf, len, "%s", name);
	return snprintf(buf, len, "0x%02x", type);
}

static const char *const perm_names[] = { "none", "check", "no-check" };

const char *ipeh_perm_name(uint8_t perm)
{
	if (perm < ARRAY_SIZE(perm_names))
		return perm_names[perm];
	if (perm == IPEH_PERM_UNKNOWN)
		return "unknown";
	return "invalid";
}

int ipeh_perm_parse(const char *name)
{
	size_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(perm_names); i++) {
		if (!strcasecmp(name, perm_names[i]))
			return (int)i;
	}
	if (!strcasecmp(name, "with-check"))
		return IPEH_PERM_CHECK;
	return parse_number(name, IPEH_PERM_NO_CHECK);
}

static const struct {
	uint8_t flag;
	const char *name;
} class_names[] = {
	{ IPEH_CLASS_HOPOPT, "hop" },
	{ IPEH_CLASS_RTRDSTOPT, "rtdst" },
	{ IPEH_CLASS_DSTOPT, "dst" },
};

int ipeh_class_format(uint8_t class_mask, char *buf, size_t len)
{
	size_t i, used = 0;
	int n;

	if (!class_mask)
		return snprintf(buf, len, "none");
	if (class_mask & ~IPEH_CLASS_MASK)
		return snprintf(buf, len, "0x%x", class_mask);
	if (len)
		buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(class_names); i++) {
		if (!(class_mask & class_names[i].flag))
			continue;
		n = snprintf(used < len ? buf + used : NULL,
			     used < len ? len - used : 0, "%s%s",
			     used ? "," : "", class_names[i].name);
		if (n < 0)
			return n;
		used += (size_t)n;
	}
	return (int)used;
}

int ipeh_class_parse(const char *s)
{
	int mask = 0;

	if (!s || !*s)
		return -EINVAL;
	if (isdigit((unsigned char)*s))
		return parse_number(s, IPEH_CLASS_MASK);
	if (!strcasecmp(s, "none"))
		return 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		size_t i;
		bool found = false;

		for (i = 0; i < ARRAY_SIZE(class_names); i++) {
			if (strlen(class_names[i].name) == n &&
			    !strncasecmp(s, class_names[i].name, n)) {
				mask |= class_names[i].flag;
				found = true;
			}
		}
		if (!found)
			return -EINVAL;
		s += n;
		if (*s == ',') {
			s++;
			if (!*s)
				return -EINVAL;
		}
	}
	return mask;
}

const char *ipeh_hdr_name(enum ipeh_hdr hdr)
{
	switch (hdr) {
	case IPEH_HDR_HOPOPTS:
		return "hop";
	case IPEH_HDR_RTHDRDSTOPTS:
		return "rtdst";
	case IPEH_HDR_DSTOPTS:
		return "dst";
	}
	return "invalid";
}

int ipeh_hdr_parse(const char *name)
{
	if (!name)
		return -EINVAL;
	if (!strcasecmp(name, "hop") || !strcasecmp(name, "hbh"))
		return IPEH_HDR_HOPOPTS;
	if (!strcasecmp(name, "rtdst"))
		return IPEH_HDR_RTHDRDSTOPTS;
	if (!strcasecmp(name, "dst"))
		return IPEH_HDR_DSTOPTS;
	return -EINVAL;
}

int ipeh_hdr_sockopt(enum ipeh_hdr hdr)
{
	switch (hdr) {
	case IPEH_HDR_HOPOPTS:
		return IPV6_HOPOPTS;
	case IPEH_HDR_RTHDRDSTOPTS:
		return IPV6_RTHDRDSTOPTS;
	case IPEH_HDR_DSTOPTS:
		return IPV6_DSTOPTS;
	}
	return -EINVAL;
}

/* Limits */

void ipeh_limits_default(struct ipeh_limits *lim)
{
	lim->max_opts_number = IPEH_DEFAULT_MAX_OPTS_NUMBER;
	lim->max_opts_length = IPEH_DEFAULT_MAX_OPTS_LENGTH;
}

static int read_sysctl_int(const char *path, int *val)
{
	char buf[32], *end;
	FILE *f;
	long v;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v < -0x7fffffffL - 1 || v > 0x7fffffffL)
		return -EINVAL;
	*val = (int)v;
	return 0;
}

int ipeh_limits_read(enum ipeh_hdr hdr, struct ipeh_limits *lim)
{
	struct ipeh_limits l;
	int ret;

	if (!ipeh__hdr_ok(hdr))
		return -EINVAL;
	if (hdr == IPEH_HDR_HOPOPTS) {
		ret = read_sysctl_int("/proc/sys/net/ipv6/max_hbh_opts_number",
				      &l.max_opts_number);
		if (!ret)
			ret = read_sysctl_int("/proc/sys/net/ipv6/max_hbh_length",
					      &l.max_opts_length);
	} else {
		ret = read_sysctl_int("/proc/sys/net/ipv6/max_dst_opts_number",
				      &l.max_opts_number);
		if (!ret)
			ret = read_sysctl_int("/proc/sys/net/ipv6/max_dst_opts_length",
					      &l.max_opts_length);
	}
	if (ret < 0)
		return ret;
	*lim = l;
	return 0;
}
