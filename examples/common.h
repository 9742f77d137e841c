/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the examples: argument parsing, the TLV table an
 * example builds its option block against, error messages that explain
 * what the kernel refused, link MTU lookup and a tiny JSON writer.
 */

#ifndef EXAMPLES_COMMON_H
#define EXAMPLES_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <ipeh.h>

/* Exit codes shared by all examples (documented in the man pages). */
#define EX_OK		0	/* did what was asked */
#define EX_FAIL		1	/* a system call or the kernel refused */
#define EX_USAGE	2	/* bad command line */
#define EX_TIMEOUT	3	/* nothing (or not enough) arrived in time */

#define EX_DEFAULT_PORT	5000

/* Name of the running program, for messages ("ioam-sender"). */
extern const char *ex_prog;

__attribute__((format(printf, 1, 2)))
void ex_warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2), noreturn))
void ex_usage_error(const char *fmt, ...);

/* Numbers from the command line; exit EX_USAGE with "WHAT: ..." if bad. */
unsigned long ex_parse_ulong(const char *s, unsigned long min,
			     unsigned long max, const char *what);
double ex_parse_seconds(const char *s, const char *what);

/* "2001:db8::1", "[2001:db8::1]" or a host name with an AAAA record. */
int ex_resolve(const char *host, uint16_t port, struct sockaddr_in6 *sa);
/* "[2001:db8::1]:5000" */
void ex_format_addr(const struct sockaddr_in6 *sa, char *buf, size_t len);
/* "2001:db8::1" */
void ex_format_ip(const struct sockaddr_in6 *sa, char *buf, size_t len);

/*
 * The TLV table an example builds its option block against.
 *
 * The kernel, not the example, decides whether an unprivileged user may
 * send the option: the example reads the kernel's live table over netlink
 * (falling back to libipeh's built-in default when the "ipeh-tlv" family
 * cannot be reached), takes the option's layout (order, alignment, length
 * rules) from it, fills in the RFC layout when the table has no Hop-by-Hop
 * entry for the option, and lets the builder lay out the block as if the
 * user were allowed.  The kernel's setsockopt()/sendmsg() then gives the
 * verdict (EPERM when the policy says "none"), which ex_explain_errno()
 * turns into a message.
 */
struct ex_table {
	struct ipeh_table table;
	bool live;		/* read from the kernel */
	bool layout_fallback;	/* option had no Hop-by-Hop entry: RFC layout */
	uint8_t type;		/* the option the example sends */
	uint8_t user_perm;	/* as the kernel's table says (live only) */
	char why_not_live[IPEH_ERROR_MSG_MAX + 64];
};

void ex_table_load(struct ex_table *xt, uint8_t type);
/* The same from a given table (live: it is the kernel's). */
void ex_table_init(struct ex_table *xt, uint8_t type,
		   const struct ipeh_table *t, bool live);

/*
 * Build the canonical Hop-by-Hop block carrying one option.  Returns its
 * length; on failure prints why and returns a negative errno.
 */
ssize_t ex_build_hbh(const struct ex_table *xt, const uint8_t *data,
		     size_t len, uint8_t *buf, size_t cap);

/*
 * Prepare the canonical Hop-by-Hop block carrying one option of len data
 * bytes (layout and checks done once; each packet then only writes its
 * data with ipeh_prepared_data()).  Returns the block length; on failure
 * prints why and returns a negative errno.
 */
ssize_t ex_prepare_hbh(const struct ex_table *xt, size_t len,
		       struct ipeh_prepared *p);

/*
 * Explain a failed system call that carried the option block (err is a
 * positive errno; call is "setsockopt(IPV6_HOPOPTS)" or "sendmsg").
 * Prints to stderr, and in JSON mode also an {"event":"error"} line on
 * stdout.  opt_label is "IOAM" or "PMTU".
 */
void ex_explain_errno(int err, const char *call, const char *opt_label,
		      const struct ex_table *xt, const uint8_t *block,
		      size_t len, bool json);

/*
 * MTU of the link a connected socket sends on (not the path MTU the kernel
 * may have cached for the destination); ifname gets the interface name.
 * Returns the MTU or a negative errno.
 */
int ex_link_mtu(int fd, char *ifname, size_t ifname_len);
/* Same, for the link a packet to dst would leave on. */
int ex_link_mtu_to(const struct sockaddr_in6 *dst, char *ifname,
		   size_t ifname_len);

/* Hex string of bytes ("00 05 ..." without spaces) into buf. */
void ex_hex(const uint8_t *b, size_t len, char *buf, size_t cap);
/* Parse hex (spaces and ':' allowed) into b; returns length or -1. */
ssize_t ex_unhex(const char *s, uint8_t *b, size_t cap);

/*
 * IOAM trace-type fields by RFC 9197 bit number (0 = most significant):
 * "hop-limit" (bit 0: hop limit + node id), "if-ids", "ts-sec", "ts-frac",
 * "transit-delay", "ns-data", "queue-depth", "checksum", "hop-limit-wide",
 * "if-ids-wide", "ns-data-wide", "buffer-occupancy", "opaque" (bit 22).
 * NULL for the undefined bits 12..21 and the reserved bit 23.
 */
const char *ex_ioam_field_name(unsigned int bit);
/* "0xf00000", "15728640" or "hop-limit,if-ids,ts-sec,ts-frac" */
int ex_ioam_trace_type_parse(const char *s, uint32_t *type);
/* "hop-limit,if-ids,..." (bits without a name as "bit12") */
void ex_ioam_trace_type_format(uint32_t type, char *buf, size_t len);

/* JSON: a string value with escapes. */
void ex_json_str(FILE *f, const char *s);

/* Seconds since the epoch, as a double (wall clock). */
double ex_now(void);
/* Monotonic milliseconds. */
int64_t ex_mono_ms(void);

#endif /* EXAMPLES_COMMON_H */
