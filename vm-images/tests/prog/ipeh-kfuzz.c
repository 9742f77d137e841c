// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipeh-kfuzz: a small coverage-guided fuzzer of the series' kernel surface,
 * for a guest whose kernel has CONFIG_KCOV (the debug kernel,
 * kernel/config/debug.config).
 * NEVER run it on a development host: it changes the kernel's state and is
 * meant for a throw-away guest (it does confine itself to a network
 * namespace of its own, see below).
 *
 *   ipeh-kfuzz nl|opt [--corpus DIR] [--seeds DIR] [--seconds N] [--seed N]
 *                     [--replay] [--no-unshare] [--uid N] [--pcs FILE]
 *
 * --pcs FILE: at the end, the PCs seen, one per line in hex (16 digits,
 * unsorted), for the host to map onto the kernel's symbols
 * (vm-images/kfuzz-report.sh).
 *
 * Coverage: each process that makes the syscalls under test opens
 * /sys/kernel/debug/kcov, KCOV_INIT_TRACE, mmap()s the buffer and wraps each
 * operation in KCOV_ENABLE(KCOV_TRACE_PC) / KCOV_DISABLE; the PCs the buffer
 * holds are added to one hash set, kept in memory shared with the
 * unprivileged child, so that both count towards the same coverage. An
 * input that adds a PC is kept (in memory and, with --corpus, as a file
 * named after its hash). Only code run in the calling task is seen: the
 * receive path of a datagram sent to ::1 runs in softirq context and is
 * not (KASAN and the other checkers still watch it).
 *
 * Inputs are records (kfuzz-lib.h: op a b c len data[len]).
 *
 * Target "nl": one record is one request to the "ipeh-tlv" family:
 *   op  the genetlink command (SET UNSET GET REPLACE, or any other value)
 *   a   bit0 NLM_F_ACK, bit1 NLM_F_DUMP, bit2 NLM_F_ECHO, bit3 NETLINK_EXT_ACK
 *       on, bit4 NLM_F_CREATE|NLM_F_REPLACE, bit5 sent in one datagram
 *       with the next record, bit6 from the unprivileged child, bit7
 *       NETLINK_CAP_ACK on
 *   b   bits0-2 size of the receive buffer (8192 16 20 36 64 128 512 2048),
 *       bits3-5 SO_RCVBUF (unchanged 256 512 1024 2048 4096 8192 32768; the
 *       kernel raises a small one to its minimum), bits6-7 receive all
 *       replies, or stop after 1, 2 or 4 (an abandoned dump is ended by
 *       close())
 *   c   bits0-5 genetlink version, bit6 a non-zero reserved field, bit7
 *       nlmsg_len 4 bytes short
 *   data  the attributes, wire format
 *
 * Target "opt": one record is one socket operation:
 *   op%8  0 setsockopt(data), 1 sendmsg() to ::1 with data as ancillary
 *         data, 2 setsockopt with optlen 0 (remove), 3 sendmsg() without
 *         ancillary data (the sticky options), 4 a request to the family
 *         as root (command a%5, attributes data: the policy), 5 a sysctl of
 *         this netns (a%4: max_dst_opts_number, max_hbh_opts_number,
 *         max_dst_opts_length, max_hbh_length; value int32 LE in data, or
 *         c-128), 6 getsockopt() of the sticky header, 7 receive what
 *         reached ::1
 *   a   bits0-2 the option (IPV6_HOPOPTS DSTOPTS RTHDRDSTOPTS 2292HOPOPTS
 *       2292DSTOPTS, 5-7 as 0-2), bit6 socket 0 (UDP) or 1 (raw,
 *       protocol 253, for root; a second UDP socket for the child), bit7 from
 *       the unprivileged child
 *   b   sendmsg: 0 one control message, else the first b bytes of data in
 *       one and the rest in a second (option c&7); setsockopt: bit7 optlen
 *       short by b&7
 *   c   sendmsg: bits0-2 the second control message's option, bit3
 *       cmsg_len short by 1, bit4 cmsg_len long by 8, bit5 to a closed
 *       port, bits6-7 payload 0 8 512 1400 bytes
 *
 * Each input starts from the same state: the table reset to its built-in
 * entries (a REPLACE with RESET), the sysctls as they were at start, no
 * sockets; these steps are not traced.
 *
 * Safety: unless --no-unshare, the fuzzer first moves to a new network
 * namespace (unshare(CLONE_NEWNET)), brings lo up there and only ever sends
 * to ::1; its table and sysctl changes stay in that namespace.
 *
 * Findings: the kernel reports bugs (KASAN, lockdep, ...). The fuzzer
 * compares /proc/sys/kernel/tainted after every input with its value before
 * and saves the input that changed it as DIR/crash-HASH. A child that stops
 * answering is restarted and counted.
 *
 * Exit: 0 done, 1 set-up failure (message on stderr), 2 usage, 3 the
 * kernel got tainted while fuzzing.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/ipeh.h>
#include <linux/kcov.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kfuzz-lib.h"

