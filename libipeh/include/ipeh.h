/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libipeh: IPv6 Hop-by-Hop and Destination option blocks.
 *
 * Build canonical option blocks the kernel accepts from an unprivileged
 * user, validate a block exactly as the kernel will (same verdict, same
 * errno), parse received blocks, encode/decode common options (IOAM,
 * Minimum Path MTU, Router Alert, Tunnel Encapsulation Limit, RFC 4727
 * experimental types) and talk to the kernel's "ipeh-tlv" generic netlink
 * family.
 *
 * Conventions: functions return 0 (or a length/count) on success and a
 * negative errno on failure.  Functions that can fail for a reason worth
 * explaining take an optional struct ipeh_error * (may be NULL).  The
 * caller owns every buffer; nothing here allocates except ipeh_nl_open()
 * and ipeh_builder_new(), and there is no global mutable state.
 */

#ifndef IPEH_H
#define IPEH_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct msghdr;
struct nlmsghdr;

#define IPEH_VERSION_MAJOR	0
#define IPEH_VERSION_MINOR	1
#define IPEH_VERSION_PATCH	0

/* Version of the library actually linked, "0.1.0". */
const char *ipeh_version(void);

/* ------------------------------------------------------------------ */
/* Constants                                                           */
/* ------------------------------------------------------------------ */

/*
 * The extension header an option block is meant for.  The values equal the
 * kernel's IPEH_TLV_CLASS_FLAG_* bits, so a header kind can be tested
 * against a parameter's class mask directly.
 */
enum ipeh_hdr {
	IPEH_HDR_HOPOPTS	= 1 << 0,	/* IPV6_HOPOPTS */
	IPEH_HDR_RTHDRDSTOPTS	= 1 << 1,	/* IPV6_RTHDRDSTOPTS */
	IPEH_HDR_DSTOPTS	= 1 << 2,	/* IPV6_DSTOPTS */
};

/* Class flags (same values as IPEH_TLV_CLASS_FLAG_* in <linux/ipeh.h>). */
#define IPEH_CLASS_HOPOPT	0x1
#define IPEH_CLASS_RTRDSTOPT	0x2
#define IPEH_CLASS_DSTOPT	0x4
#define IPEH_CLASS_MASK		0x7

/* Permissions (same values as IPEH_TLV_PERM_* in <linux/ipeh.h>). */
#define IPEH_PERM_NONE		0	/* may not be sent */
#define IPEH_PERM_CHECK		1	/* may be sent in canonical form */
#define IPEH_PERM_NO_CHECK	2	/* may be sent as is */
#define IPEH_PERM_UNKNOWN	0xff	/* not reported (dump without CAP_NET_ADMIN) */

/* Option types */
#define IPEH_OPT_PAD1		0x00
#define IPEH_OPT_PADN		0x01
#define IPEH_OPT_TEL		0x04	/* Tunnel Encapsulation Limit, RFC 2473 */
#define IPEH_OPT_RA		0x05	/* Router Alert, RFC 2711 */
#define IPEH_OPT_CALIPSO	0x07	/* RFC 5570 */
#define IPEH_OPT_PMTU		0x30	/* Minimum Path MTU, RFC 9268 */
#define IPEH_OPT_IOAM		0x31	/* IOAM, RFC 9486 */
#define IPEH_OPT_JUMBO		0xC2	/* RFC 2675 */
#define IPEH_OPT_HAO		0xC9	/* Home Address, RFC 6275 */
/* RFC 4727 experimental types: 0x1E, 0x3E, ..., 0xFE */
#define IPEH_OPT_EXP(n)		((uint8_t)(((n) << 5) | 0x1E))	/* n = 0..7 */
#define IPEH_OPT_IS_EXP(t)	(((t) & 0x1F) == 0x1E)

/* setsockopt() refuses blocks longer than 8 * 255 bytes. */
#define IPEH_BLOCK_MAX		2040
/* hdrlen is 8 bits: a header (e.g. in a cmsg) is at most (255 + 1) * 8. */
#define IPEH_HDR_MAX		2048
/* Most options one header can hold (2-byte options after the 2-byte header). */
#define IPEH_OPTS_MAX		((IPEH_HDR_MAX - 2) / 2)

/* Kernel defaults of the sysctls net.ipv6.max_{hbh,dst}_opts_{number,length}. */
#define IPEH_DEFAULT_MAX_OPTS_NUMBER	8
#define IPEH_DEFAULT_MAX_OPTS_LENGTH	0x7fffffff

/* ------------------------------------------------------------------ */
/* Error record                                                        */
/* ------------------------------------------------------------------ */

