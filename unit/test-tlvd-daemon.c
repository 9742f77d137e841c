// SPDX-License-Identifier: GPL-2.0-only
/* tlvd's start, reload, drift check and stop, against a fake table and
 * policy files in a temporary directory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon.h"
#include "test-tlvd-fake.h"

static struct fake f;
static struct backend be;
static struct logger lg;
static struct daemon d;
static char dir[64], path[128];

static const char shipped[] =
	"[global]\ninterval = 30\n"
	"[option ioam]\nclass = hop\norder = 50\nadmin = nocheck\n"
	"user = check\nalign = 4n+0\nlength = 10-254\nlength-mult = 4n+2\n"
	"[option pmtu]\nclass = hop\norder = 60\nadmin = nocheck\n"
	"user = check\nalign = 4n+2\nlength = 4\nlength-mult = 1n+0\n";

static void write_file(const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test-tlvd-daemon.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/tlvd.conf", dir);
	fake_init(&f, &be, &lg);
	daemon_init(&d, path, &be, &lg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	rmdir(dir);
	return 0;
}

static void start_with_shipped_policy(void)
{
	write_file(shipped);
	assert_int_equal(daemon_start(&d), 0);
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_CHECK);
	fake_reset_counters(&f);
}

static void test_start_applies_the_file_and_reports_status(void **state)
{
	(void)state;
	start_with_shipped_policy();
	assert_string_equal(d.last_error, "");
	assert_non_null(strstr(d.status, ": 2 types (pmtu ioam), unmentioned kept; 2 changes, 0 drifts corrected; last error: none"));
	assert_int_equal(daemon_interval(&d), 30);
}

static void test_start_with_a_broken_file_fails_with_file_line(void **state)
{
	char want[200];

	(void)state;
	write_file("[option ioam]\nuser = everyone\n");
	assert_int_equal(daemon_start(&d), -1);
	snprintf(want, sizeof(want),
		 "%s:2: invalid user 'everyone': expected none, check or nocheck",
		 path);
	assert_string_equal(d.last_error, want);
	assert_int_equal(f.calls, 0);
}

static void test_reload_with_a_broken_file_keeps_policy_and_table(void **state)
{
	struct ipeh_table before;
	char want[200];

	(void)state;
	start_with_shipped_policy();
	before = f.t;
	write_file("[option pmtu]\nclass = hop\norder = 61\nbogus\n");
	assert_int_equal(daemon_reload(&d), -1);
	assert_int_equal(f.calls, 0);
	for (unsigned int t = 2; t < 256; t++)
		assert_true(params_identical(&f.t.params[t], &before.params[t]));
	/* the policy in force is still the old one */
	assert_int_equal(d.pol.table.params[0x30].order, 60);
	snprintf(want, sizeof(want),
		 "%s:4: expected 'key = value' or a [section] header", path);
	assert_string_equal(d.last_error, want);
	assert_non_null(strstr(d.status, want));
	assert_non_null(strstr(f.log, "reload failed, keeping the current policy: "));

	/* and drift is still corrected against the old policy */
	f.t.params[0x31].user_perm = IPEH_PERM_NONE;
	assert_int_equal(daemon_check(&d), 1);
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_CHECK);
}

static void test_reload_with_a_good_file_applies_it_and_clears_the_error(void **state)
{
	(void)state;
	start_with_shipped_policy();
	write_file("[option pmtu]\nbroken\n");
	assert_int_equal(daemon_reload(&d), -1);
	assert_string_not_equal(d.last_error, "");
	write_file("[global]\ninterval = 5\n[option ioam]\nuser = check\n");
	assert_int_equal(daemon_reload(&d), 0);
	assert_string_equal(d.last_error, "");
	assert_int_equal(daemon_interval(&d), 5);
	/* pmtu's section was removed: no longer managed, it goes back to its
	 * kernel default (no entry) rather than keep the old values
	 * unmanaged (issue 14 §8); unmentioned = keep leaves only the types
	 * no policy managed alone
	 */
	assert_int_equal(f.t.params[0x30].order, 0);
	assert_string_equal(f.calls_log, "unset 0x30;");
	/* and on-stop = restore of the new policy does not need to know it */
	assert_false(d.pol.mentioned[0x30]);
}

static void test_reload_whose_apply_fails_keeps_the_old_policy(void **state)
{
	struct ipeh_table before;

	(void)state;
	start_with_shipped_policy();
	before = f.t;
	write_file("[option ioam]\nuser = nocheck\n[option 0x99]\nclass = dst\norder = 9\n");
	FAIL_CALLS(&f, 2);
	assert_int_equal(daemon_reload(&d), -1);
	for (unsigned int t = 2; t < 256; t++)
		assert_true(params_identical(&f.t.params[t], &before.params[t]));
	assert_false(d.pol.mentioned[0x99]);
	assert_non_null(strstr(d.last_error, "fake refusal"));
}

