/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef UNIT_HEXBLK_H
#define UNIT_HEXBLK_H

#include <ctype.h>

/* "00 05 30 04 z32 ff": hex bytes, zN = N zero bytes; returns length. */
static inline size_t hexblk(uint8_t *b, size_t cap, const char *s)
{
	size_t n = 0;

	while (*s) {
		char *end;

		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (*s == 'z') {
			unsigned long k = strtoul(s + 1, &end, 10);

			assert_true(n + k <= cap);
			memset(b + n, 0, k);
			n += k;
		} else {
			unsigned long v = strtoul(s, &end, 16);

			assert_true(end == s + 2);
			assert_true(n < cap);
			b[n++] = (uint8_t)v;
		}
		s = end;
	}
	return n;
}

#endif
