// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipeh-probe: the e2e tests' window on the kernel, used inside the guest.
 *
 * Every sub-command does one real thing (a netlink request, a setsockopt,
 * a sendmsg, a recvmsg) and prints its verdict as a token the test scripts
 * compare: "ok" or the errno name ("EPERM", "EINVAL", ...). The exit status is
 * 0 when the operation was carried out whatever its verdict, 2 on bad usage,
 * 1 when the probe itself could not run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ipeh.h>

static const char *errtok(int err)
{
	const char *name;

	if (err == 0)
		return "ok";
	name = strerrorname_np(err < 0 ? -err : err);
	return name ? name : "EUNKNOWN";
}

static int usage(void)
{
	fputs("usage: ipeh-probe COMMAND ...\n"
	      "  family                       resolve the ipv6-tlv family\n"
	      "  dump                         kernel TLV table, one line per entry\n"
	      "  default [--no-mip6]          libipeh's built-in table, same format\n"
	      "  get TYPE | unset TYPE\n"
	      "  set TYPE KEY=VALUE...        order user admin class align len lenmult\n"
	      "  sockopt HDR HEX              setsockopt on a UDP socket: verdict\n"
	      "  validate HDR HEX [--admin]   libipeh's verdict for the same block\n"
	      "  send HDR HEX ADDR PORT [--cmsg]  one UDP datagram carrying the block\n"
	      "  recv PORT COUNT SECONDS      print received option blocks\n"
	      "  difftest HDR N SEED          kernel vs libipeh on N random blocks\n"
	      "HDR is hop, dst or rtdst; HEX is the whole header (next-header byte first).\n",
	      stderr);
	return 2;
}

static int parse_hex(const char *hex, uint8_t *buf, size_t cap)
{
	size_t n = 0;
	unsigned int v;

	while (*hex) {
		if (*hex == ' ' || *hex == ':') {
			hex++;
			continue;
		}
		if (n >= cap || sscanf(hex, "%2x", &v) != 1 || !hex[1])
			return -1;
		buf[n++] = (uint8_t)v;
		hex += 2;
	}
	return (int)n;
}

static void print_hex(const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		printf("%02x", b[i]);
}

static int parse_type(const char *s)
{
	int t = ipeh_opt_type_parse(s);

	if (t < 2 || t > 255) {
		fprintf(stderr, "ipeh-probe: bad option type '%s'\n", s);
		return -1;
	}
	return t;
}

static void print_params(uint8_t type, const struct ipeh_tlv_params *p)
{
	char cls[32];

	ipeh_class_format(p->class_mask, cls, sizeof(cls));
	printf("0x%02x order=%u admin=%s user=%s class=%s align=%un+%u len=%u-%u lenmult=%un+%u\n",
	       type, p->order,
	       p->admin_perm == IPEH_PERM_UNKNOWN ? "hidden" : ipeh_perm_name(p->admin_perm),
	       ipeh_perm_name(p->user_perm), cls, p->align_mult, p->align_off,
	       p->min_data_len, p->max_data_len, p->data_len_mult, p->data_len_off);
}

static int print_entry(uint8_t type, const struct ipeh_tlv_params *p,
		       unsigned int mask, void *arg)
{
	(void)mask;
	(void)arg;
	print_params(type, p);
	return 0;
}

static struct ipeh_nl *nl_open_or_report(void)
{
	struct ipeh_error e;
	struct ipeh_nl *nl;
	int r;

	ipeh_error_clear(&e);
	r = ipeh_nl_open(&nl, &e);
	if (r < 0) {
		printf("%s %s\n", errtok(r), e.msg);
		return NULL;
	}
	return nl;
}

