/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's replies to ipeh-tlv SET requests, as a guest recorded them
 * (unit/kernel-replies.txt; vm-images/tests/52-netlink-perms.t fails when
 * the kernel answers otherwise), and the rules by which the unit tests'
 * fake kernels choose one.  The rules are the checks of the kernel's SET
 * in the kernel's order: genetlink's permission check, the attribute
 * policy (attribute by attribute), then tlv_nl_params_from_attrs() on the
 * attributes merged over the current entry, then __tlv_set_one()'s order
 * check.  A fake answers a refusal with the recorded errno and message,
 * never with its own; test-kernel-replies.c runs every recorded request
 * through these rules.
 */
#ifndef KERNEL_REPLIES_H
#define KERNEL_REPLIES_H

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipeh.h>

#ifndef IPEH_KERNEL_REPLIES
#error "IPEH_KERNEL_REPLIES: the path of unit/kernel-replies.txt"
#endif

struct kernel_reply {
	char rule[24];
	bool user;		/* sent by an unprivileged user */
	char request[80];	/* ipeh-probe rawnl arguments */
	int err;		/* negative errno; 0: accepted */
	char msg[96];		/* the kernel's extack message, or "" */
};

#define KERNEL_REPLIES_MAX	32

static inline char *kr_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static inline int kr_errno(const char *name)
{
	static const struct { const char *name; int err; } names[] = {
		{ "ok", 0 }, { "EPERM", EPERM }, { "EINVAL", EINVAL },
		{ "ERANGE", ERANGE }, { "EALREADY", EALREADY },
		{ "ENOENT", ENOENT }, { "EOPNOTSUPP", EOPNOTSUPP },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, name))
			return -names[i].err;
	return 1;
}

static inline void kr_die(const char *what, unsigned int line)
{
	fprintf(stderr, "%s:%u: %s\n", IPEH_KERNEL_REPLIES, line, what);
	abort();
}

/* Every recorded reply, read once; a malformed file aborts the test. */
static inline const struct kernel_reply *kernel_replies(size_t *count)
{
	static struct kernel_reply r[KERNEL_REPLIES_MAX];
	static size_t n;
	char line[512];
	unsigned int lineno = 0;
	FILE *f;

	if (n) {
		*count = n;
		return r;
	}
	f = fopen(IPEH_KERNEL_REPLIES, "r");
	if (!f)
		kr_die("cannot open the kernel transcript", 0);
	while (fgets(line, sizeof(line), f)) {
		char *field[5], *s = line;
		int i;

		lineno++;
		if (line[0] == '#' || !kr_trim(line)[0])
			continue;
		for (i = 0; i < 5; i++) {
			field[i] = s;
			s = strchr(s, '|');
			if (!s && i < 4)
				kr_die("want 5 fields separated by '|'", lineno);
			if (s)
				*s++ = '\0';
			field[i] = kr_trim(field[i]);
		}
		if (n == KERNEL_REPLIES_MAX)
			kr_die("too many replies", lineno);
		snprintf(r[n].rule, sizeof(r[n].rule), "%s", field[0]);
		r[n].user = !strcmp(field[1], "user");
		snprintf(r[n].request, sizeof(r[n].request), "%s", field[2]);
		r[n].err = kr_errno(field[3]);
		if (r[n].err > 0)
			kr_die("unknown errno name", lineno);
		snprintf(r[n].msg, sizeof(r[n].msg), "%s", field[4]);
		n++;
	}
	fclose(f);
	if (!n)
		kr_die("no reply recorded", lineno);
	*count = n;
	return r;
}

/* The recorded reply for @rule; a rule that was never recorded aborts. */
static inline const struct kernel_reply *kernel_reply(const char *rule)
{
	size_t n;
	const struct kernel_reply *r = kernel_replies(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].rule, rule))
			return &r[i];
	fprintf(stderr, "%s: no reply recorded for rule '%s'\n",
		IPEH_KERNEL_REPLIES, rule);
	abort();
}

/*
 * The message libipeh gives for the reply (ipeh_nlmsg_parse_error()):
 * the kernel's extack message and the errno's description, or the
 * description alone.
 */
static inline void kernel_reply_libipeh_msg(const struct kernel_reply *r,
					    char *buf, size_t len)
{
	if (r->msg[0])
		snprintf(buf, len, "%s (%s)", r->msg, strerror(-r->err));
	else
		snprintf(buf, len, "%s", strerror(-r->err));
}

