// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink client for the "ipeh-tlv" family (libmnl).  Messages are built
 * and decoded by nlmsg.c; this file only sends them and walks replies.
 */

#include <stdlib.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/ipeh.h>

#include "internal.h"

struct ipeh_nl {
	/* first, and aligned: netlink headers are read in place */
	char buf[32768] __attribute__((aligned(8))); /* >= max_recvmsg_len */
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
	uint32_t mcast_group;	/* 0: the family has no "tlv-changes" */
	long err_offset;	/* of the last error's bad attribute, or -1 */
	uint16_t family;
};

typedef int (*reply_cb)(const struct nlmsghdr *nlh, void *arg);

/*
 * Send the request in nl->buf and process replies until the ACK, the
 * error or NLMSG_DONE.  Data messages go to cb (may be NULL).
 */
static int transact(struct ipeh_nl *nl, size_t len, reply_cb cb, void *arg,
		    struct ipeh_error *err)
{
	const struct nlmsghdr *req = (const struct nlmsghdr *)nl->buf;
	/* the replies overwrite the request: keep what is needed of it */
	const uint32_t seq = req->nlmsg_seq;
	const bool want_ack = req->nlmsg_flags & NLM_F_ACK;
	int cb_ret = 0;

	if (mnl_socket_sendto(nl->sock, nl->buf, len) < 0)
		return ipeh__fail(err, -errno, IPEH_RULE_SYSCALL, -1, -1,
				  "netlink send: %s", ipeh__strerror(errno));
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl->sock, nl->buf,
						sizeof(nl->buf));
		const struct nlmsghdr *nlh;
		int left;

		if (n < 0)
			return ipeh__fail(err, -errno, IPEH_RULE_SYSCALL, -1,
					  -1, "netlink receive: %s",
					  ipeh__strerror(errno));
		left = (int)n;
		for (nlh = (const struct nlmsghdr *)nl->buf;
		     mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_seq != seq ||
			    (nlh->nlmsg_pid && nlh->nlmsg_pid != nl->portid))
				continue;	/* stale reply */
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				int r = ipeh_nlmsg_parse_error(nlh, err);

				nl->err_offset = ipeh__nlmsg_error_offset(nlh);
				return r < 0 ? r : cb_ret;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				const int *e = mnl_nlmsg_get_payload(nlh);

				if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int) &&
				    *e < 0)
					return ipeh__fail(err, *e,
							  IPEH_RULE_NETLINK,
							  -1, -1,
							  "dump failed: %s",
							  ipeh__strerror(-*e));
				return cb_ret;
			}
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			if (cb && !cb_ret)
				cb_ret = cb(nlh, arg);
			if (!(nlh->nlmsg_flags & NLM_F_MULTI) && !want_ack)
				return cb_ret;
		}
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct ipeh_nl *nl = arg;
	int ret;

	ret = ipeh_nlmsg_parse_family(nlh, &nl->family);
	if (ret < 0)
		return ret;
	if (ipeh_nlmsg_parse_mcast_group(nlh, IPEH_TLV_GENL_MCGRP_NAME,
					 &nl->mcast_group) < 0)
		nl->mcast_group = 0;
	return 0;
}

int ipeh_nl_open(struct ipeh_nl **nlp, struct ipeh_error *err)
{
	struct ipeh_nl *nl;
	int one = 1, ret;

	*nlp = NULL;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return ipeh__fail(err, -ENOMEM, IPEH_RULE_SYSCALL, -1, -1,
				  "out of memory");
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock) {
		ret = -errno;
		free(nl);
		return ipeh__fail(err, ret, IPEH_RULE_SYSCALL, -1, -1,
				  "netlink socket: %s", ipeh__strerror(-ret));
	}
	/* best effort: older kernels lack these */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto fail;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (uint32_t)time(NULL);

	ret = ipeh_nlmsg_getfamily(nl->buf, sizeof(nl->buf), ++nl->seq);
	if (ret < 0)
		goto fail;
	ret = transact(nl, (size_t)ret, family_cb, nl, err);
	if (ret < 0) {
		if (ret == -ENOENT)
			ipeh__fail(err, ret, IPEH_RULE_NETLINK, -1, -1,
				   "kernel has no \"ipeh-tlv\" netlink family");
		ipeh_nl_close(nl);
		return ret;
	}
	if (!nl->family) {
		ipeh_nl_close(nl);
		return ipeh__fail(err, -ENOENT, IPEH_RULE_NETLINK, -1, -1,
				  "no family id in reply");
	}
	*nlp = nl;
	return 0;