static int cmd_netlink(int argc, char **argv)
{
	struct ipeh_tlv_params p;
	struct ipeh_error e;
	struct ipeh_nl *nl;
	unsigned int mask = 0;
	int r = 0, type = -1;

	nl = nl_open_or_report();
	if (!nl)
		return 0;
	ipeh_error_clear(&e);
	if (!strcmp(argv[0], "family")) {
		printf("ok %u\n", ipeh_nl_family(nl));
		goto out;
	}
	if (!strcmp(argv[0], "dump")) {
		r = ipeh_nl_dump(nl, print_entry, NULL, &e);
		if (r < 0)
			printf("%s %s\n", errtok(r), e.msg);
		goto out;
	}
	if (argc < 2 || (type = parse_type(argv[1])) < 0) {
		ipeh_nl_close(nl);
		return usage();
	}
	if (!strcmp(argv[0], "get")) {
		r = ipeh_nl_get(nl, (uint8_t)type, &p, &e);
		if (r < 0)
			printf("%s %s\n", errtok(r), e.msg);
		else
			print_params((uint8_t)type, &p);
	} else if (!strcmp(argv[0], "unset")) {
		r = ipeh_nl_unset(nl, (uint8_t)type, &e);
		printf("%s%s%s\n", errtok(r), r ? " " : "", r ? e.msg : "");
	} else {
		memset(&p, 0, sizeof(p));
		for (int i = 2; i < argc; i++) {
			unsigned int a, b;
			char *v = strchr(argv[i], '=');

			if (!v)
				goto bad;
			*v++ = '\0';
			if (!strcmp(argv[i], "order") && sscanf(v, "%u", &a) == 1) {
				p.order = (uint16_t)a;
				mask |= IPEH_ATTR_ORDER;
			} else if (!strcmp(argv[i], "user") && ipeh_perm_parse(v) >= 0) {
				p.user_perm = (uint8_t)ipeh_perm_parse(v);
				mask |= IPEH_ATTR_USER_PERM;
			} else if (!strcmp(argv[i], "admin") && ipeh_perm_parse(v) >= 0) {
				p.admin_perm = (uint8_t)ipeh_perm_parse(v);
				mask |= IPEH_ATTR_ADMIN_PERM;
			} else if (!strcmp(argv[i], "class") && ipeh_class_parse(v) >= 0) {
				p.class_mask = (uint8_t)ipeh_class_parse(v);
				mask |= IPEH_ATTR_CLASS;
			} else if (!strcmp(argv[i], "align") && sscanf(v, "%un+%u", &a, &b) == 2) {
				p.align_mult = (uint8_t)a;
				p.align_off = (uint8_t)b;
				mask |= IPEH_ATTR_ALIGN_MULT | IPEH_ATTR_ALIGN_OFF;
			} else if (!strcmp(argv[i], "len") && sscanf(v, "%u-%u", &a, &b) == 2) {
				p.min_data_len = (uint8_t)a;
				p.max_data_len = (uint8_t)b;
				mask |= IPEH_ATTR_MIN_DATA_LEN | IPEH_ATTR_MAX_DATA_LEN;
			} else if (!strcmp(argv[i], "lenmult") && sscanf(v, "%un+%u", &a, &b) == 2) {
				p.data_len_mult = (uint8_t)a;
				p.data_len_off = (uint8_t)b;
				mask |= IPEH_ATTR_DATA_LEN_MULT | IPEH_ATTR_DATA_LEN_OFF;
			} else {
				goto bad;
			}
		}
		r = ipeh_nl_set(nl, (uint8_t)type, &p, mask, &e);
		printf("%s%s%s\n", errtok(r), r ? " " : "", r ? e.msg : "");
	}
out:
	ipeh_nl_close(nl);
	return 0;
bad:
	ipeh_nl_close(nl);
	fprintf(stderr, "ipeh-probe: bad setting\n");
	return usage();
}

static int udp6_socket(void)
{
	int fd = socket(AF_INET6, SOCK_DGRAM, 0);

	if (fd < 0)
		perror("ipeh-probe: socket");
	return fd;
}

static int hdr_arg(const char *s)
{
	int h = ipeh_hdr_parse(s);

	if (h < 0)
		fprintf(stderr, "ipeh-probe: header must be hop, dst or rtdst, not '%s'\n", s);
	return h;
}

static int cmd_sockopt(int argc, char **argv)
{
	uint8_t blk[IPEH_HDR_MAX + 8];
	int hdr, n, fd, r;

	if (argc < 3 || (hdr = hdr_arg(argv[1])) < 0 ||
	    (n = parse_hex(argv[2], blk, sizeof(blk))) < 0)
		return usage();
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	r = ipeh_sock_set(fd, (enum ipeh_hdr)hdr, blk, (size_t)n);
	printf("%s\n", errtok(r));
	close(fd);
	return 0;
}

static int cmd_validate(int argc, char **argv)
{
	uint8_t blk[IPEH_HDR_MAX + 8];
	struct ipeh_limits lim;
	struct ipeh_table t;
	struct ipeh_error e;
	struct ipeh_nl *nl;
	unsigned int flags = IPEH_F_SETSOCKOPT;
	int hdr, n, r;

	if (argc < 3 || (hdr = hdr_arg(argv[1])) < 0 ||
	    (n = parse_hex(argv[2], blk, sizeof(blk))) < 0)
		return usage();
	if (argc > 3 && !strcmp(argv[3], "--admin"))
		flags |= IPEH_F_ADMIN;
	nl = nl_open_or_report();
	if (!nl)
		return 1;
	ipeh_error_clear(&e);
	r = ipeh_nl_dump_table(nl, &t, &e);
	ipeh_nl_close(nl);
	if (r < 0) {
		printf("%s %s\n", errtok(r), e.msg);
		return 1;
	}
	if (ipeh_limits_read((enum ipeh_hdr)hdr, &lim) < 0)
		ipeh_limits_default(&lim);
	r = ipeh_validate(&t, (enum ipeh_hdr)hdr, blk, (size_t)n, &lim, flags, &e);
	if (r)
		printf("%s %s\n", errtok(r), e.msg);
	else
		printf("ok\n");
	return 0;
}

