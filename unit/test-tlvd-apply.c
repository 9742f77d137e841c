// SPDX-License-Identifier: GPL-2.0-only
/* Diff, ordering and rollback of tlvd's apply step, against a fake table. */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apply.h"
#include "test-tlvd-fake.h"

static struct fake f;
static struct backend be;
static struct logger lg;

static int setup(void **state)
{
	(void)state;
	fake_init(&f, &be, &lg);
	return 0;
}

static void parse_policy(const char *text, struct policy *pol)
{
	struct policy_error err;

	if (policy_parse_buffer(text, strlen(text), pol, &err))
		fail_msg("%u: %s", err.line, err.msg);
}

static const char shipped[] =
	"[option ioam]\nclass = hop\norder = 50\nadmin = nocheck\n"
	"user = check\nalign = 4n+0\nlength = 10-254\nlength-mult = 4n+2\n"
	"[option pmtu]\nclass = hop\norder = 60\nadmin = nocheck\n"
	"user = check\nalign = 4n+2\nlength = 4\nlength-mult = 1n+0\n";

static void assert_tables_equal(const struct ipeh_table *a,
				const struct ipeh_table *b)
{
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
		char x[200], y[200];

		if (params_identical(&a->params[t], &b->params[t]))
			continue;
		tlv_params_format(&a->params[t], x, sizeof(x));
		tlv_params_format(&b->params[t], y, sizeof(y));
		fail_msg("type 0x%02x differs:\n  %s\n  %s", t, x, y);
	}
}

static void test_applies_shipped_policy_with_one_logged_line_per_change(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(res.changed, 2);
	assert_int_equal(res.error, 0);
	assert_false(res.rolled_back);
	assert_string_equal(f.calls_log, "set 0x30;set 0x31;");
	assert_string_equal(f.log,
		"set pmtu (0x30): new entry order 60 class hop admin nocheck user check align 4n+2 length 4-4 length-mult 1n+0\n"
		"set ioam (0x31): user none -> check\n");
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_CHECK);
	assert_int_equal(f.t.params[0x30].order, 60);
}

static void test_second_apply_changes_nothing(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	fake_reset_counters(&f);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(res.changed, 0);
	assert_int_equal(f.calls, 0);
	assert_string_equal(f.log, "");
}