#define KCOV_PATH	"/sys/kernel/debug/kcov"
#define KCOV_WORDS	(1UL << 19)	/* PCs one operation may record (4 MB) */
#define PCSET_CAP	(1ULL << 21)
#define MAX_CORPUS	8192
#define RCV_PORT	7399
#define CLOSED_PORT	7398
#define CHILD_TIMEOUT_MS 20000

#ifndef IPV6_2292HOPOPTS
#define IPV6_2292HOPOPTS 3
#endif
#ifndef IPV6_2292DSTOPTS
#define IPV6_2292DSTOPTS 4
#endif
#ifndef IPV6_RTHDRDSTOPTS
#define IPV6_RTHDRDSTOPTS 55
#endif
#ifndef IPV6_HOPOPTS
#define IPV6_HOPOPTS 54
#endif
#ifndef IPV6_DSTOPTS
#define IPV6_DSTOPTS 59
#endif
#ifndef IPV6_RECVHOPOPTS
#define IPV6_RECVHOPOPTS 53
#endif
#ifndef IPV6_RECVDSTOPTS
#define IPV6_RECVDSTOPTS 58
#endif

static const int optnames[8] = {
	IPV6_HOPOPTS, IPV6_DSTOPTS, IPV6_RTHDRDSTOPTS, IPV6_2292HOPOPTS,
	IPV6_2292DSTOPTS, IPV6_HOPOPTS, IPV6_DSTOPTS, IPV6_RTHDRDSTOPTS,
};

static const char *const sysctl_path[4] = {
	"/proc/sys/net/ipv6/max_dst_opts_number",
	"/proc/sys/net/ipv6/max_hbh_opts_number",
	"/proc/sys/net/ipv6/max_dst_opts_length",
	"/proc/sys/net/ipv6/max_hbh_length",
};

/* ---- state ---- */

struct kcov {
	int fd;
	unsigned long *area;
};

static enum kf_target target;
static struct kf_pcset *pcs;		/* shared with the child */
static struct kcov kc = { .fd = -1 };	/* of this process */
static uint16_t family_id;
static uint32_t mcgrp_id;
static unsigned int user_uid = 1000;
static int sysctl_saved[4];
static bool sysctl_dirty[4];
static int listen_fd = -1, rcv_fd = -1;

/* the unprivileged child */
static pid_t child_pid = -1;
static int to_child = -1, from_child = -1;
static unsigned long child_restarts;
static unsigned long kcov_full;		/* operations that filled the buffer */

