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
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/ipeh.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <ipeh.h>

#include "prog-util.h"

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
	      "  family                       resolve the ipeh-tlv family\n"
	      "  dump                         kernel TLV table, one line per entry\n"
	      "  default [--no-mip6]          libipeh's built-in table, same format\n"
	      "  get TYPE [--drained] | unset TYPE   (--drained: nothing left queued after it)\n"
	      "  set TYPE KEY=VALUE...        order user admin class align len lenmult\n"
	      "  sockopt HDR HEX              setsockopt on a UDP socket: verdict\n"
	      "  sockhold HDR HEX FILE        setsockopt HEX, then once FILE exists (at\n"
	      "                               most 60 s) remove it (optlen 0): verdicts\n"
	      "  validate HDR HEX [--admin]   libipeh's verdict for the same block\n"
	      "  send HDR HEX ADDR PORT [--cmsg]  one UDP datagram carrying the block\n"
	      "  recv PORT COUNT SECONDS      print received option blocks\n"
	      "  difftest HDR N SEED          kernel vs libipeh on N random blocks\n"
	      "  hostile HDR NSOCK NCMSG SEED random/mutated blocks through setsockopt\n"
	      "                               and sendmsg; kernel must not accept more\n"
	      "                               than libipeh\n"
	      "  rawnl CMD [resv=N] [ATTR:HEX]... raw ipeh-tlv request (CMD set|unset|get|N;\n"
	      "                               resv: the header's reserved field):\n"
	      "                               verdict, extack message, offset, missing attr\n"
	      "  flip N [USEC]                admin: N x (SET+UNSET) of IOAM and 0x3e,\n"
	      "                               USEC after each\n"
	      "  listen SECONDS COUNT         join \"tlv-changes\", print COUNT notifications\n"
	      "                               (command, type, sender port id and sequence,\n"
	      "                               attributes present, generation), at most SECONDS\n"
	      "  replace [--reset] TYPE[,KEY=VALUE]...|TYPE,unset ...  one REPLACE request\n"
	      "  tablebench N REPS [full]     a policy of N entries: N SETs against one REPLACE\n"
	      "  sendloop HDR HEX ADDR PORT N USEC  N datagrams (block in a cmsg),\n"
	      "                               a USEC pause every 8: counts of verdicts\n"
	      "  churnsend ADDR PORT SECONDS USEC TAG SPEC...  datagrams carrying each SPEC\n"
	      "                               in turn (sticky and cmsg), a copy of the blocks\n"
	      "                               in the payload: counts of verdicts\n"
	      "  churnrecv PORT STOPFILE      check each datagram's blocks against its payload,\n"
	      "                               until STOPFILE exists and the socket is idle\n"
	      "  stickyloop SECONDS USEC SPEC...  set and remove sticky options: verdicts\n"
	      "  loopcheck SPEC               one datagram to ::1, received and compared\n"
	      "HDR is hop, dst or rtdst; HEX is the whole header (next-header byte first);\n"
	      "SPEC is hop=HEX, dst=HEX or hop=HEX,dst=HEX.\n",
	      stderr);
	return 2;
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

/*
 * The kernel's live table (netlink dump) and the header's sysctl limits
 * (defaults where they cannot be read); -1 after printing the verdict.
 */
static int kernel_table(int hdr, struct ipeh_table *t, struct ipeh_limits *lim)
{
	struct ipeh_error e;
	struct ipeh_nl *nl;
	int r;

	nl = nl_open_or_report();
	if (!nl)
		return -1;
	ipeh_error_clear(&e);
	r = ipeh_nl_dump_table(nl, t, &e);
	ipeh_nl_close(nl);
	if (r < 0) {
		printf("%s %s\n", errtok(r), e.msg);
		return -1;
	}
	if (ipeh_limits_read((enum ipeh_hdr)hdr, lim) < 0)
		ipeh_limits_default(lim);
	return 0;
}

/* KEY=VALUE of a SET into @p and @mask; -1 if not one */
static int parse_setting(const char *kv, struct ipeh_tlv_params *p,
			 unsigned int *mask)
{
	char key[16];
	const char *v = strchr(kv, '=');
	unsigned int a, b;

	if (!v || (size_t)(v - kv) >= sizeof(key))
		return -1;
	memcpy(key, kv, (size_t)(v - kv));
	key[v - kv] = '\0';
	v++;
	if (!strcmp(key, "order") && sscanf(v, "%u", &a) == 1) {
		p->order = (uint16_t)a;
		*mask |= IPEH_ATTR_ORDER;
	} else if (!strcmp(key, "user") && ipeh_perm_parse(v) >= 0) {
		p->user_perm = (uint8_t)ipeh_perm_parse(v);
		*mask |= IPEH_ATTR_USER_PERM;
	} else if (!strcmp(key, "admin") && ipeh_perm_parse(v) >= 0) {
		p->admin_perm = (uint8_t)ipeh_perm_parse(v);
		*mask |= IPEH_ATTR_ADMIN_PERM;
	} else if (!strcmp(key, "class") && ipeh_class_parse(v) >= 0) {
		p->class_mask = (uint8_t)ipeh_class_parse(v);
		*mask |= IPEH_ATTR_CLASS;
	} else if (!strcmp(key, "align") && sscanf(v, "%un+%u", &a, &b) == 2) {
		p->align_mult = (uint8_t)a;
		p->align_off = (uint8_t)b;
		*mask |= IPEH_ATTR_ALIGN_MULT | IPEH_ATTR_ALIGN_OFF;
	} else if (!strcmp(key, "len") && sscanf(v, "%u-%u", &a, &b) == 2) {
		p->min_data_len = (uint8_t)a;
		p->max_data_len = (uint8_t)b;
		*mask |= IPEH_ATTR_MIN_DATA_LEN | IPEH_ATTR_MAX_DATA_LEN;
	} else if (!strcmp(key, "lenmult") && sscanf(v, "%un+%u", &a, &b) == 2) {
		p->data_len_mult = (uint8_t)a;
		p->data_len_off = (uint8_t)b;
		*mask |= IPEH_ATTR_DATA_LEN_MULT | IPEH_ATTR_DATA_LEN_OFF;
	} else {
		return -1;
	}
	return 0;
}

/*
 * replace [--reset] ENTRY...: one REPLACE request; ENTRY is
 * TYPE[,KEY=VALUE]... or TYPE,unset.  Prints the verdict, and the type of
 * the entry the kernel blamed.
 */
