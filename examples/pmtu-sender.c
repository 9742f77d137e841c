// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmtu-sender: the source host of RFC 9268.  Sends UDP datagrams carrying
 * the Minimum Path MTU Hop-by-Hop option (type 0x30) with Min-PMTU = the
 * MTU of its egress link and the R flag set; pmtu-receiver returns the
 * Min-PMTU it received in the Rtn-PMTU field of its replies, and this
 * program prints the path MTU it learned that way.  It then asks the
 * kernel's own path MTU discovery for comparison.  See pmtu-sender(1).
 */

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>

#include "common.h"

#define PMTU_DEFAULT_PORT	5001
#define DEFAULT_COUNT		3
#define IPV6_HDR_LEN		40
#define UDP_HDR_LEN		8
#define ICMPV6_PKT_TOOBIG	2

struct options {
	const char *dest;
	unsigned int port;
	unsigned long count;
	double interval;
	double timeout;
	unsigned int mtu;	/* 0 = the egress link's */
	bool no_return;
	bool no_probe;
	bool per_packet;
	bool json;
};

struct learned {
	unsigned long replies;	/* replies received */
	unsigned long with_rtn;	/* ... carrying a Rtn-PMTU */
	unsigned int pmtu;	/* smallest Rtn-PMTU, 0 = none */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: pmtu-sender [OPTIONS] DESTINATION [PORT]\n"
"Send UDP datagrams to pmtu-receiver on DESTINATION (port %u by default)\n"
"with the RFC 9268 Minimum Path MTU Hop-by-Hop option: Min-PMTU = the MTU\n"
"of the egress link, R flag set.  The receiver returns the Min-PMTU it got\n"
"in Rtn-PMTU; print the path MTU learned that way, then what the kernel's\n"
"own path MTU discovery says.  Runs as an ordinary user when the kernel's\n"
"TLV policy allows option 0x30 (tlvd.conf: user = check).\n"
"\n"
"  -c, --count N          requests to send (default %u)\n"
"  -i, --interval SECS    pause between requests (default 0.5)\n"
"  -w, --timeout SECS     wait for each reply (default 2)\n"
"  -p, --port PORT        destination UDP port (default %u)\n"
"  -m, --mtu N            Min-PMTU to send instead of the link MTU\n"
"      --no-return        clear the R flag (the receiver then returns nothing)\n"
"      --no-probe         do not probe the kernel's path MTU discovery\n"
"      --per-packet       send the option as sendmsg() ancillary data on each\n"
"                         datagram instead of setting it once on the socket\n"
"      --json             one JSON object per line on stdout\n"
"  -h, --help             this help\n"
"\n"
"Exit status: 0 learned a path MTU, 1 the kernel refused the option or a\n"
"call failed, 2 bad arguments, 3 no reply carried a Rtn-PMTU.\n",
		PMTU_DEFAULT_PORT, DEFAULT_COUNT, PMTU_DEFAULT_PORT);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_NO_RETURN = 256, OPT_NO_PROBE, OPT_PER_PACKET, OPT_JSON };
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, 'w' },
		{ "port", required_argument, NULL, 'p' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "no-return", no_argument, NULL, OPT_NO_RETURN },
		{ "no-probe", no_argument, NULL, OPT_NO_PROBE },
		{ "per-packet", no_argument, NULL, OPT_PER_PACKET },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool port_set = false;
	int c;

	*o = (struct options){
		.port = PMTU_DEFAULT_PORT,
		.count = DEFAULT_COUNT,
		.interval = 0.5,
		.timeout = 2,
	};
	while ((c = getopt_long(argc, argv, "c:i:w:p:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->count = ex_parse_ulong(optarg, 1, 1000000, "--count");
			break;
		case 'i':
			o->interval = ex_parse_seconds(optarg, "--interval");
			break;
		case 'w':
			o->timeout = ex_parse_seconds(optarg, "--timeout");
			break;
		case 'p':
			o->port = (unsigned int)ex_parse_ulong(optarg, 1, 65535, "--port");
			port_set = true;
			break;
		case 'm':
			o->mtu = (unsigned int)ex_parse_ulong(optarg, 1280, 65535, "--mtu");
			break;
		case OPT_NO_RETURN:
			o->no_return = true;
			break;
		case OPT_NO_PROBE:
			o->no_probe = true;
			break;
		case OPT_PER_PACKET:
			o->per_packet = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			exit(EX_OK);
		default:
			fprintf(stderr, "Try 'pmtu-sender --help'.\n");
			exit(EX_USAGE);
		}
	}
	if (optind >= argc)
		ex_usage_error("missing DESTINATION");
	o->dest = argv[optind++];
	if (optind < argc) {
		if (port_set)
			ex_usage_error("port given twice");
		o->port = (unsigned int)ex_parse_ulong(argv[optind++], 1, 65535, "PORT");
	}
	if (optind < argc)
		ex_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->timeout <= 0)
		ex_usage_error("--timeout must be more than 0");
}

