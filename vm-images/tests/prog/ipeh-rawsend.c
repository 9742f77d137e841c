// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipeh-rawsend: send one hand-described IPv6 packet, for the hostile-packet
 * e2e test (vm-images/tests/50-hostile-packets.t). Used inside the guest only.
 *
 *   ipeh-rawsend [OPTIONS] SRC DST
 *     --hop HEX | --dst HEX   an extension header, in packet order (repeat);
 *                             HEX is the whole header, its first byte (next
 *                             header) is overwritten with the protocol of what
 *                             follows; the length byte is taken as given, so
 *                             the header may lie about its length
 *     --udp SPORT DPORT       UDP payload "ipeh-rawsend" (checksum computed)
 *     --icmp-echo             ICMPv6 Echo Request payload (checksum computed)
 *     --icmp-error            ICMPv6 Destination Unreachable (port) payload
 *                             quoting an IPv6 header (checksum computed)
 *     (neither)               no upper layer: next header 59
 *     --plen N                IPv6 Payload Length field (default: the real one)
 *     --dev IFNAME            outgoing interface (needed for link-local
 *                             and multicast destinations)
 *     --hlim N                Hop Limit (default 64)
 *     --wait-icmp MS          then listen up to MS ms for an ICMPv6 error that
 *                             quotes this packet (same destination)
 *
 * The packet goes out through an IPPROTO_RAW socket (IPV6_HDRINCL): the kernel
 * sends the bytes as given, without looking at the extension headers.
 * Output: "sent LEN" (or the errno name), then with --wait-icmp one line
 * "icmp type=T code=C pointer=P from=ADDR" or "no-icmp".
 * Exit status: 0 when the packet was sent, 1 on failure, 2 on bad usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "prog-util.h"

#define PKT_MAX 4096
#define EH_MAX 8