static int cmd_replace(int argc, char **argv)
{
	struct ipeh_nl_entry ent[256];
	unsigned int flags = 0;
	struct ipeh_error e;
	struct ipeh_nl *nl;
	size_t n = 0;
	int i, r;

	for (i = 1; i < argc; i++) {
		char *save = NULL, *tok;
		int type;

		if (!strcmp(argv[i], "--reset")) {
			flags |= IPEH_NL_REPLACE_RESET;
			continue;
		}
		if (n == 256)
			return usage();
		memset(&ent[n], 0, sizeof(ent[n]));
		tok = strtok_r(argv[i], ",", &save);
		if (!tok || (type = parse_type(tok)) < 0)
			return usage();
		ent[n].type = (uint8_t)type;
		while ((tok = strtok_r(NULL, ",", &save))) {
			if (!strcmp(tok, "unset"))
				ent[n].unset = true;
			else if (parse_setting(tok, &ent[n].p, &ent[n].mask) < 0)
				return usage();
		}
		n++;
	}
	nl = nl_open_or_report();
	if (!nl)
		return 0;
	ipeh_error_clear(&e);
	r = ipeh_nl_replace(nl, ent, n, flags, &e);
	if (r < 0 && e.type >= 0)
		printf("%s %s type=0x%02x\n", errtok(r), e.msg, e.type);
	else
		printf("%s%s%s\n", errtok(r), r ? " " : "", r ? e.msg : "");
	ipeh_nl_close(nl);
	return 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Back to the built-in table: one REPLACE with RESET and no entry */
static int table_reset(struct ipeh_nl *nl, struct ipeh_error *e)
{
	return ipeh_nl_replace(nl, NULL, 0, IPEH_NL_REPLACE_RESET, e);
}

/*
 * tablebench N REPS [full]: a policy of N entries (types from 2 up; a
 * built-in type keeps its order, any other gets order 1000 + type)
 * switched between user=check and user=none, as 2 x N SETs per
 * switch-and-back, REPS times, and as two REPLACEs of N entries, 25 x REPS
 * times (enough to be timed with a 10 ms clock). Each entry carries the
 * user permission only, or with "full" every attribute, as tlvd sends
 * them. Prints the time of one policy change each way and their ratio
 * (REPLACE / SETs). Leaves the built-in table.
 */
static int cmd_tablebench(int argc, char **argv)
{
	struct ipeh_nl_entry ent[256];
	struct ipeh_table dflt;
	struct ipeh_error e;
	struct ipeh_nl *nl;
	long long t0, t_set, t_rep;
	int n, reps, type, i, k, r;

	bool full;

	if (argc < 3 || (n = atoi(argv[1])) < 1 || n > 254 ||
	    (reps = atoi(argv[2])) < 1)
		return usage();
	full = argc > 3 && !strcmp(argv[3], "full");
	nl = nl_open_or_report();
	if (!nl)
		return 0;
	ipeh_error_clear(&e);
	if ((r = table_reset(nl, &e)) < 0 ||
	    (r = ipeh_nl_dump_table(nl, &dflt, &e)) < 0)
		goto fail;
	for (i = 0, type = 2; i < n; i++, type++) {
		memset(&ent[i], 0, sizeof(ent[i]));
		ent[i].type = (uint8_t)type;
		ent[i].p.user_perm = IPEH_PERM_NONE;
		ent[i].mask = IPEH_ATTR_USER_PERM;
		if (!ipeh_table_has_entry(&dflt, (uint8_t)type)) {
			ent[i].p.order = (uint16_t)(1000 + type);
			ent[i].mask |= IPEH_ATTR_ORDER;
		}
	}
	/* every entry in place (user=none); from here on, only user changes */
	if ((r = ipeh_nl_replace(nl, ent, (size_t)n, 0, &e)) < 0)
		goto fail;
	for (i = 0; i < n; i++) {
		if (full) {
			ent[i].p = *ipeh_table_get(&dflt, ent[i].type);
			if (!ipeh_table_has_entry(&dflt, ent[i].type)) {
				ent[i].p.order = (uint16_t)(1000 + ent[i].type);
				ent[i].p.class_mask = IPEH_CLASS_DSTOPT;
			}
			ent[i].mask = IPEH_ATTR_ALL;
		} else {
			ent[i].mask = IPEH_ATTR_USER_PERM;
		}
	}

	t0 = now_ns();
	for (k = 0; k < 2 * reps; k++) {
		for (i = 0; i < n; i++) {
			ent[i].p.user_perm = k & 1 ? IPEH_PERM_NONE : IPEH_PERM_CHECK;
			if ((r = ipeh_nl_set(nl, ent[i].type, &ent[i].p,
					     ent[i].mask, &e)) < 0)
				goto fail;
		}
	}
	t_set = (now_ns() - t0) / (2 * reps);

	t0 = now_ns();
	for (k = 0; k < 2 * 25 * reps; k++) {
		for (i = 0; i < n; i++)
			ent[i].p.user_perm = k & 1 ? IPEH_PERM_NONE : IPEH_PERM_CHECK;
		if ((r = ipeh_nl_replace(nl, ent, (size_t)n, 0, &e)) < 0)
			goto fail;
	}
	t_rep = (now_ns() - t0) / (2 * 25 * reps);

	r = table_reset(nl, &e);
	if (r < 0)
		goto fail;
	printf("ok entries=%d%s sets_ns=%lld replace_ns=%lld ratio=%.4f\n", n,
	       full ? " full" : "", t_set, t_rep, t_set > 0 ? (double)t_rep / (double)t_set : -1.0);
	ipeh_nl_close(nl);
	return 0;
fail:
	printf("%s %s\n", errtok(r), e.msg);
	table_reset(nl, &e);
	ipeh_nl_close(nl);
	return 0;
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
		if (r < 0) {
			printf("%s %s\n", errtok(r), e.msg);
		} else if (argc > 2 && !strcmp(argv[2], "--drained")) {
			/* the request asked for an ACK: it must have been read */
			char c;
			ssize_t n = recv(ipeh_nl_fd(nl), &c, 1,
					 MSG_PEEK | MSG_DONTWAIT);

			printf(n < 0 ? "ok nothing left queued\n" :
			       "EBUSY a message was left queued\n");
		} else {
			print_params((uint8_t)type, &p);
		}
	} else if (!strcmp(argv[0], "unset")) {
		r = ipeh_nl_unset(nl, (uint8_t)type, &e);
		printf("%s%s%s\n", errtok(r), r ? " " : "", r ? e.msg : "");
	} else {
		memset(&p, 0, sizeof(p));
		for (int i = 2; i < argc; i++)
			if (parse_setting(argv[i], &p, &mask) < 0)
				goto bad;
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

/* Sticky options set, then removed by the same socket once told to */
static int cmd_sockhold(int argc, char **argv)
{
	uint8_t blk[IPEH_HDR_MAX + 8];
	int hdr, n, fd, r, i;

	if (argc < 4 || (hdr = hdr_arg(argv[1])) < 0 ||
	    (n = parse_hex(argv[2], blk, sizeof(blk))) < 0)
		return usage();
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	r = ipeh_sock_set(fd, (enum ipeh_hdr)hdr, blk, (size_t)n);
	printf("set %s\n", errtok(r));
	fflush(stdout);
	for (i = 0; i < 1200 && access(argv[3], F_OK) < 0; i++)
		usleep(50000);
	r = ipeh_sock_clear(fd, (enum ipeh_hdr)hdr);
	printf("clear %s\n", errtok(r));
	close(fd);
	return 0;
}

static int cmd_validate(int argc, char **argv)
{
	uint8_t blk[IPEH_HDR_MAX + 8];
	struct ipeh_limits lim;
	struct ipeh_table t;
	struct ipeh_error e;
	unsigned int flags = IPEH_F_SETSOCKOPT;
	int hdr, n, r;

	if (argc < 3 || (hdr = hdr_arg(argv[1])) < 0 ||
	    (n = parse_hex(argv[2], blk, sizeof(blk))) < 0)
		return usage();
	if (argc > 3 && !strcmp(argv[3], "--admin"))
		flags |= IPEH_F_ADMIN;
	if (kernel_table(hdr, &t, &lim) < 0)
		return 1;
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
	long total, accepted = 0, mismatches = 0;
	uint64_t seed;
	int hdr, fd;

	if (argc < 4 || (hdr = hdr_arg(argv[1])) < 0)
		return usage();
	total = atol(argv[2]);
	seed = strtoull(argv[3], NULL, 0);
	if (kernel_table(hdr, &t, &lim) < 0)
		return 1;
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

/* ---- hostile processes (issue 7 §5) ---- */

/* Random option types the generator prefers: padding, the table's entries,
 * the experimental types, anything. */
static uint8_t pick_type(const struct ipeh_table *t, uint64_t *s)
{
	static const uint8_t some[] = { 0, 1, 0x05, 0x07, 0x31, 0xc2, 0xc9, 0x1e,
					0x3e, 0x5e, 0x7e, 0x9e, 0xbe, 0xde, 0xfe };
	uint32_t k = rnd(s) % 4;

	if (k == 0)
		return some[rnd(s) % sizeof(some)];
	if (k == 1) {
		for (int tries = 0; tries < 64; tries++) {
			uint8_t ty = (uint8_t)(2 + rnd(s) % 254);

			if (ipeh_table_get(t, ty)->order)
				return ty;
		}
	}
	return (uint8_t)rnd(s);
}

/* A canonical block of options the caller may send (user_perm not none). */
static int gen_user_canonical(const struct ipeh_table *t, enum ipeh_hdr hdr,
			      uint64_t *s, uint8_t *out, size_t cap)
{
	uint8_t allowed[256], data[8][256];
	struct ipeh_opt opts[8];
	size_t n = 0, na = 0, want;

	for (int ty = 2; ty < 256; ty++) {
		const struct ipeh_tlv_params *p = ipeh_table_get(t, (uint8_t)ty);

		if (p->order && (p->class_mask & hdr) && p->user_perm != IPEH_PERM_NONE)
			allowed[na++] = (uint8_t)ty;
	}
	if (!na)
		return -1;
	want = 1 + rnd(s) % 4;
	while (n < want) {
		uint8_t type = allowed[rnd(s) % na];
		const struct ipeh_tlv_params *p = ipeh_table_get(t, type);
		unsigned int len = p->min_data_len +
				   rnd(s) % (p->max_data_len - p->min_data_len + 1u);

		while (len % p->data_len_mult != p->data_len_off && len < p->max_data_len)
			len++;
		if (len % p->data_len_mult != p->data_len_off || len > 120)
			len = p->min_data_len;
		for (unsigned int i = 0; i < len; i++)
			data[n][i] = (uint8_t)rnd(s);
		opts[n].type = type;
		opts[n].len = (uint8_t)len;
		opts[n].data = data[n];
		n++;
	}
	return (int)ipeh_build(t, hdr, opts, n, out, cap, NULL, 0, NULL);
}

/* A hostile block: canonical then mutated, TLV-shaped random, or random
 * bytes; then 0..3 mutations. Returns its length (>= 2). */
static int gen_hostile(const struct ipeh_table *t, enum ipeh_hdr hdr,
		       uint64_t *s, uint8_t *blk, size_t cap)
{
	uint32_t kind = rnd(s) % 8;
	int len = 0, nmut;

	if (kind < 2)
		len = gen_canonical(t, hdr, s, blk, cap);
	else if (kind < 5)
		len = gen_user_canonical(t, hdr, s, blk, cap);
	if (len < 8) {
		len = 8 * (1 + (int)(rnd(s) % 6));
		if (kind == 7) {
			for (int j = 2; j < len; j++)
				blk[j] = (uint8_t)rnd(s);
		} else {
			int off = 2;

			memset(blk, 0, (size_t)len);
			while (off < len) {
				uint8_t ty = pick_type(t, s);
				int dl = (int)(rnd(s) % 3 ? rnd(s) % 12 : rnd(s) % 64);

				blk[off++] = ty;
				if (ty == 0 || off >= len)
					continue;
				blk[off++] = (uint8_t)dl;
				for (int j = 0; j < dl && off < len; j++)
					blk[off++] = rnd(s) % 2 ? 0 : (uint8_t)rnd(s);
			}
		}
		blk[1] = (uint8_t)(len / 8 - 1);
	}
	/* a third of the blocks unchanged, the others with 1..3 mutations */
	nmut = rnd(s) % 3 ? 1 + (int)(rnd(s) % 3) : 0;
	for (int k = 0; k < nmut; k++) {
		uint32_t at = 2 + rnd(s) % (uint32_t)(len > 2 ? len - 2 : 1);

		switch (rnd(s) % 9) {
		case 0:
			blk[at] ^= (uint8_t)(1u << (rnd(s) % 8));
			break;
		case 1:
			blk[at] = (uint8_t)rnd(s);
			break;
		case 2:
			blk[at] = (uint8_t)(rnd(s) % 2);
			break;
		case 3: /* the header lies about its length */
			blk[1] = (uint8_t)(rnd(s) % 8 ? rnd(s) % 8 : rnd(s));
			break;
		case 4: /* a buffer that is not a multiple of 8, or too short */
			len = 2 + (int)(rnd(s) % (uint32_t)(len - 1));
			break;
		case 5: /* grow by 8 zero bytes (a longer header, trailing Pad1s) */
			if ((size_t)len + 8 <= cap) {
				memset(blk + len, 0, 8);
				len += 8;
				blk[1] = (uint8_t)(len / 8 - 1);
			}
			break;
		case 6: /* an option's length byte */
			if (at + 1 < (uint32_t)len)
				blk[at + 1] = (uint8_t)(rnd(s) % 16);
			break;
		case 7: /* swap two 2-byte words (reorders options) */
			if (len >= 8) {
				uint32_t b = 2 + rnd(s) % (uint32_t)(len - 3);
				uint8_t x0 = blk[at], x1 = blk[at + 1 < (uint32_t)len ? at + 1 : at];

				blk[at] = blk[b];
				blk[b] = x0;
				if (at + 1 < (uint32_t)len && b + 1 < (uint32_t)len) {
					blk[at + 1] = blk[b + 1];
					blk[b + 1] = x1;
				}
			}
			break;
		default:
			break;
		}
	}
	if (len >= 1)
		blk[0] = (uint8_t)rnd(s);
	return len;
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000L + (t1.tv_nsec - t0->tv_nsec) / 1000000L;
}

static int cmd_hostile(int argc, char **argv)
{
	struct sockaddr_in6 lo = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct ipeh_limits lim;
	struct ipeh_table t;
	struct ipeh_error e;
	struct timespec t0;
	long nsock, ncmsg, acc[2] = { 0, 0 }, viol[2] = { 0, 0 }, mism[2] = { 0, 0 };
	long rcvd = 0, nlost = 0;
	socklen_t sl = sizeof(lo);
	uint64_t seed;
	int hdr, fd, rfd;

	if (argc < 5 || (hdr = hdr_arg(argv[1])) < 0)
		return usage();
	nsock = atol(argv[2]);
	ncmsg = atol(argv[3]);
	seed = strtoull(argv[4], NULL, 0);
	if (kernel_table(hdr, &t, &lim) < 0)
		return 1;
	fd = udp6_socket();
	rfd = udp6_socket();
	if (fd < 0 || rfd < 0)
		return 1;
	/* accepted datagrams go to ::1 and are received (and so parsed) here */
	if (bind(rfd, (struct sockaddr *)&lo, sizeof(lo)) < 0 ||
	    getsockname(rfd, (struct sockaddr *)&lo, &sl) < 0) {
		perror("ipeh-probe: bind ::1");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < nsock + ncmsg; i++) {
		uint8_t blk[IPEH_HDR_MAX + 16], ctl[IPEH_HDR_MAX + 64], sink[64];
		int via = i >= nsock; /* 0 setsockopt, 1 sendmsg cmsg */
		int len = gen_hostile(&t, (enum ipeh_hdr)hdr, &seed, blk, IPEH_HDR_MAX);
		int kr, ur;

		if (!via) {
			kr = ipeh_sock_set(fd, (enum ipeh_hdr)hdr, blk, (size_t)len);
			ipeh_sock_clear(fd, (enum ipeh_hdr)hdr);
		} else {
			struct iovec iov = { .iov_base = "hostile", .iov_len = 7 };
			struct msghdr msg = { .msg_name = &lo, .msg_namelen = sizeof(lo),
					      .msg_iov = &iov, .msg_iovlen = 1,
					      .msg_control = ctl, .msg_controllen = 0 };

			kr = ipeh_cmsg_put(&msg, sizeof(ctl), (enum ipeh_hdr)hdr, blk, (size_t)len);
			if (kr == 0 && sendmsg(fd, &msg, 0) < 0)
				kr = -errno;
			/* loopback delivers within sendmsg(); a short wait if not */
			if (kr == 0 && recv(rfd, sink, sizeof(sink), MSG_DONTWAIT) < 0) {
				struct pollfd p = { .fd = rfd, .events = POLLIN };

				/* the first few are shown (after a short wait) */
				if (nlost < 10 && poll(&p, 1, 50) <= 0) {
					printf("LOST (accepted by sendmsg, not received) block=");
					print_hex(blk, (size_t)len);
					printf("\n");
				}
				nlost++;
			} else if (kr == 0) {
				rcvd++;
			}
			while (recv(rfd, sink, sizeof(sink), MSG_DONTWAIT) >= 0)
				rcvd++;
		}
		ur = ipeh_validate(&t, (enum ipeh_hdr)hdr, blk, (size_t)len, &lim,
				   via ? 0 : IPEH_F_SETSOCKOPT, &e);
		if (kr == 0)
			acc[via]++;
		if (kr == 0 && ur != 0)
			viol[via]++;
		if (kr != ur) {
			mism[via]++;
			if (mism[0] + mism[1] <= 10) {
				printf("%s kernel=%s libipeh=%s via=%s block=",
				       kr == 0 ? "VIOLATION" : "mismatch", errtok(kr),
				       errtok(ur), via ? "sendmsg" : "setsockopt");
				print_hex(blk, (size_t)len);
				printf(" (%s)\n", e.msg);
			}
		}
	}
	{
		struct pollfd p = { .fd = rfd, .events = POLLIN };
		uint8_t sink[64];

		while (poll(&p, 1, 200) > 0 && recv(rfd, sink, sizeof(sink), 0) >= 0)
			rcvd++;
	}
	close(fd);
	close(rfd);
	printf("hostile %s: setsockopt %ld blocks, %ld accepted, %ld violations, %ld mismatches; "
	       "sendmsg %ld blocks, %ld accepted, %ld received, %ld violations, %ld mismatches; %ld ms\n",
	       argv[1], nsock, acc[0], viol[0], mism[0], ncmsg, acc[1], rcvd, viol[1], mism[1],
	       elapsed_ms(&t0));
	return 0;
}

/* admin: flip the table, N times SET then UNSET of IOAM and 0x3e */
static int cmd_flip(int argc, char **argv)
{
	struct ipeh_tlv_params io = { 0 }, ex = { 0 };
	struct ipeh_error e;
	struct ipeh_nl *nl;
	long n, fails = 0;

	int usec;

	if (argc < 2)
		return usage();
	n = atol(argv[1]);
	usec = argc > 2 ? atoi(argv[2]) : 0;
	nl = nl_open_or_report();
	if (!nl)
		return 1;
	io.user_perm = IPEH_PERM_CHECK;
	ex.order = 110;
	ex.user_perm = IPEH_PERM_CHECK;
	ex.class_mask = IPEH_HDR_HOPOPTS | IPEH_HDR_DSTOPTS;
	ex.align_mult = 4;
	ex.align_off = 2;
	ex.min_data_len = 4;
	ex.max_data_len = 4;
	ex.data_len_mult = 1;
	for (long i = 0; i < n; i++) {
		ipeh_error_clear(&e);
		fails += ipeh_nl_set(nl, 0x31, &io, IPEH_ATTR_USER_PERM, &e) != 0;
		fails += ipeh_nl_set(nl, 0x3e, &ex, IPEH_ATTR_ORDER | IPEH_ATTR_USER_PERM |
				     IPEH_ATTR_CLASS | IPEH_ATTR_ALIGN_MULT | IPEH_ATTR_ALIGN_OFF |
				     IPEH_ATTR_MIN_DATA_LEN | IPEH_ATTR_MAX_DATA_LEN |
				     IPEH_ATTR_DATA_LEN_MULT | IPEH_ATTR_DATA_LEN_OFF, &e) != 0;
		if (usec)
			usleep((useconds_t)usec);
		fails += ipeh_nl_unset(nl, 0x31, &e) != 0;
		fails += ipeh_nl_unset(nl, 0x3e, &e) != 0;
		if (usec)
			usleep((useconds_t)usec);
	}
	ipeh_nl_close(nl);
	printf("flip %ld rounds, %ld failed requests\n", n, fails);
	return 0;
}

/* N datagrams carrying the block in a cmsg; counts the verdicts */
static int cmd_sendloop(int argc, char **argv)
{
	uint8_t blk[IPEH_HDR_MAX + 8], ctl[IPEH_HDR_MAX + 64];
	struct sockaddr_in6 dst = { .sin6_family = AF_INET6 };
	long n, okc = 0, eperm = 0, other = 0;
	int hdr, len, fd, usec, first_other = 0;

	if (argc < 7 || (hdr = hdr_arg(argv[1])) < 0 ||
	    (len = parse_hex(argv[2], blk, sizeof(blk))) < 0 ||
	    inet_pton(AF_INET6, argv[3], &dst.sin6_addr) != 1)
		return usage();
	dst.sin6_port = htons((uint16_t)atoi(argv[4]));
	n = atol(argv[5]);
	usec = atoi(argv[6]);
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	for (long i = 0; i < n; i++) {
		struct iovec iov = { .iov_base = "sendloop", .iov_len = 8 };
		struct msghdr msg = { .msg_name = &dst, .msg_namelen = sizeof(dst),
				      .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = ctl, .msg_controllen = 0 };
		int r = ipeh_cmsg_put(&msg, sizeof(ctl), (enum ipeh_hdr)hdr, blk, (size_t)len);

		if (r == 0 && sendmsg(fd, &msg, 0) < 0)
			r = -errno;
		if (r == 0)
			okc++;
		else if (r == -EPERM)
			eperm++;
		else if (!other++)
			first_other = r;
		if (usec && i % 8 == 7)
			usleep((useconds_t)usec);
	}
	close(fd);
	printf("sendloop %ld ok %ld EPERM %ld other%s%s\n", okc, eperm, other,
	       other ? " first " : "", other ? errtok(first_other) : "");
	return 0;
}

/*
 * ---- stress under churn (55-churn): datagrams whose option blocks the
 * receiver checks byte for byte against what the sender put in them ----
 *
 * A SPEC is "hop=HEX", "dst=HEX" or "hop=HEX,dst=HEX": the blocks of one
 * datagram. Each datagram's payload carries a copy of the blocks it was
 * sent with (and the data of some options varies with its sequence number),
 * so the receiver needs no other knowledge of what was sent.
 */
#define CHURN_MAGIC 0x43484e31u	/* "CHN1" */
#define CHURN_BLK 512

struct churn_spec {
	uint8_t hop[CHURN_BLK], dst[CHURN_BLK];
	size_t hoplen, dstlen;
};

/* payload: magic, seq, mode, tag[8], hop length, dst length, hop, dst */
struct churn_head {
	uint32_t magic;
	uint32_t seq;
	uint8_t mode;	/* 0 sticky (setsockopt), 1 cmsg */
	char tag[8];
	uint8_t pad;
	uint16_t hoplen;
	uint16_t dstlen;
} __attribute__((packed));

static int churn_block(const char *hex, uint8_t *b, size_t *len)
{
	int n = parse_hex(hex, b, CHURN_BLK);

	/* a whole header: its length byte says how long it is */
	if (n < 8 || (size_t)(b[1] + 1) * 8 != (size_t)n)
		return -1;
	*len = (size_t)n;
	return 0;
}

static int churn_spec_parse(const char *arg, struct churn_spec *s)
{
	char buf[4 * CHURN_BLK], *tok, *save = NULL;

	memset(s, 0, sizeof(*s));
	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "hop=", 4) && !s->hoplen) {
			if (churn_block(tok + 4, s->hop, &s->hoplen) < 0)
				return -1;
		} else if (!strncmp(tok, "dst=", 4) && !s->dstlen) {
			if (churn_block(tok + 4, s->dst, &s->dstlen) < 0)
				return -1;
		} else {
			return -1;
		}
	}
	return s->hoplen || s->dstlen ? 0 : -1;
}

