/* ipeh-smoke: a quick in-guest check of the ipeh-tlv family and of
 * unprivileged Hop-by-Hop / Destination options, run as /init of an
 * initramfs (kernel/tests/smoke/run.sh). Prints "ok N ..." lines and a
 * summary; init then exits, the kernel panics and qemu -no-reboot exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ipeh.h>

static int fails, tests;
#define CHECK(cond, ...) do { tests++; if (cond) printf("ok %d ", tests); \
	else { fails++; printf("not ok %d ", tests); } printf(__VA_ARGS__); printf("\n"); } while (0)

static int nl;
static unsigned short fam;
static unsigned int seq = 1;

struct req { struct nlmsghdr n; struct genlmsghdr g; char buf[256]; };

static void put(struct req *r, int type, const void *d, int len)
{
	struct nlattr *a = (void *)((char *)r + NLMSG_ALIGN(r->n.nlmsg_len));
	a->nla_type = type; a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, d, len);
	r->n.nlmsg_len = NLMSG_ALIGN(r->n.nlmsg_len) + NLA_ALIGN(a->nla_len);
}
static void put8(struct req *r, int t, unsigned char v) { put(r, t, &v, 1); }
static void put16(struct req *r, int t, unsigned short v) { put(r, t, &v, 2); }

static void init_req(struct req *r, unsigned short type, int cmd, int flags)
{
	memset(r, 0, sizeof(*r));
	r->n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->n.nlmsg_type = type;
	r->n.nlmsg_flags = NLM_F_REQUEST | flags;
	r->n.nlmsg_seq = seq++;
	r->g.cmd = cmd; r->g.version = 1;
}

static char rbuf[65536];

/* returns -errno of the ack, or 0; calls cb on each data message */
static int talk(struct req *r, void (*cb)(struct nlmsghdr *))
{
	if (send(nl, r, r->n.nlmsg_len, 0) < 0) return -errno;
	for (;;) {
		int len = recv(nl, rbuf, sizeof(rbuf), 0);
		struct nlmsghdr *h;
		if (len < 0) return -errno;
		for (h = (void *)rbuf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE) return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);
				if (h->nlmsg_seq != r->n.nlmsg_seq) continue;
				return e->error;
			}
			if (h->nlmsg_seq != r->n.nlmsg_seq) continue;
			if (cb) cb(h);
		}
	}
}

static struct nlattr *attr(struct nlmsghdr *h, int type, int hdr)
{
	int len = h->nlmsg_len - NLMSG_LENGTH(hdr);
	struct nlattr *a = (void *)((char *)NLMSG_DATA(h) + NLMSG_ALIGN(hdr));
	for (; len >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) && a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len), a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
		if ((a->nla_type & NLA_TYPE_MASK) == type) return a;
	return NULL;
}
#define U8(a) (*(unsigned char *)((char *)(a) + NLA_HDRLEN))
#define U16(a) (*(unsigned short *)((char *)(a) + NLA_HDRLEN))

static void fam_cb(struct nlmsghdr *h)
{
	struct nlattr *a = attr(h, CTRL_ATTR_FAMILY_ID, GENL_HDRLEN);
	if (a) fam = U16(a);
}

static int ndump, seen[256], ra_order, ioam_ok, admin_seen;
static void dump_cb(struct nlmsghdr *h)
{
	struct nlattr *t = attr(h, IPEH_TLV_ATTR_TYPE, GENL_HDRLEN);
	int type = t ? U8(t) : -1;
	ndump++;
	if (type >= 0) seen[type]++;
	if (attr(h, IPEH_TLV_ATTR_ADMIN_PERM, GENL_HDRLEN)) admin_seen++;
	if (type == 5) ra_order = U16(attr(h, IPEH_TLV_ATTR_ORDER, GENL_HDRLEN));
	if (type == 49)
		ioam_ok = U16(attr(h, IPEH_TLV_ATTR_ORDER, GENL_HDRLEN)) == 50 &&
			U8(attr(h, IPEH_TLV_ATTR_ALIGN_MULT, GENL_HDRLEN)) == 4 &&
			U8(attr(h, IPEH_TLV_ATTR_ALIGN_OFF, GENL_HDRLEN)) == 0 &&
			U8(attr(h, IPEH_TLV_ATTR_MIN_DATA_LEN, GENL_HDRLEN)) == 10 &&
			U8(attr(h, IPEH_TLV_ATTR_MAX_DATA_LEN, GENL_HDRLEN)) == 254 &&
			U8(attr(h, IPEH_TLV_ATTR_DATA_LEN_MULT, GENL_HDRLEN)) == 4 &&
			U8(attr(h, IPEH_TLV_ATTR_DATA_LEN_OFF, GENL_HDRLEN)) == 2;
}

static int dump(void)
{
	struct req r;
	ndump = 0; admin_seen = 0; memset(seen, 0, sizeof(seen));
	init_req(&r, fam, IPEH_TLV_CMD_GET, NLM_F_DUMP | NLM_F_ACK);
	return talk(&r, dump_cb);
}