static void test_keep_leaves_unmentioned_types_alone(void **state)
{
	struct policy pol;
	struct apply_result res;
	struct ipeh_tlv_params custom = f.t.params[0x31];

	(void)state;
	custom.order = 99;
	assert_int_equal(ipeh_table_set(&f.t, 0x99, &custom, NULL), 0);
	f.t.params[5].user_perm = IPEH_PERM_CHECK;	/* RA changed */
	parse_policy("[global]\nunmentioned = keep\n[option pmtu]\nclass = hop\norder = 60\n", &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_string_equal(f.calls_log, "set 0x30;");
	assert_int_equal(f.t.params[0x99].order, 99);
	assert_int_equal(f.t.params[5].user_perm, IPEH_PERM_CHECK);
}

static void test_reset_returns_unmentioned_types_to_kernel_default(void **state)
{
	struct policy pol;
	struct apply_result res;
	struct ipeh_table def;
	struct ipeh_tlv_params custom = f.t.params[0x31];

	(void)state;
	custom.order = 99;
	assert_int_equal(ipeh_table_set(&f.t, 0x99, &custom, NULL), 0);
	f.t.params[5].user_perm = IPEH_PERM_CHECK;
	parse_policy("[global]\nunmentioned = reset\nempty = yes\n", &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_string_equal(f.calls_log, "set 0x05;unset 0x99;");
	ipeh_table_init_default(&def, 0);
	assert_tables_equal(&f.t, &def);
	assert_non_null(strstr(f.log, "unset 0x99 (was order 99 class hop"));
}

static void test_reset_does_not_create_hao_on_a_kernel_without_mip6(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	ipeh_table_init_default(&f.t, IPEH_TABLE_NO_MIP6);
	parse_policy("[global]\nunmentioned = reset\nempty = yes\n", &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(f.calls, 0);
	assert_int_equal(f.t.params[IPEH_OPT_HAO].order, 0);
}

static void test_failure_in_the_middle_restores_the_exact_previous_table(void **state)
{
	struct policy pol;
	struct apply_result res;
	struct ipeh_table before;

	(void)state;
	/* four changes: 0x30 new, 0x31 user, 0x99 new, 0xc2 user */
	parse_policy("[option pmtu]\nclass = hop\norder = 60\n"
		     "[option ioam]\nuser = check\n"
		     "[option 0x99]\nclass = dst\norder = 7\n"
		     "[option jumbo]\nadmin = check\n", &pol);
	before = f.t;
	FAIL_CALLS(&f, 3);
	f.fail_errno = ENOMEM;
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -ENOMEM);
	assert_int_equal(res.error, -ENOMEM);
	assert_true(res.rolled_back);
	assert_false(res.rollback_failed);
	assert_int_equal(res.changed, 0);
	assert_string_equal(res.msg, "set 0x99: fake refusal");
	assert_tables_equal(&f.t, &before);
	/* the 2 changes made are undone: pmtu removed, ioam back */
	assert_string_equal(f.calls_log,
			    "set 0x30;set 0x31;set 0x99;unset 0x30;set 0x31;");
	assert_non_null(strstr(f.log, "failed: set 0x99: new entry"));
	assert_non_null(strstr(f.log, "rollback: unset pmtu (0x30)"));
	assert_non_null(strstr(f.log, "rollback: set ioam (0x31): user check -> none"));
	assert_non_null(strstr(f.log, "rollback done: the types this apply changed are as they were before\n"));
}

static void test_failure_on_first_change_changes_nothing(void **state)
{
	struct policy pol;
	struct apply_result res;
	struct ipeh_table before = f.t;

	(void)state;
	parse_policy(shipped, &pol);
	FAIL_CALLS(&f, 1);
	f.fail_errno = EPERM;
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EPERM);
	assert_false(res.rolled_back);
	assert_false(res.rollback_failed);
	assert_int_equal(f.calls, 1);
	assert_tables_equal(&f.t, &before);
}

static void test_rollback_step_that_fails_once_is_retried(void **state)
{
	struct policy pol;
	struct apply_result res;
	struct ipeh_table before = f.t;

	(void)state;
	parse_policy(shipped, &pol);
	/* 1 set pmtu ok, 2 set ioam fails, 3 undo pmtu fails, 4 (second
	 * pass, from a fresh dump) undo pmtu ok */
	FAIL_CALLS(&f, 2, 3);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EINVAL);
	assert_true(res.rolled_back);
	assert_false(res.rollback_failed);
	assert_string_equal(f.calls_log,
			    "set 0x30;set 0x31;unset 0x30;unset 0x30;");
	assert_tables_equal(&f.t, &before);
	assert_non_null(strstr(f.log, "rollback: failed: unset pmtu (0x30)"));
	assert_non_null(strstr(f.log, "rollback done"));
}

static void test_rollback_that_cannot_finish_is_reported(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	parse_policy(shipped, &pol);
	/* ioam refused, and both undo passes of pmtu refused */
	FAIL_CALLS(&f, 2, 3, 4);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EINVAL);
	assert_true(res.rolled_back);
	assert_true(res.rollback_failed);
	assert_string_equal(f.calls_log,
			    "set 0x30;set 0x31;unset 0x30;unset 0x30;");
	assert_non_null(strstr(f.log, "rollback failed: the table differs from what it was before\n"));
}

static void test_rollback_restores_swapped_orders(void **state)
{
	struct policy pol;
	struct apply_result res;
	struct ipeh_table before = f.t;

	(void)state;
	/* swap RA (20) and jumbo (30) and change calipso; fail the last
	 * step: undoing needs the temporary-order dance again */
	parse_policy("[option ra]\norder = 30\n[option jumbo]\norder = 20\n"
		     "[option calipso]\nuser = check\n", &pol);
	FAIL_CALLS(&f, 4);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EINVAL);
	assert_false(res.rollback_failed);
	assert_tables_equal(&f.t, &before);
}

/* A backend whose table can be changed but never restored: the
 * rollback must say it failed. */
static int stuck_unset(void *ctx, uint8_t type, char *msg, size_t len)
{
	(void)ctx;
	(void)type;
	snprintf(msg, len, "stuck");
	return -EBUSY;
}

static int stuck_set(void *ctx, uint8_t type, const struct ipeh_tlv_params *p,
		     char *msg, size_t len)
{
	struct fake *ff = ctx;

	/* the first SET works, every later one fails */
	if (ff->calls++ == 0)
		return ipeh_table_set(&ff->t, type, p, NULL);
	snprintf(msg, len, "stuck");
	return -EBUSY;
}

static void test_rollback_failure_is_reported_and_logged(void **state)
{
	static const struct backend_ops stuck_ops = {
		.dump = fake_dump, .set = stuck_set, .unset = stuck_unset,
	};
	struct backend stuck = { &stuck_ops, &f };
	struct policy pol;
	struct apply_result res;

	(void)state;
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&stuck, &pol, &lg, &res), -EBUSY);
	assert_true(res.rolled_back);
	assert_true(res.rollback_failed);
	assert_non_null(strstr(f.log, "rollback failed: the table differs from what it was before\n"));
}

