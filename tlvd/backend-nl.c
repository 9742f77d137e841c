// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/ipeh.h>
#include <linux/netlink.h>

#include "backend-nl.h"

#define NO_FAMILY_MSG "kernel has no " IPEH_TLV_GENL_NAME \
	" netlink family (ipeh patches not applied?)"

const char *nl_strerror(int err, const char *libipeh_msg, char *buf,
			size_t len)
{
	if (err == -EPERM)
		snprintf(buf, len, "permission denied: changing the TLV table needs CAP_NET_ADMIN over the user namespace that owns this network namespace");
	else if (err == -ENOENT && (!libipeh_msg || !libipeh_msg[0]))
		snprintf(buf, len, NO_FAMILY_MSG);
	else if (libipeh_msg && libipeh_msg[0])
		/* already the kernel's extack and the errno's description */
		snprintf(buf, len, "%s", libipeh_msg);
	else
		snprintf(buf, len, "%s", strerror(-err));
	return buf;
}

bool have_cap_net_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_NET_ADMIN / 32].effective &
	       (1u << (CAP_NET_ADMIN % 32));
}

static void report(int err, const struct ipeh_error *e, char *msg, size_t len)
{
	/* libipeh's message already carries the kernel's extack */
	nl_strerror(err, e->msg, msg, len);
}

static int nl_dump(void *ctx, struct ipeh_table *t, char *msg, size_t len)
{
	struct ipeh_error e;
	int ret;

	ipeh_error_clear(&e);
	ret = ipeh_nl_dump_table(ctx, t, &e);
	if (ret < 0)
		report(ret, &e, msg, len);
	return ret < 0 ? ret : 0;
}

static int nl_set(void *ctx, uint8_t type, const struct ipeh_tlv_params *p,
		  char *msg, size_t len)
{
	unsigned int mask = IPEH_ATTR_ALL;
	struct ipeh_error e;
	int ret;

	if (p->admin_perm == IPEH_PERM_UNKNOWN)
		mask &= ~IPEH_ATTR_ADMIN_PERM;
	ipeh_error_clear(&e);
	ret = ipeh_nl_set(ctx, type, p, mask, &e);
	if (ret < 0)
		report(ret, &e, msg, len);
	return ret < 0 ? ret : 0;
}

static int nl_unset(void *ctx, uint8_t type, char *msg, size_t len)
{
	struct ipeh_error e;
	int ret;

	ipeh_error_clear(&e);
	ret = ipeh_nl_unset(ctx, type, &e);
	if (ret < 0)
		report(ret, &e, msg, len);
	return ret < 0 ? ret : 0;
}

static int nl_replace(void *ctx, const struct change *c, unsigned int n,
		      char *msg, size_t len)
{
	struct ipeh_nl_entry *ent = calloc(n ? n : 1, sizeof(*ent));
	struct ipeh_error e;
	int ret;

	if (!ent) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < n; i++) {
		ent[i].type = c[i].type;
		if (c[i].op == CHANGE_UNSET) {
			ent[i].unset = true;
			continue;
		}
		ent[i].p = c[i].to;
		ent[i].mask = IPEH_ATTR_ALL;
		if (c[i].to.admin_perm == IPEH_PERM_UNKNOWN)
			ent[i].mask &= ~IPEH_ATTR_ADMIN_PERM;
	}
	ipeh_error_clear(&e);
	ret = ipeh_nl_replace(ctx, ent, n, 0, &e);
	free(ent);
	if (ret == -EOPNOTSUPP)
		return ret;
	if (ret < 0) {
		char name[32], why[256];

		nl_strerror(ret, e.msg, why, sizeof(why));
		if (e.type >= 0)
			snprintf(msg, len, "%s: %s",
				 tlv_type_format((unsigned int)e.type, name,
						 sizeof(name)), why);
		else
			snprintf(msg, len, "%s", why);
	}
	return ret < 0 ? ret : 0;
}

static const struct backend_ops nl_ops = {
	.dump = nl_dump,
	.set = nl_set,
	.unset = nl_unset,
	.replace = nl_replace,
};

