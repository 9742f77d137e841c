// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioam-receiver: receive UDP datagrams with IPV6_RECVHOPOPTS and print the
 * IOAM pre-allocated traces in their Hop-by-Hop headers as the nodes on the
 * path filled them in.  See ioam-receiver(1).
 */

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "common.h"

#define MAX_NODES	64
#define U16_UNAVAILABLE	0xffffu
#define U24_UNAVAILABLE	0xffffffu
#define U32_UNAVAILABLE	0xffffffffu
#define U56_UNAVAILABLE	0x00ffffffffffffffull
#define U64_UNAVAILABLE	0xffffffffffffffffull

struct options {
	const char *bind;
	unsigned int port;
	unsigned long count;
	double timeout;
	const char *decode;
	bool json;
};

struct packet {
	unsigned long n;
	const char *from;	/* "2001:db8::1" or "(decoded)" */
	unsigned int port;
	long bytes;		/* payload length, -1 = unknown */
	int hop_limit;		/* -1 = unknown */
	long seq;		/* from ioam-sender's payload, -1 = none */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ioam-receiver [OPTIONS] [PORT]\n"
"Receive UDP datagrams on PORT (default %u) and print, for each, the IOAM\n"
"pre-allocated traces in its Hop-by-Hop header: per node on the path the\n"
"hop limit, node id, interface ids, timestamps and whatever else the trace\n"
"type asks for, first hop first.\n"
"\n"
"  -p, --port PORT      UDP port (default %u)\n"
"  -b, --bind ADDR      local IPv6 address (default ::)\n"
"  -c, --count N        exit after N datagrams (default 0 = never)\n"
"  -w, --timeout SECS   give up after SECS without a datagram (default 0 =\n"
"                       wait for ever)\n"
"      --json           one JSON object per line on stdout\n"
"      --decode HEX     print a Hop-by-Hop header given in hex as if it had\n"
"                       arrived, and exit (no socket)\n"
"  -h, --help           this help\n"
"\n"
"Exit status: 0 done, 1 a call failed, 2 bad arguments, 3 timed out before\n"
"--count datagrams (or before any, without --count).\n",
		EX_DEFAULT_PORT, EX_DEFAULT_PORT);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_JSON = 256, OPT_DECODE };
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "bind", required_argument, NULL, 'b' },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "decode", required_argument, NULL, OPT_DECODE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool port_set = false;
	int c;

	*o = (struct options){ .bind = "::", .port = EX_DEFAULT_PORT };
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
			fprintf(stderr, "Try 'ioam-receiver --help'.\n");
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

/* ------------------------------------------------------------------ */
/* Printing one node                                                   */
/* ------------------------------------------------------------------ */

/*
 * Names of the fields a node carries that the node marked "unavailable"
 * (all ones, RFC 9197 section 4.4.2), e.g. the egress interface of the
 * node that delivered the packet locally.
 */
static size_t unavailable_fields(const struct ipeh_ioam_node *n,
				 const char **names, size_t max)
{
	uint32_t p = n->present;
	size_t k = 0;

#define UNAV(bit, cond, name) \
	do { if ((p & IPEH_IOAM_BIT(bit)) && (cond) && k < max) names[k++] = name; } while (0)
	UNAV(0, n->node_id == U24_UNAVAILABLE, "node_id");
	UNAV(1, n->ingress_if == U16_UNAVAILABLE, "ingress_if");
	UNAV(1, n->egress_if == U16_UNAVAILABLE, "egress_if");
	UNAV(2, n->ts_sec == U32_UNAVAILABLE, "ts_sec");
	UNAV(3, n->ts_frac == U32_UNAVAILABLE, "ts_frac");
	UNAV(4, n->transit_delay == U32_UNAVAILABLE, "transit_delay");
	UNAV(5, n->ns_data == U32_UNAVAILABLE, "ns_data");
	UNAV(6, n->queue_depth == U32_UNAVAILABLE, "queue_depth");
	UNAV(7, n->csum_comp == U32_UNAVAILABLE, "checksum");
	UNAV(8, n->node_id_wide == U56_UNAVAILABLE, "node_id_wide");
	UNAV(9, n->ingress_if_wide == U32_UNAVAILABLE, "ingress_if_wide");
	UNAV(9, n->egress_if_wide == U32_UNAVAILABLE, "egress_if_wide");
	UNAV(10, n->ns_data_wide == U64_UNAVAILABLE, "ns_data_wide");
	UNAV(11, n->buffer_occupancy == U32_UNAVAILABLE, "buffer_occupancy");
#undef UNAV
	return k;
}