fail:
	ipeh_nl_close(nl);
	return ipeh__fail(err, ret, IPEH_RULE_SYSCALL, -1, -1,
			  "netlink: %s", ipeh__strerror(-ret));
}

void ipeh_nl_close(struct ipeh_nl *nl)
{
	if (!nl)
		return;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl);
}

int ipeh_nl_fd(const struct ipeh_nl *nl)
{
	return mnl_socket_get_fd(nl->sock);
}

uint16_t ipeh_nl_family(const struct ipeh_nl *nl)
{
	return nl->family;
}

struct get_arg {
	uint8_t want;
	bool found;
	struct ipeh_tlv_params *p;
};

static int get_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct get_arg *g = arg;
	struct ipeh_tlv_params p;
	uint8_t type;

	if (ipeh_nlmsg_parse_params(nlh, &type, &p, NULL) < 0)
		return -EBADMSG;
	if (type == g->want) {
		*g->p = p;
		g->found = true;
	}
	return 0;
}

int ipeh_nl_get(struct ipeh_nl *nl, uint8_t type, struct ipeh_tlv_params *p,
		struct ipeh_error *err)
{
	struct get_arg g = { .want = type, .p = p };
	int ret;

	ret = ipeh_nlmsg_get(nl->buf, sizeof(nl->buf), nl->family, ++nl->seq,
			     type);
	if (ret < 0)
		return ipeh__fail(err, ret, IPEH_RULE_PARAM, type, -1,
				  "cannot build request");
	ret = transact(nl, (size_t)ret, get_cb, &g, err);
	if (ret == -ENOENT) {
		/* kernels with REPLACE refuse GET of a type without an entry:
		 * give its "no entry" parameters, as older kernels did
		 */
		struct ipeh_table t;

		ipeh_table_init_empty(&t);
		*p = t.params[type];
		if (err)
			ipeh_error_clear(err);
		return 0;
	}
	if (ret < 0)
		return ret == -EBADMSG ?
		       ipeh__fail(err, ret, IPEH_RULE_NETLINK, type, -1,
				  "malformed reply") : ret;
	if (!g.found)
		return ipeh__fail(err, -ENOENT, IPEH_RULE_NETLINK, type, -1,
				  "no reply for type %u", type);
	return 0;
}

struct dump_arg {
	ipeh_nl_dump_cb cb;
	void *arg;
	bool intr;	/* the table changed during the dump */
};

static int dump_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dump_arg *d = arg;
	struct ipeh_tlv_params p;
	unsigned int mask;
	uint8_t type;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		d->intr = true;
	if (ipeh_nlmsg_parse_params(nlh, &type, &p, &mask) < 0)
		return -EBADMSG;
	return d->cb(type, &p, mask, d->arg);
}

static int dump(struct ipeh_nl *nl, struct dump_arg *d, struct ipeh_error *err)
{
	int ret;

	ret = ipeh_nlmsg_get(nl->buf, sizeof(nl->buf), nl->family, ++nl->seq,
			     -1);
	if (ret < 0)
		return ipeh__fail(err, ret, IPEH_RULE_PARAM, -1, -1,
				  "cannot build request");
	ret = transact(nl, (size_t)ret, dump_cb, d, err);
	if (ret == -EBADMSG)
		return ipeh__fail(err, ret, IPEH_RULE_NETLINK, -1, -1,
				  "malformed dump entry");
	return ret;
}

int ipeh_nl_dump(struct ipeh_nl *nl, ipeh_nl_dump_cb cb, void *arg,
		 struct ipeh_error *err)
{
	struct dump_arg d = { cb, arg, false };

	return dump(nl, &d, err);
}

static int table_cb(uint8_t type, const struct ipeh_tlv_params *p,
		    unsigned int mask, void *arg)
{
	struct ipeh_table *t = arg;

	(void)mask;
	if (type >= 2)
		t->params[type] = *p;
	return 0;
}

/* A dump that spans a change of the table (NLM_F_DUMP_INTR) may mix two
 * versions of it: take another.
 */
int ipeh_nl_dump_table(struct ipeh_nl *nl, struct ipeh_table *t,
		       struct ipeh_error *err)
{
	int ret, tries = 0;

	do {
		struct dump_arg d = { table_cb, t, false };

		ipeh_table_init_empty(t);
		ret = dump(nl, &d, err);
		if (ret < 0 || !d.intr)
			return ret;
	} while (++tries < 16);
	return ipeh__fail(err, -EAGAIN, IPEH_RULE_NETLINK, -1, -1,
			  "the table kept changing during 16 dumps");
}

