// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioam-sender: UDP datagrams carrying an IOAM pre-allocated trace option
 * (RFC 9486 option 0x31, RFC 9197 trace) in their Hop-by-Hop header, sent
 * by an ordinary user.  The routers on the path fill in their node data;
 * ioam-receiver prints it.  See ioam-sender(1).
 */

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "common.h"

/* RFC 9197 bits 0-3: hop limit + node id, interface ids, timestamp. */
#define DEFAULT_TRACE_TYPE	(IPEH_IOAM_TRACE_HOPLIM_NODEID | \
				 IPEH_IOAM_TRACE_IF_IDS | \
				 IPEH_IOAM_TRACE_TS_SEC | \
				 IPEH_IOAM_TRACE_TS_FRAC)
#define DEFAULT_NAMESPACE	123
#define DEFAULT_NODES		4
#define DEFAULT_COUNT		5

struct options {
	const char *dest;
	unsigned int port;
	unsigned long count;
	double interval;
	unsigned int namespace_id;
	uint32_t trace_type;
	unsigned int nodes;
	bool per_packet;
	bool json;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ioam-sender [OPTIONS] DESTINATION [PORT]\n"
"Send UDP datagrams to DESTINATION (IPv6, port %u by default), each with an\n"
"IOAM pre-allocated trace option in its Hop-by-Hop header, for the routers\n"
"on the path to fill in.  Runs as an ordinary user when the kernel's TLV\n"
"policy allows option 0x31 (tlvd.conf: user = check).\n"
"\n"
"  -c, --count N          datagrams to send (default %u; 0 = until killed)\n"
"  -i, --interval SECS    pause between datagrams (default 1)\n"
"  -p, --port PORT        destination UDP port (default %u)\n"
"  -n, --namespace ID     IOAM namespace id, 0..65535 (default %u)\n"
"  -t, --trace-type T     trace type: a 24-bit number (RFC 9197 bit 0 is the\n"
"                         most significant) or field names joined by ','\n"
"                         (default 0xf00000 = hop-limit,if-ids,ts-sec,ts-frac)\n"
"  -N, --nodes N          room for N nodes (default %u)\n"
"      --per-packet       send the option as sendmsg() ancillary data on each\n"
"                         datagram instead of setting it once on the socket\n"
"      --json             one JSON object per line on stdout\n"
"  -h, --help             this help\n"
"\n"
"Field names: hop-limit if-ids ts-sec ts-frac transit-delay ns-data\n"
"queue-depth checksum hop-limit-wide if-ids-wide ns-data-wide buffer-occupancy\n"
"Exit status: 0 sent, 1 the kernel refused the option or a call failed,\n"
"2 bad arguments.\n",
		EX_DEFAULT_PORT, DEFAULT_COUNT, EX_DEFAULT_PORT,
		DEFAULT_NAMESPACE, DEFAULT_NODES);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_PER_PACKET = 256, OPT_JSON };
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "port", required_argument, NULL, 'p' },
		{ "namespace", required_argument, NULL, 'n' },
		{ "trace-type", required_argument, NULL, 't' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "per-packet", no_argument, NULL, OPT_PER_PACKET },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool port_set = false;
	int c;

	*o = (struct options){
		.port = EX_DEFAULT_PORT,
		.count = DEFAULT_COUNT,
		.interval = 1.0,
		.namespace_id = DEFAULT_NAMESPACE,
		.trace_type = DEFAULT_TRACE_TYPE,
		.nodes = DEFAULT_NODES,
	};
	while ((c = getopt_long(argc, argv, "c:i:p:n:t:N:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->count = ex_parse_ulong(optarg, 0, 1000000000, "--count");
			break;
		case 'i':
			o->interval = ex_parse_seconds(optarg, "--interval");
			break;
		case 'p':
			o->port = (unsigned int)ex_parse_ulong(optarg, 1, 65535, "--port");
			port_set = true;
			break;
		case 'n':
			o->namespace_id = (unsigned int)ex_parse_ulong(optarg, 0, 65535,
								       "--namespace");
			break;
		case 't':
			if (ex_ioam_trace_type_parse(optarg, &o->trace_type) < 0)
				ex_usage_error("--trace-type: '%s' is neither a 24-bit number nor field names", optarg);
			break;
		case 'N':
			o->nodes = (unsigned int)ex_parse_ulong(optarg, 1, 61, "--nodes");
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
			fprintf(stderr, "Try 'ioam-sender --help'.\n");
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
	if (o->trace_type & IPEH_IOAM_TRACE_OPAQUE)
		ex_usage_error("--trace-type: the opaque state snapshot (bit 22) is not supported by this sender");
	if (o->trace_type & ~(uint32_t)IPEH_IOAM_TRACE_MASK)
		ex_usage_error("--trace-type: bit 23 is reserved");
	if (!ipeh_ioam_node_len(o->trace_type))
		ex_usage_error("--trace-type: 0x%06x asks for no node data", o->trace_type);
	if ((size_t)o->nodes * ipeh_ioam_node_len(o->trace_type) * 4 >
	    IPEH_IOAM_DATA_SIZE_MAX)
		ex_usage_error("--nodes: %u nodes of %u bytes exceed the %u bytes of node data an IOAM trace may carry",
			       o->nodes, ipeh_ioam_node_len(o->trace_type) * 4,
			       IPEH_IOAM_DATA_SIZE_MAX);
}

/* The option data: trace header and zeroed room for the nodes. */
static int encode_trace(const struct options *o, uint8_t *data, size_t cap)
{
	struct ipeh_ioam_trace t = {
		.ioam_type = IPEH_IOAM_TYPE_PREALLOC,
		.namespace_id = (uint16_t)o->namespace_id,
		.trace_type = o->trace_type,
		.remaining_len = (uint8_t)(o->nodes * ipeh_ioam_node_len(o->trace_type)),
	};
	int n = ipeh_ioam_trace_encode(&t, data, cap);

	if (n < 0)
		ex_warn("cannot encode the IOAM trace: %s", strerror(-n));
	return n;
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

static void print_start(const struct options *o, const struct ex_table *xt,
			const struct sockaddr_in6 *dst, size_t data_len,
			size_t block_len)
{
	char addr[128], fields[256];

	ex_format_addr(dst, addr, sizeof(addr));
	ex_ioam_trace_type_format(o->trace_type, fields, sizeof(fields));
	if (o->json) {
		printf("{\"event\":\"start\",\"to\":");
		ex_json_str(stdout, addr);
		printf(",\"namespace\":%u,\"trace_type\":\"0x%06x\",\"fields\":",
		       o->namespace_id, o->trace_type);
		ex_json_str(stdout, fields);
		printf(",\"nodes\":%u,\"node_bytes\":%u,\"option_data_len\":%zu,"
		       "\"hbh_len\":%zu,\"mode\":\"%s\",\"table\":\"%s\"}\n",
		       o->nodes, ipeh_ioam_node_len(o->trace_type) * 4, data_len,
		       block_len, o->per_packet ? "per-packet" : "sticky",
		       xt->live ? "kernel" : "built-in");
		return;
	}
	printf("ioam-sender: to %s: IOAM namespace %u, trace type 0x%06x (%s),\n"
	       "  room for %u node%s of %u bytes; option data %zu bytes in a %zu-byte Hop-by-Hop header,\n"
	       "  %s\n",
	       addr, o->namespace_id, o->trace_type, fields, o->nodes,
	       o->nodes == 1 ? "" : "s",
	       ipeh_ioam_node_len(o->trace_type) * 4, data_len, block_len,
	       o->per_packet ? "sent with each datagram (sendmsg ancillary data)"
			     : "set once on the socket (setsockopt IPV6_HOPOPTS)");
}

int main(int argc, char **argv)
{
	uint8_t data[256], block[IPEH_BLOCK_MAX];
	uint8_t control[512] __attribute__((aligned(8)));
	struct sockaddr_in6 dst;
	struct ex_table xt;
	struct options o;
	unsigned long sent = 0, seq;
	ssize_t block_len;
	int fd, n, ret;

	ex_prog = "ioam-sender";
	parse_args(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (ex_resolve(o.dest, (uint16_t)o.port, &dst) < 0)
		ex_usage_error("DESTINATION: cannot resolve '%s' to an IPv6 address", o.dest);

	ex_table_load(&xt, IPEH_OPT_IOAM);
	if (!xt.live)
		ex_warn("note: cannot read the kernel's TLV table (%s); laying the option out as RFC 9486 says",
			xt.why_not_live);
	n = encode_trace(&o, data, sizeof(data));
	if (n < 0)
		return EX_FAIL;
	block_len = ex_build_hbh(&xt, data, (size_t)n, block, sizeof(block));
	if (block_len < 0)
		return EX_FAIL;

	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ex_warn("socket: %s", strerror(errno));
		return EX_FAIL;
	}
	if (connect(fd, (struct sockaddr *)&dst, sizeof(dst)) < 0) {
		ex_warn("connect: %s", strerror(errno));
		return EX_FAIL;
	}
	if (!o.per_packet) {
		ret = ipeh_sock_set(fd, IPEH_HDR_HOPOPTS, block, (size_t)block_len);
		if (ret < 0) {
			ex_explain_errno(-ret, "setsockopt(IPV6_HOPOPTS)", "IOAM",
					 &xt, block, (size_t)block_len, o.json);
			return EX_FAIL;
		}
	}
	print_start(&o, &xt, &dst, (size_t)n, (size_t)block_len);

	for (seq = 1; !o.count || seq <= o.count; seq++) {
		char payload[96];
		struct iovec iov;
		struct msghdr msg = { 0 };
		int plen;

		plen = snprintf(payload, sizeof(payload),
				"ioam-sender seq %lu time %.6f\n", seq, ex_now());
		iov.iov_base = payload;
		iov.iov_len = (size_t)plen;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		if (o.per_packet) {
			msg.msg_control = control;
			msg.msg_controllen = 0;
			ret = ipeh_cmsg_put(&msg, sizeof(control), IPEH_HDR_HOPOPTS,
					    block, (size_t)block_len);
			if (ret < 0) {
				ex_warn("cannot add the option as ancillary data: %s",
					strerror(-ret));
				return EX_FAIL;
			}
		}
		if (sendmsg(fd, &msg, 0) < 0) {
			int err = errno;

			if (err == ECONNREFUSED) {
				/* an ICMP port unreachable for an earlier datagram */
				ex_warn("seq %lu: nothing listens on the destination port (ECONNREFUSED); going on", seq);
				continue;
			}
			ex_explain_errno(err, o.per_packet ? "sendmsg(IPV6_HOPOPTS cmsg)" : "sendmsg",
					 "IOAM", &xt, block, (size_t)block_len, o.json);
			return EX_FAIL;
		}
		sent++;
		if (o.json)
			printf("{\"event\":\"sent\",\"seq\":%lu,\"bytes\":%d}\n", seq, plen);
		else if (o.count)
			printf("sent datagram %lu of %lu (%d bytes of payload)\n",
			       seq, o.count, plen);
		else
			printf("sent datagram %lu (%d bytes of payload)\n", seq, plen);
		if (!o.count || seq < o.count)
			sleep_seconds(o.interval);
	}
	if (o.json)
		printf("{\"event\":\"done\",\"sent\":%lu}\n", sent);
	else
		printf("ioam-sender: sent %lu datagram%s with the IOAM option\n", sent,
		       sent == 1 ? "" : "s");
	close(fd);
	return EX_OK;
}