static int churn_specs(int argc, char **argv, struct churn_spec *specs, int max)
{
	int n = 0;

	for (int i = 0; i < argc; i++) {
		if (n == max || churn_spec_parse(argv[i], &specs[n]) < 0) {
			fprintf(stderr, "ipeh-probe: bad block spec '%s' (hop=HEX[,dst=HEX], whole headers)\n",
				argv[i]);
			return -1;
		}
		n++;
	}
	return n;
}

/*
 * Give the options whose data nobody on the path reads or changes (the
 * RFC 4727 experimental types 0x1e and 0x3e, and the node data of an IOAM
 * trace on nodes where IOAM is off) bytes that depend on @seq.
 */
static void churn_vary(uint8_t *b, size_t len, uint32_t seq)
{
	size_t off = 2;

	while (off < len) {
		uint8_t type = b[off];
		size_t olen, from = 0;

		if (type == 0) {
			off++;
			continue;
		}
		if (off + 1 >= len)
			break;
		olen = b[off + 1];
		if (off + 2 + olen > len)
			break;
		if (type == 0x1e || type == 0x3e || (type == 0x31 && olen > 10)) {
			from = type == 0x31 ? 10 : 0;
			for (size_t i = from; i < olen; i++)
				b[off + 2 + i] = (uint8_t)((seq * 2654435761u) >> (8 * (i % 4))) ^ (uint8_t)i;
		}
		off += 2 + olen;
	}
}