static void human_u32(const char *label, uint32_t v, uint32_t unavailable)
{
	if (v == unavailable)
		printf(", %s unavailable", label);
	else
		printf(", %s %u", label, v);
}

static void print_node_human(unsigned int hop, const struct ipeh_ioam_node *n)
{
	uint32_t p = n->present;
	unsigned int bit;

	printf("    hop %u:", hop);
	if (p & IPEH_IOAM_BIT(0)) {
		if (n->node_id == U24_UNAVAILABLE)
			printf(" node id unavailable");
		else
			printf(" node id %u", n->node_id);
		printf(", hop limit %u", n->hop_limit);
	}
	if (p & IPEH_IOAM_BIT(1)) {
		human_u32("ingress if", n->ingress_if, U16_UNAVAILABLE);
		human_u32("egress if", n->egress_if, U16_UNAVAILABLE);
	}
	if ((p & IPEH_IOAM_BIT(2)) && (p & IPEH_IOAM_BIT(3)) &&
	    n->ts_sec != U32_UNAVAILABLE && n->ts_frac != U32_UNAVAILABLE) {
		/* Linux writes the fraction in microseconds (POSIX format) */
		printf(", timestamp %u.%06u", n->ts_sec, n->ts_frac);
	} else {
		if (p & IPEH_IOAM_BIT(2))
			human_u32("ts sec", n->ts_sec, U32_UNAVAILABLE);
		if (p & IPEH_IOAM_BIT(3))
			human_u32("ts frac", n->ts_frac, U32_UNAVAILABLE);
	}
	if (p & IPEH_IOAM_BIT(4))
		human_u32("transit delay", n->transit_delay, U32_UNAVAILABLE);
	if (p & IPEH_IOAM_BIT(5)) {
		if (n->ns_data == U32_UNAVAILABLE)
			printf(", namespace data unavailable");
		else
			printf(", namespace data 0x%08x", n->ns_data);
	}
	if (p & IPEH_IOAM_BIT(6))
		human_u32("queue depth", n->queue_depth, U32_UNAVAILABLE);
	if (p & IPEH_IOAM_BIT(7))
		human_u32("checksum complement", n->csum_comp, U32_UNAVAILABLE);
	if (p & IPEH_IOAM_BIT(8)) {
		if (n->node_id_wide == U56_UNAVAILABLE)
			printf(", wide node id unavailable");
		else
			printf(", wide node id %llu",
			       (unsigned long long)n->node_id_wide);
		printf(", wide hop limit %u", n->hop_limit_wide);
	}
	if (p & IPEH_IOAM_BIT(9)) {
		human_u32("wide ingress if", n->ingress_if_wide, U32_UNAVAILABLE);
		human_u32("wide egress if", n->egress_if_wide, U32_UNAVAILABLE);
	}
	if (p & IPEH_IOAM_BIT(10)) {
		if (n->ns_data_wide == U64_UNAVAILABLE)
			printf(", wide namespace data unavailable");
		else
			printf(", wide namespace data 0x%016llx",
			       (unsigned long long)n->ns_data_wide);
	}
	if (p & IPEH_IOAM_BIT(11))
		human_u32("buffer occupancy", n->buffer_occupancy, U32_UNAVAILABLE);
	for (bit = 12; bit <= 21; bit++)
		if (p & IPEH_IOAM_BIT(bit))
			printf(", bit %u 0x%08x", bit, n->undefined[bit - 12]);
	if (p & IPEH_IOAM_TRACE_OPAQUE) {
		if (n->schema_id == U24_UNAVAILABLE && !n->opaque_len)
			printf(", opaque state unavailable");
		else
			printf(", opaque state schema %u, %u bytes", n->schema_id,
			       n->opaque_len * 4u);
	}
	printf("\n");
}