static _Noreturn __attribute__((format(printf, 1, 2))) void die(const char *fmt, ...)
{
	va_list ap;

	fputs("ipeh-kfuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- KCOV ---- */

static int kcov_open(struct kcov *k)
{
	k->fd = open(KCOV_PATH, O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		return -1;
	if (ioctl(k->fd, KCOV_INIT_TRACE, KCOV_WORDS) < 0)
		return -1;
	k->area = mmap(NULL, KCOV_WORDS * sizeof(unsigned long),
		       PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, 0);
	if (k->area == MAP_FAILED)
		return -1;
	return 0;
}

static void kcov_begin(void)
{
	__atomic_store_n(&kc.area[0], 0, __ATOMIC_RELAXED);
	if (ioctl(kc.fd, KCOV_ENABLE, KCOV_TRACE_PC) < 0)
		die("KCOV_ENABLE: %s", strerror(errno));
}

/* PCs new to the set */
static unsigned long kcov_end(void)
{
	unsigned long n, fresh = 0;

	if (ioctl(kc.fd, KCOV_DISABLE, 0) < 0)
		die("KCOV_DISABLE: %s", strerror(errno));
	n = __atomic_load_n(&kc.area[0], __ATOMIC_RELAXED);
	if (n >= KCOV_WORDS - 1) {	/* the kernel stopped recording */
		n = KCOV_WORDS - 1;
		kcov_full++;
	}
	for (unsigned long i = 0; i < n; i++)
		fresh += (unsigned long)kf_pcset_add(pcs, kc.area[i + 1]);
	return fresh;
}

/* ---- generic netlink ---- */

static int nl_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static size_t nlmsg_build(uint8_t *buf, size_t cap, uint16_t type, uint16_t flags,
			  uint8_t cmd, uint8_t version, uint16_t reserved,
			  const uint8_t *attrs, size_t alen)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(buf + NLMSG_HDRLEN);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN + alen;
	static uint32_t seq;

	if (NLMSG_ALIGN(len) > cap)
		return 0;
	memset(buf, 0, NLMSG_ALIGN(len));
	nlh->nlmsg_len = (uint32_t)len;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = ++seq;
	g->cmd = cmd;
	g->version = version;
	g->reserved = reserved;
	memcpy(buf + NLMSG_HDRLEN + GENL_HDRLEN, attrs, alen);
	return NLMSG_ALIGN(len);
}

/* a request and its answer (ACK asked); the errno the kernel answered,
 * or -1 */
static int nl_request(int fd, uint8_t cmd, const uint8_t *attrs, size_t alen,
		      uint8_t *rsp, size_t rcap)
{
	uint8_t buf[KF_MAX_DATA + 64] __attribute__((aligned(4)));
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	size_t len = nlmsg_build(buf, sizeof(buf), family_id,
				 NLM_F_REQUEST | NLM_F_ACK, cmd, 1, 0, attrs, alen);
	ssize_t n;

	if (!len || sendto(fd, buf, len, 0, (struct sockaddr *)&k, sizeof(k)) < 0)
		return -1;
	for (;;) {
		n = recv(fd, rsp, rcap, 0);
		if (n < 0)
			return -1;
		for (struct nlmsghdr *h = (struct nlmsghdr *)rsp;
		     NLMSG_OK(h, (unsigned int)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				return -e->error;
			}
		}
	}
}

/* resolve the family and its multicast group through nlctrl */
static void nl_resolve(void)
{
	uint8_t attrs[64], rsp[8192] __attribute__((aligned(4)));
	uint8_t buf[256] __attribute__((aligned(4)));
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	size_t alen = kf_nla_put(attrs, 0, sizeof(attrs), CTRL_ATTR_FAMILY_NAME,
				 IPEH_TLV_GENL_NAME, sizeof(IPEH_TLV_GENL_NAME));
	size_t len = nlmsg_build(buf, sizeof(buf), GENL_ID_CTRL, NLM_F_REQUEST,
				 CTRL_CMD_GETFAMILY, 1, 0, attrs, alen);
	int fd = nl_socket();
	struct nlmsghdr *h = (struct nlmsghdr *)rsp;
	ssize_t n;

	if (fd < 0)
		die("netlink socket: %s", strerror(errno));
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&k, sizeof(k)) < 0)
		die("nlctrl GETFAMILY: %s", strerror(errno));
	n = recv(fd, rsp, sizeof(rsp), 0);
	if (n < 0)
		die("nlctrl GETFAMILY reply: %s", strerror(errno));
	if (!NLMSG_OK(h, (unsigned int)n) || h->nlmsg_type == NLMSG_ERROR)
		die("the generic netlink family \"%s\" is not there: a kernel without the series?",
		    IPEH_TLV_GENL_NAME);
	for (size_t o = NLMSG_HDRLEN + GENL_HDRLEN; o + NLA_HDRLEN <= h->nlmsg_len;) {
		struct nlattr *a = (struct nlattr *)(rsp + o);

		if (a->nla_len < NLA_HDRLEN || o + a->nla_len > h->nlmsg_len)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			memcpy(&family_id, (uint8_t *)a + NLA_HDRLEN, 2);
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GROUPS) {
			/* nested: one nest per group, name and id inside */
			for (size_t g = NLA_HDRLEN; g + NLA_HDRLEN <= a->nla_len;) {
				struct nlattr *grp = (struct nlattr *)((uint8_t *)a + g);
				const char *name = NULL;
				uint32_t id = 0;

				if (grp->nla_len < NLA_HDRLEN)
					break;
				for (size_t i = NLA_HDRLEN; i + NLA_HDRLEN <= grp->nla_len;) {
					struct nlattr *x = (struct nlattr *)((uint8_t *)grp + i);

					if (x->nla_len < NLA_HDRLEN)
						break;
					if ((x->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_NAME)
						name = (const char *)x + NLA_HDRLEN;
					if ((x->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_ID)
						memcpy(&id, (uint8_t *)x + NLA_HDRLEN, 4);
					i += NLA_ALIGN(x->nla_len);
				}
				if (name && !strcmp(name, IPEH_TLV_GENL_MCGRP_NAME))
					mcgrp_id = id;
				g += NLA_ALIGN(grp->nla_len);
			}
		}
		o += NLA_ALIGN(a->nla_len);
	}
	close(fd);
	if (!family_id)
		die("nlctrl's answer for \"%s\" has no family id", IPEH_TLV_GENL_NAME);
}

/* back to the built-in table: REPLACE with RESET and no entry */
static void table_reset(void)
{
	static int fd = -1;
	uint8_t attrs[8], rsp[1024] __attribute__((aligned(4)));
	size_t alen = kf_nla_put(attrs, 0, sizeof(attrs), IPEH_TLV_ATTR_RESET, NULL, 0);
	int r;

	if (fd < 0) {
		/* a kernel that never answers is a failure, not a hang */
		struct timeval tv = { .tv_sec = 10 };

		fd = nl_socket();
		if (fd < 0)
			die("netlink socket: %s", strerror(errno));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	r = nl_request(fd, IPEH_TLV_CMD_REPLACE, attrs, alen, rsp, sizeof(rsp));
	if (r != 0)
		die("resetting the table (REPLACE with RESET) failed: %s",
		    r > 0 ? strerror(r) : strerror(errno));
}

/* ---- target nl: one record (or a batch) ---- */

static const unsigned int rbuf_size[8] = { 8192, 16, 20, 36, 64, 128, 512, 2048 };
static const int so_rcvbuf[8] = { 0, 256, 512, 1024, 2048, 4096, 8192, 32768 };
static const unsigned int recv_limit[4] = { 4096, 1, 2, 4 };

/* records [i, j) as one datagram on @fd; replies read as record i says */
static void nl_exec(int fd, const struct kf_recs *rs, unsigned int i, unsigned int j)
{
	static uint8_t buf[KF_MAX_RECS * (KF_MAX_DATA + 32)] __attribute__((aligned(4)));
	static uint8_t rsp[8192] __attribute__((aligned(4)));
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	const struct kf_rec *r0 = &rs->r[i];
	size_t len = 0;
	int v;

	v = !!(r0->a & 0x08);
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &v, sizeof(v));
	v = !!(r0->a & 0x80);
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &v, sizeof(v));
	if (so_rcvbuf[(r0->b >> 3) & 7])
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &so_rcvbuf[(r0->b >> 3) & 7],
			   sizeof(int));
	for (unsigned int x = i; x < j; x++) {
		const struct kf_rec *r = &rs->r[x];
		uint16_t flags = NLM_F_REQUEST;
		size_t l;

		if (r->a & 0x01)
			flags |= NLM_F_ACK;
		if (r->a & 0x02)
			flags |= NLM_F_DUMP;
		if (r->a & 0x04)
			flags |= NLM_F_ECHO;
		if (r->a & 0x10)
			flags |= NLM_F_CREATE | NLM_F_REPLACE;
		l = nlmsg_build(buf + len, sizeof(buf) - len, family_id, flags, r->op,
				r->c & 0x3f, (r->c & 0x40) ? 0x5a5a : 0, r->data, r->len);
		if (!l)
			break;
		if (r->c & 0x80)
			((struct nlmsghdr *)(buf + len))->nlmsg_len -= 4;
		len += l;
	}
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&k, sizeof(k)) < 0)
		return;
	/* a request is answered while it is sent; a dump goes on as it is
	 * read (each recv() runs the dump callback again once the socket
	 * has room): read until nothing is left or the record's limit */
	for (unsigned int n = 0; n < recv_limit[r0->b >> 6]; n++)
		if (recv(fd, rsp, rbuf_size[r0->b & 7], MSG_DONTWAIT) < 0)
			break;
}

