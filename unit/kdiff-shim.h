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

struct tlv_tx_params {
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

struct tlv_params {
	struct tlv_tx_params t;
};

struct tlv_proc {
	struct tlv_params params;
};

struct tlv_param_table_data {
	unsigned int user_grants;	/* types with user_perm not NONE */
	struct tlv_proc procs[256];
};

static inline const struct tlv_proc *
ipeh_tlv_proc_in(const struct tlv_param_table_data *t, unsigned char type)
{
	return &t->procs[type];
}

#endif
