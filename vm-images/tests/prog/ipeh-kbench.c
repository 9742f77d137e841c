// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipeh-kbench: the kernel's per-packet cost of Destination options, in a
 * guest run with QEMU's -icount (guest time then counts instructions, so
 * two kernels can be compared to a fraction of a percent).
 *
 *   ipeh-kbench rx N ROUNDS
 *	Sends N UDP datagrams to [::1] through an IPPROTO_RAW socket (the
 *	transmit path does no option processing) and receives each one, for
 *	each shape: "plain" without extension headers; "8opt" with a
 *	Destination header of 8 unknown skippable options (type 0x1e,
 *	RFC 4727) plus PadN; "dstpad" with a Destination header of padding
 *	only; "hbh8opt" the 8 options in a Hop-by-Hop header; "hbhra" a
 *	Hop-by-Hop Router Alert (a known option, RFC 2711).  The difference
 *	to "plain" is the receive cost of the header.
 *
 *   ipeh-kbench fwd N ROUNDS SRC DST NETNS
 *	The same through a router: datagrams SRC -> DST leave by the route
 *	of this namespace and are received by a socket opened in the
 *	network namespace NETNS (a path such as /run/netns/receiver).
 *	"plain", and "pmtu" with a Hop-by-Hop Minimum Path MTU option
 *	(RFC 9268, Min-PMTU 9000).
 *
 *   ipeh-kbench tx N ROUNDS HEX
 *	sendmsg() of N UDP datagrams to [::1], each call timed alone (it
 *	includes the loopback delivery), each datagram received after it:
 *	"plain", and "cmsg" with the Destination header HEX (whole header,
 *	next-header byte first) in an IPV6_DSTOPTS control message.  Run as
 *	the user whose cost is wanted (root, or an unprivileged user the
 *	table allows).
 *
 * Output, one line per shape, the best (least disturbed) of ROUNDS rounds:
 *   KBENCH <mode>-<shape> ns=<guest ns per packet>
 * and exit status 1 if a datagram was lost or refused.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "prog-util.h"

#define PORT		7931
#define PAYLOAD		16

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int die(const char *what)
{
	fprintf(stderr, "ipeh-kbench: %s: %s\n", what, strerror(errno));
	return 2;
}

static int receiver(void)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_port = htons(PORT),
				  .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	int fd = socket(AF_INET6, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return -1;
	return fd;
}

/* An IPv6 packet src -> dst, optional extension header @eh of protocol
 * @ehproto (its next-header byte is filled in), UDP to PORT.
 */
static size_t make_packet(uint8_t *pkt, const struct in6_addr *src,
			  const struct in6_addr *dst, uint8_t ehproto,
			  const uint8_t *eh, size_t eh_len)
{
	struct ip6_hdr *ip = (struct ip6_hdr *)pkt;
	uint8_t *udp = pkt + sizeof(*ip) + eh_len;
	size_t ulen = 8 + PAYLOAD;
	uint16_t c;

	memset(pkt, 0, sizeof(*ip) + eh_len + ulen);
	ip->ip6_flow = htonl(6u << 28);
	ip->ip6_plen = htons((uint16_t)(eh_len + ulen));
	ip->ip6_nxt = eh_len ? ehproto : IPPROTO_UDP;
	ip->ip6_hlim = 64;
	ip->ip6_src = *src;
	ip->ip6_dst = *dst;
	if (eh_len) {
		memcpy(pkt + sizeof(*ip), eh, eh_len);
		pkt[sizeof(*ip)] = IPPROTO_UDP;
	}
	udp[0] = PORT >> 8;		/* source port: PORT too */
	udp[1] = PORT & 0xff;
	udp[2] = PORT >> 8;
	udp[3] = PORT & 0xff;
	udp[4] = (uint8_t)(ulen >> 8);
	udp[5] = (uint8_t)ulen;
	memset(udp + 8, 0x5a, PAYLOAD);
	c = l4_csum(&ip->ip6_src, &ip->ip6_dst, IPPROTO_UDP, udp, ulen);
	udp[6] = (uint8_t)(c >> 8);
	udp[7] = (uint8_t)c;
	return sizeof(*ip) + eh_len + ulen;
}

/* N send+receive pairs; ns per packet, or -1 on a lost datagram.  @flags
 * of the receive: MSG_DONTWAIT where the datagram is delivered inside
 * sendto() (loopback), 0 where it may come a little later (a receive
 * timeout is set then).
 */
static double rx_round(int raw, int rfd, const uint8_t *pkt, size_t len,
		       const struct in6_addr *dst, unsigned long n, int flags)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6, .sin6_addr = *dst };
	uint8_t buf[256];
	double t0 = now_ns();
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (sendto(raw, pkt, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) != (ssize_t)len)
			return -1;
		if (recv(rfd, buf, sizeof(buf), flags) != PAYLOAD)
			return -1;
	}
	return (now_ns() - t0) / (double)n;
}

