// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small line parser for tlvd.conf(5), in the manner of wireguard-tools'
 * config.c: every error names the line and what is wrong, and nothing is
 * changed unless the whole file is good.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"

enum section_kind { SECTION_NONE, SECTION_GLOBAL, SECTION_OPTION };

enum option_key {
	KEY_CLASS, KEY_ORDER, KEY_ADMIN, KEY_USER, KEY_ALIGN, KEY_LENGTH,
	KEY_LENGTH_MULT, KEY_UNMENTIONED, KEY_ON_STOP, KEY_INTERVAL,
	KEY_EMPTY, KEY_COUNT
};

static const char *const key_names[KEY_COUNT] = {
	[KEY_CLASS] = "class",
	[KEY_ORDER] = "order",
	[KEY_ADMIN] = "admin",
	[KEY_USER] = "user",
	[KEY_ALIGN] = "align",
	[KEY_LENGTH] = "length",
	[KEY_LENGTH_MULT] = "length-mult",
	[KEY_UNMENTIONED] = "unmentioned",
	[KEY_ON_STOP] = "on-stop",
	[KEY_INTERVAL] = "interval",
	[KEY_EMPTY] = "empty",
};

struct parser {
	struct policy pol;
	struct policy_error *err;
	unsigned int lineno;
	enum section_kind section;
	unsigned int section_line;
	unsigned int global_line;
	const char *global_name;	/* "global", or its alias "defaults" */
	bool empty_ok;			/* empty = yes */
	unsigned int type;
	struct ipeh_tlv_params params;
	unsigned int key_line[KEY_COUNT];
	char section_name[32];
};

void policy_init(struct policy *pol)
{
	memset(pol, 0, sizeof(*pol));
	pol->unmentioned = POLICY_UNMENTIONED_KEEP;
	pol->on_stop = POLICY_ON_STOP_KEEP;
	pol->interval = POLICY_DEFAULT_INTERVAL;
	ipeh_table_init_empty(&pol->table);
}

unsigned int policy_count(const struct policy *pol)
{
	unsigned int n = 0;

	for (unsigned int t = 0; t < TLV_TYPE_COUNT; t++)
		n += pol->mentioned[t];
	return n;
}

__attribute__((format(printf, 3, 4)))
static int fail_at(struct parser *ps, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	ps->err->line = line;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

#define fail(ps, ...) fail_at(ps, (ps)->lineno, __VA_ARGS__)

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* Checks a finished [option] section and stores it in the policy. */
/*
 * The line to blame for a rule on the section as a whole: the line of the
 * (last written) key the rule is about, else the section's header.
 */
static unsigned int check_line(const struct parser *ps, const char *why)
{
	static const struct {
		const char *why;
		int key[2];
	} rules[] = {
		{ "class must", { KEY_CLASS, -1 } },
		{ "bad alignment", { KEY_ALIGN, -1 } },
		{ "bad length multiple", { KEY_LENGTH_MULT, -1 } },
		{ "minimum length above", { KEY_LENGTH, -1 } },
		{ "no data length", { KEY_LENGTH, KEY_LENGTH_MULT } },
	};
	unsigned int line = 0;

	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		if (strncmp(why, rules[r].why, strlen(rules[r].why)))
			continue;
		for (int k = 0; k < 2; k++)
			if (rules[r].key[k] >= 0 &&
			    ps->key_line[rules[r].key[k]] > line)
				line = ps->key_line[rules[r].key[k]];
	}
	return line ? line : ps->section_line;
}