/* ---- target opt ---- */

struct opt_socks {
	int fd[2];
};

static void opt_sock_close(struct opt_socks *s)
{
	for (int i = 0; i < 2; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
}

static int opt_sock(struct opt_socks *s, int idx, bool user)
{
	if (s->fd[idx] >= 0)
		return s->fd[idx];
	if (idx == 1 && !user)
		s->fd[idx] = socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, 253);
	else
		s->fd[idx] = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return s->fd[idx];
}

static void sysctl_write(int which, int value)
{
	char s[32];
	int fd = open(sysctl_path[which], O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	snprintf(s, sizeof(s), "%d\n", value);
	if (write(fd, s, strlen(s)) < 0) {
		/* refused values are part of the game */
	}
	close(fd);
}

static int sysctl_read(int which)
{
	char s[32] = "";
	int fd = open(sysctl_path[which], O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		die("%s: %s", sysctl_path[which], strerror(errno));
	n = read(fd, s, sizeof(s) - 1);
	close(fd);
	if (n <= 0)
		die("%s: cannot read it", sysctl_path[which]);
	return atoi(s);
}

static void send_to_lo(int fd, const struct kf_rec *r, bool cmsgs, bool raw)
{
	static uint8_t payload[1400];
	static const size_t plen[4] = { 0, 8, 512, 1400 };
	uint8_t ctl[2 * CMSG_SPACE(KF_MAX_DATA) + 16] __attribute__((aligned(8)));
	struct sockaddr_in6 to = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_LOOPBACK_INIT,
		/* a raw socket takes the port as its protocol, or 0 */
		.sin6_port = raw ? 0 : htons((r->c & 0x20) ? CLOSED_PORT : RCV_PORT),
	};
	struct iovec iov = { payload, plen[r->c >> 6] };
	struct msghdr m = {
		.msg_name = &to, .msg_namelen = sizeof(to),
		.msg_iov = &iov, .msg_iovlen = 1,
	};

	if (cmsgs) {
		size_t l1 = r->b && r->b < r->len ? r->b : r->len, clen = 0;
		struct cmsghdr *c = (struct cmsghdr *)ctl;

		memset(ctl, 0, sizeof(ctl));
		c->cmsg_level = IPPROTO_IPV6;
		c->cmsg_type = optnames[r->a & 7];
		c->cmsg_len = CMSG_LEN(l1);
		memcpy(CMSG_DATA(c), r->data, l1);
		clen = CMSG_SPACE(l1);
		if (l1 < r->len) {
			struct cmsghdr *c2 = (struct cmsghdr *)(ctl + clen);

			c2->cmsg_level = IPPROTO_IPV6;
			c2->cmsg_type = optnames[r->c & 7];
			c2->cmsg_len = CMSG_LEN(r->len - l1);
			memcpy(CMSG_DATA(c2), r->data + l1, r->len - l1);
			clen += CMSG_SPACE(r->len - l1);
		}
		if (r->c & 0x08)
			c->cmsg_len -= 1;
		if (r->c & 0x10)
			c->cmsg_len += 8;
		m.msg_control = ctl;
		m.msg_controllen = clen;
	}
	sendmsg(fd, &m, MSG_DONTWAIT);
}

static void drain_rcv(void)
{
	uint8_t data[2048], ctl[1024];

	for (int i = 0; i < 64; i++) {
		struct iovec iov = { data, sizeof(data) };
		struct msghdr m = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl, .msg_controllen = sizeof(ctl),
		};

		if (recvmsg(rcv_fd, &m, MSG_DONTWAIT) < 0)
			break;
	}
}

