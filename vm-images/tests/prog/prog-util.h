/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers shared by the guest test programs (ipeh-probe,
 * ipeh-rawsend, ipeh-kbench): hex arguments and the upper-layer checksum.
 */
#ifndef IPEH_PROG_UTIL_H
#define IPEH_PROG_UTIL_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Hex bytes, spaces and colons ignored: byte count, or -1. */
static inline int parse_hex(const char *hex, uint8_t *buf, size_t cap)
{
	size_t n = 0;
	unsigned int v;

	while (*hex) {
		if (*hex == ' ' || *hex == ':') {
			hex++;
			continue;
		}
		if (n >= cap || !hex[1] || sscanf(hex, "%2x", &v) != 1)
			return -1;
		buf[n++] = (uint8_t)v;
		hex += 2;
	}
	return (int)n;
}

static inline uint32_t sum16(const uint8_t *p, size_t len, uint32_t s)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		s += (uint32_t)(p[len - 1] << 8);
	return s;
}

/* RFC 8200 §8.1: upper-layer checksum over the pseudo-header */
static inline uint16_t l4_csum(const struct in6_addr *src,
			       const struct in6_addr *dst, uint8_t proto,
			       const uint8_t *l4, size_t len)
{
	uint8_t ph[8] = { (uint8_t)(len >> 24), (uint8_t)(len >> 16),
			  (uint8_t)(len >> 8), (uint8_t)len, 0, 0, 0, proto };
	uint32_t s = 0;

	s = sum16(src->s6_addr, 16, s);
	s = sum16(dst->s6_addr, 16, s);
	s = sum16(ph, 8, s);
	s = sum16(l4, len, s);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	s = ~s & 0xffff;
	return (uint16_t)(s ? s : 0xffff);
}

#endif
