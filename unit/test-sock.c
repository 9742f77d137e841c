// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Socket helpers: cmsg building and extraction round trip; sticky options
 * on a real UDPv6 socket when the host allows it (skipped otherwise); the
 * netlink client reports a kernel without the "ipeh-tlv" family cleanly.
 */

#include "common.h"
#include "hexblk.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static void test_cmsg_put_and_next(void **state)
{
	union {
		struct cmsghdr align;
		char buf[512];
	} cb;
	uint8_t hop[64], dst[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };
	size_t hlen = hexblk(hop, sizeof(hop),
			     "00 05 30 04 05 00 05 dc 31 22 00 00 z32 01 02 00 00");
	struct msghdr msg = { .msg_control = cb.buf };
	void *cookie = NULL;
	enum ipeh_hdr hdr;
	const uint8_t *blk;
	size_t len;

	(void)state;
	assert_int_equal(ipeh_cmsg_put(&msg, sizeof(cb.buf), IPEH_HDR_HOPOPTS, hop, hlen), 0);
	assert_int_equal(msg.msg_controllen, ipeh_cmsg_space(hlen));
	assert_int_equal(ipeh_cmsg_put(&msg, sizeof(cb.buf), IPEH_HDR_DSTOPTS, dst, 8), 0);
	assert_int_equal(msg.msg_controllen, ipeh_cmsg_space(hlen) + ipeh_cmsg_space(8));
	assert_int_equal(CMSG_FIRSTHDR(&msg)->cmsg_type, IPV6_HOPOPTS);
	assert_int_equal(CMSG_FIRSTHDR(&msg)->cmsg_level, IPPROTO_IPV6);

	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), 1);
	assert_int_equal(hdr, IPEH_HDR_HOPOPTS);
	assert_int_equal(len, hlen);
	assert_memory_equal(blk, hop, hlen);
	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), 1);
	assert_int_equal(hdr, IPEH_HDR_DSTOPTS);
	assert_memory_equal(blk, dst, 8);
	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), 0);

	/* no room */
	assert_int_equal(ipeh_cmsg_put(&msg, msg.msg_controllen + 8, IPEH_HDR_DSTOPTS, dst, 8), -ENOBUFS);
	assert_int_equal(ipeh_cmsg_put(&msg, sizeof(cb.buf), 3, dst, 8), -EINVAL);
}

static void test_cmsg_next_rejects_short_block(void **state)
{
	union {
		struct cmsghdr align;
		char buf[128];
	} cb;
	uint8_t dst[8] = { 0, 1, 1, 4, 0, 0, 0, 0 };	/* claims 16 bytes */
	struct msghdr msg = { .msg_control = cb.buf };
	void *cookie = NULL;
	enum ipeh_hdr hdr;
	const uint8_t *blk;
	size_t len;

	(void)state;
	assert_int_equal(ipeh_cmsg_put(&msg, sizeof(cb.buf), IPEH_HDR_DSTOPTS, dst, 8), 0);
	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), -EINVAL);
	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), 0);
}

/* A control buffer of 24 bytes whose cmsg_len says 4096: refused, and
 * nothing read past the buffer (a heap buffer of exactly that size, so
 * the ASan build sees any such read).
 */
static void test_cmsg_next_bounds_cmsg_len(void **state)
{
	size_t clen = CMSG_SPACE(8);
	struct msghdr msg = { 0 };
	struct cmsghdr *cm;
	void *cookie = NULL;
	enum ipeh_hdr hdr;
	const uint8_t *blk;
	size_t len;
	char *buf;

	(void)state;
	assert_int_equal(clen, 24);
	buf = calloc(1, clen);
	assert_non_null(buf);
	msg.msg_control = buf;
	msg.msg_controllen = clen;
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = IPPROTO_IPV6;
	cm->cmsg_type = IPV6_HOPOPTS;
	cm->cmsg_len = 4096;
	CMSG_DATA(cm)[1] = 255;		/* a header of 2048 bytes */
	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), -EINVAL);
	/* one byte short of its own length: refused too */
	cm->cmsg_len = clen + 1;
	CMSG_DATA(cm)[1] = 0;
	cookie = NULL;
	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), -EINVAL);
	/* exactly the buffer: accepted */
	cm->cmsg_len = CMSG_LEN(8);
	cookie = NULL;
	assert_int_equal(ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len), 1);
	assert_int_equal(len, 8);
	free(buf);
}

static void test_sticky_options_on_udp6(void **state)
{
	uint8_t blk[8] = { 0, 0, 0x1e, 4, 1, 2, 3, 4 }, got[64];
	socklen_t glen = sizeof(got);
	int fd, r;

	(void)state;
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd < 0)
		skip();
	r = ipeh_sock_set(fd, IPEH_HDR_DSTOPTS, blk, sizeof(blk));
	if (r == -EPERM) {	/* stock kernel, unprivileged */
		close(fd);
		skip();
	}
	assert_int_equal(r, 0);
	assert_int_equal(getsockopt(fd, IPPROTO_IPV6, IPV6_DSTOPTS, got, &glen), 0);
	assert_int_equal(glen, 8);
	assert_memory_equal(got + 2, blk + 2, 6);
	assert_int_equal(ipeh_sock_clear(fd, IPEH_HDR_DSTOPTS), 0);
	glen = sizeof(got);
	assert_int_equal(getsockopt(fd, IPPROTO_IPV6, IPV6_DSTOPTS, got, &glen), 0);
	assert_int_equal(glen, 0);
	assert_int_equal(ipeh_sock_recv_enable(fd, IPEH_HDR_HOPOPTS, true), 0);
	assert_int_equal(ipeh_sock_recv_enable(fd, IPEH_HDR_DSTOPTS, false), 0);
	assert_int_equal(ipeh_sock_set(fd, 3, blk, 8), -EINVAL);
	assert_int_equal(ipeh_sock_set(fd, IPEH_HDR_DSTOPTS, blk, 12), -EINVAL);
	close(fd);
}

static void test_nl_client_without_family(void **state)
{
	struct ipeh_error e;
	struct ipeh_nl *nl;
	struct ipeh_table t;
	int r;

	(void)state;
	ipeh_error_clear(&e);
	r = ipeh_nl_open(&nl, &e);
	if (r == -ENOENT) {
		assert_null(nl);
		assert_non_null(strstr(e.msg, "ipeh-tlv"));
		return;
	}
	if (r < 0)
		skip();		/* no netlink here */
	/* a kernel with the series: a dump must fill every type */
	assert_true(ipeh_nl_family(nl) > 0);
	assert_true(ipeh_nl_fd(nl) >= 0);
	assert_int_equal(ipeh_nl_dump_table(nl, &t, &e), 0);
	ipeh_nl_close(nl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmsg_put_and_next),
		cmocka_unit_test(test_cmsg_next_rejects_short_block),
		cmocka_unit_test(test_cmsg_next_bounds_cmsg_len),
		cmocka_unit_test(test_sticky_options_on_udp6),
		cmocka_unit_test(test_nl_client_without_family),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