static int cmd_send(int argc, char **argv)
{
	uint8_t blk[IPEH_HDR_MAX + 8], ctl[4096];
	struct sockaddr_in6 dst = { .sin6_family = AF_INET6 };
	struct iovec iov = { .iov_base = "ipeh-probe", .iov_len = 10 };
	struct msghdr msg = { .msg_name = &dst, .msg_namelen = sizeof(dst),
			      .msg_iov = &iov, .msg_iovlen = 1 };
	bool use_cmsg;
	int hdr, n, fd, r = 0;

	if (argc < 5 || (hdr = hdr_arg(argv[1])) < 0 ||
	    (n = parse_hex(argv[2], blk, sizeof(blk))) < 0 ||
	    inet_pton(AF_INET6, argv[3], &dst.sin6_addr) != 1)
		return usage();
	dst.sin6_port = htons((uint16_t)atoi(argv[4]));
	use_cmsg = argc > 5 && !strcmp(argv[5], "--cmsg");
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	if (use_cmsg) {
		msg.msg_control = ctl;
		msg.msg_controllen = 0;
		r = ipeh_cmsg_put(&msg, sizeof(ctl), (enum ipeh_hdr)hdr, blk, (size_t)n);
	} else {
		r = ipeh_sock_set(fd, (enum ipeh_hdr)hdr, blk, (size_t)n);
	}
	if (r == 0 && sendmsg(fd, &msg, 0) < 0)
		r = -errno;
	printf("%s\n", errtok(r));
	close(fd);
	return 0;
}

static int cmd_recv(int argc, char **argv)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT };
	int fd, count, seconds, got = 0;

	if (argc < 4)
		return usage();
	a.sin6_port = htons((uint16_t)atoi(argv[1]));
	count = atoi(argv[2]);
	seconds = atoi(argv[3]);
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    ipeh_sock_recv_enable(fd, IPEH_HDR_HOPOPTS, true) < 0 ||
	    ipeh_sock_recv_enable(fd, IPEH_HDR_DSTOPTS, true) < 0) {
		perror("ipeh-probe: bind/recv enable");
		return 1;
	}
	/* tell the test the socket is ready */
	printf("ready\n");
	fflush(stdout);
	while (got < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint8_t data[2048], ctl[8192];
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = ctl, .msg_controllen = sizeof(ctl) };
		const uint8_t *blk;
		enum ipeh_hdr hdr;
		void *cookie = NULL;
		size_t len;

		if (poll(&pfd, 1, seconds * 1000) <= 0)
			break;
		if (recvmsg(fd, &msg, 0) < 0)
			break;
		printf("packet");
		while (ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len) == 1) {
			printf(" %s=", ipeh_hdr_name(hdr));
			print_hex(blk, len);
		}
		printf("\n");
		fflush(stdout);
		got++;
	}
	close(fd);
	printf("received %d\n", got);
	return 0;
}

/* ---- differential test: the kernel's verdict against libipeh's ---- */

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* A block built canonically from random options that the table knows. */
static int gen_canonical(const struct ipeh_table *t, enum ipeh_hdr hdr,
			 uint64_t *s, uint8_t *out, size_t cap)
{
	uint8_t data[8][256];
	struct ipeh_opt opts[8];
	size_t n = 0;
	int tries = 0;

	while (n < 1 + rnd(s) % 4 && tries++ < 400) {
		uint8_t type = (uint8_t)(2 + rnd(s) % 254);
		const struct ipeh_tlv_params *p = ipeh_table_get(t, type);
		unsigned int len;

		if (!p->order || !(p->class_mask & hdr))
			continue;
		len = p->min_data_len + rnd(s) % (p->max_data_len - p->min_data_len + 1u);
		while (len % p->data_len_mult != p->data_len_off && len < p->max_data_len)
			len++;
		if (len % p->data_len_mult != p->data_len_off || len > 200)
			continue;
		for (unsigned int i = 0; i < len; i++)
			data[n][i] = (uint8_t)rnd(s);
		opts[n].type = type;
		opts[n].len = (uint8_t)len;
		opts[n].data = data[n];
		n++;
	}
	return (int)ipeh_build(t, hdr, opts, n, out, cap, NULL, IPEH_F_ADMIN, NULL);
}