static void test_orders_are_swapped_without_a_clash(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	/* RA has 20, jumbo 30: swap them */
	parse_policy("[option ra]\norder = 30\n[option jumbo]\norder = 20\n", &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(f.t.params[IPEH_OPT_RA].order, 30);
	assert_int_equal(f.t.params[IPEH_OPT_JUMBO].order, 20);
	assert_int_equal(res.changed, 3);	/* one temporary move */
	assert_int_equal(f.calls, 3);
}

static void test_three_way_order_rotation_is_planned(void **state)
{
	struct ipeh_table from, to;
	struct plan *plan = malloc(sizeof(*plan));
	struct ipeh_table sim;

	(void)state;
	ipeh_table_init_default(&from, 0);
	to = from;
	to.params[IPEH_OPT_RA].order = 30;
	to.params[IPEH_OPT_JUMBO].order = 40;
	to.params[IPEH_OPT_CALIPSO].order = 20;
	assert_int_equal(plan_changes(&from, &to, plan), 0);
	/* replay the plan on a kernel-like table: no step may fail */
	sim = from;
	for (unsigned int i = 0; i < plan->count; i++) {
		const struct change *c = &plan->step[i];

		if (c->op == CHANGE_SET)
			assert_int_equal(ipeh_table_set(&sim, c->type, &c->to, NULL), 0);
		else
			assert_int_equal(ipeh_table_unset(&sim, c->type, 0), 0);
	}
	assert_tables_equal(&sim, &to);
	assert_int_equal(plan->count, 4);
	free(plan);
}

static void test_order_clash_in_the_wanted_table_changes_nothing(void **state)
{
	struct policy pol;
	struct apply_result res;

	struct ipeh_tlv_params custom = f.t.params[0x31];

	(void)state;
	/* keep mode: a live entry the file does not know (0x99, order 70)
	 * keeps its order, pmtu wants 70 too (a clash with a built-in order
	 * is refused when the file is read: test-tlvd-policy)
	 */
	custom.order = 70;
	assert_int_equal(ipeh_table_set(&f.t, 0x99, &custom, NULL), 0);
	parse_policy("[option pmtu]\nclass = hop\norder = 70\n", &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EALREADY);
	assert_int_equal(f.calls, 0);
	assert_string_equal(res.msg,
		"pmtu (0x30) and 0x99 would both have order 70; nothing changed");
}

static void test_unreadable_table_changes_nothing(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	parse_policy(shipped, &pol);
	f.fail_dump = true;
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EIO);
	assert_int_equal(f.calls, 0);
	assert_string_equal(res.msg, "cannot read the kernel's table: fake dump failure");
}

static void test_diff_lists_changes_without_making_them(void **state)
{
	struct policy pol;
	struct ipeh_table live, before = f.t;
	struct changeset cs;
	char msg[100], line[300];

	(void)state;
	parse_policy(shipped, &pol);
	assert_int_equal(diff_policy(&be, &pol, &live, &cs, msg, sizeof(msg)), 0);
	assert_int_equal(cs.count, 2);
	assert_int_equal(cs.change[0].type, 0x30);
	assert_int_equal(cs.change[0].op, CHANGE_SET);
	assert_int_equal(cs.change[1].type, 0x31);
	change_format(&cs.change[1], line, sizeof(line));
	assert_string_equal(line, "set ioam (0x31): user none -> check");
	assert_int_equal(f.calls, 0);
	assert_tables_equal(&f.t, &before);
}

static void test_change_format_lists_every_changed_field(void **state)
{
	struct change c = { .type = 0x99, .op = CHANGE_SET };
	char line[300];

	(void)state;
	ipeh_table_default_params(IPEH_OPT_IOAM, 0, &c.from);
	c.to = c.from;
	c.to.order = 51;
	c.to.class_mask = IPEH_CLASS_HOPOPT | IPEH_CLASS_DSTOPT;
	c.to.admin_perm = IPEH_PERM_CHECK;
	c.to.user_perm = IPEH_PERM_NO_CHECK;
	c.to.align_mult = 8;
	c.to.max_data_len = 200;
	c.to.data_len_off = 1;
	change_format(&c, line, sizeof(line));
	assert_string_equal(line, "set 0x99: order 50 -> 51, class hop -> hop,dst, "
			    "admin nocheck -> check, user none -> nocheck, "
			    "align 4n+0 -> 8n+0, length 10-254 -> 10-200, "
			    "length-mult 4n+2 -> 4n+1");
}

