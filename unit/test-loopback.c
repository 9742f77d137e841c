// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * End to end on this host's loopback: a PMTU + IOAM Hop-by-Hop header built
 * by libipeh, set as a sticky option, sent over UDP to ::1, received with
 * IPV6_RECVHOPOPTS and decoded back.  Needs a kernel that lets this user
 * set Hop-by-Hop options (root on a stock kernel, anyone allowed by the
 * series' table); skipped otherwise.
 */

#include "common.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static void test_pmtu_ioam_over_loopback(void **state)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	socklen_t alen = sizeof(a);
	struct ipeh_table t;
	struct ipeh_pmtu pm = { 1280, 0, true }, pm2;
	struct ipeh_ioam_trace tr = { .namespace_id = 7, .trace_type = 0xc00000,
				      .remaining_len = 6 }, tr2;
	uint8_t pd[4], id[34], blk[64], payload[4] = "ping", rbuf[16];
	union {
		struct cmsghdr align;
		char buf[256];
	} cb;
	struct iovec iov = { rbuf, sizeof(rbuf) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cb.buf, .msg_controllen = sizeof(cb.buf) };
	struct ipeh_builder *b;
	struct ipeh_opt o;
	enum ipeh_hdr hdr;
	const uint8_t *rb;
	void *cookie = NULL;
	size_t rlen;
	ssize_t n;
	int rx, tx, r, found = 0;

	(void)state;
	rx = socket(AF_INET6, SOCK_DGRAM, 0);
	tx = socket(AF_INET6, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0)
		skip();
	if (bind(rx, (struct sockaddr *)&a, sizeof(a)) < 0)
		skip();		/* no IPv6 loopback */
	assert_int_equal(getsockname(rx, (struct sockaddr *)&a, &alen), 0);
	assert_int_equal(ipeh_sock_recv_enable(rx, IPEH_HDR_HOPOPTS, true), 0);

	test_table(&t);
	assert_int_equal(ipeh_pmtu_encode(&pm, pd, sizeof(pd)), 4);
	assert_int_equal(ipeh_ioam_trace_encode(&tr, id, sizeof(id)), 34);
	b = ipeh_builder_new(&t, IPEH_HDR_HOPOPTS, NULL, IPEH_F_SETSOCKOPT);
	assert_non_null(b);
	ipeh_builder_add(b, IPEH_OPT_IOAM, id, sizeof(id));
	ipeh_builder_add(b, IPEH_OPT_PMTU, pd, sizeof(pd));
	n = ipeh_builder_finish(b, blk, sizeof(blk), NULL);
	ipeh_builder_free(b);
	assert_int_equal(n, 48);

	r = ipeh_sock_set(tx, IPEH_HDR_HOPOPTS, blk, (size_t)n);
	if (r == -EPERM) {
		close(rx);
		close(tx);
		skip();
	}
	assert_int_equal(r, 0);
	assert_int_equal(sendto(tx, payload, sizeof(payload), 0,
				(struct sockaddr *)&a, sizeof(a)), 4);
	assert_int_equal(recvmsg(rx, &msg, 0), 4);
	while ((r = ipeh_cmsg_next(&msg, &cookie, &hdr, &rb, &rlen)) > 0) {
		if (hdr != IPEH_HDR_HOPOPTS)
			continue;
		found++;
		assert_int_equal(ipeh_find(rb, rlen, IPEH_OPT_PMTU, &o), 1);
		assert_int_equal(ipeh_pmtu_decode(o.data, o.len, &pm2), 0);
		assert_int_equal(pm2.min_pmtu, 1280);
		assert_true(pm2.r);
		assert_int_equal(ipeh_find(rb, rlen, IPEH_OPT_IOAM, &o), 1);
		assert_int_equal(ipeh_ioam_trace_decode(o.data, o.len, &tr2), 0);
		assert_int_equal(tr2.namespace_id, 7);
	}
	assert_int_equal(r, 0);
	assert_int_equal(found, 1);
	close(rx);
	close(tx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmtu_ioam_over_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