static int udp_pair(int *rx, struct sockaddr_in6 *to)
{
	socklen_t sl = sizeof(*to);
	int one = 1;
	*rx = socket(AF_INET6, SOCK_DGRAM, 0);
	memset(to, 0, sizeof(*to));
	to->sin6_family = AF_INET6; to->sin6_addr = in6addr_loopback;
	bind(*rx, (void *)to, sizeof(*to));
	getsockname(*rx, (void *)to, &sl);
	setsockopt(*rx, IPPROTO_IPV6, IPV6_RECVHOPOPTS, &one, sizeof(one));
	setsockopt(*rx, IPPROTO_IPV6, IPV6_RECVDSTOPTS, &one, sizeof(one));
	return socket(AF_INET6, SOCK_DGRAM, 0);
}

/* receive one datagram; copy the option header of cmsg type @want */
static int recv_opt(int rx, int want, unsigned char *out)
{
	char data[64], cbuf[512];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	if (recvmsg(rx, &m, MSG_DONTWAIT) < 0) return -errno;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == want) {
			int l = c->cmsg_len - CMSG_LEN(0);
			memcpy(out, CMSG_DATA(c), l);
			return l;
		}
	return 0;
}

static long in_hdr_errors(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/net/snmp6", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Ip6InHdrErrors %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(val, f);
	return fclose(f);
}