static void test_unknown_admin_perm_matches_anything(void **state)
{
	struct ipeh_tlv_params a, b;

	(void)state;
	ipeh_table_default_params(IPEH_OPT_IOAM, 0, &a);
	b = a;
	b.admin_perm = IPEH_PERM_UNKNOWN;
	assert_true(tlv_params_equal(&a, &b));
	b.user_perm = IPEH_PERM_CHECK;
	assert_false(tlv_params_equal(&a, &b));
	/* two absent entries are equal whatever their other fields */
	ipeh_tlv_params_unset(&a);
	ipeh_tlv_params_unset(&b);
	b.user_perm = IPEH_PERM_CHECK;
	assert_true(tlv_params_equal(&a, &b));
}

static void test_restore_table_touches_only_managed_types(void **state)
{
	struct policy pol;
	struct apply_result res;
	struct ipeh_tlv_params custom;

	(void)state;
	ipeh_table_default_params(IPEH_OPT_IOAM, 0, &custom);
	custom.order = 99;
	assert_int_equal(ipeh_table_set(&f.t, 0x99, &custom, NULL), 0);
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(apply_table(&be, &pol, policy_restore_table, 0, &lg, &res), 0);
	assert_int_equal(f.t.params[0x30].order, 0);	/* pmtu removed */
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_NONE);
	assert_int_equal(f.t.params[0x99].order, 99);	/* not managed */
}

/* A kernel that ignores user permissions: tlvd must say so. */
static int deaf_set(void *ctx, uint8_t type, const struct ipeh_tlv_params *p,
		    char *msg, size_t len)
{
	struct fake *ff = ctx;
	struct ipeh_tlv_params q = *p;

	q.user_perm = ff->t.params[type].user_perm;
	return fake_set(ctx, type, &q, msg, len);
}

static void test_kernel_not_reporting_what_was_set_is_logged(void **state)
{
	static const struct backend_ops deaf_ops = {
		.dump = fake_dump, .set = deaf_set, .unset = fake_unset,
	};
	struct backend deaf = { &deaf_ops, &f };
	struct policy pol;
	struct apply_result res;

	(void)state;
	parse_policy("[option ioam]\nuser = check\n", &pol);
	assert_int_equal(apply_policy(&deaf, &pol, &lg, &res), 0);
	assert_string_equal(f.log,
		"set ioam (0x31): user none -> check\n"
		"after applying, the kernel still differs from the policy: set ioam (0x31): user none -> check\n");
}

/* A rollback undoes what this apply changed, not another tool's change
 * made meanwhile to a type the policy does not name (issue 14 §5)
 */
static void test_rollback_keeps_a_concurrent_change_of_another_type(void **state)
{
	struct ipeh_tlv_params other = f.t.params[0x31];
	struct policy pol;
	struct apply_result res;

	(void)state;
	other.order = 77;
	f.mutate_on_call = 1;		/* while tlvd sets pmtu, 0x77 appears */
	f.mutate_type = 0x77;
	f.mutate_to = other;
	FAIL_CALLS(&f, 2);		/* and the second change fails */
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EINVAL);
	assert_true(res.rolled_back);
	assert_false(res.rollback_failed);
	/* pmtu, which this apply set, is back to no entry; 0x77 stays */
	assert_int_equal(f.t.params[0x30].order, 0);
	assert_int_equal(f.t.params[0x77].order, 77);
}

/* SIGTERM in the middle of a one-call-per-change apply waits until the
 * table is whole (issue 14 §1, kernels without REPLACE)
 */
static volatile sig_atomic_t term_at_call = -1;

static void on_term(int sig)
{
	(void)sig;
	term_at_call = (sig_atomic_t)f.calls;
}

static void test_sigterm_waits_for_the_apply_to_finish(void **state)
{
	struct sigaction sa = { .sa_handler = on_term }, old;
	struct policy pol;
	struct apply_result res;

	(void)state;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGTERM, &sa, &old), 0);
	f.raise_on_call = 1;
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	/* delivered once both changes were made, not after the first */
	assert_int_equal(term_at_call, 2);
	assert_int_equal(f.calls, 2);
	sigaction(SIGTERM, &old, NULL);
}

/* ---- a kernel with REPLACE: one request, all or nothing */

static void test_replace_applies_policy_in_one_request(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	fake_init_replace(&f, &be, &lg);
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(res.changed, 2);
	assert_string_equal(f.calls_log, "replace 2;");
	assert_int_equal(f.calls, 0);
	assert_string_equal(f.log,
		"set pmtu (0x30): new entry order 60 class hop admin nocheck user check align 4n+2 length 4-4 length-mult 1n+0\n"
		"set ioam (0x31): user none -> check\n");
	assert_int_equal(f.t.params[0x31].user_perm, IPEH_PERM_CHECK);
	/* nothing to change: no request at all */
	fake_reset_counters(&f);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(f.replaces, 0);
	assert_int_equal(res.changed, 0);
}