/* The payload of datagram @seq of @s, with its varied blocks in @hop, @dst */
static size_t churn_payload(const struct churn_spec *s, const char *tag,
			    uint32_t seq, uint8_t mode, uint8_t *hop,
			    uint8_t *dst, uint8_t *out)
{
	struct churn_head h = { .magic = htonl(CHURN_MAGIC), .seq = htonl(seq),
				.mode = mode, .hoplen = htons((uint16_t)s->hoplen),
				.dstlen = htons((uint16_t)s->dstlen) };

	strncpy(h.tag, tag, sizeof(h.tag));
	memcpy(hop, s->hop, s->hoplen);
	memcpy(dst, s->dst, s->dstlen);
	churn_vary(hop, s->hoplen, seq);
	churn_vary(dst, s->dstlen, seq ^ 0x5a5a5a5au);
	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), hop, s->hoplen);
	memcpy(out + sizeof(h) + s->hoplen, dst, s->dstlen);
	return sizeof(h) + s->hoplen + s->dstlen;
}

/*
 * Compare the blocks a datagram arrived with (@msg's cmsgs) with the copy in
 * its payload: each header byte for byte, except the Next Header byte, which
 * the sending kernel writes (Destination options or UDP after the Hop-by-Hop
 * header, UDP after the Destination options) and is checked to be that.
 * Returns 0 (identical), 1 (mismatch, described in @why) or -1 (not ours).
 */
