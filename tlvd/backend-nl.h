/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's table through libipeh's netlink client, and the
 * "tlv-changes" notifications. */
#ifndef TLVD_BACKEND_NL_H
#define TLVD_BACKEND_NL_H

#include "apply.h"

struct ipeh_nl;

/*
 * Opens the family.  On error returns a negative errno and writes a
 * sentence for the user into @msg: the family missing (-ENOENT) is
 * "kernel has no ipeh-tlv netlink family (ipeh patches not applied?)".
 */
int nl_backend_open(struct backend *be, char *msg, size_t len);
void nl_backend_close(struct backend *be);

/*
 * A socket subscribed to the family's "tlv-changes" multicast group.
 * Returns the fd (non-blocking), -ENOENT if the family has no such
 * group, or another negative errno.
 */
int nl_notify_open(char *msg, size_t len);
/* Reads and discards every pending message; returns how many, or a
 * negative errno (-ENOBUFS: some were lost, which still means
 * "something changed"). */
int nl_notify_drain(int fd);

/* Whether this process has CAP_NET_ADMIN in its effective set. */
bool have_cap_net_admin(void);

/* A sentence for a failed kernel call, from libipeh's error message (the
 * kernel's extack message and the errno's description): EPERM becomes
 * "permission denied: changing the TLV table needs CAP_NET_ADMIN ...", a
 * missing family names the missing patches. */
const char *nl_strerror(int err, const char *libipeh_msg, char *buf,
			size_t len);

#endif