int main(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct ifreq ifr = { .ifr_name = "lo" };
	static unsigned char canon[8] = { 17, 0, 62, 2, 0xaa, 0xbb, 1, 0 };
	static unsigned char ra[8] = { 17, 0, 5, 2, 0, 0, 1, 0 };
	static unsigned char misal[8] = { 17, 0, 1, 0, 62, 2, 0xaa, 0xbb };
	unsigned char got[64];
	struct sockaddr_in6 to;
	struct req r;
	int s, rx, tx, err;

	printf("ipeh-e2e: start\n");
	s = socket(AF_INET, SOCK_DGRAM, 0);
	ioctl(s, SIOCGIFFLAGS, &ifr); ifr.ifr_flags |= IFF_UP; ioctl(s, SIOCSIFFLAGS, &ifr);

	nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	bind(nl, (void *)&sa, sizeof(sa));
	init_req(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	put(&r, CTRL_ATTR_FAMILY_NAME, IPEH_TLV_GENL_NAME, sizeof(IPEH_TLV_GENL_NAME));
	err = talk(&r, fam_cb);
	CHECK(!err && fam, "family %s resolves (id %u)", IPEH_TLV_GENL_NAME, fam);

	err = dump();
	CHECK(!err && ndump == 254, "dump lists %d messages", ndump);
	{ int i, once = 1; for (i = 2; i < 256; i++) once &= seen[i] == 1;
	  CHECK(once, "dump lists each type 2..255 once"); }
	CHECK(ra_order == 20, "router alert order %d", ra_order);
	CHECK(ioam_ok, "IOAM row 4n+0, 10..254, len%%4==2, order 50");
	CHECK(admin_seen == 254, "root sees admin_perm");

	init_req(&r, fam, IPEH_TLV_CMD_SET, NLM_F_ACK);
	put8(&r, IPEH_TLV_ATTR_TYPE, 63);
	put8(&r, IPEH_TLV_ATTR_USER_PERM, 1);
	CHECK(talk(&r, NULL) == -EINVAL, "SET of a new type without ORDER: EINVAL");

	init_req(&r, fam, IPEH_TLV_CMD_SET, NLM_F_ACK);
	put8(&r, IPEH_TLV_ATTR_TYPE, 62);
	put16(&r, IPEH_TLV_ATTR_ORDER, 100);
	put8(&r, IPEH_TLV_ATTR_USER_PERM, IPEH_TLV_PERM_WITH_CHECK);
	put8(&r, IPEH_TLV_ATTR_CLASS, IPEH_TLV_CLASS_FLAG_HOPOPT | IPEH_TLV_CLASS_FLAG_DSTOPT);
	put8(&r, IPEH_TLV_ATTR_ALIGN_MULT, 4);
	put8(&r, IPEH_TLV_ATTR_ALIGN_OFF, 2);
	put8(&r, IPEH_TLV_ATTR_MIN_DATA_LEN, 2);
	put8(&r, IPEH_TLV_ATTR_MAX_DATA_LEN, 6);
	put8(&r, IPEH_TLV_ATTR_DATA_LEN_MULT, 2);
	CHECK(talk(&r, NULL) == 0, "SET type 62 user_perm=check");

	init_req(&r, fam, IPEH_TLV_CMD_SET, NLM_F_ACK);
	put8(&r, IPEH_TLV_ATTR_TYPE, 1);
	put16(&r, IPEH_TLV_ATTR_ORDER, 101);
	CHECK(talk(&r, NULL) == -ERANGE, "SET type 1 rejected by policy");

	init_req(&r, fam, IPEH_TLV_CMD_SET, NLM_F_ACK);
	put8(&r, IPEH_TLV_ATTR_TYPE, 5);
	put16(&r, IPEH_TLV_ATTR_ORDER, 21);
	err = talk(&r, NULL);
	init_req(&r, fam, IPEH_TLV_CMD_UNSET, NLM_F_ACK);
	put8(&r, IPEH_TLV_ATTR_TYPE, 5);
	CHECK(!err && talk(&r, NULL) == 0 && !dump() && ra_order == 20,
	      "UNSET of router alert restores order 20");

	rx = -1;
	tx = udp_pair(&rx, &to);

	/* A Destination options header longer than max_dst_opts_length is
	 * dropped on receive and counted in Ip6InHdrErrors.
	 */
	{
		static unsigned char longdst[16] = { 17, 1, 1, 12 };
		long before, after;

		mkdir("/proc", 0755);
		mount("proc", "/proc", "proc", 0, NULL);
		before = in_hdr_errors();
		err = write_file("/proc/sys/net/ipv6/max_dst_opts_length", "8");
		setsockopt(tx, IPPROTO_IPV6, IPV6_DSTOPTS, longdst, 16);
		sendto(tx, "z", 1, 0, (void *)&to, sizeof(to));
		usleep(100000);
		after = in_hdr_errors();
		CHECK(!err && before >= 0 && after == before + 1 &&
		      recv_opt(rx, IPV6_DSTOPTS, got) == -EAGAIN,
		      "over-long destination options dropped and counted in Ip6InHdrErrors (%ld -> %ld)",
		      before, after);
		write_file("/proc/sys/net/ipv6/max_dst_opts_length", "2147483647");
		setsockopt(tx, IPPROTO_IPV6, IPV6_DSTOPTS, NULL, 0);
	}

	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		printf("# cannot drop privileges\n");

	init_req(&r, fam, IPEH_TLV_CMD_SET, NLM_F_ACK);
	put8(&r, IPEH_TLV_ATTR_TYPE, 62);
	put16(&r, IPEH_TLV_ATTR_ORDER, 102);
	CHECK(talk(&r, NULL) == -EPERM, "unprivileged SET: EPERM");
	init_req(&r, fam, IPEH_TLV_CMD_UNSET, NLM_F_ACK);
	put8(&r, IPEH_TLV_ATTR_TYPE, 62);
	CHECK(talk(&r, NULL) == -EPERM, "unprivileged UNSET: EPERM");
	err = dump();
	CHECK(!err && ndump == 254 && admin_seen == 0, "unprivileged dump hides admin_perm");

	CHECK(setsockopt(tx, IPPROTO_IPV6, IPV6_HOPOPTS, ra, 8) < 0 && errno == EPERM,
	      "unprivileged IPV6_HOPOPTS router alert: EPERM");
	CHECK(setsockopt(tx, IPPROTO_IPV6, IPV6_HOPOPTS, misal, 8) < 0 && errno == EINVAL,
	      "unprivileged IPV6_HOPOPTS misaligned: EINVAL");
	CHECK(setsockopt(tx, IPPROTO_IPV6, IPV6_HOPOPTS, canon, 8) == 0,
	      "unprivileged IPV6_HOPOPTS canonical: accepted");
	CHECK(sendto(tx, "x", 1, 0, (void *)&to, sizeof(to)) == 1, "send with hop-by-hop options");
	usleep(100000);
	err = recv_opt(rx, IPV6_HOPOPTS, got);
	CHECK(err == 8 && !memcmp(got + 1, canon + 1, 7), "receiver gets the same hop-by-hop options (%d)", err);
	CHECK(setsockopt(tx, IPPROTO_IPV6, IPV6_HOPOPTS, NULL, 0) == 0, "unprivileged removes them");

	{
		char cbuf[CMSG_SPACE(8)];
		struct iovec iov = { "y", 1 };
		struct msghdr m = { .msg_name = &to, .msg_namelen = sizeof(to), .msg_iov = &iov,
				    .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = IPPROTO_IPV6; c->cmsg_type = IPV6_DSTOPTS; c->cmsg_len = CMSG_LEN(8);
		memcpy(CMSG_DATA(c), canon, 8);
		CHECK(sendmsg(tx, &m, 0) == 1, "unprivileged sendmsg IPV6_DSTOPTS canonical");
		usleep(100000);
		err = recv_opt(rx, IPV6_DSTOPTS, got);
		CHECK(err == 8 && !memcmp(got + 1, canon + 1, 7), "receiver gets the same destination options (%d)", err);
		memcpy(CMSG_DATA(c), ra, 8);
		CHECK(sendmsg(tx, &m, 0) < 0 && errno == EPERM, "unprivileged sendmsg IPV6_DSTOPTS router alert: EPERM");
	}

	printf("ipeh-e2e: %d passed, %d failed\n", tests - fails, fails);
	fflush(stdout);
	reboot(RB_AUTOBOOT);	/* fails once unprivileged: init exits */
	return 0;
}