static int usage(void)
{
	fputs("usage: ipeh-rawsend [--hop HEX|--dst HEX]... [--udp SPORT DPORT|--icmp-echo|--icmp-error]\n"
	      "                    [--plen N] [--dev IFNAME] [--hlim N] [--wait-icmp MS] SRC DST\n",
	      stderr);
	return 2;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int main(int argc, char **argv)
{
	static uint8_t pkt[PKT_MAX];
	struct { uint8_t proto; uint8_t buf[2048]; int len; } eh[EH_MAX];
	struct sockaddr_in6 to = { .sin6_family = AF_INET6 };
	struct in6_addr src, dst;
	int neh = 0, plen = -1, hlim = 64, wait_icmp = -1, icmp_fd = -1;
	int udp = 0, echo = 0, sport = 0, dport = 0, fd, off, upper, on = 1, off0 = 0;
	const char *dev = NULL;
	uint8_t l4proto = 59;
	size_t l4len = 0;
	ssize_t r;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		const char *o = argv[i];

		if ((!strcmp(o, "--hop") || !strcmp(o, "--dst")) && i + 1 < argc) {
			if (neh >= EH_MAX)
				return usage();
			eh[neh].proto = o[2] == 'h' ? IPPROTO_HOPOPTS : IPPROTO_DSTOPTS;
			eh[neh].len = parse_hex(argv[++i], eh[neh].buf, sizeof(eh[neh].buf));
			if (eh[neh].len < 2) {
				fprintf(stderr, "ipeh-rawsend: bad header hex '%s'\n", argv[i]);
				return usage();
			}
			neh++;
		} else if (!strcmp(o, "--udp") && i + 2 < argc) {
			udp = 1;
			sport = atoi(argv[++i]);
			dport = atoi(argv[++i]);
		} else if (!strcmp(o, "--icmp-echo")) {
			echo = 1;
		} else if (!strcmp(o, "--icmp-error")) {
			echo = 2;
		} else if (!strcmp(o, "--plen") && i + 1 < argc) {
			plen = atoi(argv[++i]);
		} else if (!strcmp(o, "--dev") && i + 1 < argc) {
			dev = argv[++i];
		} else if (!strcmp(o, "--hlim") && i + 1 < argc) {
			hlim = atoi(argv[++i]);
		} else if (!strcmp(o, "--wait-icmp") && i + 1 < argc) {
			wait_icmp = atoi(argv[++i]);
		} else {
			return usage();
		}
	}
	if (argc - i != 2 || inet_pton(AF_INET6, argv[i], &src) != 1 ||
	    inet_pton(AF_INET6, argv[i + 1], &dst) != 1)
		return usage();

	/* the IPv6 header */
	off = 40;
	for (int k = 0; k < neh; k++) {
		if (off + eh[k].len > PKT_MAX - 64)
			return usage();
		memcpy(pkt + off, eh[k].buf, (size_t)eh[k].len);
		off += eh[k].len;
	}
	upper = off;
	if (udp) {
		static const char text[] = "ipeh-rawsend";
		uint16_t c;

		l4proto = IPPROTO_UDP;
		l4len = 8 + sizeof(text) - 1;
		pkt[upper] = (uint8_t)(sport >> 8);
		pkt[upper + 1] = (uint8_t)sport;
		pkt[upper + 2] = (uint8_t)(dport >> 8);
		pkt[upper + 3] = (uint8_t)dport;
		pkt[upper + 4] = (uint8_t)(l4len >> 8);
		pkt[upper + 5] = (uint8_t)l4len;
		memcpy(pkt + upper + 8, text, sizeof(text) - 1);
		c = l4_csum(&src, &dst, l4proto, pkt + upper, l4len);
		pkt[upper + 6] = (uint8_t)(c >> 8);
		pkt[upper + 7] = (uint8_t)c;
	} else if (echo == 1) {
		uint16_t c;

		l4proto = IPPROTO_ICMPV6;
		l4len = 16;
		memset(pkt + upper, 0, l4len);
		pkt[upper] = ICMP6_ECHO_REQUEST;
		pkt[upper + 4] = 0x12;	/* identifier */
		pkt[upper + 5] = 0x34;
		pkt[upper + 7] = 1;	/* sequence */
		memcpy(pkt + upper + 8, "ipeh-raw", 8);
		c = l4_csum(&src, &dst, l4proto, pkt + upper, l4len);
		pkt[upper + 2] = (uint8_t)(c >> 8);
		pkt[upper + 3] = (uint8_t)c;
	} else if (echo == 2) {
		uint16_t c;

		/* an error about a UDP packet the destination sent us */
		l4proto = IPPROTO_ICMPV6;
		l4len = 8 + 40 + 8;
		memset(pkt + upper, 0, l4len);
		pkt[upper] = ICMP6_DST_UNREACH;
		pkt[upper + 1] = ICMP6_DST_UNREACH_NOPORT;
		pkt[upper + 8] = 0x60;			/* quoted IPv6 header */
		pkt[upper + 8 + 5] = 8;			/* payload length */
		pkt[upper + 8 + 6] = IPPROTO_UDP;
		pkt[upper + 8 + 7] = 64;
		memcpy(pkt + upper + 8 + 8, &dst, 16);
		memcpy(pkt + upper + 8 + 24, &src, 16);
		c = l4_csum(&src, &dst, l4proto, pkt + upper, l4len);
		pkt[upper + 2] = (uint8_t)(c >> 8);
		pkt[upper + 3] = (uint8_t)c;
	}
	/* chain the next-header bytes */
	pkt[6] = neh ? eh[0].proto : l4proto;
	off = 40;
	for (int k = 0; k < neh; k++) {
		pkt[off] = k + 1 < neh ? eh[k + 1].proto : l4proto;
		off += eh[k].len;
	}
	off = upper + (int)l4len;
	if (plen < 0)
		plen = off - 40;
	pkt[0] = 0x60;
	pkt[4] = (uint8_t)(plen >> 8);
	pkt[5] = (uint8_t)plen;
	pkt[7] = (uint8_t)hlim;
	memcpy(pkt + 8, &src, 16);
	memcpy(pkt + 24, &dst, 16);

	if (wait_icmp >= 0) {
		struct icmp6_filter f;

		/* opened first, so that no answer can come before we listen */
		icmp_fd = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
		if (icmp_fd < 0) {
			perror("ipeh-rawsend: icmp socket");
			return 1;
		}
		ICMP6_FILTER_SETBLOCKALL(&f);
		ICMP6_FILTER_SETPASS(ICMP6_DST_UNREACH, &f);
		ICMP6_FILTER_SETPASS(ICMP6_PACKET_TOO_BIG, &f);
		ICMP6_FILTER_SETPASS(ICMP6_TIME_EXCEEDED, &f);
		ICMP6_FILTER_SETPASS(ICMP6_PARAM_PROB, &f);
		setsockopt(icmp_fd, IPPROTO_ICMPV6, ICMP6_FILTER, &f, sizeof(f));
	}

	fd = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		perror("ipeh-rawsend: raw socket");
		return 1;
	}
	/* IPPROTO_RAW implies IPV6_HDRINCL; say it anyway */
	setsockopt(fd, IPPROTO_IPV6, IPV6_HDRINCL, &on, sizeof(on));
	/* a multicast packet must not come back to the sender itself */
	setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &off0, sizeof(off0));
	to.sin6_addr = dst;
	if (dev) {
		to.sin6_scope_id = if_nametoindex(dev);
		if (!to.sin6_scope_id) {
			perror("ipeh-rawsend: interface");
			return 1;
		}
		if (IN6_IS_ADDR_MULTICAST(&dst)) {
			int ifi = (int)to.sin6_scope_id;

			setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &ifi, sizeof(ifi));
		}
	}
	r = sendto(fd, pkt, (size_t)off, 0, (struct sockaddr *)&to, sizeof(to));
	if (r < 0) {
		const char *n = strerrorname_np(errno);

		printf("%s\n", n ? n : "EUNKNOWN");
		return 1;
	}
	printf("sent %zd\n", r);
	fflush(stdout);
	close(fd);

	if (icmp_fd >= 0) {
		long end = now_ms() + wait_icmp;

		for (;;) {
			struct pollfd p = { .fd = icmp_fd, .events = POLLIN };
			struct sockaddr_in6 from;
			socklen_t fl = sizeof(from);
			uint8_t buf[2048];
			char a[INET6_ADDRSTRLEN];
			long left = end - now_ms();
			ssize_t n;

			if (left <= 0 || poll(&p, 1, (int)left) <= 0) {
				printf("no-icmp\n");
				break;
			}
			n = recvfrom(icmp_fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
			/* an error quoting our packet: 8 + 40 bytes at least */
			if (n < 48 || memcmp(buf + 8 + 24, &dst, 16))
				continue;
			inet_ntop(AF_INET6, &from.sin6_addr, a, sizeof(a));
			printf("icmp type=%u code=%u pointer=%u from=%s\n", buf[0], buf[1],
			       (unsigned int)buf[4] << 24 | (unsigned int)buf[5] << 16 |
			       (unsigned int)buf[6] << 8 | buf[7], a);
			break;
		}
		close(icmp_fd);
	}
	return 0;
}
