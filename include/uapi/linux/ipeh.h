/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * IPv6 extension header TLV management: generic netlink family "ipeh-tlv".
 *
 * The family reads and changes the table of per-type parameters the kernel
 * uses to validate the Hop-by-Hop and Destination options that applications
 * set for transmit. Each network namespace has its own table, created from
 * the built-in entries with the namespace; requests and notifications
 * concern the table of the requester's or listener's netns. Changing it
 * needs CAP_NET_ADMIN over the user namespace that owns the netns; GET and
 * dump report ADMIN_PERM to the same callers only.
 */

#ifndef _UAPI_LINUX_IPEH_H
#define _UAPI_LINUX_IPEH_H

#define IPEH_TLV_GENL_NAME		"ipeh-tlv"
#define IPEH_TLV_GENL_VERSION		0x1
#define IPEH_TLV_GENL_MCGRP_NAME	"tlv-changes"

/* Extension headers in which an option may be sent (IPEH_TLV_ATTR_CLASS) */
#define IPEH_TLV_CLASS_FLAG_HOPOPT	(1 << 0)
#define IPEH_TLV_CLASS_FLAG_RTRDSTOPT	(1 << 1)
#define IPEH_TLV_CLASS_FLAG_DSTOPT	(1 << 2)

#define IPEH_TLV_CLASS_FLAG_MASK	(IPEH_TLV_CLASS_FLAG_HOPOPT |	\
					 IPEH_TLV_CLASS_FLAG_RTRDSTOPT |	\
					 IPEH_TLV_CLASS_FLAG_DSTOPT)

/* Permission to send an option (IPEH_TLV_ATTR_{ADMIN,USER}_PERM): the
 * admin permission is that of a sender with CAP_NET_RAW, the user
 * permission that of any other sender.
 *
 * NO_CHECK skips only the option's own checks (class, data length, order,
 * alignment, the padding before it). The rules on the header as a whole --
 * at most net.ipv6.max_{hbh,dst}_opts_number non-padding options (E2BIG),
 * at most one trailing padding option of at most 7 zero bytes (EINVAL),
 * at most max_hbh_length or max_dst_opts_length bytes (EMSGSIZE; a negative
 * sysctl refuses every header) -- hold for every header set by a sender
 * without CAP_NET_RAW, and for the header of a sender with it once one of
 * its options is WITH_CHECK.
 *
 * A sender without CAP_NET_RAW also gets EPERM for a header of padding
 * only, and for any header while no type has a USER_PERM other than NONE
 * (before the header is read, as before this table existed). Other errors:
 * EINVAL for an option running past the header or a WITH_CHECK option out
 * of its class, length, order, alignment or padding rules; from
 * setsockopt() also EINVAL, EFAULT or ENOMEM for the header's length or
 * copy. Options are checked in header order, the header-wide rules after
 * them. Removing sticky options (optlen 0) is allowed to every sender.
 */
enum {
	IPEH_TLV_PERM_NONE,		/* may not be sent */
	IPEH_TLV_PERM_WITH_CHECK,	/* may be sent in canonical form */
	IPEH_TLV_PERM_NO_CHECK,		/* may be sent as is */
	IPEH_TLV_PERM_MAX = IPEH_TLV_PERM_NO_CHECK
};

enum {
	IPEH_TLV_ATTR_UNSPEC,
	IPEH_TLV_ATTR_TYPE,		/* u8, option type, 2 to 255 */
	IPEH_TLV_ATTR_ORDER,		/* u16, preferred order, 1 to 65535 */
	IPEH_TLV_ATTR_ADMIN_PERM,	/* u8, IPEH_TLV_PERM_* */
	IPEH_TLV_ATTR_USER_PERM,	/* u8, IPEH_TLV_PERM_* */
	IPEH_TLV_ATTR_CLASS,		/* u8, IPEH_TLV_CLASS_FLAG_* */
	IPEH_TLV_ATTR_ALIGN_MULT,	/* u8, 1 to 16 */
	IPEH_TLV_ATTR_ALIGN_OFF,	/* u8, 0 to ALIGN_MULT - 1 */
	IPEH_TLV_ATTR_MIN_DATA_LEN,	/* u8, option data length */
	IPEH_TLV_ATTR_MAX_DATA_LEN,	/* u8, option data length */
	IPEH_TLV_ATTR_DATA_LEN_MULT,	/* u8, 1 to 16 */
	IPEH_TLV_ATTR_DATA_LEN_OFF,	/* u8, 0 to DATA_LEN_MULT - 1 */
	IPEH_TLV_ATTR_GENERATION,	/* u32, version of the table: in GET
					 * replies, dumps and notifications;
					 * every change adds one
					 */
	IPEH_TLV_ATTR_ENTRY,		/* nested, REPLACE (repeated): TYPE and
					 * the attributes of a SET, or TYPE and
					 * UNSET
					 */
	IPEH_TLV_ATTR_UNSET,		/* flag, in an ENTRY: restore the
					 * type's default, as UNSET does
					 */
	IPEH_TLV_ATTR_RESET,		/* flag, REPLACE: every type without an
					 * ENTRY gets its default first
					 */
	IPEH_TLV_ATTR_RX_CLASS,		/* u8, GET replies, dumps and
					 * notifications, for a type with a
					 * receive handler only: the received
					 * headers in which the kernel acts on
					 * the option (IPEH_TLV_CLASS_FLAG_*)
					 */

	__IPEH_TLV_ATTR_MAX,
};

#define IPEH_TLV_ATTR_MAX		(__IPEH_TLV_ATTR_MAX - 1)

enum {
	IPEH_TLV_CMD_UNSPEC,
	IPEH_TLV_CMD_SET,		/* change one type */
	IPEH_TLV_CMD_UNSET,		/* restore one type's default */
	IPEH_TLV_CMD_GET,		/* one type (ENOENT if it has no entry),
					 * or all with NLM_F_DUMP (a type
					 * without an entry has ORDER 0)
					 */
	IPEH_TLV_CMD_REPLACE,		/* change several types at once */
	IPEH_TLV_CMD_SET_NTF,		/* notification: a type's entry changed
					 * (SET or REPLACE)
					 */
	IPEH_TLV_CMD_UNSET_NTF,		/* notification: a type got its default
					 * (UNSET or REPLACE)
					 */

	__IPEH_TLV_CMD_MAX,
};

#define IPEH_TLV_CMD_MAX		(__IPEH_TLV_CMD_MAX - 1)

#endif /* _UAPI_LINUX_IPEH_H */
