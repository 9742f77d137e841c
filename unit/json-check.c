// SPDX-License-Identifier: GPL-2.0-only
/*
 * json-check: exit 0 if standard input is one valid JSON document (RFC 8259,
 * strings in well-formed UTF-8), 1 with the byte offset of the first error
 * otherwise. The smoke test pipes every "tlvctl --json" output through it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char *s, *end, *start;

static void ws(void)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
}

static bool lit(const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - s) < n || memcmp(s, w, n))
		return false;
	s += n;
	return true;
}

static bool utf8(void)
{
	unsigned int cp, n;

	if (*s < 0x80)
		return s++, true;
	if (*s >= 0xc2 && *s <= 0xdf)
		n = 1, cp = *s & 0x1f;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 2, cp = *s & 0x0f;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 3, cp = *s & 0x07;
	else
		return false;
	if ((size_t)(end - s) <= n)
		return false;
	for (unsigned int i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return false;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
		return false;
	s += n + 1;
	return true;
}

static bool string(void)
{
	if (s >= end || *s != '"')
		return false;
	s++;
	while (s < end && *s != '"') {
		if (*s < 0x20)
			return false;
		if (*s == '\\') {
			s++;
			if (s >= end)
				return false;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (s + i >= end || !strchr("0123456789abcdefABCDEF", s[i]))
						return false;
				s += 5;
			} else if (strchr("\"\\/bfnrt", *s) && *s) {
				s++;
			} else {
				return false;
			}
		} else if (!utf8()) {
			return false;
		}
	}
	if (s >= end)
		return false;
	s++;
	return true;
}

static bool number(void)
{
	const unsigned char *p = s;

	if (s < end && *s == '-')
		s++;
	if (s < end && *s == '0')
		s++;
	else if (s < end && *s >= '1' && *s <= '9')
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (s < end && *s == '.') {
		s++;
		if (s >= end || *s < '0' || *s > '9')
			return false;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < end && (*s == '+' || *s == '-'))
			s++;
		if (s >= end || *s < '0' || *s > '9')
			return false;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	return s > p;
}

static bool value(int depth);

static bool members(int depth, char close, bool object)
{
	ws();
	if (s < end && *s == close)
		return s++, true;
	for (;;) {
		ws();
		if (object) {
			if (!string())
				return false;
			ws();
			if (s >= end || *s++ != ':')
				return false;
		}
		if (!value(depth + 1))
			return false;
		ws();
		if (s < end && *s == ',') {
			s++;
			continue;
		}
		if (s < end && *s == close)
			return s++, true;
		return false;
	}
}

static bool value(int depth)
{
	if (depth > 64)
		return false;
	ws();
	if (s >= end)
		return false;
	switch (*s) {
	case '{': s++; return members(depth, '}', true);
	case '[': s++; return members(depth, ']', false);
	case '"': return string();
	case 't': return lit("true");
	case 'f': return lit("false");
	case 'n': return lit("null");
	default: return number();
	}
}

int main(void)
{
	static unsigned char buf[1 << 22];
	size_t n = fread(buf, 1, sizeof(buf), stdin);

	start = s = buf;
	end = buf + n;
	if (value(0)) {
		ws();
		if (s == end)
			return 0;
	}
	fprintf(stderr, "json-check: invalid JSON at byte %zu\n", (size_t)(s - start));
	return 1;
}