/* Which rule a block, an option or a request broke. */
enum ipeh_rule {
	IPEH_RULE_NONE = 0,
	IPEH_RULE_STRUCTURE,	/* option runs past the header, bad header length */
	IPEH_RULE_PERM,		/* permission "none" */
	IPEH_RULE_CLASS,	/* option not allowed in this header */
	IPEH_RULE_DATA_LEN,	/* data length outside [min, max] */
	IPEH_RULE_DATA_LEN_MULT, /* data length % mult != off */
	IPEH_RULE_COUNT,	/* more options than max_*_opts_number */
	IPEH_RULE_ORDER,	/* preferred order decreases */
	IPEH_RULE_ALIGN,	/* offset % align_mult != align_off */
	IPEH_RULE_PADDING,	/* padding before an option not minimal/single/zero */
	IPEH_RULE_TRAILING_PADDING, /* trailing padding not single/<= 7/zero */
	IPEH_RULE_LENGTH,	/* header longer than max_*_opts_length */
	IPEH_RULE_BUFFER,	/* caller's buffer too small */
	IPEH_RULE_PARAM,	/* invalid parameter/argument/table entry */
	IPEH_RULE_CODEC,	/* malformed option data for a codec */
	IPEH_RULE_NETLINK,	/* netlink failure or kernel refusal (see msg) */
	IPEH_RULE_SYSCALL,	/* a system call failed (see err) */
	IPEH_RULE_END		/* one past the last rule */
};

#define IPEH_ERROR_MSG_MAX	160

/*
 * What went wrong, filled by every function that takes one (err may be
 * NULL).  Conventions: type, offset and index are -1 when they do not
 * apply.  offset counts bytes from the start of the header (the
 * next-header byte is 0): in the block given (validation, parsing) or
 * in the block being built (builder: where the option's type byte would
 * have gone).  index names an input item: opts[index] of ipeh_build()
 * or ipeh_prepare(), the index-th ipeh_builder_add() since new() or
 * reset() (from 0), e[index] of ipeh_nl_replace(); validation and
 * parsing name options by offset.
 */
struct ipeh_error {
	int err;		/* negative errno, equal to the return value */
	enum ipeh_rule rule;
	int type;		/* option type involved */
	long offset;		/* byte offset from the header start */
	char msg[IPEH_ERROR_MSG_MAX]; /* human-readable, includes kernel extack */
	int index;		/* input option at fault */
};

/* Short stable name of a rule ("align", "order", ...); never NULL. */
const char *ipeh_rule_name(enum ipeh_rule rule);
/* Reset an error record to "no error". */
void ipeh_error_clear(struct ipeh_error *e);

/* ------------------------------------------------------------------ */
/* TLV parameter table (the kernel's transmit parameters)              */
/* ------------------------------------------------------------------ */

/*
 * One type's transmit parameters, in the units of the netlink attributes
 * (align_mult and data_len_mult are the real multiple, 1..16).
 */
struct ipeh_tlv_params {
	uint16_t order;		/* preferred order 1..65535, 0 = no entry */
	uint8_t admin_perm;	/* IPEH_PERM_* */
	uint8_t user_perm;	/* IPEH_PERM_* */
	uint8_t class_mask;	/* IPEH_CLASS_* mask */
	uint8_t align_mult;	/* 1..16 */
	uint8_t align_off;	/* < align_mult */
	uint8_t min_data_len;
	uint8_t max_data_len;
	uint8_t data_len_mult;	/* 1..16 */
	uint8_t data_len_off;	/* < data_len_mult */
};

/* A whole table, indexed by option type; entries 0 and 1 are unused. */
struct ipeh_table {
	struct ipeh_tlv_params params[256];
};

/* Flags for ipeh_table_init_default() */
#define IPEH_TABLE_NO_MIP6	0x1	/* kernel without CONFIG_IPV6_MIP6: no HAO */

/* The parameters of a type with no entry (kernel/TLV-TABLE.md). */
void ipeh_tlv_params_unset(struct ipeh_tlv_params *p);
/* Check ranges as the kernel's SET does; 0 or -EINVAL with a record. */
int ipeh_tlv_params_check(const struct ipeh_tlv_params *p,
			  struct ipeh_error *err);
/* Every type with no entry. */
void ipeh_table_init_empty(struct ipeh_table *t);
/* The kernel series' built-in default table. */
void ipeh_table_init_default(struct ipeh_table *t, unsigned int flags);
/* Built-in default of one type (no-entry default if not built in). */
void ipeh_table_default_params(uint8_t type, unsigned int flags,
			       struct ipeh_tlv_params *p);
static inline const struct ipeh_tlv_params *
ipeh_table_get(const struct ipeh_table *t, uint8_t type)
{
	return &t->params[type];
}
/*
 * Change one type as the kernel's SET would: type 2..255, params checked,
 * order non-zero and not used by another type (-EALREADY).
 */
int ipeh_table_set(struct ipeh_table *t, uint8_t type,
		   const struct ipeh_tlv_params *p, struct ipeh_error *err);
/*
 * Restore one type's built-in default (the no-entry default for a type that
 * is not built in), as the kernel's UNSET: -EALREADY if another type took
 * the built-in order meanwhile.
 */