/* @p with the attributes of @mask taken from @given, the rest kept */
static inline void kernel_set_merge(struct ipeh_tlv_params *p,
				    const struct ipeh_tlv_params *given,
				    unsigned int mask)
{
#define KR_TAKE(bit, field) do { if (mask & (bit)) p->field = given->field; } while (0)
	KR_TAKE(IPEH_ATTR_ORDER, order);
	KR_TAKE(IPEH_ATTR_ADMIN_PERM, admin_perm);
	KR_TAKE(IPEH_ATTR_USER_PERM, user_perm);
	KR_TAKE(IPEH_ATTR_CLASS, class_mask);
	KR_TAKE(IPEH_ATTR_ALIGN_MULT, align_mult);
	KR_TAKE(IPEH_ATTR_ALIGN_OFF, align_off);
	KR_TAKE(IPEH_ATTR_MIN_DATA_LEN, min_data_len);
	KR_TAKE(IPEH_ATTR_MAX_DATA_LEN, max_data_len);
	KR_TAKE(IPEH_ATTR_DATA_LEN_MULT, data_len_mult);
	KR_TAKE(IPEH_ATTR_DATA_LEN_OFF, data_len_off);
#undef KR_TAKE
}

/*
 * The rule a SET of @type by an administrator breaks, for the attributes
 * in @mask (IPEH_ATTR_*) with the values of @p (the attributes' units:
 * align_mult and data_len_mult are the real multiples), against table @t;
 * "ok" if the kernel accepts it.
 */
static inline const char *kernel_set_rule(const struct ipeh_table *t,
					  unsigned int type,
					  const struct ipeh_tlv_params *p,
					  unsigned int mask)
{
	const struct ipeh_tlv_params *cur = &t->params[type < 256 ? type : 0];
	struct ipeh_tlv_params q;

	/* the policy, attribute by attribute in the order libipeh puts them */
	if (type < 2 || type > 255)
		return "type-range";
	if ((mask & IPEH_ATTR_ORDER) && !p->order)
		return "order-range";
	if (((mask & IPEH_ATTR_ADMIN_PERM) && p->admin_perm > IPEH_PERM_NO_CHECK) ||
	    ((mask & IPEH_ATTR_USER_PERM) && p->user_perm > IPEH_PERM_NO_CHECK))
		return "perm-range";
	if ((mask & IPEH_ATTR_CLASS) && (p->class_mask & ~IPEH_CLASS_MASK))
		return "class-mask";
	if ((mask & IPEH_ATTR_ALIGN_MULT) &&
	    (p->align_mult < 1 || p->align_mult > 16))
		return "align-range";
	if ((mask & IPEH_ATTR_ALIGN_OFF) && p->align_off > 15)
		return "align-off-range";
	if ((mask & IPEH_ATTR_DATA_LEN_MULT) &&
	    (p->data_len_mult < 1 || p->data_len_mult > 16))
		return "lenmult-range";
	if ((mask & IPEH_ATTR_DATA_LEN_OFF) && p->data_len_off > 15)
		return "lenoff-range";

	/* the handler: the attributes given, over the current entry */
	if (!(mask & IPEH_ATTR_ORDER) && !cur->order)
		return "no-order";
	q = *cur;
	kernel_set_merge(&q, p, mask);
	if (q.align_off >= q.align_mult)
		return "align-off";
	if (q.min_data_len > q.max_data_len)
		return "len-min-max";
	if (q.data_len_off >= q.data_len_mult)
		return "lenoff";
	for (unsigned int i = 2; i < 256; i++)
		if (i != type && t->params[i].order == q.order)
			return "order-taken";
	return "ok";
}

/*
 * The rule an administrator's UNSET of @type breaks against @t: the
 * built-in row comes back, unless another type holds its order.
 */
static inline const char *kernel_unset_rule(const struct ipeh_table *t,
					    unsigned int type,
					    unsigned int table_flags)
{
	struct ipeh_tlv_params dflt;

	if (type < 2 || type > 255)
		return "type-range";
	ipeh_table_default_params((uint8_t)type, table_flags, &dflt);
	for (unsigned int i = 2; dflt.order && i < 256; i++)
		if (i != type && t->params[i].order == dflt.order)
			return "unset-order-taken";
	return "ok";
}


/*
 * Applies a SET the kernel's rules accept (kernel_set_rule() gave "ok"):
 * the attributes of @mask from @p over the current entry, with libipeh's
 * table code; libipeh refusing it is a bug in the fake, which aborts.
 */
static inline void kernel_set_apply(struct ipeh_table *t, unsigned int type,
				    const struct ipeh_tlv_params *p,
				    unsigned int mask)
{
	struct ipeh_tlv_params q = t->params[type];
	struct ipeh_error e;

	kernel_set_merge(&q, p, mask);
	ipeh_error_clear(&e);
	if (ipeh_table_set(t, (uint8_t)type, &q, &e) < 0) {
		fprintf(stderr, "fake kernel: libipeh refuses a SET of 0x%02x the kernel's rules accept: %s\n",
			type, e.msg);
		abort();
	}
}
/* The table flags of the recorded kernel's built-in table (HAO or not). */
static inline unsigned int kernel_table_flags(void)
{
	return kernel_reply("hao-built-in")->err ? IPEH_TABLE_NO_MIP6 : 0;
}

#endif