static int churn_check(const uint8_t *p, size_t n, struct msghdr *msg,
		       struct churn_head *h, char *why, size_t whylen)
{
	uint8_t want[2][CHURN_BLK];
	size_t wlen[2] = { 0, 0 }, glen[2] = { 0, 0 };
	const uint8_t *got[2] = { NULL, NULL }, *blk;
	static const char *const names[2] = { "hop", "dst" };
	enum ipeh_hdr hdr;
	void *cookie = NULL;
	size_t len;
	int extra = 0;

	if (n < sizeof(*h))
		return -1;
	memcpy(h, p, sizeof(*h));
	h->magic = ntohl(h->magic);
	h->seq = ntohl(h->seq);
	h->hoplen = ntohs(h->hoplen);
	h->dstlen = ntohs(h->dstlen);
	if (h->magic != CHURN_MAGIC || h->hoplen > CHURN_BLK || h->dstlen > CHURN_BLK ||
	    n != sizeof(*h) + h->hoplen + h->dstlen)
		return -1;
	wlen[0] = h->hoplen;
	wlen[1] = h->dstlen;
	memcpy(want[0], p + sizeof(*h), wlen[0]);
	memcpy(want[1], p + sizeof(*h) + wlen[0], wlen[1]);
	if (wlen[0])
		want[0][0] = wlen[1] ? IPPROTO_DSTOPTS : IPPROTO_UDP;
	if (wlen[1])
		want[1][0] = IPPROTO_UDP;
	while (ipeh_cmsg_next(msg, &cookie, &hdr, &blk, &len) == 1) {
		int i = hdr == IPEH_HDR_HOPOPTS ? 0 : hdr == IPEH_HDR_DSTOPTS ? 1 : -1;

		if (i < 0 || got[i]) {
			extra++;
			continue;
		}
		got[i] = blk;
		glen[i] = len;
	}
	if (msg->msg_flags & MSG_CTRUNC) {
		snprintf(why, whylen, "control data truncated");
		return 1;
	}
	if (extra) {
		snprintf(why, whylen, "%d unexpected option cmsgs", extra);
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		int o = 0;

		if (glen[i] == wlen[i] && (!wlen[i] || !memcmp(got[i], want[i], wlen[i])))
			continue;
		o = snprintf(why, whylen, "%s sent=", names[i]);
		for (size_t k = 0; k < wlen[i] && (size_t)o + 3 < whylen; k++)
			o += snprintf(why + o, whylen - (size_t)o, "%02x", want[i][k]);
		if ((size_t)o < whylen)
			o += snprintf(why + o, whylen - (size_t)o, " got=%s", got[i] ? "" : "(none)");
		for (size_t k = 0; k < glen[i] && (size_t)o + 3 < whylen; k++)
			o += snprintf(why + o, whylen - (size_t)o, "%02x", got[i][k]);
		return 1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* verdict counts of the churn commands: ok, EPERM, and the first other errno */
struct churn_count {
	long ok, eperm, other;
	int first_other;
};

static void churn_count(struct churn_count *c, int r)
{
	if (r == 0)
		c->ok++;
	else if (r == -EPERM)
		c->eperm++;
	else if (!c->other++)
		c->first_other = r;
}

static void churn_count_print(const char *what, const struct churn_count *c)
{
	printf("%s %ld EPERM %ld other %ld%s%s", what, c->ok, c->eperm, c->other,
	       c->other ? " first " : "", c->other ? errtok(c->first_other) : "");
}

/*
 * churnsend ADDR PORT SECONDS USEC TAG SPEC...: for SECONDS, datagrams with
 * each SPEC in turn, every other round through sticky options (setsockopt,
 * send, remove) and through sendmsg() ancillary data; USEC pause after each.
 * Verdicts: ok (sent), EPERM (the policy of that moment forbids), other.
 * IPEH_CHURN_CORRUPT=N in the environment: every Nth payload copy has its
 * last byte flipped, so that the receiver must report a mismatch.
 */
static int cmd_churnsend(int argc, char **argv)
{
	struct sockaddr_in6 dst = { .sin6_family = AF_INET6 };
	static struct churn_spec specs[16];
	struct churn_count c = { 0 };
	long modes[2] = { 0, 0 }, clear_fail = 0;
	const char *cenv = getenv("IPEH_CHURN_CORRUPT");
	int corrupt = cenv ? atoi(cenv) : 0;
	double end;
	int nspec, fd, usec;
	uint32_t seq;

	if (argc < 7 || inet_pton(AF_INET6, argv[1], &dst.sin6_addr) != 1)
		return usage();
	dst.sin6_port = htons((uint16_t)atoi(argv[2]));
	end = now_s() + atof(argv[3]);
	usec = atoi(argv[4]);
	nspec = churn_specs(argc - 6, argv + 6, specs, 16);
	if (nspec < 0)
		return usage();
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	for (seq = 0; now_s() < end; seq++) {
		const struct churn_spec *s = &specs[seq % (uint32_t)nspec];
		uint8_t mode = (uint8_t)((seq / (uint32_t)nspec) % 2);
		uint8_t hop[CHURN_BLK], dsto[CHURN_BLK], pl[2 * CHURN_BLK + 64];
		uint8_t ctl[2 * CHURN_BLK + 64] __attribute__((aligned(8)));
		struct iovec iov = { .iov_base = pl };
		struct msghdr msg = { .msg_name = &dst, .msg_namelen = sizeof(dst),
				      .msg_iov = &iov, .msg_iovlen = 1 };
		int r = 0;

		iov.iov_len = churn_payload(s, argv[5], seq, mode, hop, dsto, pl);
		/* to see the receiver's check fail: a wrong copy now and then */
		if (corrupt > 0 && seq % (uint32_t)corrupt == (uint32_t)corrupt - 1)
			pl[iov.iov_len - 1] ^= 0x01;
		if (mode == 0) {
			if (s->hoplen)
				r = ipeh_sock_set(fd, IPEH_HDR_HOPOPTS, hop, s->hoplen);
			if (!r && s->dstlen)
				r = ipeh_sock_set(fd, IPEH_HDR_DSTOPTS, dsto, s->dstlen);
		} else {
			msg.msg_control = ctl;
			if (s->hoplen)
				r = ipeh_cmsg_put(&msg, sizeof(ctl), IPEH_HDR_HOPOPTS, hop, s->hoplen);
			if (!r && s->dstlen)
				r = ipeh_cmsg_put(&msg, sizeof(ctl), IPEH_HDR_DSTOPTS, dsto, s->dstlen);
		}
		if (!r && sendmsg(fd, &msg, 0) < 0)
			r = -errno;
		if (mode == 0) {
			/* removing sticky options is allowed whatever the policy */
			clear_fail += ipeh_sock_clear(fd, IPEH_HDR_HOPOPTS) != 0;
			clear_fail += ipeh_sock_clear(fd, IPEH_HDR_DSTOPTS) != 0;
		}
		churn_count(&c, r);
		if (!r)
			modes[mode]++;
		if (usec)
			usleep((useconds_t)usec);
	}
	close(fd);
	printf("churnsend %s: ", argv[5]);
	churn_count_print("sent", &c);
	printf(" sticky %ld cmsg %ld clear-failed %ld\n", modes[0], modes[1], clear_fail);
	return 0;
}

/*
 * churnrecv PORT STOPFILE: receive and check every datagram until STOPFILE
 * exists and nothing arrived for 500 ms: counts per sender tag, identical,
 * mismatches (the first ones shown), datagrams that are not churnsend's.
 */
static int cmd_churnrecv(int argc, char **argv)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT };
	char tags[8][9] = { { 0 } };
	long per_tag[8] = { 0 }, got = 0, same = 0, mism = 0, foreign = 0;
	int fd, rcvbuf = 16 << 20, idle_ms = 0;