static void sleep_seconds(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* sendmsg() with the option as ancillary data when per_packet. */
static ssize_t send_datagram(int fd, const void *buf, size_t len,
			     bool per_packet, const uint8_t *block,
			     size_t block_len)
{
	uint8_t control[256] __attribute__((aligned(8)));
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (per_packet) {
		msg.msg_control = control;
		if (ipeh_cmsg_put(&msg, sizeof(control), IPEH_HDR_HOPOPTS, block,
				  block_len) < 0) {
			errno = ENOBUFS;
			return -1;
		}
	}
	return sendmsg(fd, &msg, 0);
}

/*
 * Wait for one reply; returns 1 and fills *p / *has_opt, 0 on timeout,
 * -1 on error.
 */
static int wait_reply(int fd, double timeout, struct ipeh_pmtu *p,
		      bool *has_opt, char *from, size_t fromlen, long *seq)
{
	uint8_t control[4096] __attribute__((aligned(8)));
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct sockaddr_in6 sa;
	char buf[2048];
	struct iovec iov = { buf, sizeof(buf) - 1 };
	struct msghdr msg = {
		.msg_name = &sa, .msg_namelen = sizeof(sa),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	int64_t deadline = ex_mono_ms() + (int64_t)(timeout * 1000);
	void *cookie = NULL;
	enum ipeh_hdr hdr;
	const uint8_t *b;
	size_t blen;
	ssize_t n;
	int r;

	for (;;) {
		int64_t left = deadline - ex_mono_ms();

		if (left <= 0)
			return 0;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		n = recvmsg(fd, &msg, 0);
		if (n >= 0)
			break;
		/* an ICMP error for an earlier datagram: report and go on */
		if (errno == ECONNREFUSED) {
			ex_warn("the destination port is unreachable (ECONNREFUSED): is pmtu-receiver running?");
			continue;
		}
		if (errno == EMSGSIZE || errno == EINTR)
			continue;
		return -1;
	}
	buf[n] = '\0';
	*seq = -1;
	if (!strncmp(buf, "pmtu-receiver reply seq ", 24))
		*seq = strtol(buf + 24, NULL, 10);
	ex_format_addr(&sa, from, fromlen);
	*has_opt = false;
	while ((r = ipeh_cmsg_next(&msg, &cookie, &hdr, &b, &blen)) > 0) {
		struct ipeh_opt opt;

		if (hdr != IPEH_HDR_HOPOPTS)
			continue;
		if (ipeh_find(b, blen, IPEH_OPT_PMTU, &opt) == 1 &&
		    ipeh_pmtu_decode(opt.data, opt.len, p) == 0)
			*has_opt = true;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* The kernel's own path MTU discovery, for comparison                 */
/* ------------------------------------------------------------------ */

struct probe {
	int before;		/* IPV6_MTU before the probe, -1 = unknown */
	int after;
	unsigned int size;	/* probe packet size (IPv6 header included) */
	int ptb_mtu;		/* MTU in the Packet Too Big, -1 = none */
	char ptb_from[64];
	const char *outcome;	/* short text */
};

static int sock_path_mtu(int fd)
{
	int mtu;
	socklen_t len = sizeof(mtu);

	if (getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &len) < 0)
		return -1;
	return mtu;
}

/* Read a Packet Too Big from the socket's error queue within timeout. */
static bool read_ptb(int fd, double timeout, struct probe *pr)
{
	uint8_t control[512] __attribute__((aligned(8)));
	int64_t deadline = ex_mono_ms() + (int64_t)(timeout * 1000);
	char buf[2048];

	for (;;) {
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control, .msg_controllen = sizeof(control),
		};
		struct pollfd pfd = { .fd = fd, .events = 0 };
		int64_t left = deadline - ex_mono_ms();
		struct cmsghdr *cm;

		if (left <= 0)
			return false;
		/* POLLERR is always reported; drain ordinary replies meanwhile */
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		if (!(pfd.revents & POLLERR)) {
			recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
			continue;
		}
		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			continue;
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			struct sock_extended_err ee;
			const struct sockaddr_in6 *off;

			if (cm->cmsg_level != IPPROTO_IPV6 ||
			    cm->cmsg_type != IPV6_RECVERR ||
			    cm->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_ICMP6 ||
			    ee.ee_type != ICMPV6_PKT_TOOBIG)
				continue;
			pr->ptb_mtu = (int)ee.ee_info;
			off = (const struct sockaddr_in6 *)
			      ((const struct sock_extended_err *)CMSG_DATA(cm) + 1);
			if (cm->cmsg_len >= CMSG_LEN(sizeof(ee) + sizeof(*off)) &&
			    off->sin6_family == AF_INET6)
				ex_format_ip(off, pr->ptb_from, sizeof(pr->ptb_from));
			return true;
		}
	}
}

/*
 * Send one datagram of size (IPv6 packet) with "don't fragment" and see
 * what the kernel's path MTU discovery makes of it.
 */
static void probe_kernel(int fd, const struct sockaddr_in6 *dst,
			 unsigned int size, size_t hbh_len,
			 const struct options *o, const uint8_t *block,
			 struct probe *pr)
{
	static char payload[65536];
	int one = 1;
	size_t plen;

	*pr = (struct probe){ .before = sock_path_mtu(fd), .after = -1,
			      .size = size, .ptb_mtu = -1 };
	if (size < IPV6_HDR_LEN + hbh_len + UDP_HDR_LEN + 16) {
		pr->outcome = "probe size too small";
		return;
	}
	plen = size - IPV6_HDR_LEN - hbh_len - UDP_HDR_LEN;
	memset(payload, 'p', plen);
	memcpy(payload, "pmtu-sender probe", 17);
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one)) < 0 ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_DONTFRAG, &one, sizeof(one)) < 0) {
		pr->outcome = "cannot set IPV6_RECVERR/IPV6_DONTFRAG";
		return;
	}
	if (send_datagram(fd, payload, plen, o->per_packet, block, hbh_len) < 0) {
		if (errno == EMSGSIZE)
			pr->outcome = "the kernel already knows a smaller path MTU (EMSGSIZE)";
		else
			pr->outcome = "the probe could not be sent";
		pr->after = sock_path_mtu(fd);
		return;
	}
	if (read_ptb(fd, o->timeout, pr))
		pr->outcome = "Packet Too Big";
	else
		pr->outcome = "no Packet Too Big came back";
	/* connect() again so the socket's cached route shows the new PMTU */
	connect(fd, (const struct sockaddr *)dst, sizeof(*dst));
	pr->after = sock_path_mtu(fd);
}