int ipeh_table_unset(struct ipeh_table *t, uint8_t type, unsigned int flags);
/* Whether the type has an entry (order != 0). */
bool ipeh_table_has_entry(const struct ipeh_table *t, uint8_t type);

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/*
 * Option names: "pad1", "padn", "tel", "ra", "calipso", "pmtu", "ioam",
 * "jumbo", "hao", "exp-1e", "exp-3e", ... "exp-fe".  ipeh_opt_type_parse()
 * also accepts numbers ("49", "0x31"); it returns the type or -EINVAL.
 */
int ipeh_opt_type_parse(const char *name);
/* Name of a known type, or NULL. */
const char *ipeh_opt_type_name(uint8_t type);
/* Name or "0x%02x" into buf; returns snprintf()'s result. */
int ipeh_opt_type_format(uint8_t type, char *buf, size_t len);

/* "none", "check", "no-check"; parse returns the value or -EINVAL. */
const char *ipeh_perm_name(uint8_t perm);
int ipeh_perm_parse(const char *name);

/* Class masks: "hop", "rtdst", "dst" joined by ',' (e.g. "hop,dst"),
 * "none" for 0.  Parse also accepts a number; returns mask or -EINVAL.
 */
int ipeh_class_format(uint8_t class_mask, char *buf, size_t len);
int ipeh_class_parse(const char *s);

/* "hop", "rtdst", "dst" */
const char *ipeh_hdr_name(enum ipeh_hdr hdr);
int ipeh_hdr_parse(const char *name);
/* IPV6_HOPOPTS, IPV6_RTHDRDSTOPTS or IPV6_DSTOPTS, or -EINVAL */
int ipeh_hdr_sockopt(enum ipeh_hdr hdr);

/* ------------------------------------------------------------------ */
/* Options, limits, validation                                         */
/* ------------------------------------------------------------------ */

/* One option: its data is referenced, not copied. */
struct ipeh_opt {
	uint8_t type;
	uint8_t len;		/* data length */
	const uint8_t *data;	/* may be NULL when len == 0 */
	uint16_t offset;	/* parser: offset of the type byte in the header */
};

/* The sysctls net.ipv6.max_{hbh,dst}_opts_{number,length}, as ints. */
struct ipeh_limits {
	int max_opts_number;
	int max_opts_length;
};

/* Kernel defaults (8 options, no length limit). */
void ipeh_limits_default(struct ipeh_limits *lim);
/* Read the sysctls for this header kind from /proc/sys/net/ipv6. */
int ipeh_limits_read(enum ipeh_hdr hdr, struct ipeh_limits *lim);

/* Validation/builder flags */
#define IPEH_F_ADMIN		0x1 /* caller has CAP_NET_RAW: use admin_perm */
#define IPEH_F_SETSOCKOPT	0x2 /* also apply setsockopt()'s length checks */
#define IPEH_F_DELETING		0x4 /* removal of the options already on a
				     * socket: always allowed (returns 0) */

/*
 * Validate a block exactly as the kernel validates one given by
 * setsockopt() (IPEH_F_SETSOCKOPT) or by a sendmsg() cmsg: same verdict,
 * same errno (0, -EINVAL, -EPERM, -E2BIG, -EMSGSIZE), following
 * kernel/TLV-TABLE.md.  lim NULL = kernel defaults; the count limit is
 * |max_opts_number| as in the kernel.  On failure err (if not NULL) names
 * the option, the offset and the rule.
 */
int ipeh_validate(const struct ipeh_table *t, enum ipeh_hdr hdr,
		  const void *block, size_t len,
		  const struct ipeh_limits *lim, unsigned int flags,
		  struct ipeh_error *err);

/* ------------------------------------------------------------------ */
/* Builder                                                             */
/* ------------------------------------------------------------------ */

/*
 * Build the canonical block for opts (any order) into buf: options sorted
 * by preferred order (stable), each aligned with one minimal zero-filled
 * padding option, trailing padding to a multiple of 8.  The block is then
 * checked against the table, the permission (IPEH_F_ADMIN or user), the
 * class and the limits exactly as ipeh_validate() would, so a block that
 * is returned is one the kernel accepts.  Returns the block length or a
 * negative errno; on failure nothing is written to buf.  lim NULL = kernel
 * defaults.  The next-header byte is written as 0 (the kernel sets it).
 */
ssize_t ipeh_build(const struct ipeh_table *t, enum ipeh_hdr hdr,
		   const struct ipeh_opt *opts, size_t nopts,
		   void *buf, size_t buflen,
		   const struct ipeh_limits *lim, unsigned int flags,
		   struct ipeh_error *err);

/* At most this many options in one builder or prepared block. */
#define IPEH_BUILDER_MAX_OPTS	64