	if (argc < 3)
		return usage();
	a.sin6_port = htons((uint16_t)atoi(argv[1]));
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	/* room for everything the senders can send between two reads */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    ipeh_sock_recv_enable(fd, IPEH_HDR_HOPOPTS, true) < 0 ||
	    ipeh_sock_recv_enable(fd, IPEH_HDR_DSTOPTS, true) < 0) {
		perror("ipeh-probe: bind/recv enable");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint8_t data[4 * CHURN_BLK], ctl[4 * CHURN_BLK] __attribute__((aligned(8)));
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = ctl, .msg_controllen = sizeof(ctl) };
		struct churn_head h;
		char why[600];
		ssize_t n;
		int i, v;

		if (poll(&pfd, 1, 100) <= 0) {
			idle_ms += 100;
			if (idle_ms >= 500 && access(argv[2], F_OK) == 0)
				break;
			continue;
		}
		idle_ms = 0;
		n = recvmsg(fd, &msg, MSG_DONTWAIT);
		if (n < 0)
			continue;
		got++;
		v = churn_check(data, (size_t)n, &msg, &h, why, sizeof(why));
		if (v < 0) {
			foreign++;
			continue;
		}
		for (i = 0; i < 8 && tags[i][0] && strncmp(tags[i], h.tag, 8); i++)
			;
		if (i < 8) {
			if (!tags[i][0])
				memcpy(tags[i], h.tag, 8);
			per_tag[i]++;
		}
		if (v == 0) {
			same++;
		} else if (mism++ < 5) {
			printf("MISMATCH tag=%.8s seq=%u via=%s %s\n", h.tag, h.seq,
			       h.mode ? "cmsg" : "sticky", why);
		}
	}
	close(fd);
	printf("churnrecv: received %ld identical %ld mismatches %ld foreign %ld;", got, same,
	       mism, foreign);
	for (int i = 0; i < 8 && tags[i][0]; i++)
		printf(" from %s %ld", tags[i], per_tag[i]);
	printf("\n");
	return 0;
}