static void print_node_json(unsigned int hop, const struct ipeh_ioam_node *n)
{
	const char *unav[16];
	uint32_t p = n->present;
	unsigned int bit;
	size_t k, i;

	printf("{\"hop\":%u", hop);
	if (p & IPEH_IOAM_BIT(0))
		printf(",\"hop_limit\":%u,\"node_id\":%u", n->hop_limit, n->node_id);
	if (p & IPEH_IOAM_BIT(1))
		printf(",\"ingress_if\":%u,\"egress_if\":%u", n->ingress_if,
		       n->egress_if);
	if (p & IPEH_IOAM_BIT(2))
		printf(",\"ts_sec\":%u", n->ts_sec);
	if (p & IPEH_IOAM_BIT(3))
		printf(",\"ts_frac\":%u", n->ts_frac);
	if (p & IPEH_IOAM_BIT(4))
		printf(",\"transit_delay\":%u", n->transit_delay);
	if (p & IPEH_IOAM_BIT(5))
		printf(",\"ns_data\":%u", n->ns_data);
	if (p & IPEH_IOAM_BIT(6))
		printf(",\"queue_depth\":%u", n->queue_depth);
	if (p & IPEH_IOAM_BIT(7))
		printf(",\"checksum\":%u", n->csum_comp);
	if (p & IPEH_IOAM_BIT(8))
		printf(",\"hop_limit_wide\":%u,\"node_id_wide\":%llu",
		       n->hop_limit_wide, (unsigned long long)n->node_id_wide);
	if (p & IPEH_IOAM_BIT(9))
		printf(",\"ingress_if_wide\":%u,\"egress_if_wide\":%u",
		       n->ingress_if_wide, n->egress_if_wide);
	if (p & IPEH_IOAM_BIT(10))
		printf(",\"ns_data_wide\":%llu", (unsigned long long)n->ns_data_wide);
	if (p & IPEH_IOAM_BIT(11))
		printf(",\"buffer_occupancy\":%u", n->buffer_occupancy);
	for (bit = 12; bit <= 21; bit++)
		if (p & IPEH_IOAM_BIT(bit))
			printf(",\"bit%u\":%u", bit, n->undefined[bit - 12]);
	if (p & IPEH_IOAM_TRACE_OPAQUE)
		printf(",\"schema_id\":%u,\"opaque_len\":%u", n->schema_id,
		       n->opaque_len * 4u);
	k = unavailable_fields(n, unav, 16);
	printf(",\"unavailable\":[");
	for (i = 0; i < k; i++)
		printf("%s\"%s\"", i ? "," : "", unav[i]);
	printf("]}");
}

/* ------------------------------------------------------------------ */
/* Printing one packet                                                 */
/* ------------------------------------------------------------------ */

/* One IOAM option: returns 0, or -1 if it could not be decoded. */
static int print_ioam(const struct ipeh_opt *opt, bool json, bool first)
{
	struct ipeh_ioam_node nodes[MAX_NODES];
	struct ipeh_ioam_trace t;
	char fields[256];
	size_t pos = 0, nn = 0, i;
	unsigned int room;
	int ret;

	ret = ipeh_ioam_trace_decode(opt->data, opt->len, &t);
	if (ret < 0) {
		if (json) {
			printf("%s{\"error\":", first ? "" : ",");
			ex_json_str(stdout, ret == -EOPNOTSUPP ?
				    "not a pre-allocated trace" : "malformed");
			printf(",\"ioam_type\":%u}", opt->len >= 2 ? opt->data[1] : 0);
		} else {
			printf("  IOAM option at offset %u: %s\n", opt->offset,
			       ret == -EOPNOTSUPP ? "not a pre-allocated trace (ignored)"
						  : "malformed (Linux would drop the packet)");
		}
		return -1;
	}
	while (nn < MAX_NODES &&
	       (ret = ipeh_ioam_trace_next_node(&t, &pos, &nodes[nn])) > 0)
		nn++;
	room = t.node_len ? t.remaining_len / t.node_len : 0;
	ex_ioam_trace_type_format(t.trace_type, fields, sizeof(fields));
	if (json) {
		printf("%s{\"namespace\":%u,\"trace_type\":\"0x%06x\",\"fields\":",
		       first ? "" : ",", t.namespace_id, t.trace_type);
		ex_json_str(stdout, fields);
		printf(",\"node_bytes\":%u,\"free_bytes\":%u,\"overflow\":%s,"
		       "\"nodes_filled\":%zu,\"room_left\":%u,\"malformed\":%s,\"nodes\":[",
		       t.node_len * 4u, t.remaining_len * 4u,
		       t.flags & IPEH_IOAM_FLAG_OVERFLOW ? "true" : "false",
		       nn, room, ret < 0 ? "true" : "false");
		/* the most recent node comes first in the packet: print path order */
		for (i = nn; i > 0; i--) {
			if (i != nn)
				printf(",");
			print_node_json((unsigned int)(nn - i + 1), &nodes[i - 1]);
		}
		printf("]}");
		return 0;
	}
	printf("  IOAM namespace %u, trace type 0x%06x (%s), %u-byte nodes:\n"
	       "    %zu node%s filled, room left for %u%s\n",
	       t.namespace_id, t.trace_type, fields, t.node_len * 4u, nn,
	       nn == 1 ? "" : "s", room,
	       t.flags & IPEH_IOAM_FLAG_OVERFLOW ?
	       "; OVERFLOW: a node on the path found no room" : "");
	for (i = nn; i > 0; i--)
		print_node_human((unsigned int)(nn - i + 1), &nodes[i - 1]);
	if (ret < 0)
		printf("    (node data malformed after hop %zu)\n", nn);
	return 0;
}

