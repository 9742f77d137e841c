// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#include "table.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

bool tlv_params_equal(const struct ipeh_tlv_params *a,
		      const struct ipeh_tlv_params *b)
{
	if (!tlv_params_has_entry(a) && !tlv_params_has_entry(b))
		return true;
	if (a->admin_perm != b->admin_perm &&
	    a->admin_perm != TLV_PERM_UNKNOWN &&
	    b->admin_perm != TLV_PERM_UNKNOWN)
		return false;
	return a->order == b->order && a->user_perm == b->user_perm &&
	       a->class_mask == b->class_mask &&
	       a->align_mult == b->align_mult &&
	       a->align_off == b->align_off &&
	       a->min_data_len == b->min_data_len &&
	       a->max_data_len == b->max_data_len &&
	       a->data_len_mult == b->data_len_mult &&
	       a->data_len_off == b->data_len_off;
}

void tlv_table_kernel_default(struct ipeh_table *t,
			      const struct ipeh_table *live)
{
	unsigned int flags = 0;

	if (live && !tlv_params_has_entry(&live->params[IPEH_OPT_HAO]))
		flags |= IPEH_TABLE_NO_MIP6;
	ipeh_table_init_default(t, flags);
}

bool tlv_type_is_builtin(unsigned int type)
{
	struct ipeh_tlv_params p;

	ipeh_table_default_params((uint8_t)type, 0, &p);
	return tlv_params_has_entry(&p);
}

/*
 * The one number syntax of tlvd.conf(5) and tlvctl: decimal digits with no
 * leading zero (0 itself excepted, so that 0300 is neither octal nor 300),
 * or, where @hex allows it (option types), 0x and hex digits.
 */
static int parse_number(const char *s, unsigned long max, bool hex,
			unsigned long *out)
{
	const char *digits = "0123456789";
	unsigned long v;
	char *end;
	int base = 10;

	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		digits = "0123456789abcdefABCDEF";
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1]) {
		return -1;
	}
	if (!s[0] || strspn(s, digits) != strlen(s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	return parse_number(s, max, false, out);
}

int tlv_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	return parse_uint(s, max, out);
}

int tlv_type_parse(const char *s)
{
	unsigned long v;
	int type;

	if (!parse_number(s, 255, true, &v))
		return v < TLV_TYPE_FIRST ? -1 : (int)v;
	/* a number that is not one (0300, 0x0x31, 256) is not a name either */
	if (isdigit((unsigned char)s[0]))
		return -1;
	type = ipeh_opt_type_parse(s);
	if (type < TLV_TYPE_FIRST || type > 255)
		return -1;
	return type;
}

const char *tlv_type_format(unsigned int type, char *buf, size_t len)
{
	const char *name = ipeh_opt_type_name((uint8_t)type);

	if (name)
		snprintf(buf, len, "%s (0x%02x)", name, type);
	else
		snprintf(buf, len, "0x%02x", type);
	return buf;
}

const char *tlv_type_short(unsigned int type, char *buf, size_t len)
{
	const char *name = ipeh_opt_type_name((uint8_t)type);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "0x%02x", type);
	return buf;
}

static const char *const perm_names[] = {
	[IPEH_PERM_NONE] = "none",
	[IPEH_PERM_CHECK] = "check",
	[IPEH_PERM_NO_CHECK] = "nocheck",
};

const char *tlv_perm_name(uint8_t perm)
{
	if (perm <= IPEH_PERM_NO_CHECK)
		return perm_names[perm];
	return "unknown";
}

int tlv_parse_perm(const char *s, uint8_t *perm, const char **why)
{
	for (uint8_t i = 0; i <= IPEH_PERM_NO_CHECK; i++) {
		if (!strcmp(s, perm_names[i])) {
			*perm = i;
			return 0;
		}
	}
	if (!strcmp(s, "no-check")) {
		*perm = IPEH_PERM_NO_CHECK;
		return 0;
	}
	*why = "expected none, check or nocheck";
	return -1;
}

static const struct {
	const char *name;
	uint8_t flag;
} class_names[] = {
	{ "hop", IPEH_CLASS_HOPOPT },
	{ "rtrdst", IPEH_CLASS_RTRDSTOPT },
	{ "dst", IPEH_CLASS_DSTOPT },
};

