// SPDX-License-Identifier: GPL-2.0-only
/* The sentences tlvd and tlvctl print for kernel errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <cmocka.h>

#include "backend-nl.h"

static void test_eperm_names_the_missing_capability(void **state)
{
	char buf[200];

	(void)state;
	assert_string_equal(nl_strerror(-EPERM, "", buf, sizeof(buf)),
			    "permission denied: changing the TLV table needs CAP_NET_ADMIN");
	assert_string_equal(nl_strerror(-EPERM, "Operation not permitted", buf, sizeof(buf)),
			    "permission denied: changing the TLV table needs CAP_NET_ADMIN");
}

static void test_missing_family_says_the_patches_are_missing(void **state)
{
	char buf[200];

	(void)state;
	assert_string_equal(nl_strerror(-ENOENT, NULL, buf, sizeof(buf)),
			    "kernel has no ipv6-tlv netlink family (ipeh patches not applied?)");
}

static void test_kernel_extack_message_is_kept(void **state)
{
	char buf[200];

	(void)state;
	assert_string_equal(nl_strerror(-EINVAL, "Bad TLV class", buf, sizeof(buf)),
			    "Bad TLV class (Invalid argument)");
	assert_string_equal(nl_strerror(-EALREADY, "", buf, sizeof(buf)),
			    "Operation already in progress");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eperm_names_the_missing_capability),
		cmocka_unit_test(test_missing_family_says_the_patches_are_missing),
		cmocka_unit_test(test_kernel_extack_message_is_kept),
	};

	return cmocka_run_group_tests_name("tlvd netlink errors", tests, NULL, NULL);
}