static int finish_section(struct parser *ps)
{
	const char *why;

	if (ps->section != SECTION_OPTION)
		return 0;
	if (!ps->key_line[KEY_ORDER] && !tlv_params_has_entry(&ps->params))
		return fail_at(ps, ps->section_line,
			       "[option %s]: 'order' is required for a type with no built-in entry",
			       ps->section_name);
	if (!ps->key_line[KEY_CLASS] && !ps->params.class_mask)
		return fail_at(ps, ps->section_line,
			       "[option %s]: 'class' is required for a type with no built-in entry",
			       ps->section_name);
	if (tlv_params_check(&ps->params, &why))
		return fail_at(ps, check_line(ps, why), "[option %s]: %s",
			       ps->section_name, why);
	/* The kernel refuses two types with one order (-EALREADY). */
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
		char name[32];

		if (t == ps->type || !ps->pol.mentioned[t] ||
		    ps->pol.table.params[t].order != ps->params.order)
			continue;
		return fail_at(ps, ps->key_line[KEY_ORDER] ?
				   ps->key_line[KEY_ORDER] : ps->section_line,
			       "[option %s]: order %u is already used by %s at line %u",
			       ps->section_name, ps->params.order,
			       tlv_type_format(t, name, sizeof(name)),
			       ps->pol.line[t]);
	}
	ps->pol.mentioned[ps->type] = true;
	ps->pol.line[ps->type] = ps->section_line;
	ps->pol.table.params[ps->type] = ps->params;
	return 0;
}

static int begin_section(struct parser *ps, char *line)
{
	char *end = strchr(line, ']');
	char *name, *arg;
	int type;

	if (!end)
		return fail(ps, "section header is missing ']'");
	if (*trim(end + 1))
		return fail(ps, "text after ']'");
	*end = '\0';
	name = trim(line + 1);

	if (finish_section(ps))
		return -1;
	memset(ps->key_line, 0, sizeof(ps->key_line));
	ps->section_line = ps->lineno;

	/* [defaults] is another name for [global] */
	if (!strcmp(name, "global") || !strcmp(name, "defaults")) {
		if (ps->global_line)
			return fail(ps, "duplicate [%s] section (first at line %u)",
				    name, ps->global_line);
		ps->global_line = ps->lineno;
		ps->global_name = !strcmp(name, "global") ? "global" : "defaults";
		ps->section = SECTION_GLOBAL;
		return 0;
	}
	if (strncmp(name, "option", 6) || (name[6] != ' ' && name[6] != '\t'))
		return fail(ps, "unknown section [%.40s] (expected [global] or [option TYPE])",
			    name);
	arg = trim(name + 6);
	type = tlv_type_parse(arg);
	if (type < 0)
		return fail(ps, "unknown option type '%.40s' (expected a name such as ioam or pmtu, or a number from 2 to 255)",
			    arg);
	if (ps->pol.mentioned[type])
		return fail(ps, "option %s already has a section at line %u",
			    arg, ps->pol.line[type]);
	/* Marked now so that a later duplicate is caught even if this
	 * section turns out bad; the policy is discarded on error anyway. */
	ps->pol.mentioned[type] = true;
	ps->pol.line[type] = ps->lineno;

	ps->section = SECTION_OPTION;
	ps->type = (unsigned int)type;
	snprintf(ps->section_name, sizeof(ps->section_name), "%s", arg);
	/* Keys a section leaves out keep the type's built-in default */
	ipeh_table_default_params((uint8_t)type, 0, &ps->params);
	return 0;
}

static int find_key(const char *key)
{
	for (int k = 0; k < KEY_COUNT; k++)
		if (!strcmp(key, key_names[k]))
			return k;
	return -1;
}

static bool key_in_section(int key, enum section_kind section)
{
	if (section == SECTION_GLOBAL)
		return key == KEY_UNMENTIONED || key == KEY_ON_STOP ||
		       key == KEY_INTERVAL || key == KEY_EMPTY;
	return key >= 0 && key < KEY_UNMENTIONED;
}