static void test_replace_swaps_orders_in_one_request(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	fake_init_replace(&f, &be, &lg);
	parse_policy("[option ra]\norder = 30\n[option jumbo]\norder = 20\n", &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_int_equal(f.t.params[IPEH_OPT_RA].order, 30);
	assert_int_equal(f.t.params[IPEH_OPT_JUMBO].order, 20);
	assert_int_equal(res.changed, 2);	/* no temporary move */
	assert_string_equal(f.calls_log, "replace 2;");
}

static void test_replace_refused_changes_nothing(void **state)
{
	struct ipeh_table before;
	struct policy pol;
	struct apply_result res;

	(void)state;
	fake_init_replace(&f, &be, &lg);
	before = f.t;
	f.replace_errno = EINVAL;
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), -EINVAL);
	assert_int_equal(res.error, -EINVAL);
	assert_false(res.rolled_back);
	assert_int_equal(f.calls, 0);	/* no rollback calls either */
	assert_tables_equal(&f.t, &before);
	assert_non_null(strstr(res.msg, "fake refusal; nothing changed"));
	assert_non_null(strstr(f.log, "apply failed (2 changes in one request)"));
}

static void test_replace_unsupported_falls_back_to_one_call_per_change(void **state)
{
	struct policy pol;
	struct apply_result res;

	(void)state;
	fake_init_replace(&f, &be, &lg);
	f.replace_errno = EOPNOTSUPP;
	parse_policy(shipped, &pol);
	assert_int_equal(apply_policy(&be, &pol, &lg, &res), 0);
	assert_string_equal(f.calls_log, "replace 2;set 0x30;set 0x31;");
	assert_int_equal(res.changed, 2);
	assert_int_equal(f.t.params[0x30].order, 60);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_applies_shipped_policy_with_one_logged_line_per_change, setup),
		cmocka_unit_test_setup(test_second_apply_changes_nothing, setup),
		cmocka_unit_test_setup(test_keep_leaves_unmentioned_types_alone, setup),
		cmocka_unit_test_setup(test_reset_returns_unmentioned_types_to_kernel_default, setup),
		cmocka_unit_test_setup(test_reset_does_not_create_hao_on_a_kernel_without_mip6, setup),
		cmocka_unit_test_setup(test_failure_in_the_middle_restores_the_exact_previous_table, setup),
		cmocka_unit_test_setup(test_failure_on_first_change_changes_nothing, setup),
		cmocka_unit_test_setup(test_rollback_step_that_fails_once_is_retried, setup),
		cmocka_unit_test_setup(test_rollback_that_cannot_finish_is_reported, setup),
		cmocka_unit_test_setup(test_rollback_restores_swapped_orders, setup),
		cmocka_unit_test_setup(test_rollback_failure_is_reported_and_logged, setup),
		cmocka_unit_test_setup(test_orders_are_swapped_without_a_clash, setup),
		cmocka_unit_test_setup(test_three_way_order_rotation_is_planned, setup),
		cmocka_unit_test_setup(test_order_clash_in_the_wanted_table_changes_nothing, setup),
		cmocka_unit_test_setup(test_unreadable_table_changes_nothing, setup),
		cmocka_unit_test_setup(test_diff_lists_changes_without_making_them, setup),
		cmocka_unit_test_setup(test_change_format_lists_every_changed_field, setup),
		cmocka_unit_test_setup(test_unknown_admin_perm_matches_anything, setup),
		cmocka_unit_test_setup(test_restore_table_touches_only_managed_types, setup),
		cmocka_unit_test_setup(test_kernel_not_reporting_what_was_set_is_logged, setup),
		cmocka_unit_test_setup(test_sigterm_waits_for_the_apply_to_finish, setup),
		cmocka_unit_test_setup(test_rollback_keeps_a_concurrent_change_of_another_type, setup),
		cmocka_unit_test_setup(test_replace_applies_policy_in_one_request, setup),
		cmocka_unit_test_setup(test_replace_swaps_orders_in_one_request, setup),
		cmocka_unit_test_setup(test_replace_refused_changes_nothing, setup),
		cmocka_unit_test_setup(test_replace_unsupported_falls_back_to_one_call_per_change, setup),
	};

	return cmocka_run_group_tests_name("tlvd apply", tests, NULL, NULL);
}