/*
 * Incremental form of ipeh_build(), for a flow that sends many packets:
 * the options of each packet are added one by one, and finish() writes
 * the block.  The builder is opaque (but for its head, below):
 * ipeh_builder_new() allocates it
 * once per flow (the only allocation; add, reset and finish allocate
 * nothing) and ipeh_builder_free() releases it.  It remembers the layout
 * of the last block it wrote: when finish() is called again with the same
 * option types and lengths, and the table entries it used are unchanged,
 * only the bytes are written.  A builder is not shared between threads
 * without a lock; builders of different threads are independent.
 *
 * ipeh_builder_new(): t is referenced, not copied (a table updated in
 * place is noticed by the next finish()); lim NULL = kernel defaults;
 * flags as ipeh_build().  NULL with errno EINVAL (no table, bad header
 * kind, unknown flag) or ENOMEM.
 */
struct ipeh_builder;

struct ipeh_builder *ipeh_builder_new(const struct ipeh_table *t,
				      enum ipeh_hdr hdr,
				      const struct ipeh_limits *lim,
				      unsigned int flags);
void ipeh_builder_free(struct ipeh_builder *b);
/*
 * Add one option; data is referenced until finish().  Returns 0, or
 * -EINVAL (type 0 or 1, length above 255, NULL data with a length) or
 * -E2BIG (more than IPEH_BUILDER_MAX_OPTS options).  The first failed
 * add() is also reported by finish(), naming that option (see
 * ipeh_builder_finish()), so a sender may check only finish().
 *
 * ipeh_builder_reset(): forget the options and any add() error; keep
 * table, header, limits, flags and the remembered layout.
 *
 * Both are per-packet calls, so they are C99 inline functions here (the
 * library also exports them).  They use only the head of the builder,
 * struct ipeh_builder_head, which every builder starts with: its layout
 * is part of the ABI, the rest of the builder is private to the library.
 * Compilers in GNU89 inline mode, or with IPEH_NO_INLINE defined, call
 * the library's functions.
 */
struct ipeh_builder_head {
	size_t nopts;		/* options added since new() or reset() */
	int add_error;		/* the first failed add() since then, or 0: */
	int add_index;		/*   its index (options added before it), */
	int add_type;		/*   the type it was given, */
	size_t add_len;		/*   and the length */
	struct ipeh_opt opts[IPEH_BUILDER_MAX_OPTS];
};

#if defined(IPEH_NO_INLINE) || defined(__GNUC_GNU_INLINE__) || \
	(!defined(__cplusplus) && (!defined(__STDC_VERSION__) || \
				   __STDC_VERSION__ < 199901L))
int ipeh_builder_add(struct ipeh_builder *b, uint8_t type,
		     const void *data, size_t len);
void ipeh_builder_reset(struct ipeh_builder *b);
#else
#define IPEH_BUILDER_INLINE 1
inline int ipeh_builder_add(struct ipeh_builder *b, uint8_t type,
			    const void *data, size_t len)
{
	struct ipeh_builder_head *h = (struct ipeh_builder_head *)(void *)b;
	struct ipeh_opt *o;
	int err = 0;

	if (type < 2 || len > 255 || (len && !data))
		err = -EINVAL;
	else if (h->nopts >= IPEH_BUILDER_MAX_OPTS)
		err = -E2BIG;
	if (err) {
		if (!h->add_error) {
			h->add_error = err;
			h->add_index = (int)h->nopts;
			h->add_type = type;
			h->add_len = len;
		}
		return err;
	}
	o = &h->opts[h->nopts++];
	o->type = type;
	o->len = (uint8_t)len;
	o->data = (const uint8_t *)data;
	o->offset = 0;
	return 0;
}

inline void ipeh_builder_reset(struct ipeh_builder *b)
{
	struct ipeh_builder_head *h = (struct ipeh_builder_head *)(void *)b;

	h->add_error = 0;
	h->nopts = 0;
}
#endif

/*
 * Emit the block for the options added since new() or reset(), as
 * ipeh_build() would for them in the order they were added.  On failure
 * err->index is the add() call at fault (0 for the first option added),
 * err->type the type it was given, and err->offset the byte of the block
 * where that option's type byte would have gone, -1 for errors of the
 * input itself (an add() that failed) or of the whole header.
 */
ssize_t ipeh_builder_finish(struct ipeh_builder *b, void *buf, size_t buflen,
			    struct ipeh_error *err);

/*
 * A prepared block: the layout and every check done once by
 * ipeh_prepare() for a fixed list of option types and data lengths; each
 * packet then only needs its data written (ipeh_prepared_emit(), or in
 * place through ipeh_prepared_data() and used as p->block directly).
 * The block stays what the table allowed when it was prepared: prepare
 * again after the table changes.
 */
struct ipeh_prepared {
	uint16_t len;		/* block length */
	uint16_t nopts;
	uint16_t data_off[IPEH_BUILDER_MAX_OPTS];	/* opts[i]'s data */
	uint8_t data_len[IPEH_BUILDER_MAX_OPTS];
	uint8_t block[IPEH_HDR_MAX];
};

/*
 * As ipeh_build() (same checks, same errors) into p->block; opts[i].data
 * may be NULL (zeros) and nopts is at most IPEH_BUILDER_MAX_OPTS.
 * Returns the block length.
 */