/*
 * Print the Hop-by-Hop header of one packet (block may be NULL: none).
 * Returns the number of IOAM traces decoded.
 */
static int print_packet(const struct packet *pk, const uint8_t *block,
			size_t len, bool json)
{
	struct ipeh_opt opts[IPEH_BUILDER_MAX_OPTS];
	int nopts = 0, i, traces = 0;
	bool first = true;
	char name[16];

	if (block) {
		nopts = ipeh_parse(block, len, opts, IPEH_BUILDER_MAX_OPTS, 0, NULL);
		if (nopts < 0)
			nopts = -1;
	}
	if (json) {
		printf("{\"event\":\"packet\",\"n\":%lu,\"from\":", pk->n);
		ex_json_str(stdout, pk->from);
		printf(",\"port\":%u", pk->port);
		if (pk->bytes >= 0)
			printf(",\"bytes\":%ld", pk->bytes);
		if (pk->hop_limit >= 0)
			printf(",\"hop_limit\":%d", pk->hop_limit);
		if (pk->seq >= 0)
			printf(",\"seq\":%ld", pk->seq);
		printf(",\"hbh\":%s,\"options\":[", block ? (nopts < 0 ? "\"malformed\"" : "true") : "false");
		for (i = 0; i < nopts; i++) {
			ipeh_opt_type_format(opts[i].type, name, sizeof(name));
			printf("%s\"%s\"", i ? "," : "", name);
		}
		printf("],\"ioam\":[");
	} else {
		if (pk->bytes < 0)
			printf("decoded Hop-by-Hop header");
		else
			printf("packet %lu from [%s]:%u", pk->n, pk->from, pk->port);
		if (pk->seq >= 0)
			printf(", seq %ld", pk->seq);
		if (pk->bytes >= 0)
			printf(", %ld bytes", pk->bytes);
		if (pk->hop_limit >= 0)
			printf(", hop limit %d", pk->hop_limit);
		printf("\n");
		if (!block)
			printf("  no Hop-by-Hop header\n");
		else if (nopts < 0)
			printf("  Hop-by-Hop header malformed\n");
	}
	for (i = 0; i < nopts; i++) {
		if (opts[i].type != IPEH_OPT_IOAM)
			continue;
		if (print_ioam(&opts[i], json, first) == 0)
			traces++;
		first = false;
	}
	if (json) {
		printf("]}\n");
	} else if (nopts >= 0 && block && !traces) {
		printf("  no IOAM trace in the Hop-by-Hop header (options:");
		for (i = 0; i < nopts; i++) {
			ipeh_opt_type_format(opts[i].type, name, sizeof(name));
			printf(" %s", name);
		}
		printf("%s)\n", nopts ? "" : " none");
	}
	fflush(stdout);
	return traces;
}

