// SPDX-License-Identifier: GPL-2.0-only
#include "json.h"

/*
 * Length of the well-formed UTF-8 sequence at @s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 if there is none.
 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* the NUL ends it too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* A JSON string: valid UTF-8 as it is, any other byte as U+FFFD, so that
 * the output is valid JSON whatever the input (a file name, a message
 * quoting 40 bytes of a line that may end inside a character).
 */
void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80) {
			size_t n = utf8_len((const unsigned char *)s);

			if (!n) {
				fputs("\\ufffd", f);
				continue;
			}
			fwrite(s, 1, n, f);
			s += n - 1;
		} else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_perm(FILE *f, uint8_t perm)
{
	if (perm == TLV_PERM_UNKNOWN)
		fputs("null", f);
	else
		json_string(f, tlv_perm_name(perm));
}

void json_params(FILE *f, unsigned int type, const struct ipeh_tlv_params *p)
{
	static const struct { uint8_t flag; const char *name; } cls[] = {
		{ IPEH_CLASS_HOPOPT, "hop" },
		{ IPEH_CLASS_RTRDSTOPT, "rtrdst" },
		{ IPEH_CLASS_DSTOPT, "dst" },
	};
	const char *name = ipeh_opt_type_name((uint8_t)type);
	const char *sep = "";

	fprintf(f, "{\"type\":%u,\"name\":", type);
	if (name)
		json_string(f, name);
	else
		fputs("null", f);
	if (!tlv_params_has_entry(p)) {
		fputs(",\"entry\":false}", f);
		return;
	}
	fprintf(f, ",\"entry\":true,\"order\":%u,\"class\":[", p->order);
	for (size_t i = 0; i < sizeof(cls) / sizeof(cls[0]); i++) {
		if (p->class_mask & cls[i].flag) {
			fprintf(f, "%s\"%s\"", sep, cls[i].name);
			sep = ",";
		}
	}
	fputs("],\"admin\":", f);
	json_perm(f, p->admin_perm);
	fputs(",\"user\":", f);
	json_perm(f, p->user_perm);
	fprintf(f, ",\"align\":\"%un+%u\",\"align_mult\":%u,\"align_off\":%u"
		",\"min_length\":%u,\"max_length\":%u"
		",\"length_mult\":\"%un+%u\",\"data_len_mult\":%u"
		",\"data_len_off\":%u}",
		p->align_mult, p->align_off, p->align_mult, p->align_off,
		p->min_data_len, p->max_data_len,
		p->data_len_mult, p->data_len_off, p->data_len_mult,
		p->data_len_off);
}

void json_table(FILE *f, const struct ipeh_table *t, int all)
{
	const char *sep = "";

	fputc('[', f);
	for (unsigned int i = TLV_TYPE_FIRST; i < TLV_TYPE_COUNT; i++) {
		if (!all && !tlv_params_has_entry(&t->params[i]))
			continue;
		fputs(sep, f);
		json_params(f, i, &t->params[i]);
		sep = ",";
	}
	fputc(']', f);
}

static void json_side(FILE *f, unsigned int type,
		      const struct ipeh_tlv_params *p)
{
	if (tlv_params_has_entry(p))
		json_params(f, type, p);
	else
		fputs("null", f);
}

void json_changeset(FILE *f, const struct changeset *cs)
{
	fputc('[', f);
	for (unsigned int i = 0; i < cs->count; i++) {
		const struct change *c = &cs->change[i];
		const char *name = ipeh_opt_type_name(c->type);

		fprintf(f, "%s{\"type\":%u,\"name\":", i ? "," : "", c->type);
		if (name)
			json_string(f, name);
		else
			fputs("null", f);
		fprintf(f, ",\"op\":\"%s\",\"from\":",
			c->op == CHANGE_SET ? "set" : "unset");
		json_side(f, c->type, &c->from);
		fputs(",\"to\":", f);
		json_side(f, c->type, &c->to);
		fputc('}', f);
	}
	fputc(']', f);
}

void json_policy(FILE *f, const char *path, const struct policy *pol)
{
	const char *sep = "";

	fputs("{\"file\":", f);
	json_string(f, path);
	fprintf(f, ",\"ok\":true,\"unmentioned\":\"%s\",\"on_stop\":\"%s\""
		",\"interval\":%u,\"options\":[",
		pol->unmentioned == POLICY_UNMENTIONED_RESET ? "reset" : "keep",
		pol->on_stop == POLICY_ON_STOP_RESTORE ? "restore" : "keep",
		pol->interval);
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
		if (!pol->mentioned[t])
			continue;
		fputs(sep, f);
		json_params(f, t, &pol->table.params[t]);
		sep = ",";
	}
	fputs("]}", f);
}

void json_policy_error(FILE *f, const char *path,
		       const struct policy_error *err)
{
	fputs("{\"file\":", f);
	json_string(f, path);
	fprintf(f, ",\"ok\":false,\"line\":%u,\"error\":", err->line);
	json_string(f, err->msg);
	fputc('}', f);
}
