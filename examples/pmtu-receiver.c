// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmtu-receiver: the destination host of RFC 9268.  Receives UDP datagrams
 * with IPV6_RECVHOPOPTS, prints the Minimum Path MTU option (type 0x30) of
 * each, and replies; when the R flag asks for it, the reply carries the
 * option with Rtn-PMTU = the Min-PMTU received (and Min-PMTU = the MTU of
 * our own egress link toward the sender).  See pmtu-receiver(1).
 */

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "common.h"

#define PMTU_DEFAULT_PORT	5001

struct options {
	const char *bind;
	unsigned int port;
	unsigned long count;
	double timeout;
	bool request_return;
	const char *decode;
	bool json;
};

/* What one datagram carried and what we answered. */
struct exchange {
	unsigned long n;
	char from[128];		/* "[2001:db8::1]:40612" */
	char ip[80];
	unsigned int port;
	long seq;		/* from pmtu-sender's payload, -1 = none */
	bool hbh;
	bool has_opt;
	struct ipeh_pmtu got;
	bool replied;
	bool reply_has_opt;
	struct ipeh_pmtu sent;
	char link[64];
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: pmtu-receiver [OPTIONS] [PORT]\n"
"Receive UDP datagrams on PORT (default %u), print the RFC 9268 Minimum\n"
"Path MTU Hop-by-Hop option of each and reply.  When its R flag is set the\n"
"reply carries the option with Rtn-PMTU = the Min-PMTU received, so that\n"
"pmtu-sender learns the path MTU.  Sending that option needs the kernel's\n"
"TLV policy to allow option 0x30 (tlvd.conf: user = check).\n"
"\n"
"  -p, --port PORT        UDP port (default %u)\n"
"  -b, --bind ADDR        local IPv6 address (default ::)\n"
"  -c, --count N          exit after N datagrams (default 0 = never)\n"
"  -w, --timeout SECS     give up after SECS without a datagram (default 0 =\n"
"                         wait for ever)\n"
"      --request-return   set the R flag in replies too (ask the sender to\n"
"                         return the reverse path's Min-PMTU)\n"
"      --json             one JSON object per line on stdout\n"
"      --decode HEX       print the option of a Hop-by-Hop header given in\n"
"                         hex, and exit (no socket)\n"
"  -h, --help             this help\n"
"\n"
"Exit status: 0 done, 1 the kernel refused the option or a call failed,\n"
"2 bad arguments, 3 timed out before --count datagrams (or before any).\n",
		PMTU_DEFAULT_PORT, PMTU_DEFAULT_PORT);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_REQUEST_RETURN = 256, OPT_JSON, OPT_DECODE };
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "bind", required_argument, NULL, 'b' },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 'w' },
		{ "request-return", no_argument, NULL, OPT_REQUEST_RETURN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "decode", required_argument, NULL, OPT_DECODE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool port_set = false;
	int c;

	*o = (struct options){ .bind = "::", .port = PMTU_DEFAULT_PORT };
	while ((c = getopt_long(argc, argv, "p:b:c:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->port = (unsigned int)ex_parse_ulong(optarg, 1, 65535, "--port");
			port_set = true;
			break;
		case 'b':
			o->bind = optarg;
			break;
		case 'c':
			o->count = ex_parse_ulong(optarg, 0, 1000000000, "--count");
			break;
		case 'w':
			o->timeout = ex_parse_seconds(optarg, "--timeout");
			break;
		case OPT_REQUEST_RETURN:
			o->request_return = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_DECODE:
			o->decode = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(EX_OK);
		default:
			fprintf(stderr, "Try 'pmtu-receiver --help'.\n");
			exit(EX_USAGE);
		}
	}
	if (optind < argc) {
		if (port_set)
			ex_usage_error("port given twice");
		o->port = (unsigned int)ex_parse_ulong(argv[optind++], 1, 65535, "PORT");
	}
	if (optind < argc)
		ex_usage_error("unexpected argument '%s'", argv[optind]);
}

static void print_exchange(const struct exchange *x, bool json)
{
	if (json) {
		printf("{\"event\":\"packet\",\"n\":%lu,\"from\":", x->n);
		ex_json_str(stdout, x->ip);
		printf(",\"port\":%u", x->port);
		if (x->seq >= 0)
			printf(",\"seq\":%ld", x->seq);
		printf(",\"hbh\":%s,\"pmtu_option\":%s", x->hbh ? "true" : "false",
		       x->has_opt ? "true" : "false");
		if (x->has_opt)
			printf(",\"min_pmtu\":%u,\"rtn_pmtu\":%u,\"r\":%s",
			       x->got.min_pmtu, x->got.rtn_pmtu,
			       x->got.r ? "true" : "false");
		printf(",\"replied\":%s", x->replied ? "true" : "false");
		if (x->reply_has_opt)
			printf(",\"reply\":{\"min_pmtu\":%u,\"rtn_pmtu\":%u,\"r\":%s}",
			       x->sent.min_pmtu, x->sent.rtn_pmtu,
			       x->sent.r ? "true" : "false");
		printf("}\n");
		return;
	}
	printf("datagram %lu from %s", x->n, x->from);
	if (x->seq >= 0)
		printf(", seq %ld", x->seq);
	printf(": ");
	if (!x->has_opt)
		printf("no Minimum Path MTU option%s\n",
		       x->hbh ? " in its Hop-by-Hop header" : " (no Hop-by-Hop header)");
	else
		printf("Min-PMTU %u, Rtn-PMTU %u, R=%d\n", x->got.min_pmtu,
		       x->got.rtn_pmtu, x->got.r);
	if (x->reply_has_opt)
		printf("  replied with Rtn-PMTU %u (returned), Min-PMTU %u (our link %s), R=%d\n",
		       x->sent.rtn_pmtu, x->sent.min_pmtu, x->link, x->sent.r);
	else if (x->replied)
		printf("  replied without the option (%s)\n",
		       x->has_opt ? "R flag clear: nothing to return" : "nothing to return");
}

static void parse_hbh(struct exchange *x, const uint8_t *block, size_t len)
{
	struct ipeh_opt opt;

	x->hbh = true;
	if (ipeh_find(block, len, IPEH_OPT_PMTU, &opt) == 1 &&
	    ipeh_pmtu_decode(opt.data, opt.len, &x->got) == 0)
		x->has_opt = true;
}

static int open_socket(const struct options *o)
{
	struct sockaddr_in6 sa;
	char addr[128];
	int fd, one = 1, ret;

	if (ex_resolve(o->bind, (uint16_t)o->port, &sa) < 0)
		ex_usage_error("--bind: cannot resolve '%s' to an IPv6 address", o->bind);
	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ex_warn("socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ex_format_addr(&sa, addr, sizeof(addr));
		ex_warn("bind %s: %s", addr, strerror(errno));
		close(fd);
		return -1;
	}
	ret = ipeh_sock_recv_enable(fd, IPEH_HDR_HOPOPTS, true);
	if (ret < 0) {
		ex_warn("setsockopt(IPV6_RECVHOPOPTS): %s", strerror(-ret));
		close(fd);
		return -1;
	}
	ex_format_addr(&sa, addr, sizeof(addr));
	if (o->json) {
		printf("{\"event\":\"listening\",\"on\":");
		ex_json_str(stdout, addr);
		printf("}\n");
	} else {
		printf("pmtu-receiver: listening on %s\n", addr);
	}
	fflush(stdout);
	return fd;
}

/*
 * Reply to one datagram; with the option when the sender asked for the
 * Min-PMTU back.  Returns 0, or EX_FAIL when the kernel refused the option.
 */
static int reply(int fd, const struct options *o, const struct ex_table *xt,
		 struct ipeh_prepared *prep, const struct sockaddr_in6 *to,
		 struct exchange *x)
{
	uint8_t control[256] __attribute__((aligned(8)));
	char payload[64];
	struct iovec iov;
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t block_len = 0;
	int plen, mtu, ret;

	plen = snprintf(payload, sizeof(payload), "pmtu-receiver reply seq %ld\n", x->seq);
	iov.iov_base = payload;
	iov.iov_len = (size_t)plen;
	if (x->has_opt && x->got.r) {
		mtu = ex_link_mtu_to(to, x->link, sizeof(x->link));
		if (mtu < 0) {
			ex_warn("cannot find the MTU of the link toward %s: %s", x->from,
				strerror(-mtu));
			mtu = 1280;
			snprintf(x->link, sizeof(x->link), "?");
		}
		x->sent = (struct ipeh_pmtu){
			.min_pmtu = (uint16_t)(mtu > 65535 ? 65535 : mtu),
			/* Rtn-PMTU travels as its 15 most significant bits:
			 * an odd Min-PMTU is returned one lower
			 */
			.rtn_pmtu = x->got.min_pmtu & 0xfffe,
			.r = o->request_return,
		};
		/* the layout was prepared once: only the option data changes */
		ret = ipeh_pmtu_encode(&x->sent, ipeh_prepared_data(prep, 0),
				       IPEH_PMTU_DATA_LEN);
		if (ret < 0)
			return EX_FAIL;
		block_len = prep->len;
		msg.msg_control = control;
		ret = ipeh_cmsg_put(&msg, sizeof(control), IPEH_HDR_HOPOPTS,
				    prep->block, (size_t)block_len);
		if (ret < 0) {
			ex_warn("cannot add the option as ancillary data: %s", strerror(-ret));
			return EX_FAIL;
		}
		x->reply_has_opt = true;
	}
	if (sendmsg(fd, &msg, 0) < 0) {
		int err = errno;

		x->reply_has_opt = false;
		if (block_len > 0 && err != ENETUNREACH && err != EHOSTUNREACH) {
			ex_explain_errno(err, "sendmsg(IPV6_HOPOPTS cmsg)", "PMTU", xt,
					 prep->block, (size_t)block_len, o->json);
			return EX_FAIL;
		}
		ex_warn("reply to %s: %s", x->from, strerror(err));
		return 0;
	}
	x->replied = true;
	return 0;
}

static int receive_one(int fd, const struct options *o,
		       const struct ex_table *xt, struct ipeh_prepared *prep,
		       unsigned long n)
{
	uint8_t control[4096] __attribute__((aligned(8)));
	struct sockaddr_in6 from;
	char buf[2048];
	struct iovec iov = { buf, sizeof(buf) - 1 };
	struct msghdr msg = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	struct exchange x = { .n = n, .seq = -1 };
	void *cookie = NULL;
	enum ipeh_hdr hdr;
	const uint8_t *b;
	size_t blen;
	ssize_t r;
	int ret;

	r = recvmsg(fd, &msg, 0);
	if (r < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		ex_warn("recvmsg: %s", strerror(errno));
		return -1;
	}
	buf[r] = '\0';
	if (!strncmp(buf, "pmtu-sender seq ", 16))
		x.seq = strtol(buf + 16, NULL, 10);
	else if (!strncmp(buf, "pmtu-sender probe", 17))
		return 0;	/* the sender's kernel PMTU probe made it through */
	ex_format_addr(&from, x.from, sizeof(x.from));
	ex_format_ip(&from, x.ip, sizeof(x.ip));
	x.port = ntohs(from.sin6_port);
	while ((ret = ipeh_cmsg_next(&msg, &cookie, &hdr, &b, &blen)) > 0)
		if (hdr == IPEH_HDR_HOPOPTS)
			parse_hbh(&x, b, blen);
	ret = reply(fd, o, xt, prep, &from, &x);
	print_exchange(&x, o->json);
	fflush(stdout);
	return ret ? -1 : 1;
}

static int decode_only(const struct options *o)
{
	uint8_t block[IPEH_HDR_MAX];
	struct exchange x = { .n = 1, .seq = -1 };
	ssize_t n = ex_unhex(o->decode, block, sizeof(block));

	if (n < 2 || ((size_t)block[1] + 1) * 8 > (size_t)n)
		ex_usage_error("--decode: not a Hop-by-Hop header in hex");
	snprintf(x.from, sizeof(x.from), "(decoded)");
	snprintf(x.ip, sizeof(x.ip), "(decoded)");
	parse_hbh(&x, block, (size_t)n);
	print_exchange(&x, o->json);
	return x.has_opt ? EX_OK : EX_FAIL;
}

int main(int argc, char **argv)
{
	static struct ipeh_prepared prep;
	struct ex_table xt;
	struct options o;
	unsigned long got = 0;
	int64_t deadline;
	int fd;

	ex_prog = "pmtu-receiver";
	parse_args(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (o.decode)
		return decode_only(&o);

	ex_table_load(&xt, IPEH_OPT_PMTU);
	if (!xt.live)
		ex_warn("note: cannot read the kernel's TLV table (%s); laying the option out as RFC 9268 says",
			xt.why_not_live);
	if (ex_prepare_hbh(&xt, IPEH_PMTU_DATA_LEN, &prep) < 0)
		return EX_FAIL;
	fd = open_socket(&o);
	if (fd < 0)
		return EX_FAIL;
	deadline = o.timeout > 0 ? ex_mono_ms() + (int64_t)(o.timeout * 1000) : 0;
	while (!o.count || got < o.count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait = -1, r;

		if (deadline) {
			int64_t left = deadline - ex_mono_ms();

			if (left <= 0)
				break;
			wait = (int)left;
		}
		r = poll(&pfd, 1, wait);
		if (r < 0 && errno != EINTR) {
			ex_warn("poll: %s", strerror(errno));
			return EX_FAIL;
		}
		if (r <= 0)
			continue;
		r = receive_one(fd, &o, &xt, &prep, got + 1);
		if (r < 0)
			return EX_FAIL;
		if (r > 0) {
			got++;
			if (deadline)
				deadline = ex_mono_ms() + (int64_t)(o.timeout * 1000);
		}
	}
	close(fd);
	if (o.json)
		printf("{\"event\":\"done\",\"received\":%lu}\n", got);
	else
		printf("pmtu-receiver: received %lu datagram%s\n", got, got == 1 ? "" : "s");
	if ((o.count && got < o.count) || (!o.count && !got)) {
		ex_warn("timed out after %g s without a datagram (%lu of %lu received)",
			o.timeout, got, o.count);
		return EX_TIMEOUT;
	}
	return EX_OK;
}