/* ------------------------------------------------------------------ */
/* Receiving                                                           */
/* ------------------------------------------------------------------ */

static long payload_seq(const char *buf, ssize_t n)
{
	static const char tag[] = "ioam-sender seq ";
	char tmp[64];
	size_t k = (size_t)n < sizeof(tmp) - 1 ? (size_t)n : sizeof(tmp) - 1;

	memcpy(tmp, buf, k);
	tmp[k] = '\0';
	if (strncmp(tmp, tag, sizeof(tag) - 1))
		return -1;
	return strtol(tmp + sizeof(tag) - 1, NULL, 10);
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
	/* the hop limit is only informative */
	setsockopt(fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, &one, sizeof(one));
	ex_format_addr(&sa, addr, sizeof(addr));
	if (o->json) {
		printf("{\"event\":\"listening\",\"on\":");
		ex_json_str(stdout, addr);
		printf("}\n");
	} else {
		printf("ioam-receiver: listening on %s\n", addr);
	}
	fflush(stdout);
	return fd;
}

static int receive_one(int fd, unsigned long n, bool json)
{
	uint8_t control[4096] __attribute__((aligned(8)));
	struct sockaddr_in6 from;
	char buf[2048], ip[INET6_ADDRSTRLEN + 16];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control,
		.msg_controllen = sizeof(control),
	};
	const uint8_t *block = NULL;
	struct cmsghdr *cm;
	struct packet pk;
	void *cookie = NULL;
	enum ipeh_hdr hdr;
	const uint8_t *b;
	size_t len = 0, blen;
	ssize_t r;
	int ret;

	r = recvmsg(fd, &msg, 0);
	if (r < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		ex_warn("recvmsg: %s", strerror(errno));
		return -1;
	}
	if (msg.msg_flags & MSG_CTRUNC)
		ex_warn("ancillary data truncated");
	ex_format_ip(&from, ip, sizeof(ip));
	pk = (struct packet){
		.n = n,
		.from = ip,
		.port = ntohs(from.sin6_port),
		.bytes = r,
		.hop_limit = -1,
		.seq = payload_seq(buf, r),
	};
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == IPPROTO_IPV6 &&
		    cm->cmsg_type == IPV6_HOPLIMIT &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(int)))
			memcpy(&pk.hop_limit, CMSG_DATA(cm), sizeof(int));
	while ((ret = ipeh_cmsg_next(&msg, &cookie, &hdr, &b, &blen)) != 0) {
		if (ret < 0) {
			ex_warn("packet %lu: malformed Hop-by-Hop ancillary data", n);
			break;
		}
		if (hdr == IPEH_HDR_HOPOPTS) {
			block = b;
			len = blen;
		}
	}
	print_packet(&pk, block, len, json);
	return 1;
}

static int decode_only(const struct options *o)
{
	uint8_t block[IPEH_HDR_MAX];
	struct packet pk = {
		.n = 1, .from = "(decoded)", .bytes = -1, .hop_limit = -1, .seq = -1,
	};
	ssize_t n = ex_unhex(o->decode, block, sizeof(block));

	if (n < 2)
		ex_usage_error("--decode: not a Hop-by-Hop header in hex");
	return print_packet(&pk, block, (size_t)n, o->json) > 0 ? EX_OK : EX_FAIL;
}

int main(int argc, char **argv)
{
	struct options o;
	unsigned long got = 0;
	int64_t deadline;
	int fd;

	ex_prog = "ioam-receiver";
	parse_args(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (o.decode)
		return decode_only(&o);

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
		r = receive_one(fd, got + 1, o.json);
		if (r < 0)
			return EX_FAIL;
		if (r > 0) {
			got += (unsigned long)r;
			if (deadline)
				deadline = ex_mono_ms() + (int64_t)(o.timeout * 1000);
		}
	}
	close(fd);
	if (o.json)
		printf("{\"event\":\"done\",\"received\":%lu}\n", got);
	else
		printf("ioam-receiver: received %lu datagram%s\n", got, got == 1 ? "" : "s");
	if ((o.count && got < o.count) || (!o.count && !got)) {
		ex_warn("timed out after %g s without a datagram (%lu of %lu received)",
			o.timeout, got, o.count);
		return EX_TIMEOUT;
	}
	return EX_OK;
}
