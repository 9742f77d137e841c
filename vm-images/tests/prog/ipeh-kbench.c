// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipeh-kbench: the kernel's per-packet cost of Destination options, in a
 * guest run with QEMU's -icount (guest time then counts instructions, so
 * two kernels can be compared to a fraction of a percent).
 *
 *   ipeh-kbench rx N ROUNDS
 *	Sends N UDP datagrams to [::1] through an IPPROTO_RAW socket (the
 *	transmit path does no option processing) and receives each one:
 *	"plain" without extension headers, "8opt" with a Destination header
 *	of 8 unknown skippable options (type 0x1e, RFC 4727) plus PadN.
 *	The difference is the receive cost of the header.
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
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

/* An IPv6 packet ::1 -> ::1, optional Destination header, UDP to PORT. */
static size_t make_packet(uint8_t *pkt, const uint8_t *dst, size_t dst_len)
{
	struct ip6_hdr *ip = (struct ip6_hdr *)pkt;
	uint8_t *udp = pkt + sizeof(*ip) + dst_len;
	size_t ulen = 8 + PAYLOAD;
	uint16_t c;

	memset(pkt, 0, sizeof(*ip) + dst_len + ulen);
	ip->ip6_flow = htonl(6u << 28);
	ip->ip6_plen = htons((uint16_t)(dst_len + ulen));
	ip->ip6_nxt = dst_len ? IPPROTO_DSTOPTS : IPPROTO_UDP;
	ip->ip6_hlim = 64;
	ip->ip6_src = in6addr_loopback;
	ip->ip6_dst = in6addr_loopback;
	if (dst_len) {
		memcpy(pkt + sizeof(*ip), dst, dst_len);
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
	return sizeof(*ip) + dst_len + ulen;
}

/* N send+receive pairs; ns per packet, or -1 on a lost datagram. */
static double rx_round(int raw, int rfd, const uint8_t *pkt, size_t len,
		       unsigned long n)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6,
				   .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	uint8_t buf[256];
	double t0 = now_ns();
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (sendto(raw, pkt, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) != (ssize_t)len)
			return -1;
		if (recv(rfd, buf, sizeof(buf), MSG_DONTWAIT) != PAYLOAD)
			return -1;
	}
	return (now_ns() - t0) / (double)n;
}

static int cmd_rx(unsigned long n, int rounds)
{
	/* 8 x (0x1e, len 0) = 16 bytes after the 2-byte header, PadN(4) */
	uint8_t dst[24] = { 0, 2 };
	uint8_t plain[128], opt8[128];
	size_t lp, lo, i;
	double bp = 1e30, bo = 1e30;
	int raw, rfd, r;

	for (i = 0; i < 8; i++)
		dst[2 + 2 * i] = 0x1e;
	dst[18] = 1;			/* PadN, 4 zero bytes */
	dst[19] = 4;
	raw = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (raw < 0)
		return die("raw socket (root needed)");
	rfd = receiver();
	if (rfd < 0)
		return die("UDP receiver");
	lp = make_packet(plain, NULL, 0);
	lo = make_packet(opt8, dst, sizeof(dst));
	for (r = 0; r < rounds; r++) {
		double p = rx_round(raw, rfd, plain, lp, n);
		double o = rx_round(raw, rfd, opt8, lo, n);

		if (p < 0 || o < 0) {
			fprintf(stderr, "ipeh-kbench: rx: a datagram was lost (%s)\n",
				p < 0 ? "plain" : "8opt");
			return 1;
		}
		bp = p < bp ? p : bp;
		bo = o < bo ? o : bo;
	}
	printf("KBENCH rx-plain ns=%.1f\n", bp);
	printf("KBENCH rx-8opt ns=%.1f\n", bo);
	return 0;
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

	if (argc < 4 || (strcmp(argv[1], "rx") && strcmp(argv[1], "tx")) ||
	    (!strcmp(argv[1], "tx") && argc < 5)) {
		fputs("usage: ipeh-kbench rx N ROUNDS\n"
		      "       ipeh-kbench tx N ROUNDS HEX\n", stderr);
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
	return cmd_tx(n, rounds, argv[4]);
}