/*
 * stickyloop SECONDS USEC SPEC...: for SECONDS, set each SPEC's blocks as
 * sticky options on one socket and remove them again. Setting: ok or EPERM
 * (what the policy of that moment says) or other; removing must work.
 */
static int cmd_stickyloop(int argc, char **argv)
{
	static struct churn_spec specs[16];
	struct churn_count set = { 0 }, clr = { 0 };
	double end;
	int nspec, fd, usec;

	if (argc < 4)
		return usage();
	end = now_s() + atof(argv[1]);
	usec = atoi(argv[2]);
	nspec = churn_specs(argc - 3, argv + 3, specs, 16);
	if (nspec < 0)
		return usage();
	fd = udp6_socket();
	if (fd < 0)
		return 1;
	for (long i = 0; now_s() < end; i++) {
		const struct churn_spec *s = &specs[i % nspec];

		if (s->hoplen)
			churn_count(&set, ipeh_sock_set(fd, IPEH_HDR_HOPOPTS, s->hop, s->hoplen));
		if (s->dstlen)
			churn_count(&set, ipeh_sock_set(fd, IPEH_HDR_DSTOPTS, s->dst, s->dstlen));
		churn_count(&clr, ipeh_sock_clear(fd, IPEH_HDR_HOPOPTS));
		churn_count(&clr, ipeh_sock_clear(fd, IPEH_HDR_DSTOPTS));
		if (usec)
			usleep((useconds_t)usec);
	}
	close(fd);
	printf("stickyloop: ");
	churn_count_print("set ok", &set);
	printf("; ");
	churn_count_print("clear ok", &clr);
	printf("\n");
	return 0;
}

/*
 * loopcheck SPEC: one datagram with SPEC's blocks in ancillary data to ::1,
 * received and compared byte for byte: "ok", the sendmsg() errno, "LOST" or
 * "MISMATCH ...".
 */
static int cmd_loopcheck(int argc, char **argv)
{
	struct sockaddr_in6 lo = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	uint8_t hop[CHURN_BLK], dsto[CHURN_BLK], pl[2 * CHURN_BLK + 64], data[4 * CHURN_BLK];
	uint8_t ctl[2 * CHURN_BLK + 64] __attribute__((aligned(8)));
	uint8_t rctl[4 * CHURN_BLK] __attribute__((aligned(8)));
	static struct churn_spec s;
	struct iovec iov = { .iov_base = pl };
	struct msghdr msg = { .msg_name = &lo, .msg_namelen = sizeof(lo),
			      .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl };
	struct iovec riov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr rmsg = { .msg_iov = &riov, .msg_iovlen = 1,
			       .msg_control = rctl, .msg_controllen = sizeof(rctl) };
	struct pollfd pfd;
	struct churn_head h;
	socklen_t sl = sizeof(lo);
	char why[600];
	ssize_t n;
	int fd, rfd, r = 0;

	if (argc < 2 || churn_specs(1, argv + 1, &s, 1) < 0)
		return usage();
	fd = udp6_socket();
	rfd = udp6_socket();
	if (fd < 0 || rfd < 0)
		return 1;
	if (bind(rfd, (struct sockaddr *)&lo, sizeof(lo)) < 0 ||
	    getsockname(rfd, (struct sockaddr *)&lo, &sl) < 0 ||
	    ipeh_sock_recv_enable(rfd, IPEH_HDR_HOPOPTS, true) < 0 ||
	    ipeh_sock_recv_enable(rfd, IPEH_HDR_DSTOPTS, true) < 0) {
		perror("ipeh-probe: bind ::1");
		return 1;
	}
	iov.iov_len = churn_payload(&s, "loop", (uint32_t)getpid(), 1, hop, dsto, pl);
	if (s.hoplen)
		r = ipeh_cmsg_put(&msg, sizeof(ctl), IPEH_HDR_HOPOPTS, hop, s.hoplen);
	if (!r && s.dstlen)
		r = ipeh_cmsg_put(&msg, sizeof(ctl), IPEH_HDR_DSTOPTS, dsto, s.dstlen);
	if (!r && sendmsg(fd, &msg, 0) < 0)
		r = -errno;
	if (r) {
		printf("%s\n", errtok(r));
		return 0;
	}
	pfd = (struct pollfd){ .fd = rfd, .events = POLLIN };
	if (poll(&pfd, 1, 5000) <= 0 || (n = recvmsg(rfd, &rmsg, 0)) < 0) {
		printf("LOST\n");
		return 0;
	}
	switch (churn_check(data, (size_t)n, &rmsg, &h, why, sizeof(why))) {
	case 0:
		printf("ok\n");
		break;
	case 1:
		printf("MISMATCH %s\n", why);
		break;
	default:
		printf("MISMATCH not the datagram sent\n");
	}
	close(fd);
	close(rfd);
	return 0;
}

/* ---- change notifications, as a listener receives them ---- */

