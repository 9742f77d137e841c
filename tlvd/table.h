/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The TLV parameter table as tlvd sees it.  The table type, the built-in
 * default table and option names come from libipeh; this adds the text
 * syntax of tlvd.conf(5) and tlvctl(8) ("4n+2", "10-254", "hop,dst",
 * "nocheck") and the comparison tlvd's diff needs.
 */
#ifndef TLVD_TABLE_H
#define TLVD_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ipeh.h>

#define TLV_TYPE_FIRST	2	/* 0 (Pad1) and 1 (PadN) are never in the table */
#define TLV_TYPE_COUNT	256
#define TLV_PERM_UNKNOWN IPEH_PERM_UNKNOWN

static inline bool tlv_params_has_entry(const struct ipeh_tlv_params *p)
{
	return p->order != 0;
}
/* Two entries are equal if both are absent, or all parameters match
 * (an unknown admin permission matches anything). */
bool tlv_params_equal(const struct ipeh_tlv_params *a,
		      const struct ipeh_tlv_params *b);

/*
 * The kernel's built-in table (kernel/TLV-TABLE.md).  HAO exists only in
 * a kernel with CONFIG_IPV6_MIP6, which tlvd infers from @live: HAO is
 * built in if the live table has an entry for it.  @live may be NULL
 * (HAO included).
 */
void tlv_table_kernel_default(struct ipeh_table *t,
			      const struct ipeh_table *live);
/* True if @type has an entry in the built-in table. */
bool tlv_type_is_builtin(unsigned int type);

/* Parses a name (libipeh's names: "ioam", "pmtu", "exp-1e", ...), a
 * decimal or a 0x hex number in 2..255.  Returns the type, or -1. */
int tlv_type_parse(const char *s);
/* A decimal number up to @max, without leading zero (the one syntax of
 * every number but types); 0 or -1. */
int tlv_parse_uint(const char *s, unsigned long max, unsigned long *out);
/* "ioam (0x31)" or "0x99" */
const char *tlv_type_format(unsigned int type, char *buf, size_t len);
/* "ioam" or "0x99" */
const char *tlv_type_short(unsigned int type, char *buf, size_t len);

/* Values as written in tlvd.conf and on tlvctl's command line.
 * Each returns 0 or -1; on -1, *why says what is wrong. */
int tlv_parse_perm(const char *s, uint8_t *perm, const char **why);
int tlv_parse_class(const char *s, uint8_t *class_mask, const char **why);
int tlv_parse_order(const char *s, uint16_t *order, const char **why);
/* "4n+2", "4n", "8n+6" */
int tlv_parse_mult(const char *s, uint8_t *mult, uint8_t *off,
		   const char **why);
/* "10-254" or "4" */
int tlv_parse_len_range(const char *s, uint8_t *min, uint8_t *max,
			const char **why);

/* "none", "check", "nocheck", "unknown" */
const char *tlv_perm_name(uint8_t perm);
/* "hop", "hop,dst", "none" */
const char *tlv_class_format(uint8_t class_mask, char *buf, size_t len);

/* Checks the relations between parameters of an entry.
 * Returns 0 or -1 with *why. */
int tlv_params_check(const struct ipeh_tlv_params *p, const char **why);

/* "order 50 class hop admin nocheck user check align 4n+0
 * length 10-254 length-mult 4n+2" or "no entry" */
void tlv_params_format(const struct ipeh_tlv_params *p, char *buf,
		       size_t len);

#endif