static int cmd_difftest(int argc, char **argv)
{
	struct ipeh_limits lim;
	struct ipeh_table t;
	struct ipeh_error e;
	struct ipeh_nl *nl;
	long total, accepted = 0, mismatches = 0;
	uint64_t seed;
	int hdr, fd, r;

	if (argc < 4 || (hdr = hdr_arg(argv[1])) < 0)
		return usage();
	total = atol(argv[2]);
	seed = strtoull(argv[3], NULL, 0);
	nl = nl_open_or_report();
	if (!nl)
		return 1;
	ipeh_error_clear(&e);
	r = ipeh_nl_dump_table(nl, &t, &e);
	ipeh_nl_close(nl);
	if (r < 0) {
		printf("%s %s\n", errtok(r), e.msg);
		return 1;
	}
	if (ipeh_limits_read((enum ipeh_hdr)hdr, &lim) < 0)
		ipeh_limits_default(&lim);
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	for (long i = 0; i < total; i++) {
		uint8_t blk[IPEH_HDR_MAX];
		int len = gen_canonical(&t, (enum ipeh_hdr)hdr, &seed, blk, sizeof(blk));
		int kr, ur, m;

		if (len < 8) {
			len = 8 * (1 + (int)(rnd(&seed) % 4));
			for (int j = 0; j < len; j++)
				blk[j] = (uint8_t)rnd(&seed);
			blk[1] = (uint8_t)(len / 8 - 1);
		}
		/* mutate most blocks: a byte, a length, or padding */
		m = (int)(rnd(&seed) % 6);
		if (m == 1)
			blk[2 + rnd(&seed) % (unsigned int)(len - 2)] ^= (uint8_t)(1u << (rnd(&seed) % 8));
		else if (m == 2)
			blk[2 + rnd(&seed) % (unsigned int)(len - 2)] = (uint8_t)rnd(&seed);
		else if (m == 3)
			blk[2 + rnd(&seed) % (unsigned int)(len - 2)] = (uint8_t)(rnd(&seed) % 2);
		else if (m == 4 && len > 8)
			blk[1] = (uint8_t)(rnd(&seed) % (unsigned int)(len / 8));
		blk[0] = (uint8_t)rnd(&seed); /* next header: the kernel ignores it */

		kr = ipeh_sock_set(fd, (enum ipeh_hdr)hdr, blk, (size_t)len);
		ipeh_sock_clear(fd, (enum ipeh_hdr)hdr);
		ur = ipeh_validate(&t, (enum ipeh_hdr)hdr, blk, (size_t)len, &lim,
				   IPEH_F_SETSOCKOPT, &e);
		if (kr == 0)
			accepted++;
		if (kr != ur) {
			mismatches++;
			if (mismatches <= 10) {
				printf("mismatch kernel=%s libipeh=%s block=", errtok(kr), errtok(ur));
				print_hex(blk, (size_t)len);
				printf(" (%s)\n", e.msg);
			}
		}
	}
	close(fd);
	printf("difftest %s: %ld blocks, %ld accepted by the kernel, %ld mismatches\n",
	       argv[1], total, accepted, mismatches);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	argc--;
	argv++;
	if (!strcmp(argv[0], "family") || !strcmp(argv[0], "dump") ||
	    !strcmp(argv[0], "get") || !strcmp(argv[0], "set") ||
	    !strcmp(argv[0], "unset"))
		return cmd_netlink(argc, argv);
	if (!strcmp(argv[0], "default")) {
		struct ipeh_table t;
		bool mip6 = !(argc > 1 && !strcmp(argv[1], "--no-mip6"));

		ipeh_table_init_default(&t, mip6 ? 0 : IPEH_TABLE_NO_MIP6);
		for (int i = 2; i < 256; i++)
			if (ipeh_table_has_entry(&t, (uint8_t)i))
				print_params((uint8_t)i, ipeh_table_get(&t, (uint8_t)i));
		return 0;
	}
	if (!strcmp(argv[0], "sockopt"))
		return cmd_sockopt(argc, argv);
	if (!strcmp(argv[0], "validate"))
		return cmd_validate(argc, argv);
	if (!strcmp(argv[0], "send"))
		return cmd_send(argc, argv);
	if (!strcmp(argv[0], "recv"))
		return cmd_recv(argc, argv);
	if (!strcmp(argv[0], "difftest"))
		return cmd_difftest(argc, argv);
	return usage();
}