ssize_t ipeh_prepare(struct ipeh_prepared *p, const struct ipeh_table *t,
		     enum ipeh_hdr hdr, const struct ipeh_opt *opts,
		     size_t nopts, const struct ipeh_limits *lim,
		     unsigned int flags, struct ipeh_error *err);
/*
 * Write the prepared block into buf with data[i] (p->data_len[i] bytes,
 * NULL = keep the prepared bytes) as the data of the i-th option given to
 * ipeh_prepare().  Returns the block length, -ENOBUFS, or -EINVAL if p
 * holds no prepared block (its ipeh_prepare() failed).
 */
ssize_t ipeh_prepared_emit(const struct ipeh_prepared *p, void *buf,
			   size_t buflen, const void *const *data);
/* Where the i-th option's data lives in p->block (NULL if i is too big). */
uint8_t *ipeh_prepared_data(struct ipeh_prepared *p, size_t i);

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

struct ipeh_iter {
	const uint8_t *block;
	size_t len;		/* header length from hdrlen, <= buffer length */
	size_t off;
	unsigned int flags;
	int error;
};

#define IPEH_ITER_PADDING	0x1	/* also return Pad1/PadN options */

/*
 * Start iterating over a received block of buflen bytes.  -EINVAL if the
 * buffer is shorter than 2 bytes or than the header length it announces.
 */
int ipeh_iter_init(struct ipeh_iter *it, const void *block, size_t buflen,
		   unsigned int flags);
/*
 * Next option: 1 and *opt filled, 0 at the end, -EINVAL if the block is
 * malformed (option runs past the header); never reads past the buffer.
 */
int ipeh_iter_next(struct ipeh_iter *it, struct ipeh_opt *opt);
/* Parse a whole block into opts[max]; returns the count (non-padding
 * unless IPEH_ITER_PADDING), -EINVAL if malformed, -ENOBUFS if > max.
 * With opts NULL it only counts (max is ignored).
 */
int ipeh_parse(const void *block, size_t buflen, struct ipeh_opt *opts,
	       size_t max, unsigned int flags, struct ipeh_error *err);
/* First option of this type: 1 found, 0 absent, -EINVAL malformed. */
int ipeh_find(const void *block, size_t buflen, uint8_t type,
	      struct ipeh_opt *opt);

/* ------------------------------------------------------------------ */
/* Codecs                                                              */
/* ------------------------------------------------------------------ */

/* Minimum Path MTU, RFC 9268: type 0x30, 4 bytes of data. */
#define IPEH_PMTU_DATA_LEN	4
struct ipeh_pmtu {
	uint16_t min_pmtu;	/* Min-PMTU, octets */
	uint16_t rtn_pmtu;	/* Rtn-PMTU, octets (15 MSBs are sent; even) */
	bool r;			/* R flag: return the Min-PMTU */
};
int ipeh_pmtu_encode(const struct ipeh_pmtu *p, uint8_t *data, size_t cap);
int ipeh_pmtu_decode(const uint8_t *data, size_t len, struct ipeh_pmtu *p);

/* Router Alert, RFC 2711: type 5, 2 bytes of data. */
#define IPEH_RA_DATA_LEN	2
#define IPEH_RA_MLD		0
#define IPEH_RA_RSVP		1
#define IPEH_RA_ACTIVE_NET	2
int ipeh_ra_encode(uint16_t value, uint8_t *data, size_t cap);
int ipeh_ra_decode(const uint8_t *data, size_t len, uint16_t *value);

/* Tunnel Encapsulation Limit, RFC 2473: type 4, 1 byte of data. */
#define IPEH_TEL_DATA_LEN	1
int ipeh_tel_encode(uint8_t limit, uint8_t *data, size_t cap);
int ipeh_tel_decode(const uint8_t *data, size_t len, uint8_t *limit);

/* RFC 4727 experimental options: any data; only the type is checked. */
int ipeh_exp_encode(uint8_t type, const void *payload, size_t len,
		    uint8_t *data, size_t cap);
int ipeh_exp_decode(uint8_t type, const uint8_t *data, size_t len,
		    const uint8_t **payload, size_t *payload_len);

/*
 * IOAM, RFC 9486 option (type 0x31) carrying an RFC 9197 pre-allocated
 * trace: data = reserved(1) IOAM-type(1) trace header(8) node data(4k).
 * Trace-type bits are numbered as in RFC 9197: bit 0 is the most
 * significant bit of the 24-bit field.
 */
#define IPEH_IOAM_TYPE_PREALLOC		0
#define IPEH_IOAM_TYPE_INCREMENTAL	1
#define IPEH_IOAM_TYPE_POT		2
#define IPEH_IOAM_TYPE_E2E		3
#define IPEH_IOAM_TYPE_DEX		4