/* one "opt" operation in this process (root or the child) */
static void opt_exec(struct opt_socks *s, const struct kf_rec *r, bool user, int nlfd)
{
	int fd, optname = optnames[r->a & 7];
	socklen_t ol;
	uint8_t got[KF_MAX_DATA];

	switch (r->op & 7) {
	case 0:
		if ((fd = opt_sock(s, (r->a >> 6) & 1, user)) < 0)
			return;
		ol = r->len;
		if ((r->b & 0x80) && ol >= (r->b & 7))
			ol -= r->b & 7;
		setsockopt(fd, IPPROTO_IPV6, optname, r->data, ol);
		break;
	case 1:
	case 3:
		if ((fd = opt_sock(s, (r->a >> 6) & 1, user)) >= 0)
			send_to_lo(fd, r, (r->op & 7) == 1, ((r->a >> 6) & 1) && !user);
		break;
	case 2:
		if ((fd = opt_sock(s, (r->a >> 6) & 1, user)) >= 0)
			setsockopt(fd, IPPROTO_IPV6, optname, NULL, 0);
		break;
	case 4:
		if (nlfd >= 0) {
			uint8_t rsp[2048] __attribute__((aligned(4)));

			nl_request(nlfd, (uint8_t)(r->a % 5), r->data, r->len,
				   rsp, sizeof(rsp));
		}
		break;
	case 5: {
		int32_t v = (int32_t)r->c - 128;

		if (user)
			return;
		if (r->len >= 4)
			memcpy(&v, r->data, 4);
		sysctl_write(r->a & 3, v);
		sysctl_dirty[r->a & 3] = true;
		break;
	}
	case 6:
		if ((fd = opt_sock(s, (r->a >> 6) & 1, user)) >= 0) {
			ol = (socklen_t)(r->b ? r->b : sizeof(got));
			if (ol > sizeof(got))
				ol = sizeof(got);
			getsockopt(fd, IPPROTO_IPV6, optname, got, &ol);
		}
		break;
	default:
		if (!user)
			drain_rcv();
		break;
	}
}

/* ---- the unprivileged child ---- */

/*
 * Requests on the pipe: u32 target, u32 length, one encoded record (length
 * 0: the input is over, close the sockets). Answer: u32 PCs new to the
 * shared set.
 */
static bool read_full(int fd, void *p, size_t n)
{
	while (n) {
		ssize_t r = read(fd, p, n);

		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return false;
		}
		p = (uint8_t *)p + r;
		n -= (size_t)r;
	}
	return true;
}

static bool write_full(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return false;
		}
		p = (const uint8_t *)p + r;
		n -= (size_t)r;
	}
	return true;
}

