// SPDX-License-Identifier: GPL-2.0-only
/* The sentences tlvd and tlvctl print for kernel errors, and draining
 * the notification socket. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend-nl.h"
#include "log.h"

static void test_eperm_names_the_missing_capability(void **state)
{
	char buf[200];

	(void)state;
	assert_string_equal(nl_strerror(-EPERM, "", buf, sizeof(buf)),
			    "permission denied: changing the TLV table needs CAP_NET_ADMIN over the user namespace that owns this network namespace");
	assert_string_equal(nl_strerror(-EPERM, "Operation not permitted", buf, sizeof(buf)),
			    "permission denied: changing the TLV table needs CAP_NET_ADMIN over the user namespace that owns this network namespace");
}

static void test_missing_family_says_the_patches_are_missing(void **state)
{
	char buf[200];

	(void)state;
	assert_string_equal(nl_strerror(-ENOENT, NULL, buf, sizeof(buf)),
			    "kernel has no ipeh-tlv netlink family (ipeh patches not applied?)");
}

static void test_kernel_extack_message_is_kept(void **state)
{
	char buf[200];

	(void)state;
	/* libipeh's message carries the description already: not twice */
	assert_string_equal(nl_strerror(-EINVAL, "Bad TLV class (Invalid argument)",
					buf, sizeof(buf)),
			    "Bad TLV class (Invalid argument)");
	assert_string_equal(nl_strerror(-EALREADY, "", buf, sizeof(buf)),
			    "Operation already in progress");
}

static void test_drain_reads_every_pending_message_and_never_blocks(void **state)
{
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	assert_int_equal(nl_notify_drain(sv[0]), 0);	/* nothing: no wait */
	for (int i = 0; i < 3; i++)
		assert_int_equal(send(sv[1], "x", 1, 0), 1);
	assert_int_equal(nl_notify_drain(sv[0]), 3);
	assert_int_equal(nl_notify_drain(sv[0]), 0);
	close(sv[0]);
	close(sv[1]);
}

/* JOURNAL_STREAM counts only for the stream it names (issue 14 §2) */
static void test_journal_stream_must_name_this_fd(void **state)
{
	char env[64];
	struct stat st;
	int p[2];
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(fstat(fileno(f), &st), 0);
	snprintf(env, sizeof(env), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	assert_true(log_stream_is_journal(env, fileno(f)));
	/* inherited by a process whose stderr is something else */
	assert_false(log_stream_is_journal(env, p[1]));
	assert_false(log_stream_is_journal(NULL, fileno(f)));
	assert_false(log_stream_is_journal("", fileno(f)));
	assert_false(log_stream_is_journal("12", fileno(f)));
	strcat(env, "x");
	assert_false(log_stream_is_journal(env, fileno(f)));
	close(p[0]);
	close(p[1]);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eperm_names_the_missing_capability),
		cmocka_unit_test(test_journal_stream_must_name_this_fd),
		cmocka_unit_test(test_missing_family_says_the_patches_are_missing),
		cmocka_unit_test(test_kernel_extack_message_is_kept),
		cmocka_unit_test(test_drain_reads_every_pending_message_and_never_blocks),
	};

	return cmocka_run_group_tests_name("tlvd netlink helpers", tests, NULL, NULL);
}