#define IPEH_IOAM_BIT(n)		(1u << (23 - (n)))
#define IPEH_IOAM_TRACE_HOPLIM_NODEID	IPEH_IOAM_BIT(0)
#define IPEH_IOAM_TRACE_IF_IDS		IPEH_IOAM_BIT(1)
#define IPEH_IOAM_TRACE_TS_SEC		IPEH_IOAM_BIT(2)
#define IPEH_IOAM_TRACE_TS_FRAC		IPEH_IOAM_BIT(3)
#define IPEH_IOAM_TRACE_TRANSIT_DELAY	IPEH_IOAM_BIT(4)
#define IPEH_IOAM_TRACE_NS_DATA		IPEH_IOAM_BIT(5)
#define IPEH_IOAM_TRACE_QUEUE_DEPTH	IPEH_IOAM_BIT(6)
#define IPEH_IOAM_TRACE_CSUM_COMP	IPEH_IOAM_BIT(7)
#define IPEH_IOAM_TRACE_HOPLIM_NODEID_WIDE IPEH_IOAM_BIT(8)
#define IPEH_IOAM_TRACE_IF_IDS_WIDE	IPEH_IOAM_BIT(9)
#define IPEH_IOAM_TRACE_NS_DATA_WIDE	IPEH_IOAM_BIT(10)
#define IPEH_IOAM_TRACE_BUFFER_OCC	IPEH_IOAM_BIT(11)
#define IPEH_IOAM_TRACE_OPAQUE		IPEH_IOAM_BIT(22)
#define IPEH_IOAM_TRACE_MASK		0xfffffe	/* bit 23 reserved */

#define IPEH_IOAM_FLAG_OVERFLOW		0x8	/* 4-bit flags field, bit 0 */
#define IPEH_IOAM_TRACE_HDR_LEN		8
#define IPEH_IOAM_DATA_SIZE_MAX		244	/* IOAM6_TRACE_DATA_SIZE_MAX */

struct ipeh_ioam_trace {
	uint8_t ioam_type;	/* IPEH_IOAM_TYPE_PREALLOC */
	uint16_t namespace_id;
	uint8_t node_len;	/* 4-octet units; 0 on encode = from trace_type */
	uint8_t flags;		/* 4 bits, IPEH_IOAM_FLAG_* */
	uint8_t remaining_len;	/* 4-octet units of free node space */
	uint32_t trace_type;	/* 24 bits, IPEH_IOAM_TRACE_* */
	/* decode: the node data area (free space first, then filled nodes) */
	const uint8_t *node_data;
	size_t node_data_len;
};

/* Node length in 4-octet units for a trace type (without opaque data),
 * as Linux's ioam6_trace_compute_nodelen().
 */
unsigned int ipeh_ioam_node_len(uint32_t trace_type);
/* Option data length for a trace with room for nodes nodes; 0 if that many
 * do not fit one option (more than 254 bytes of data). */
size_t ipeh_ioam_data_len(uint32_t trace_type, unsigned int nodes);
/*
 * Encode option data: header from t (node_len computed if 0), followed by
 * t->remaining_len * 4 zero bytes of pre-allocated space.  Returns the
 * option data length or -EINVAL/-ENOBUFS.
 */
int ipeh_ioam_trace_encode(const struct ipeh_ioam_trace *t, uint8_t *data,
			   size_t cap);
/* Decode option data; -EINVAL on what Linux's ipv6_hop_ioam() drops. */
int ipeh_ioam_trace_decode(const uint8_t *data, size_t len,
			   struct ipeh_ioam_trace *t);

/* One node's data as a router filled it in (fields by trace-type bit). */
struct ipeh_ioam_node {
	uint32_t present;	/* trace-type bits present in this node */
	uint8_t hop_limit;	/* bit 0 */
	uint32_t node_id;	/* bit 0, 24 bits */
	uint16_t ingress_if;	/* bit 1 */
	uint16_t egress_if;
	uint32_t ts_sec;	/* bit 2 */
	uint32_t ts_frac;	/* bit 3 */
	uint32_t transit_delay;	/* bit 4 */
	uint32_t ns_data;	/* bit 5 */
	uint32_t queue_depth;	/* bit 6 */
	uint32_t csum_comp;	/* bit 7 */
	uint8_t hop_limit_wide;	/* bit 8 */
	uint64_t node_id_wide;	/* bit 8, 56 bits */
	uint32_t ingress_if_wide; /* bit 9 */
	uint32_t egress_if_wide;
	uint64_t ns_data_wide;	/* bit 10 */
	uint32_t buffer_occupancy; /* bit 11 */
	uint32_t undefined[10];	/* bits 12..21, 0xffffffff from Linux */
	uint8_t opaque_len;	/* bit 22: 4-octet units of opaque data */
	uint32_t schema_id;	/* bit 22, 24 bits */
	const uint8_t *opaque;	/* opaque_len * 4 bytes */
};

/*
 * Iterate over the filled nodes of a decoded trace, most recent first
 * (the order they appear in the packet).  *pos starts at 0.  Returns 1 and
 * fills *n, 0 at the end, -EINVAL if a node runs past the data.
 */
