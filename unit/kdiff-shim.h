/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Just enough kernel for the series' transmit validator to compile in
 * user space (see kdiff-extract.sh): types, the parameter structs as in
 * kernel/patches (bitfields included), the table lookup and no-op RCU.
 */
#ifndef UNIT_KDIFF_SHIM_H
#define UNIT_KDIFF_SHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>
#include <linux/ipeh.h>

typedef uint8_t __u8;
typedef uint8_t u8;
typedef uint16_t u16;

#define IPV6_TLV_PAD1	0
#define IPV6_TLV_PADN	1
#define rcu_read_lock()		do { } while (0)
#define rcu_read_unlock()	do { } while (0)
#define unlikely(x)		(x)
#define likely(x)		(x)
#define READ_ONCE(x)		(x)

struct ipv6_opt_hdr {
	__u8 nexthdr;
	__u8 hdrlen;
};

#define ipv6_optlen(p)	(((p)->hdrlen + 1) << 3)

/*
 * The kernel's struct ipeh_tlv_params has the name of libipeh's public
 * one: test-kdiff.c sees the kernel's under this name until it has
 * included kvalidate.inc, and then #undefs it before libipeh's header.
 */
#define ipeh_tlv_params kernel_ipeh_tlv_params

struct ipeh_tlv_tx_params {
	unsigned char admin_perm : 2;
	unsigned char user_perm : 2;
	unsigned char class : 3;
	unsigned char rsvd : 1;
	unsigned char align_mult : 4;
	unsigned char align_off : 4;
	unsigned char data_len_mult : 4;
	unsigned char data_len_off : 4;
	unsigned char min_data_len;
	unsigned char max_data_len;
	unsigned short preferred_order;
};

struct ipeh_tlv_params {
	struct ipeh_tlv_tx_params t;
};

struct ipeh_tlv_proc {
	struct ipeh_tlv_params params;
};

struct ipeh_tlv_table_data {
	unsigned int user_grants;	/* types with user_perm not NONE */
	struct ipeh_tlv_proc procs[256];
};

static inline const struct ipeh_tlv_proc *
ipeh_tlv_proc_in(const struct ipeh_tlv_table_data *t, unsigned char type)
{
	return &t->procs[type];
}

#endif
