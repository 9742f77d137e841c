/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef IPEH_INTERNAL_H
#define IPEH_INTERNAL_H

#include <errno.h>
#include <string.h>

#include "ipeh.h"

#define IPEH_HIDDEN __attribute__((visibility("hidden")))
#define IPEH_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define IPEH_COLD __attribute__((cold, noinline))

/*
 * The description of errno value @err (positive), thread-safe, unlike
 * the C library's strerror: the library formats its messages from any thread.
 */
static inline const char *ipeh__strerror(int err)
{
	const char *s = strerrordesc_np(err);

	return s ? s : "Unknown error";
}

/* NLMSGERR_ATTR_OFFS of an NLMSG_ERROR message (the bad attribute's
 * offset in the request), -1 if none
 */
struct nlmsghdr;
IPEH_HIDDEN long ipeh__nlmsg_error_offset(const struct nlmsghdr *nlh);

/*
 * Fill an error record (if any) and return err.  Cold: every failure path
 * goes through here so the success paths stay small.
 */
IPEH_HIDDEN IPEH_COLD IPEH_PRINTF(6, 7)
int ipeh__fail(struct ipeh_error *e, int err, enum ipeh_rule rule, int type,
	       long offset, const char *fmt, ...);

static inline unsigned int ipeh__get16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static inline uint32_t ipeh__get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t ipeh__get64(const uint8_t *p)
{
	return (uint64_t)ipeh__get32(p) << 32 | ipeh__get32(p + 4);
}

static inline void ipeh__put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void ipeh__put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void ipeh__put64(uint8_t *p, uint64_t v)
{
	ipeh__put32(p, (uint32_t)(v >> 32));
	ipeh__put32(p + 4, (uint32_t)v);
}

/*
 * x % m for the table's multiples (1..16).  Real tables use powers of two
 * almost always; a mask is much cheaper than a division on the hot paths.
 */
static inline unsigned int ipeh__mod(size_t x, unsigned int m)
{
	if (!(m & (m - 1)))
		return (unsigned int)x & (m - 1);
	return (unsigned int)(x % m);
}

/*
 * The limits as the kernel applies them (kernel/TLV-TABLE.md): the count
 * limit is |max_opts_number| (seed 9/9 cast it to unsigned, so negative
 * meant no limit); the length sysctl is used as an unsigned int.
 */
static inline void ipeh__limits(const struct ipeh_limits *lim,
				unsigned int *max_cnt, unsigned int *max_len)
{
	if (!lim) {
		*max_cnt = IPEH_DEFAULT_MAX_OPTS_NUMBER;
		*max_len = IPEH_DEFAULT_MAX_OPTS_LENGTH;
		return;
	}
	*max_cnt = lim->max_opts_number < 0 ?
		   0u - (unsigned int)lim->max_opts_number :
		   (unsigned int)lim->max_opts_number;
	/* the kernel: a negative length limit refuses every header */
	*max_len = lim->max_opts_length < 0 ? 0u :
		   (unsigned int)lim->max_opts_length;
}

static inline bool ipeh__hdr_ok(enum ipeh_hdr hdr)
{
	return hdr == IPEH_HDR_HOPOPTS || hdr == IPEH_HDR_DSTOPTS ||
	       hdr == IPEH_HDR_RTHDRDSTOPTS;
}

#endif /* IPEH_INTERNAL_H */