int ipeh_ioam_trace_next_node(const struct ipeh_ioam_trace *t, size_t *pos,
			      struct ipeh_ioam_node *n);
/*
 * Fill the next node into encoded option data as a Linux router does
 * (__ioam6_fill_trace_data): written just before the free space's end,
 * remaining_len decreased; sets the overflow flag and returns -ENOSPC when
 * the node does not fit.  Meant for tests and simulators.
 */
int ipeh_ioam_trace_fill_node(uint8_t *data, size_t len,
			      const struct ipeh_ioam_node *n);

/* ------------------------------------------------------------------ */
/* Socket helpers                                                      */
/* ------------------------------------------------------------------ */

/* setsockopt(IPPROTO_IPV6, IPV6_HOPOPTS/...): sticky options. */
int ipeh_sock_set(int fd, enum ipeh_hdr hdr, const void *block, size_t len);
/* Remove the sticky options of this kind (zero-length setsockopt). */
int ipeh_sock_clear(int fd, enum ipeh_hdr hdr);
/* IPV6_RECVHOPOPTS (hop) or IPV6_RECVDSTOPTS (dst, rtdst) on/off. */
int ipeh_sock_recv_enable(int fd, enum ipeh_hdr hdr, bool on);

/* Control buffer space one block needs (CMSG_SPACE(len)). */
size_t ipeh_cmsg_space(size_t len);
/*
 * Append a cmsg carrying block to msg->msg_control, which has room for
 * cap bytes; msg->msg_controllen is the length used so far (0 at first)
 * and is advanced.  -ENOBUFS if it does not fit.
 */
int ipeh_cmsg_put(struct msghdr *msg, size_t cap, enum ipeh_hdr hdr,
		  const void *block, size_t len);
/*
 * Iterate over option blocks received with recvmsg(): *cookie starts NULL.
 * Returns 1 with *hdr, *block, *len set (IPV6_HOPOPTS, IPV6_DSTOPTS;
 * blocks received as IPV6_DSTOPTS are reported as IPEH_HDR_DSTOPTS),
 * 0 at the end, -EINVAL for a block shorter than its header length.
 */
int ipeh_cmsg_next(const struct msghdr *msg, void **cookie,
		   enum ipeh_hdr *hdr, const uint8_t **block, size_t *len);

/* ------------------------------------------------------------------ */
/* Netlink messages (pure encode/decode, no socket)                    */
/* ------------------------------------------------------------------ */

/* Which attributes a SET carries (bit = 1 << IPEH_TLV_ATTR_*). */
#define IPEH_ATTR_ORDER		(1u << 2)
#define IPEH_ATTR_ADMIN_PERM	(1u << 3)
#define IPEH_ATTR_USER_PERM	(1u << 4)
#define IPEH_ATTR_CLASS		(1u << 5)
#define IPEH_ATTR_ALIGN_MULT	(1u << 6)
#define IPEH_ATTR_ALIGN_OFF	(1u << 7)
#define IPEH_ATTR_MIN_DATA_LEN	(1u << 8)
#define IPEH_ATTR_MAX_DATA_LEN	(1u << 9)
#define IPEH_ATTR_DATA_LEN_MULT	(1u << 10)
#define IPEH_ATTR_DATA_LEN_OFF	(1u << 11)
#define IPEH_ATTR_ALL		0xffcu

/* Buffer big enough for any request built here.  Message buffers given to
 * these functions must be 4-byte aligned (netlink headers are used in place).
 */
#define IPEH_NLMSG_BUF		8192

/* CTRL_CMD_GETFAMILY for "ipeh-tlv"; returns message length. */
int ipeh_nlmsg_getfamily(void *buf, size_t cap, uint32_t seq);
/* Family id from a CTRL_CMD_NEWFAMILY reply; -ENOENT if not there. */
int ipeh_nlmsg_parse_family(const struct nlmsghdr *nlh, uint16_t *family);
/*
 * Id of the multicast group name ("tlv-changes") from a CTRL_CMD_NEWFAMILY
 * reply; -ENOENT if the family has no such group.
 */
int ipeh_nlmsg_parse_mcast_group(const struct nlmsghdr *nlh, const char *name,
				 uint32_t *group);
/* IPEH_TLV_CMD_GET of one type, or a dump when type < 0. */
int ipeh_nlmsg_get(void *buf, size_t cap, uint16_t family, uint32_t seq,
		   int type);
/* IPEH_TLV_CMD_SET with the attributes in mask (IPEH_ATTR_*). */
int ipeh_nlmsg_set(void *buf, size_t cap, uint16_t family, uint32_t seq,
		   uint8_t type, const struct ipeh_tlv_params *p,
		   unsigned int mask);
/* IPEH_TLV_CMD_UNSET */
int ipeh_nlmsg_unset(void *buf, size_t cap, uint16_t family, uint32_t seq,
		     uint8_t type);