struct shape {
	const char *name;
	uint8_t proto;		/* of the header; 0: none */
	uint8_t eh[24];
	size_t len;
	size_t plen;		/* the packet built from it */
	uint8_t pkt[128];
	double best;
};

/* ROUNDS rounds of N packets of each shape, interleaved; the best round
 * of each is printed as "KBENCH <mode>-<shape> ns=...".
 */
static int run_shapes(const char *mode, struct shape *sh, int nsh, int raw,
		      int rfd, const struct in6_addr *src,
		      const struct in6_addr *dst, unsigned long n, int rounds,
		      int flags)
{
	int r, k;

	for (k = 0; k < nsh; k++) {
		sh[k].plen = make_packet(sh[k].pkt, src, dst, sh[k].proto,
					 sh[k].eh, sh[k].len);
		sh[k].best = 1e30;
	}
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < nsh; k++) {
			double t = rx_round(raw, rfd, sh[k].pkt, sh[k].plen,
					    dst, n, flags);

			if (t < 0) {
				fprintf(stderr, "ipeh-kbench: %s: a datagram was lost (%s): %s\n",
					mode, sh[k].name, strerror(errno));
				return 1;
			}
			sh[k].best = t < sh[k].best ? t : sh[k].best;
		}
	}
	for (k = 0; k < nsh; k++)
		printf("KBENCH %s-%s ns=%.1f\n", mode, sh[k].name, sh[k].best);
	return 0;
}

static int cmd_rx(unsigned long n, int rounds)
{
	/* 8 x (0x1e, len 0) = 16 bytes after the 2-byte header, PadN(4) */
	static struct shape sh[] = {
		{ .name = "plain" },
		{ .name = "8opt", .proto = IPPROTO_DSTOPTS, .len = 24,
		  .eh = { 0, 2, 0x1e, 0, 0x1e, 0, 0x1e, 0, 0x1e, 0, 0x1e, 0,
			  0x1e, 0, 0x1e, 0, 0x1e, 0, 1, 4 } },
		{ .name = "dstpad", .proto = IPPROTO_DSTOPTS, .len = 8,
		  .eh = { 0, 0, 1, 4 } },
		{ .name = "hbh8opt", .proto = IPPROTO_HOPOPTS, .len = 24,
		  .eh = { 0, 2, 0x1e, 0, 0x1e, 0, 0x1e, 0, 0x1e, 0, 0x1e, 0,
			  0x1e, 0, 0x1e, 0, 0x1e, 0, 1, 4 } },
		/* Router Alert, value 0 (MLD), then PadN(0) */
		{ .name = "hbhra", .proto = IPPROTO_HOPOPTS, .len = 8,
		  .eh = { 0, 0, 5, 2, 0, 0, 1, 0 } },
	};
	int raw, rfd;

	raw = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (raw < 0)
		return die("raw socket (root needed)");
	rfd = receiver();
	if (rfd < 0)
		return die("UDP receiver");
	return run_shapes("rx", sh, (int)(sizeof(sh) / sizeof(sh[0])), raw, rfd,
			  &in6addr_loopback, &in6addr_loopback, n, rounds,
			  MSG_DONTWAIT);
}

/* A UDP socket bound to [::]:PORT in the network namespace @path. */
static int receiver_in(const char *path)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_port = htons(PORT) };
	struct timeval tv = { .tv_sec = 2 };
	int self, ns, fd;

	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ns = open(path, O_RDONLY | O_CLOEXEC);
	if (self < 0 || ns < 0 || setns(ns, CLONE_NEWNET) < 0)
		return -1;
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd >= 0 && (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)) {
		close(fd);
		fd = -1;
	}
	if (setns(self, CLONE_NEWNET) < 0)
		fd = -1;
	close(ns);
	close(self);
	return fd;
}

static int cmd_fwd(unsigned long n, int rounds, const char *srcs,
		   const char *dsts, const char *nspath)
{
	/* Minimum Path MTU (RFC 9268): 0x30, 4 data bytes at 4n+2:
	 * Min-PMTU 9000, Rtn-PMTU 0
	 */
	static struct shape sh[] = {
		{ .name = "plain" },
		{ .name = "pmtu", .proto = IPPROTO_HOPOPTS, .len = 8,
		  .eh = { 0, 0, 0x30, 4, 0x23, 0x28, 0, 0 } },
	};
	struct in6_addr src, dst;
	int raw, rfd;

	if (inet_pton(AF_INET6, srcs, &src) != 1 ||
	    inet_pton(AF_INET6, dsts, &dst) != 1) {
		fputs("ipeh-kbench: fwd: SRC and DST must be IPv6 addresses\n", stderr);
		return 2;
	}
	raw = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (raw < 0)
		return die("raw socket (root needed)");
	rfd = receiver_in(nspath);
	if (rfd < 0)
		return die(nspath);
	return run_shapes("fwd", sh, (int)(sizeof(sh) / sizeof(sh[0])), raw, rfd,
			  &src, &dst, n, rounds, 0);
}