/* A re-assert that fails half-way keeps what it put back: rolling back
 * would only return to the drifted table (issue 14 §5)
 */
static void test_failed_reassert_keeps_what_it_fixed(void **state)
{
	(void)state;
	start_with_shipped_policy();
	f.t.params[0x31].user_perm = IPEH_PERM_NONE;
	assert_int_equal(ipeh_table_unset(&f.t, 0x30, 0), 0);
	FAIL_CALLS(&f, 2);	/* pmtu is put back, ioam fails */
	assert_int_equal(daemon_check(&d), -1);
	assert_int_equal(f.t.params[0x30].order, 60);
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_NONE);
	assert_non_null(strstr(f.log, "stopped after 1 of 2 changes; the rest at the next check\n"));
	assert_null(strstr(f.log, "rollback"));
	/* the next check finishes the job */
	assert_int_equal(daemon_check(&d), 1);
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_CHECK);
}

static void test_drift_is_detected_and_reasserted(void **state)
{
	(void)state;
	start_with_shipped_policy();
	assert_int_equal(daemon_check(&d), 0);
	assert_int_equal(f.calls, 0);

	/* someone (tlvctl) changes ioam and removes pmtu behind tlvd */
	f.t.params[0x31].user_perm = IPEH_PERM_NONE;
	assert_int_equal(ipeh_table_unset(&f.t, 0x30, 0), 0);
	assert_int_equal(daemon_check(&d), 2);
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_CHECK);
	assert_int_equal(f.t.params[0x30].order, 60);
	assert_int_equal(d.drifts, 1);
	assert_non_null(strstr(f.log, "drift: 2 types differ from the policy (pmtu ioam), re-asserting\n"));
	assert_non_null(strstr(d.status, "1 drift corrected"));
	assert_int_equal(daemon_check(&d), 0);
}

static void test_drift_on_unmentioned_types_is_ignored_with_keep(void **state)
{
	(void)state;
	start_with_shipped_policy();
	f.t.params[IPEH_OPT_RA].user_perm = IPEH_PERM_CHECK;
	assert_int_equal(daemon_check(&d), 0);
	assert_int_equal(f.calls, 0);
}

static void test_unreadable_table_during_check_is_an_error_not_a_crash(void **state)
{
	(void)state;
	start_with_shipped_policy();
	f.fail_dump = true;
	assert_int_equal(daemon_check(&d), -1);
	assert_string_equal(d.last_error,
			    "cannot read the kernel's table: fake dump failure");
}

static void test_stop_keep_leaves_the_policy(void **state)
{
	(void)state;
	start_with_shipped_policy();
	assert_int_equal(daemon_stop(&d), 0);
	assert_int_equal(f.calls, 0);
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_CHECK);
}

static void test_stop_restore_returns_managed_types_to_default(void **state)
{
	struct ipeh_table def;

	(void)state;
	write_file("[global]\non-stop = restore\n[option ioam]\nuser = check\n"
		   "[option pmtu]\nclass = hop\norder = 60\n");
	assert_int_equal(daemon_start(&d), 0);
	assert_int_equal(daemon_stop(&d), 0);
	ipeh_table_init_default(&def, 0);
	for (unsigned int t = 2; t < 256; t++)
		assert_true(tlv_params_equal(&f.t.params[t], &def.params[t]));
}

static void test_interval_override_wins_over_the_file(void **state)
{
	(void)state;
	start_with_shipped_policy();
	d.interval_override = 0;
	assert_int_equal(daemon_interval(&d), 0);
	d.interval_override = 7;
	assert_int_equal(daemon_interval(&d), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_start_applies_the_file_and_reports_status),
		T(test_start_with_a_broken_file_fails_with_file_line),
		T(test_reload_with_a_broken_file_keeps_policy_and_table),
		T(test_reload_with_a_good_file_applies_it_and_clears_the_error),
		T(test_reload_whose_apply_fails_keeps_the_old_policy),
		T(test_failed_reassert_keeps_what_it_fixed),
		T(test_drift_is_detected_and_reasserted),
		T(test_drift_on_unmentioned_types_is_ignored_with_keep),
		T(test_unreadable_table_during_check_is_an_error_not_a_crash),
		T(test_stop_keep_leaves_the_policy),
		T(test_stop_restore_returns_managed_types_to_default),
		T(test_interval_override_wins_over_the_file),
#undef T
	};

	return cmocka_run_group_tests_name("tlvd daemon", tests, NULL, NULL);
}