static int parse_global(struct parser *ps, int key, const char *value,
			const char **why)
{
	unsigned long v;

	switch (key) {
	case KEY_UNMENTIONED:
		if (!strcmp(value, "keep"))
			ps->pol.unmentioned = POLICY_UNMENTIONED_KEEP;
		else if (!strcmp(value, "reset"))
			ps->pol.unmentioned = POLICY_UNMENTIONED_RESET;
		else
			return *why = "expected keep or reset", -1;
		return 0;
	case KEY_ON_STOP:
		if (!strcmp(value, "keep"))
			ps->pol.on_stop = POLICY_ON_STOP_KEEP;
		else if (!strcmp(value, "restore"))
			ps->pol.on_stop = POLICY_ON_STOP_RESTORE;
		else
			return *why = "expected keep or restore", -1;
		return 0;
	case KEY_INTERVAL:
		if (tlv_parse_uint(value, POLICY_MAX_INTERVAL, &v))
			return *why = "expected seconds from 0 to 86400", -1;
		ps->pol.interval = (unsigned int)v;
		return 0;
	case KEY_EMPTY:
		if (!strcmp(value, "yes"))
			ps->empty_ok = true;
		else if (!strcmp(value, "no"))
			ps->empty_ok = false;
		else
			return *why = "expected yes or no", -1;
		return 0;
	}
	return -1;
}

static int parse_option(struct parser *ps, int key, const char *value,
			const char **why)
{
	struct ipeh_tlv_params *p = &ps->params;

	switch (key) {
	case KEY_CLASS:
		return tlv_parse_class(value, &p->class_mask, why);
	case KEY_ORDER:
		return tlv_parse_order(value, &p->order, why);
	case KEY_ADMIN:
		return tlv_parse_perm(value, &p->admin_perm, why);
	case KEY_USER:
		return tlv_parse_perm(value, &p->user_perm, why);
	case KEY_ALIGN:
		return tlv_parse_mult(value, &p->align_mult, &p->align_off, why);
	case KEY_LENGTH:
		return tlv_parse_len_range(value, &p->min_data_len, &p->max_data_len, why);
	case KEY_LENGTH_MULT:
		return tlv_parse_mult(value, &p->data_len_mult, &p->data_len_off, why);
	}
	return -1;
}

static int parse_assignment(struct parser *ps, char *line)
{
	char *eq = strchr(line, '=');
	const char *why = "";
	char *key, *value;
	int k, ret;

	if (!eq)
		return fail(ps, "expected 'key = value' or a [section] header");
	*eq = '\0';
	key = trim(line);
	value = trim(eq + 1);
	if (!*key)
		return fail(ps, "missing key before '='");
	if (ps->section == SECTION_NONE)
		return fail(ps, "'%.40s' is outside a section", key);
	k = find_key(key);
	if (k < 0 || !key_in_section(k, ps->section)) {
		if (ps->section == SECTION_GLOBAL)
			return fail(ps, "unknown key '%.40s' in [%s]", key,
				    ps->global_name);
		return fail(ps, "unknown key '%.40s' in [option %s]", key,
			    ps->section_name);
	}
	if (!*value)
		return fail(ps, "missing value for '%s'", key_names[k]);
	if (ps->key_line[k])
		return fail(ps, "'%s' already set at line %u", key_names[k],
			    ps->key_line[k]);
	ps->key_line[k] = ps->lineno;

	if (ps->section == SECTION_GLOBAL)
		ret = parse_global(ps, k, value, &why);
	else
		ret = parse_option(ps, k, value, &why);
	if (ret)
		return fail(ps, "invalid %s '%.40s': %s", key_names[k], value,
			    why);
	return 0;
}

static int parse_line(struct parser *ps, char *line)
{
	line[strcspn(line, "#;")] = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	if (*line == '[')
		return begin_section(ps, line);
	return parse_assignment(ps, line);
}

/*
 * An order the file gives a type may be the built-in order of a type the
 * file does not set: the kernel would refuse it when the file is applied
 * (-EALREADY), so the file is refused now, by --check and diff too.
 */