/* N sendmsg() calls, each timed alone (loopback delivery happens inside
 * it, in the softirq run when it re-enables bottom halves); the datagram
 * is then received outside the timed part.  ns per sendmsg(), or -1.
 */
static double tx_round(int sfd, int rfd, struct msghdr *m, unsigned long n)
{
	uint8_t buf[256];
	double acc = 0;
	unsigned long i;

	for (i = 0; i < n; i++) {
		double t0 = now_ns();
		ssize_t r = sendmsg(sfd, m, 0);

		acc += now_ns() - t0;
		if (r != PAYLOAD)
			return -1;
		if (recv(rfd, buf, sizeof(buf), MSG_DONTWAIT) != PAYLOAD)
			return -1;
	}
	return acc / (double)n;
}

/* A whole header in hex: 8n bytes, or -1. */
static int hexblock(const char *hex, uint8_t *out, size_t cap)
{
	int n = parse_hex(hex, out, cap);

	return n < 8 || n % 8 ? -1 : n;
}

static int cmd_tx(unsigned long n, int rounds, const char *hex)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6,
				   .sin6_port = htons(PORT),
				   .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	union {
		struct cmsghdr c;
		uint8_t b[CMSG_SPACE(2048)];
	} cb;
	uint8_t payload[PAYLOAD], blk[2048];
	struct iovec iov = { payload, sizeof(payload) };
	struct msghdr m = { .msg_name = &to, .msg_namelen = sizeof(to),
			    .msg_iov = &iov, .msg_iovlen = 1 };
	double bp = 1e30, bc = 1e30;
	struct cmsghdr *c;
	int sfd, rfd, len, r;

	len = hexblock(hex, blk, sizeof(blk));
	if (len < 0) {
		fprintf(stderr, "ipeh-kbench: tx: HEX must be a whole header (8n bytes)\n");
		return 2;
	}
	memset(payload, 0x5a, sizeof(payload));
	memset(&cb, 0, sizeof(cb));
	c = &cb.c;
	c->cmsg_level = IPPROTO_IPV6;
	c->cmsg_type = IPV6_DSTOPTS;
	c->cmsg_len = CMSG_LEN((size_t)len);
	memcpy(CMSG_DATA(c), blk, (size_t)len);
	sfd = socket(AF_INET6, SOCK_DGRAM, 0);
	rfd = receiver();
	if (sfd < 0 || rfd < 0)
		return die("UDP sockets");
	for (r = 0; r < rounds; r++) {
		double p, o;

		m.msg_control = NULL;
		m.msg_controllen = 0;
		p = tx_round(sfd, rfd, &m, n);
		m.msg_control = &cb;
		m.msg_controllen = CMSG_SPACE((size_t)len);
		o = tx_round(sfd, rfd, &m, n);
		if (p < 0 || o < 0) {
			fprintf(stderr, "ipeh-kbench: tx: %s datagram refused or lost: %s\n",
				p < 0 ? "plain" : "cmsg", strerror(errno));
			return 1;
		}
		bp = p < bp ? p : bp;
		bc = o < bc ? o : bc;
	}
	printf("KBENCH tx-plain ns=%.1f\n", bp);
	printf("KBENCH tx-cmsg ns=%.1f\n", bc);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n;
	int rounds;

	if (argc < 4 || (strcmp(argv[1], "rx") && strcmp(argv[1], "tx") &&
			 strcmp(argv[1], "fwd")) ||
	    (!strcmp(argv[1], "tx") && argc < 5) ||
	    (!strcmp(argv[1], "fwd") && argc < 7)) {
		fputs("usage: ipeh-kbench rx N ROUNDS\n"
		      "       ipeh-kbench tx N ROUNDS HEX\n"
		      "       ipeh-kbench fwd N ROUNDS SRC DST NETNS\n", stderr);
		return 2;
	}
	n = strtoul(argv[2], NULL, 0);
	rounds = atoi(argv[3]);
	if (!n || rounds < 1) {
		fputs("ipeh-kbench: N and ROUNDS must be positive\n", stderr);
		return 2;
	}
	if (!strcmp(argv[1], "rx"))
		return cmd_rx(n, rounds);
	if (!strcmp(argv[1], "fwd"))
		return cmd_fwd(n, rounds, argv[4], argv[5], argv[6]);
	return cmd_tx(n, rounds, argv[4]);
}