int tlv_parse_class(const char *s, uint8_t *class, const char **why)
{
	uint8_t c = 0;

	for (;;) {
		size_t n, skip;
		bool found = false;

		s += strspn(s, " \t");
		n = strcspn(s, ",");
		skip = n;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;

		for (size_t i = 0; i < ARRAY_SIZE(class_names); i++) {
			const char *name = class_names[i].name;

			/* libipeh spells it "rtdst" */
			if (class_names[i].flag == IPEH_CLASS_RTRDSTOPT &&
			    n == 5 && !strncmp(s, "rtdst", 5))
				name = "rtdst";
			if (strlen(name) == n && !strncmp(s, name, n)) {
				if (c & class_names[i].flag) {
					*why = "a header is listed twice";
					return -1;
				}
				c |= class_names[i].flag;
				found = true;
			}
		}
		if (!found) {
			*why = "expected hop, dst, rtrdst or a comma-separated list of them";
			return -1;
		}
		if (!s[skip])
			break;
		s += skip + 1;
	}
	*class = c;
	return 0;
}

const char *tlv_class_format(uint8_t class, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(class_names); i++) {
		if (!(class & class_names[i].flag))
			continue;
		used += snprintf(buf + used, used < len ? len - used : 0,
				 "%s%s", used ? "," : "", class_names[i].name);
	}
	if (!used)
		snprintf(buf, len, "none");
	return buf;
}

int tlv_parse_order(const char *s, uint16_t *order, const char **why)
{
	unsigned long v;

	if (parse_uint(s, 65535, &v) || v == 0) {
		*why = "expected a number from 1 to 65535";
		return -1;
	}
	*order = (uint16_t)v;
	return 0;
}

int tlv_parse_mult(const char *s, uint8_t *mult, uint8_t *off,
		   const char **why)
{
	unsigned long m, o = 0;
	char buf[16];
	const char *n = strchr(s, 'n');

	*why = "expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2";
	if (!n || (size_t)(n - s) >= sizeof(buf) || n == s)
		return -1;
	memcpy(buf, s, n - s);
	buf[n - s] = '\0';
	if (parse_uint(buf, 16, &m) || m == 0)
		return -1;
	if (n[1] == '+') {
		if (parse_uint(n + 2, 15, &o))
			return -1;
	} else if (n[1]) {
		return -1;
	}
	if (o >= m)
		return -1;
	*mult = (uint8_t)m;
	*off = (uint8_t)o;
	return 0;
}

int tlv_parse_len_range(const char *s, uint8_t *min, uint8_t *max,
			const char **why)
{
	unsigned long lo, hi;
	char buf[16];
	const char *dash = strchr(s, '-');

	*why = "expected N or MIN-MAX, from 0 to 255";
	if (!dash) {
		if (parse_uint(s, 255, &lo))
			return -1;
		hi = lo;
	} else {
		if ((size_t)(dash - s) >= sizeof(buf))
			return -1;
		memcpy(buf, s, dash - s);
		buf[dash - s] = '\0';
		if (parse_uint(buf, 255, &lo) || parse_uint(dash + 1, 255, &hi))
			return -1;
		if (lo > hi) {
			*why = "MIN is above MAX";
			return -1;
		}
	}
	*min = (uint8_t)lo;
	*max = (uint8_t)hi;
	return 0;
}

int tlv_params_check(const struct ipeh_tlv_params *p, const char **why)
{
	unsigned int len;

	if (!tlv_params_has_entry(p))
		return 0;
	if (!p->class_mask || (p->class_mask & ~IPEH_CLASS_MASK)) {
		*why = "class must name at least one header";
		return -1;
	}
	if (p->align_mult < 1 || p->align_mult > 16 ||
	    p->align_off >= p->align_mult) {
		*why = "bad alignment";
		return -1;
	}
	if (p->data_len_mult < 1 || p->data_len_mult > 16 || p->data_len_off >= p->data_len_mult) {
		*why = "bad length multiple";
		return -1;
	}
	if (p->min_data_len > p->max_data_len) {
		*why = "minimum length above maximum length";
		return -1;
	}
	for (len = p->min_data_len; len <= p->max_data_len; len++)
		if (len % p->data_len_mult == p->data_len_off)
			return 0;
	*why = "no data length in the length range matches length-mult";
	return -1;
}

void tlv_params_format(const struct ipeh_tlv_params *p, char *buf,
		       size_t len)
{
	char cls[24];

	if (!tlv_params_has_entry(p)) {
		snprintf(buf, len, "no entry");
		return;
	}
	snprintf(buf, len, "order %u class %s admin %s user %s align %un+%u "
		 "length %u-%u length-mult %un+%u",
		 p->order, tlv_class_format(p->class_mask, cls, sizeof(cls)),
		 tlv_perm_name(p->admin_perm), tlv_perm_name(p->user_perm),
		 p->align_mult, p->align_off, p->min_data_len,
		 p->max_data_len, p->data_len_mult, p->data_len_off);
}