static void drop_privileges(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (setgroups(0, NULL) < 0 || setresgid(user_uid, user_uid, user_uid) < 0 ||
	    setresuid(user_uid, user_uid, user_uid) < 0)
		die("child: dropping to uid %u: %s", user_uid, strerror(errno));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die("child: PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
	if (syscall(SYS_capget, &h, d) < 0)
		die("child: capget: %s", strerror(errno));
	if (d[0].effective || d[1].effective || d[0].permitted || d[1].permitted ||
	    getuid() != user_uid || geteuid() != user_uid)
		die("child: still privileged after dropping to uid %u", user_uid);
}

static void child_main(int in, int out)
{
	static struct kf_recs rs;
	static uint8_t buf[KF_MAX_DATA + KF_REC_HDR];
	struct opt_socks s = { { -1, -1 } };
	int nlfd = -1;

	/* the KCOV fd and buffer of this process, opened while still root
	 * (debugfs), used after the privileges are gone */
	if (kcov_open(&kc) < 0)
		die("child: %s: %s", KCOV_PATH, strerror(errno));
	drop_privileges();
	{
		uint32_t ready = 0x52454459;

		if (!write_full(out, &ready, sizeof(ready)))
			_exit(0);
	}
	for (;;) {
		uint32_t hdr[2], fresh;

		if (!read_full(in, hdr, sizeof(hdr)) || hdr[1] > sizeof(buf) ||
		    !read_full(in, buf, hdr[1]))
			_exit(0);
		kf_decode(buf, hdr[1], &rs);
		kcov_begin();
		if (!hdr[1]) {
			opt_sock_close(&s);
			if (nlfd >= 0)
				close(nlfd);
			nlfd = -1;
		} else if (rs.n && hdr[0] == KF_NL) {
			if (nlfd < 0)
				nlfd = nl_socket();
			if (nlfd >= 0)
				nl_exec(nlfd, &rs, 0, 1);
		} else if (rs.n) {
			opt_exec(&s, &rs.r[0], true, -1);
		}
		fresh = (uint32_t)kcov_end();
		if (!write_full(out, &fresh, sizeof(fresh)))
			_exit(0);
	}
}

static void child_start(void)
{
	int p1[2], p2[2];

	if (pipe2(p1, O_CLOEXEC) < 0 || pipe2(p2, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	child_pid = fork();
	if (child_pid < 0)
		die("fork: %s", strerror(errno));
	if (!child_pid) {
		close(p1[1]);
		close(p2[0]);
		/* the parent's KCOV; the child opens its own */
		munmap(kc.area, KCOV_WORDS * sizeof(unsigned long));
		close(kc.fd);
		child_main(p1[0], p2[1]);
		_exit(0);
	}
	close(p1[0]);
	close(p2[1]);
	to_child = p1[1];
	from_child = p2[0];
	{
		struct pollfd p = { .fd = from_child, .events = POLLIN };
		uint32_t ready = 0;

		if (poll(&p, 1, CHILD_TIMEOUT_MS) <= 0 ||
		    !read_full(from_child, &ready, sizeof(ready)) || ready != 0x52454459)
			die("the unprivileged child (uid %u) did not start (see above)", user_uid);
	}
}

static void child_stop(void)
{
	if (child_pid > 0) {
		close(to_child);
		close(from_child);
		kill(child_pid, SIGKILL);
		waitpid(child_pid, NULL, 0);
	}
	child_pid = -1;
}

/* one record (NULL: end of input) for the child; PCs it found new */
static unsigned long child_run(const struct kf_rec *r)
{
	static struct kf_recs one;
	static uint8_t buf[KF_MAX_DATA + KF_REC_HDR];
	struct pollfd p = { .fd = from_child, .events = POLLIN };
	uint32_t hdr[2] = { target, 0 }, fresh = 0;

	if (r) {
		one.n = 1;
		one.r[0] = *r;
		hdr[1] = (uint32_t)kf_encode(&one, buf, sizeof(buf));
	}
	if (!write_full(to_child, hdr, sizeof(hdr)) ||
	    !write_full(to_child, buf, hdr[1]) ||
	    poll(&p, 1, CHILD_TIMEOUT_MS) <= 0 ||
	    !read_full(from_child, &fresh, sizeof(fresh))) {
		fprintf(stderr, "ipeh-kfuzz: the unprivileged child stopped answering; restarting it\n");
		child_stop();
		child_restarts++;
		child_start();
		return 0;
	}
	return fresh;
}

/* ---- one input ---- */

static unsigned long run_input(const uint8_t *in, size_t len)
{
	static struct kf_recs rs;
	unsigned long fresh = 0;
	struct opt_socks s = { { -1, -1 } };
	int nlfd;

	kf_decode(in, len, &rs);
	/* the same start for every input, not traced */
	table_reset();
	for (int i = 0; i < 4; i++) {
		if (sysctl_dirty[i])
			sysctl_write(i, sysctl_saved[i]);
		sysctl_dirty[i] = false;
	}
	nlfd = nl_socket();
	if (nlfd < 0)
		die("netlink socket: %s", strerror(errno));
	{
		/* the policy requests of "opt" wait for their answer */
		struct timeval tv = { .tv_sec = 10 };

		setsockopt(nlfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}

	for (unsigned int i = 0; i < rs.n; i++) {
		const struct kf_rec *r = &rs.r[i];

		if (target == KF_NL) {
			unsigned int j = i + 1;

			if (r->a & 0x40) {
				fresh += child_run(r);
				continue;
			}
			while (j < rs.n && (rs.r[j - 1].a & 0x20) && !(rs.r[j].a & 0x40))
				j++;
			kcov_begin();
			nl_exec(nlfd, &rs, i, j);
			fresh += kcov_end();
			i = j - 1;
		} else if (r->a & 0x80 && (r->op & 7) != 4 && (r->op & 7) != 5) {
			fresh += child_run(r);
		} else {
			kcov_begin();
			opt_exec(&s, r, false, nlfd);
			fresh += kcov_end();
		}
	}
	/* the end, traced: closing (an unfinished dump ends here), what
	 * reached ::1, the notifications */
	kcov_begin();
	close(nlfd);
	opt_sock_close(&s);
	if (rcv_fd >= 0)
		drain_rcv();
	if (listen_fd >= 0) {
		uint8_t b[4096];

		while (recv(listen_fd, b, sizeof(b), MSG_DONTWAIT) > 0)
			;
	}
	fresh += kcov_end();
	fresh += child_run(NULL);
	return fresh;
}

/* ---- set-up ---- */

/* leave the netns as found: the built-in table, the sysctls as they were
 * (what matters with --no-unshare) */
static void cleanup(void)
{
	table_reset();
	for (int i = 0; i < 4; i++)
		if (sysctl_dirty[i])
			sysctl_write(i, sysctl_saved[i]);
}

static void netns_setup(bool unshare_it)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd;

	if (unshare_it && unshare(CLONE_NEWNET) < 0)
		die("unshare(CLONE_NEWNET): %s", strerror(errno));
	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("IPv6 socket: %s", strerror(errno));
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS lo: %s", strerror(errno));
	if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			die("bringing lo up: %s", strerror(errno));
	}
	close(fd);
}

static void receiver_setup(void)
{
	struct sockaddr_in6 a = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_LOOPBACK_INIT,
		.sin6_port = htons(RCV_PORT),
	};
	int one = 1;

	rcv_fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rcv_fd < 0 || bind(rcv_fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("receiver on [::1]:%d: %s", RCV_PORT, strerror(errno));
	setsockopt(rcv_fd, IPPROTO_IPV6, IPV6_RECVHOPOPTS, &one, sizeof(one));
	setsockopt(rcv_fd, IPPROTO_IPV6, IPV6_RECVDSTOPTS, &one, sizeof(one));
}

static void listener_setup(void)
{
	if (!mcgrp_id)
		return;
	listen_fd = nl_socket();
	if (listen_fd < 0 ||
	    setsockopt(listen_fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &mcgrp_id,
		       sizeof(mcgrp_id)) < 0)
		die("joining \"%s\": %s", IPEH_TLV_GENL_MCGRP_NAME, strerror(errno));
}

static long tainted(void)
{
	char s[32] = "";
	int fd = open("/proc/sys/kernel/tainted", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, s, sizeof(s) - 1) : -1;

	if (fd >= 0)
		close(fd);
	return n > 0 ? atol(s) : -1;
}

/* ---- corpus ---- */

struct input {
	size_t len;
	uint8_t *data;
};

static struct input corpus[MAX_CORPUS];
static unsigned int ncorpus;
static const char *corpus_dir;

static void corpus_add(const uint8_t *d, size_t len)
{
	if (ncorpus >= MAX_CORPUS)
		return;
	corpus[ncorpus].data = malloc(len ? len : 1);
	if (!corpus[ncorpus].data)
		die("out of memory");
	memcpy(corpus[ncorpus].data, d, len);
	corpus[ncorpus++].len = len;
}

static void save(const char *prefix, const uint8_t *d, size_t len)
{
	char path[4096];
	FILE *f;

	if (!corpus_dir)
		return;
	snprintf(path, sizeof(path), "%s/%s%016llx", corpus_dir, prefix,
		 (unsigned long long)kf_hash(d, len));
	f = fopen(path, "wbx");	/* an existing file is the same input */
	if (!f)
		return;
	if (fwrite(d, 1, len, f) != len)
		fprintf(stderr, "ipeh-kfuzz: writing %s failed\n", path);
	fclose(f);
}

/* the files of @dir (not crash-*), each run once */
static void load_dir(const char *dir, unsigned long *loaded, bool replay)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	if (n < 0)
		die("%s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		char path[4096];
		static uint8_t buf[KF_MAX_INPUT];
		struct stat st;
		size_t len;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] == '.' || !strncmp(ents[i]->d_name, "crash-", 6) ||
		    stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb"))) {
			free(ents[i]);
			continue;
		}
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		{
			unsigned long fresh = run_input(buf, len);

			(*loaded)++;
			if (replay)
				printf("replay %s: %lu new PCs\n", ents[i]->d_name, fresh);
			corpus_add(buf, len);
		}
		free(ents[i]);
	}
	free(ents);
}