static void print_probe(const struct probe *pr, bool json)
{
	if (json) {
		printf("{\"event\":\"kernel-pmtu\",\"before\":%d,\"probe_size\":%u,"
		       "\"ptb_mtu\":%d,\"ptb_from\":", pr->before, pr->size, pr->ptb_mtu);
		ex_json_str(stdout, pr->ptb_from);
		printf(",\"after\":%d,\"outcome\":", pr->after);
		ex_json_str(stdout, pr->outcome);
		printf("}\n");
		return;
	}
	printf("kernel path MTU discovery: %d before; a %u-byte probe with \"don't fragment\": ",
	       pr->before, pr->size);
	if (pr->ptb_mtu >= 0)
		printf("ICMPv6 Packet Too Big from %s reporting MTU %d;",
		       pr->ptb_from[0] ? pr->ptb_from : "?", pr->ptb_mtu);
	else
		printf("%s;", pr->outcome);
	printf(" kernel path MTU now %d\n", pr->after);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	uint8_t data[IPEH_PMTU_DATA_LEN], block[IPEH_BLOCK_MAX];
	struct learned l = { 0 };
	struct sockaddr_in6 dst;
	struct ipeh_pmtu opt;
	struct ex_table xt;
	struct options o;
	char ifname[64] = "?", addr[128];
	ssize_t block_len;
	unsigned long seq;
	int fd, link_mtu, ret;

	ex_prog = "pmtu-sender";
	parse_args(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (ex_resolve(o.dest, (uint16_t)o.port, &dst) < 0)
		ex_usage_error("DESTINATION: cannot resolve '%s' to an IPv6 address", o.dest);
	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ex_warn("socket: %s", strerror(errno));
		return EX_FAIL;
	}
	if (connect(fd, (struct sockaddr *)&dst, sizeof(dst)) < 0) {
		ex_warn("connect: %s", strerror(errno));
		return EX_FAIL;
	}
	link_mtu = ex_link_mtu(fd, ifname, sizeof(ifname));
	if (link_mtu < 0 && !o.mtu) {
		ex_warn("cannot find the MTU of the egress link (%s); give one with --mtu",
			strerror(-link_mtu));
		return EX_FAIL;
	}
	opt = (struct ipeh_pmtu){
		.min_pmtu = (uint16_t)(o.mtu ? o.mtu : (unsigned int)(link_mtu > 65535 ? 65535 : link_mtu)),
		.rtn_pmtu = 0,
		.r = !o.no_return,
	};

	ex_table_load(&xt, IPEH_OPT_PMTU);
	if (!xt.live)
		ex_warn("note: cannot read the kernel's TLV table (%s); laying the option out as RFC 9268 says",
			xt.why_not_live);
	ret = ipeh_pmtu_encode(&opt, data, sizeof(data));
	if (ret < 0) {
		ex_warn("cannot encode the option: %s", strerror(-ret));
		return EX_FAIL;
	}
	block_len = ex_build_hbh(&xt, data, (size_t)ret, block, sizeof(block));
	if (block_len < 0)
		return EX_FAIL;
	if (!o.per_packet) {
		ret = ipeh_sock_set(fd, IPEH_HDR_HOPOPTS, block, (size_t)block_len);
		if (ret < 0) {
			ex_explain_errno(-ret, "setsockopt(IPV6_HOPOPTS)", "PMTU",
					 &xt, block, (size_t)block_len, o.json);
			return EX_FAIL;
		}
	}
	ret = ipeh_sock_recv_enable(fd, IPEH_HDR_HOPOPTS, true);
	if (ret < 0) {
		ex_warn("setsockopt(IPV6_RECVHOPOPTS): %s", strerror(-ret));
		return EX_FAIL;
	}

	ex_format_addr(&dst, addr, sizeof(addr));
	if (o.json) {
		printf("{\"event\":\"start\",\"to\":");
		ex_json_str(stdout, addr);
		printf(",\"link\":");
		ex_json_str(stdout, ifname);
		printf(",\"link_mtu\":%d,\"min_pmtu\":%u,\"r\":%s,\"hbh_len\":%zd,"
		       "\"mode\":\"%s\",\"table\":\"%s\"}\n", link_mtu, opt.min_pmtu,
		       opt.r ? "true" : "false", block_len,
		       o.per_packet ? "per-packet" : "sticky",
		       xt.live ? "kernel" : "built-in");
	} else {
		printf("pmtu-sender: to %s via %s (link MTU %d): Minimum Path MTU option\n"
		       "  Min-PMTU %u, R=%d%s, %s\n", addr, ifname, link_mtu,
		       opt.min_pmtu, opt.r, opt.r ? " (please return it)" : "",
		       o.per_packet ? "sent with each datagram (sendmsg ancillary data)"
				    : "set once on the socket (setsockopt IPV6_HOPOPTS)");
	}

	for (seq = 1; seq <= o.count; seq++) {
		char payload[64], from[128];
		struct ipeh_pmtu got;
		bool has_opt;
		long rseq;
		int plen;

		plen = snprintf(payload, sizeof(payload), "pmtu-sender seq %lu\n", seq);
		if (send_datagram(fd, payload, (size_t)plen, o.per_packet, block,
				  (size_t)block_len) < 0) {
			int err = errno;

			if (err == ECONNREFUSED) {
				ex_warn("seq %lu: the destination port is unreachable (ECONNREFUSED); going on", seq);
				continue;
			}
			ex_explain_errno(err, o.per_packet ? "sendmsg(IPV6_HOPOPTS cmsg)" : "sendmsg",
					 "PMTU", &xt, block, (size_t)block_len, o.json);
			return EX_FAIL;
		}
		ret = wait_reply(fd, o.timeout, &got, &has_opt, from, sizeof(from), &rseq);
		if (ret < 0) {
			ex_warn("recvmsg: %s", strerror(errno));
			return EX_FAIL;
		}
		if (ret == 0) {
			if (o.json)
				printf("{\"event\":\"timeout\",\"seq\":%lu}\n", seq);
			else
				printf("request %lu: no reply within %g s\n", seq, o.timeout);
		} else {
			l.replies++;
			if (has_opt && got.rtn_pmtu) {
				l.with_rtn++;
				if (!l.pmtu || got.rtn_pmtu < l.pmtu)
					l.pmtu = got.rtn_pmtu;
			}
			if (o.json) {
				printf("{\"event\":\"reply\",\"seq\":%ld,\"from\":", rseq);
				ex_json_str(stdout, from);
				if (has_opt)
					printf(",\"pmtu_option\":true,\"rtn_pmtu\":%u,"
					       "\"min_pmtu\":%u,\"r\":%s}\n", got.rtn_pmtu,
					       got.min_pmtu, got.r ? "true" : "false");
				else
					printf(",\"pmtu_option\":false}\n");
			} else if (has_opt) {
				printf("reply %ld from %s: Rtn-PMTU %u (the Min-PMTU the receiver saw), "
				       "its own Min-PMTU %u, R=%d\n", rseq, from,
				       got.rtn_pmtu, got.min_pmtu, got.r);
			} else {
				printf("reply %ld from %s: no Minimum Path MTU option in it\n",
				       rseq, from);
			}
		}
		if (seq < o.count)
			sleep_seconds(o.interval);
	}

	/* RFC 9268: never believe a path MTU above our own link's */
	if (l.pmtu && link_mtu > 0 && l.pmtu > (unsigned int)link_mtu)
		l.pmtu = (unsigned int)link_mtu;
	if (o.json) {
		printf("{\"event\":\"result\",\"replies\":%lu,\"replies_with_rtn\":%lu,"
		       "\"learned_pmtu\":%u}\n", l.replies, l.with_rtn, l.pmtu);
	} else if (l.pmtu) {
		printf("path MTU learned from the option: %u (from %lu of %lu replies)\n",
		       l.pmtu, l.with_rtn, l.replies);
		if (link_mtu > 0 && l.pmtu == (unsigned int)link_mtu)
			printf("  (the same as our link MTU: no router on the path lowered Min-PMTU;\n"
			       "   Linux routers do only with the ipeh module ip6_pmtu_opt,\n"
			       "   see examples/README.md)\n");
	} else {
		printf("no path MTU learned: %lu repl%s, none with a Rtn-PMTU\n",
		       l.replies, l.replies == 1 ? "y" : "ies");
	}
	if (!o.no_probe) {
		struct probe pr;
		unsigned int size = l.pmtu ? l.pmtu : opt.min_pmtu;

		probe_kernel(fd, &dst, size, (size_t)block_len, &o, block, &pr);
		print_probe(&pr, o.json);
	}
	close(fd);
	if (!l.pmtu) {
		ex_warn("no reply carried a Rtn-PMTU (is pmtu-receiver running on %s, allowed to send option 0x30?)",
			o.dest);
		return EX_TIMEOUT;
	}
	return EX_OK;
}