int nl_backend_open(struct backend *be, char *msg, size_t len)
{
	struct ipeh_nl *nl = NULL;
	struct ipeh_error e;
	int ret;

	ipeh_error_clear(&e);
	ret = ipeh_nl_open(&nl, &e);
	if (ret < 0) {
		if (ret == -ENOENT)
			snprintf(msg, len, NO_FAMILY_MSG);
		else
			report(ret, &e, msg, len);
		return ret;
	}
	be->ops = &nl_ops;
	be->ctx = nl;
	return 0;
}

void nl_backend_close(struct backend *be)
{
	if (be->ctx)
		ipeh_nl_close(be->ctx);
	be->ctx = NULL;
}

/* --- notifications ------------------------------------------------ */

struct group_lookup {
	uint16_t family;
	int group;		/* -1: not found */
};

static int group_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_MCAST_GRP_NAME &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		tb[type] = attr;
	if (type == CTRL_ATTR_MCAST_GRP_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct group_lookup *gl = data;
	struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		int type = mnl_attr_get_type(attr);

		if (type == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
			gl->family = mnl_attr_get_u16(attr);
		if (type != CTRL_ATTR_MCAST_GROUPS)
			continue;
		struct nlattr *grp;

		mnl_attr_for_each_nested(grp, attr) {
			const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = { 0 };

			mnl_attr_parse_nested(grp, group_attr_cb, tb);
			if (tb[CTRL_ATTR_MCAST_GRP_NAME] &&
			    tb[CTRL_ATTR_MCAST_GRP_ID] &&
			    !strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]),
				    IPEH_TLV_GENL_MCGRP_NAME))
				gl->group = (int)mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
		}
	}
	return MNL_CB_OK;
}

int nl_notify_open(char *msg, size_t len)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct group_lookup gl = { .family = 0, .group = -1 };
	struct mnl_socket *sock;
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	unsigned int seq = 1, portid;
	int ret, fd, group;

	sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!sock || mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		snprintf(msg, len, "netlink socket: %s", strerror(errno));
		goto out;
	}
	portid = mnl_socket_get_portid(sock);

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IPEH_TLV_GENL_NAME);
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		snprintf(msg, len, "netlink send: %s", strerror(errno));
		goto out;
	}
	/* The socket is non-blocking: wait for the reply with poll-less
	 * blocking reads by clearing O_NONBLOCK for the lookup only. */
	fd = mnl_socket_get_fd(sock);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	do {
		ret = (int)mnl_socket_recvfrom(sock, buf, sizeof(buf));
		if (ret < 0) {
			ret = -errno;
			break;
		}
		ret = mnl_cb_run(buf, (size_t)ret, seq, portid, family_cb, &gl);
		if (ret < 0)
			ret = -errno;
	} while (ret > 0);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (ret < 0) {
		if (ret == -ENOENT)
			snprintf(msg, len, NO_FAMILY_MSG);
		else
			snprintf(msg, len, "family lookup: %s", strerror(-ret));
		goto out;
	}
	if (gl.group < 0) {
		ret = -ENOENT;
		snprintf(msg, len, "the " IPEH_TLV_GENL_NAME " family has no "
			 IPEH_TLV_GENL_MCGRP_NAME " multicast group");
		goto out;
	}
	group = gl.group;
	if (mnl_socket_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, &group,
				  sizeof(group)) < 0) {
		ret = -errno;
		snprintf(msg, len, "joining " IPEH_TLV_GENL_MCGRP_NAME ": %s",
			 strerror(errno));
		goto out;
	}
	/* The fd outlives the mnl wrapper: dup it, then free the wrapper. */
	ret = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (ret < 0) {
		ret = -errno;
		snprintf(msg, len, "dup: %s", strerror(errno));
	}
out:
	if (sock)
		mnl_socket_close(sock);
	return ret;
}

int nl_notify_drain(int fd)
{
	char buf[8192];
	int n = 0;

	for (;;) {
		ssize_t r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return n;
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				n++;
				continue;
			}
			return -errno;
		}
		if (r == 0)
			return n;
		n++;
	}
}