int ipeh_nl_set(struct ipeh_nl *nl, uint8_t type,
		const struct ipeh_tlv_params *p, unsigned int mask,
		struct ipeh_error *err)
{
	int ret;

	ret = ipeh_nlmsg_set(nl->buf, sizeof(nl->buf), nl->family, ++nl->seq,
			     type, p, mask);
	if (ret < 0)
		return ipeh__fail(err, ret, IPEH_RULE_PARAM, type, -1,
				  "cannot build request");
	return transact(nl, (size_t)ret, NULL, NULL, err);
}

int ipeh_nl_unset(struct ipeh_nl *nl, uint8_t type, struct ipeh_error *err)
{
	int ret;

	ret = ipeh_nlmsg_unset(nl->buf, sizeof(nl->buf), nl->family, ++nl->seq,
			       type);
	if (ret < 0)
		return ipeh__fail(err, ret, IPEH_RULE_PARAM, type, -1,
				  "cannot build request");
	return transact(nl, (size_t)ret, NULL, NULL, err);
}

int ipeh_nl_replace(struct ipeh_nl *nl, const struct ipeh_nl_entry *e,
		    size_t n, unsigned int flags, struct ipeh_error *err)
{
	uint32_t off[256];
	size_t i;
	int ret;

	ret = ipeh_nlmsg_replace(nl->buf, sizeof(nl->buf), nl->family,
				 ++nl->seq, e, n, flags, off);
	if (ret < 0)
		return ipeh__fail(err, ret, IPEH_RULE_PARAM, -1, -1,
				  "cannot build request (%zu entries)", n);
	nl->err_offset = -1;
	ret = transact(nl, (size_t)ret, NULL, NULL, err);
	if (ret == -EOPNOTSUPP)
		return ipeh__fail(err, ret, IPEH_RULE_NETLINK, -1, -1,
				  "the kernel's ipeh-tlv family has no REPLACE command");
	if (ret < 0 && err && nl->err_offset >= 0) {
		/* the entry whose nest holds the bad attribute */
		for (i = n; i-- > 0;)
			if ((long)off[i] <= nl->err_offset) {
				err->type = e[i].type;
				err->index = (int)i;
				break;
			}
	}
	return ret;
}

int ipeh_nl_subscribe(struct ipeh_nl *nl, struct ipeh_error *err)
{
	int grp = (int)nl->mcast_group;

	if (!nl->mcast_group)
		return ipeh__fail(err, -ENOENT, IPEH_RULE_NETLINK, -1, -1,
				  "the ipeh-tlv family has no \"%s\" group",
				  IPEH_TLV_GENL_MCGRP_NAME);
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0)
		return ipeh__fail(err, -errno, IPEH_RULE_SYSCALL, -1, -1,
				  "join \"%s\": %s", IPEH_TLV_GENL_MCGRP_NAME,
				  ipeh__strerror(errno));
	return 0;
}

int ipeh_nl_recv_changes(struct ipeh_nl *nl, ipeh_nl_change_cb cb, void *arg,
			 struct ipeh_error *err)
{
	int count = 0;

	for (;;) {
		ssize_t n = recv(mnl_socket_get_fd(nl->sock), nl->buf,
				 sizeof(nl->buf), MSG_DONTWAIT);
		const struct nlmsghdr *nlh;
		int left;

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return count;
			if (errno == EINTR)
				continue;
			return ipeh__fail(err, -errno, IPEH_RULE_SYSCALL, -1, -1,
					  "netlink receive: %s", ipeh__strerror(errno));
		}
		left = (int)n;
		for (nlh = (const struct nlmsghdr *)nl->buf;
		     mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
			const struct genlmsghdr *g;
			struct ipeh_tlv_params p;
			unsigned int mask;
			uint8_t type, cmd;
			int r;

			if (nlh->nlmsg_type != nl->family ||
			    mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
				continue;
			g = mnl_nlmsg_get_payload(nlh);
			/* The kernel sends SET_NTF and UNSET_NTF; cb gets the
			 * command that makes such a change (the API since 1.0).
			 */
			if (g->cmd == IPEH_TLV_CMD_SET_NTF)
				cmd = IPEH_TLV_CMD_SET;
			else if (g->cmd == IPEH_TLV_CMD_UNSET_NTF)
				cmd = IPEH_TLV_CMD_UNSET;
			else
				continue;
			if (ipeh_nlmsg_parse_params(nlh, &type, &p, &mask) < 0)
				continue;
			count++;
			r = cb(cmd, type, &p, mask, arg);
			if (r)
				return r < 0 ? r : count;
		}
	}
}