static int cmd_listen(int argc, char **argv)
{
	uint8_t buf[8192] __attribute__((aligned(4)));
	struct ipeh_error e;
	struct ipeh_nl *nl;
	struct timespec t0, t;
	long secs, want, seen = 0;
	uint16_t family;
	int fd;

	if (argc < 3)
		return usage();
	secs = atol(argv[1]);
	want = atol(argv[2]);
	nl = nl_open_or_report();
	if (!nl)
		return 1;
	ipeh_error_clear(&e);
	if (ipeh_nl_subscribe(nl, &e) < 0) {
		printf("%s %s\n", errtok(e.err), e.msg);
		ipeh_nl_close(nl);
		return 0;
	}
	family = ipeh_nl_family(nl);
	fd = ipeh_nl_fd(nl);
	printf("listening\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (seen < want) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *h;
		long left_ms;
		ssize_t n;
		int left;

		clock_gettime(CLOCK_MONOTONIC, &t);
		left_ms = secs * 1000 - ((t.tv_sec - t0.tv_sec) * 1000 +
					 (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left_ms <= 0 || poll(&pfd, 1, (int)left_ms) <= 0)
			break;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0) {
			printf("%s recv\n", errtok(errno));
			break;
		}
		left = (int)n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
			const struct genlmsghdr *g = NLMSG_DATA(h);
			const struct nlattr *a;
			size_t off;

			if (h->nlmsg_type != family ||
			    h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
				continue;
			long gen = -1, ntype = -1;

			printf("notify cmd=%u pid=%u seq=%u attrs=", g->cmd,
			       h->nlmsg_pid, h->nlmsg_seq);
			for (off = NLMSG_HDRLEN + GENL_HDRLEN;
			     off + NLA_HDRLEN <= h->nlmsg_len;
			     off += NLA_ALIGN(a->nla_len)) {
				a = (const struct nlattr *)((const uint8_t *)h + off);
				if (a->nla_len < NLA_HDRLEN)
					break;
				printf("%s%u", off == NLMSG_HDRLEN + GENL_HDRLEN ?
				       "" : ",", a->nla_type & NLA_TYPE_MASK);
				if ((a->nla_type & NLA_TYPE_MASK) ==
				    IPEH_TLV_ATTR_GENERATION &&
				    a->nla_len == NLA_HDRLEN + 4)
					gen = *(const uint32_t *)((const uint8_t *)a + NLA_HDRLEN);
				if ((a->nla_type & NLA_TYPE_MASK) ==
				    IPEH_TLV_ATTR_TYPE &&
				    a->nla_len == NLA_HDRLEN + 1)
					ntype = *((const uint8_t *)a + NLA_HDRLEN);
			}
			if (ntype >= 0)
				printf(" type=0x%02lx", ntype);
			if (gen >= 0)
				printf(" gen=%ld", gen);
			printf("\n");
			seen++;
		}
	}
	printf("notifications %ld\n", seen);
	ipeh_nl_close(nl);
	return 0;
}

/* ---- raw ipeh-tlv requests, for malformed attributes (issue 7 §6) ---- */

static int cmd_rawnl(int argc, char **argv)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	uint8_t req[1024] __attribute__((aligned(4))), rsp[8192] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = (struct nlmsghdr *)req;
	struct genlmsghdr *g;
	struct ipeh_nl *nl;
	unsigned int cmd;
	size_t off;
	int fd, one = 1;
	uint16_t family;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "set"))
		cmd = 1;
	else if (!strcmp(argv[1], "unset"))
		cmd = 2;
	else if (!strcmp(argv[1], "get"))
		cmd = 3;
	else
		cmd = (unsigned int)atoi(argv[1]);
	nl = nl_open_or_report();
	if (!nl)
		return 1;
	family = ipeh_nl_family(nl);
	ipeh_nl_close(nl);

	memset(req, 0, sizeof(req));
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	g = (struct genlmsghdr *)NLMSG_DATA(nlh);
	g->cmd = (uint8_t)cmd;
	g->version = 1;
	off = NLMSG_HDRLEN + GENL_HDRLEN;
	for (int i = 2; i < argc; i++) {
		struct nlattr *a = (struct nlattr *)(req + off);
		char *colon = strchr(argv[i], ':');
		int n;

		if (!strncmp(argv[i], "resv=", 5)) {	/* the header's reserved field */
			g->reserved = (uint16_t)atoi(argv[i] + 5);
			continue;
		}
		if (!colon)
			return usage();
		a->nla_type = (uint16_t)atoi(argv[i]);
		n = parse_hex(colon + 1, (uint8_t *)a + NLA_HDRLEN,
			      sizeof(req) - off - NLA_HDRLEN - 8);
		if (n < 0)
			return usage();
		a->nla_len = (uint16_t)(NLA_HDRLEN + n);
		off += NLA_ALIGN(a->nla_len);
	}
	nlh->nlmsg_len = (uint32_t)off;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0) {
		perror("ipeh-probe: netlink socket");
		return 1;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	{
		/* a kernel that never answers is a failed check, not a hang */
		struct timeval tv = { .tv_sec = 10 };

		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if (sendto(fd, req, off, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		printf("%s send\n", errtok(errno));
		close(fd);
		return 0;
	}
	for (;;) {
		ssize_t n = recv(fd, rsp, sizeof(rsp), 0);
		struct nlmsghdr *h;
		int left;

		if (n < 0) {
			printf("%s recv\n", errtok(errno));
			break;
		}
		left = (int)n;
		for (h = (struct nlmsghdr *)rsp; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
			struct nlmsgerr *err;
			size_t ao;
			const char *msg = NULL;
			long offs = -1, miss = -1;

			if (h->nlmsg_type != NLMSG_ERROR)
				continue; /* a GET reply before the ack */
			err = (struct nlmsgerr *)NLMSG_DATA(h);
			ao = NLMSG_HDRLEN + sizeof(*err);
			if (!(h->nlmsg_flags & NLM_F_CAPPED))
				ao += NLMSG_ALIGN(err->msg.nlmsg_len) - NLMSG_HDRLEN;
			if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
				while (ao + NLA_HDRLEN <= h->nlmsg_len) {
					struct nlattr *a = (struct nlattr *)((uint8_t *)h + ao);

					if (a->nla_len < NLA_HDRLEN || ao + a->nla_len > h->nlmsg_len)
						break;
					if (a->nla_type == NLMSGERR_ATTR_MSG)
						msg = (const char *)a + NLA_HDRLEN;
					else if (a->nla_type == NLMSGERR_ATTR_OFFS)
						offs = *(uint32_t *)((uint8_t *)a + NLA_HDRLEN);
					else if (a->nla_type == NLMSGERR_ATTR_MISS_TYPE)
						miss = *(uint32_t *)((uint8_t *)a + NLA_HDRLEN);
					ao += NLA_ALIGN(a->nla_len);
				}
			}
			printf("%s", errtok(err->error));
			if (msg)
				printf(" msg=\"%s\"", msg);
			if (offs >= 0)
				printf(" offs=%ld", offs);
			if (miss >= 0)
				printf(" miss_type=%ld", miss);
			printf("\n");
			close(fd);
			return 0;
		}
	}
	close(fd);
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
	if (!strcmp(argv[0], "hostile"))
		return cmd_hostile(argc, argv);
	if (!strcmp(argv[0], "flip"))
		return cmd_flip(argc, argv);
	if (!strcmp(argv[0], "sendloop"))
		return cmd_sendloop(argc, argv);
	if (!strcmp(argv[0], "rawnl"))
		return cmd_rawnl(argc, argv);
	if (!strcmp(argv[0], "sockhold"))
		return cmd_sockhold(argc, argv);
	if (!strcmp(argv[0], "listen"))
		return cmd_listen(argc, argv);
	if (!strcmp(argv[0], "replace"))
		return cmd_replace(argc, argv);
	if (!strcmp(argv[0], "tablebench"))
		return cmd_tablebench(argc, argv);
	if (!strcmp(argv[0], "churnsend"))
		return cmd_churnsend(argc, argv);
	if (!strcmp(argv[0], "churnrecv"))
		return cmd_churnrecv(argc, argv);
	if (!strcmp(argv[0], "stickyloop"))
		return cmd_stickyloop(argc, argv);
	if (!strcmp(argv[0], "loopcheck"))
		return cmd_loopcheck(argc, argv);
	return usage();
}