/*
 * One entry of a REPLACE: type with the attributes of p selected by mask
 * (IPEH_ATTR_*, as ipeh_nl_set()), or, with unset, type back at its
 * default (as ipeh_nl_unset()).
 */
struct ipeh_nl_entry {
	uint8_t type;
	bool unset;
	unsigned int mask;
	struct ipeh_tlv_params p;
};

/* REPLACE flag: every type without an entry first gets its default */
#define IPEH_NL_REPLACE_RESET	(1u << 0)

/*
 * IPEH_TLV_CMD_REPLACE of the n entries; off (may be NULL) gets, for each
 * entry, the byte offset of its nest in the message.  -ENOBUFS if cap is
 * too small (about 100 bytes per entry), -EINVAL for a bad mask or flag.
 */
int ipeh_nlmsg_replace(void *buf, size_t cap, uint16_t family, uint32_t seq,
		       const struct ipeh_nl_entry *e, size_t n,
		       unsigned int flags, uint32_t *off);
/*
 * Decode a GET reply/dump entry into *type and *p; *mask (may be NULL)
 * gets the attributes present; an absent ADMIN_PERM is IPEH_PERM_UNKNOWN.
 */
int ipeh_nlmsg_parse_params(const struct nlmsghdr *nlh, uint8_t *type,
			    struct ipeh_tlv_params *p, unsigned int *mask);
/*
 * Decode an NLMSG_ERROR message: returns its (negative) errno, 0 for an
 * ACK; err->msg gets the kernel's extack message if there is one.
 */
int ipeh_nlmsg_parse_error(const struct nlmsghdr *nlh,
			   struct ipeh_error *err);

/* ------------------------------------------------------------------ */
/* Netlink client (libmnl)                                             */
/* ------------------------------------------------------------------ */

struct ipeh_nl;

/* Open a generic netlink socket and resolve "ipeh-tlv" (-ENOENT if the
 * kernel has no such family).
 */
int ipeh_nl_open(struct ipeh_nl **nlp, struct ipeh_error *err);
void ipeh_nl_close(struct ipeh_nl *nl);
int ipeh_nl_fd(const struct ipeh_nl *nl);
uint16_t ipeh_nl_family(const struct ipeh_nl *nl);

int ipeh_nl_get(struct ipeh_nl *nl, uint8_t type, struct ipeh_tlv_params *p,
		struct ipeh_error *err);
/* Called once per type in a dump; a non-zero return stops the dump. */
typedef int (*ipeh_nl_dump_cb)(uint8_t type, const struct ipeh_tlv_params *p,
			       unsigned int mask, void *arg);
int ipeh_nl_dump(struct ipeh_nl *nl, ipeh_nl_dump_cb cb, void *arg,
		 struct ipeh_error *err);
/* Load the live table (types the kernel did not report keep their
 * no-entry default).
 */
int ipeh_nl_dump_table(struct ipeh_nl *nl, struct ipeh_table *t,
		       struct ipeh_error *err);
int ipeh_nl_set(struct ipeh_nl *nl, uint8_t type,
		const struct ipeh_tlv_params *p, unsigned int mask,
		struct ipeh_error *err);
int ipeh_nl_unset(struct ipeh_nl *nl, uint8_t type, struct ipeh_error *err);
/*
 * Change the n entries (at most 256) in one request: the kernel applies
 * all or none of them, and readers never see a part.  -EOPNOTSUPP if the
 * kernel's family has no REPLACE command (use ipeh_nl_set() and
 * ipeh_nl_unset() then).  When the kernel refuses and names the entry at
 * fault, err->type is that entry's type.
 */
int ipeh_nl_replace(struct ipeh_nl *nl, const struct ipeh_nl_entry *e,
		    size_t n, unsigned int flags, struct ipeh_error *err);

/*
 * Table change notifications (the "tlv-changes" group; joining needs
 * CAP_NET_ADMIN).  Use a handle of its own for them: a handle waiting for
 * the reply to a request drops the notifications it reads meanwhile.
 * -ENOENT if the kernel's family has no such group.
 */
int ipeh_nl_subscribe(struct ipeh_nl *nl, struct ipeh_error *err);
/*
 * cmd is IPEH_TLV_CMD_SET for a notification IPEH_TLV_CMD_SET_NTF (an entry
 * changed), IPEH_TLV_CMD_UNSET for IPEH_TLV_CMD_UNSET_NTF (a type got its
 * default); p the resulting entry.
 */
typedef int (*ipeh_nl_change_cb)(uint8_t cmd, uint8_t type,
				 const struct ipeh_tlv_params *p,
				 unsigned int mask, void *arg);
/*
 * Read the notifications pending on a subscribed handle without blocking
 * (poll ipeh_nl_fd() first); returns how many were passed to cb, or a
 * negative errno (-ENOBUFS: some were lost, dump the table again).
 */
int ipeh_nl_recv_changes(struct ipeh_nl *nl, ipeh_nl_change_cb cb, void *arg,
			 struct ipeh_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IPEH_H */