static int check_builtin_orders(struct parser *ps)
{
	for (unsigned int b = TLV_TYPE_FIRST; b < TLV_TYPE_COUNT; b++) {
		struct ipeh_tlv_params d;

		if (ps->pol.mentioned[b] || !tlv_type_is_builtin(b))
			continue;
		ipeh_table_default_params((uint8_t)b, 0, &d);
		for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
			char tn[32], bn[32], bs[32];

			if (!ps->pol.mentioned[t] ||
			    ps->pol.table.params[t].order != d.order)
				continue;
			return fail_at(ps, ps->pol.line[t],
				       "[option %s]: order %u is the built-in order of %s, which this file does not set: choose another order, or give %s another one in an [option %s] section",
				       tlv_type_short(t, tn, sizeof(tn)), d.order,
				       tlv_type_format(b, bn, sizeof(bn)),
				       tlv_type_short(b, bs, sizeof(bs)),
				       tlv_type_short(b, bs, sizeof(bs)));
		}
	}
	return 0;
}

int policy_parse_buffer(const char *buf, size_t len, struct policy *pol,
			struct policy_error *err)
{
	struct parser *ps;
	size_t start = 0;
	char *line = NULL;
	int ret = -1;

	ps = calloc(1, sizeof(*ps));
	if (!ps) {
		err->line = 0;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -1;
	}
	policy_init(&ps->pol);
	ps->err = err;
	ps->global_name = "global";

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		ps->lineno = 1;
		fail(ps, "the file starts with a UTF-8 byte order mark (EF BB BF): save it without one");
		goto out;
	}

	while (start < len) {
		const char *nl = memchr(buf + start, '\n', len - start);
		size_t n = nl ? (size_t)(nl - (buf + start)) : len - start;

		ps->lineno++;
		if (memchr(buf + start, '\0', n)) {
			fail(ps, "NUL byte in line");
			goto out;
		}
		free(line);
		line = malloc(n + 1);
		if (!line) {
			fail(ps, "out of memory");
			goto out;
		}
		memcpy(line, buf + start, n);
		line[n] = '\0';
		if (parse_line(ps, line))
			goto out;
		start += n + 1;
	}
	if (finish_section(ps) || check_builtin_orders(ps))
		goto out;
	/* A truncated or emptied /etc/tlvd.conf must not quietly apply a
	 * policy that manages nothing
	 */
	if (!policy_count(&ps->pol) && !ps->empty_ok) {
		fail_at(ps, ps->lineno ? ps->lineno : 1,
			"the file names no option type (empty or cut short?); write 'empty = yes' in [global] to apply a policy without options");
		goto out;
	}
	*pol = ps->pol;
	ret = 0;
out:
	free(line);
	free(ps);
	return ret;
}

int policy_parse_file(const char *path, struct policy *pol,
		      struct policy_error *err)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;
	int ret;

	/* "-": standard input, as tlvctl's FILE arguments promise */
	f = strcmp(path, "-") ? fopen(path, "re") : fdopen(dup(0), "r");
	if (!f)
		goto io_error;
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nbuf;

			/* up to 1 MiB exactly; one byte more is refused */
			if (cap > POLICY_MAX_FILE) {
				fclose(f);
				free(buf);
				err->line = 0;
				snprintf(err->msg, sizeof(err->msg),
					 "file is larger than 1 MiB (%u bytes)",
					 POLICY_MAX_FILE);
				return -1;
			}
			cap = cap ? cap * 2 : 4096;
			if (cap > POLICY_MAX_FILE)
				cap = POLICY_MAX_FILE + 1;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				errno = ENOMEM;
				fclose(f);
				goto io_error;
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f)) {
				fclose(f);
				goto io_error;
			}
			break;
		}
	}
	fclose(f);
	ret = policy_parse_buffer(buf, len, pol, err);
	free(buf);
	return ret;

io_error:
	free(buf);
	err->line = 0;
	snprintf(err->msg, sizeof(err->msg), "%s", strerror(errno));
	return -1;
}

void policy_error_format(char *buf, size_t len, const char *path,
			 const struct policy_error *err)
{
	if (err->line)
		snprintf(buf, len, "%s:%u: %s", path, err->line, err->msg);
	else
		snprintf(buf, len, "%s: %s", path, err->msg);
}

void policy_error_print(FILE *f, const char *path,
			const struct policy_error *err)
{
	char buf[512];

	policy_error_format(buf, sizeof(buf), path, err);
	fprintf(f, "%s\n", buf);
}