/* ---- main ---- */

static int usage(void)
{
	fputs("usage: ipeh-kfuzz nl|opt [--corpus DIR] [--seeds DIR] [--seconds N]\n"
	      "                  [--seed N] [--replay] [--no-unshare] [--uid N]\n"
	      "                  [--pcs FILE]\n"
	      "A coverage-guided (KCOV) fuzzer of the ipeh-tlv family (nl) and of\n"
	      "option headers given to setsockopt()/sendmsg() (opt). For test guests\n"
	      "only: never on a development host.\n", stderr);
	return 2;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void stats(const char *what, unsigned long execs, double t0, unsigned long findings)
{
	double el = now() - t0;

	printf("kfuzz %s %s: execs %lu execs/s %.1f corpus %u pcs %llu findings %lu "
	       "child-restarts %lu kcov-full %lu elapsed %.0f\n",
	       target == KF_NL ? "nl" : "opt", what, execs,
	       el > 0 ? (double)execs / el : 0.0, ncorpus,
	       (unsigned long long)pcs->count, findings, child_restarts, kcov_full, el);
	fflush(stdout);
}

/* the PCs seen, for --pcs */
static void write_pcs(const char *path)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		die("--pcs %s: %s", path, strerror(errno));
	for (uint64_t i = 0; i < pcs->cap; i++)
		if (pcs->slot[i])
			fprintf(f, "%016llx\n", (unsigned long long)pcs->slot[i]);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		die("--pcs %s: write failed", path);
}

int main(int argc, char **argv)
{
	static uint8_t buf[KF_MAX_INPUT];
	const char *seeds_dir = NULL, *pcs_path = NULL;
	unsigned long seconds = 60, execs = 0, findings = 0, loaded = 0;
	uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	bool replay = false, do_unshare = true;
	struct kf_rng rng;
	double t0, next_stats, deadline;
	long taint0;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "nl"))
		target = KF_NL;
	else if (!strcmp(argv[1], "opt"))
		target = KF_OPT;
	else
		return usage();
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--corpus") && i + 1 < argc)
			corpus_dir = argv[++i];
		else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
			seeds_dir = argv[++i];
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--uid") && i + 1 < argc)
			user_uid = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--pcs") && i + 1 < argc)
			pcs_path = argv[++i];
		else if (!strcmp(argv[i], "--replay"))
			replay = true;
		else if (!strcmp(argv[i], "--no-unshare"))
			do_unshare = false;
		else
			return usage();
	}
	if (replay && !corpus_dir && !seeds_dir)
		die("--replay needs --corpus DIR or --seeds DIR");
	if (corpus_dir && mkdir(corpus_dir, 0755) < 0 && errno != EEXIST)
		die("--corpus %s: %s", corpus_dir, strerror(errno));
	if (geteuid() != 0)
		die("must run as root (KCOV in debugfs, unshare, table changes)");
	if (!user_uid)
		die("--uid must not be 0");
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);

	if (kcov_open(&kc) < 0)
		die("%s: %s (a kernel with CONFIG_KCOV, debugfs mounted?)", KCOV_PATH,
		    strerror(errno));
	pcs = mmap(NULL, kf_pcset_bytes(PCSET_CAP), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pcs == MAP_FAILED)
		die("mmap of the PC set: %s", strerror(errno));
	kf_pcset_init(pcs, PCSET_CAP);

	netns_setup(do_unshare);
	if (!do_unshare)
		fprintf(stderr, "ipeh-kfuzz: --no-unshare: fuzzing the table and sysctls of the current network namespace\n");
	nl_resolve();
	for (int i = 0; i < 4; i++)
		sysctl_saved[i] = sysctl_read(i);
	table_reset();
	listener_setup();
	if (target == KF_OPT)
		receiver_setup();
	child_start();
	taint0 = tainted();
	kf_rng_seed(&rng, seed);
	printf("kfuzz %s: seed %llu, family %u, group %u, %s, taint %ld\n",
	       argv[1], (unsigned long long)seed, family_id, mcgrp_id,
	       do_unshare ? "own netns" : "current netns", taint0);

	t0 = now();
	if (seeds_dir)
		load_dir(seeds_dir, &loaded, replay);
	if (corpus_dir)
		load_dir(corpus_dir, &loaded, replay);
	execs = loaded;
	if (!ncorpus) {
		/* no seeds: one empty record to start from */
		memset(buf, 0, KF_REC_HDR);
		buf[0] = target == KF_NL ? IPEH_TLV_CMD_GET : 0;
		corpus_add(buf, KF_REC_HDR);
	}
	if (tainted() != taint0) {
		findings++;
		printf("FINDING: /proc/sys/kernel/tainted changed from %ld to %ld while replaying the corpus\n",
		       taint0, tainted());
		taint0 = tainted();
	}
	if (replay) {
		stats("replay", execs, t0, findings);
		child_stop();
		cleanup();
		if (pcs_path)
			write_pcs(pcs_path);
		return findings ? 3 : 0;
	}

	/* --seconds of fuzzing, after the corpus was run */
	deadline = now() + (double)seconds;
	next_stats = t0 + 10;
	while (now() < deadline) {
		const struct input *base = &corpus[kf_below(&rng, ncorpus)];
		const struct input *other = &corpus[kf_below(&rng, ncorpus)];
		size_t len = base->len;
		unsigned long fresh;
		long t;

		memcpy(buf, base->data, len);
		kf_mutate(&rng, target, buf, &len, other->data, other->len);
		fresh = run_input(buf, len);
		execs++;
		if (fresh) {
			corpus_add(buf, len);
			save("", buf, len);
		}
		t = tainted();
		if (t != taint0) {
			findings++;
			printf("FINDING: /proc/sys/kernel/tainted changed from %ld to %ld; input saved as crash-%016llx\n",
			       taint0, t, (unsigned long long)kf_hash(buf, len));
			save("crash-", buf, len);
			taint0 = t;
		}
		if (now() >= next_stats) {
			stats("progress", execs, t0, findings);
			next_stats += 10;
		}
	}
	stats("done", execs, t0, findings);
	child_stop();
	cleanup();
	if (pcs_path)
		write_pcs(pcs_path);
	return findings ? 3 : 0;
}
