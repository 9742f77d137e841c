// SPDX-License-Identifier: GPL-2.0-only
/*
 * The unit tests' fake kernels against the kernel's recorded replies
 * (unit/kernel-replies.txt, checked against the kernel in a guest by
 * vm-images/tests/52-netlink-perms.t): each recorded request, decoded
 * from its netlink attributes and run from the built-in table, is sorted
 * by the fakes' rules (kernel-replies.h) under the rule the kernel's reply
 * was recorded for, and the fake answers with that reply; libipeh's own
 * table code refuses what the kernel refuses and accepts what it accepts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel-replies.h"
#include "test-tlvd-fake.h"

/* One "ATTR:HEX" of a request into @p/@mask (attribute numbers of
 * <linux/ipeh.h>; u16 in host order, as ipeh-probe rawnl sends them).
 */
static void put_attr(const char *arg, unsigned int *type,
		     struct ipeh_tlv_params *p, unsigned int *mask)
{
	unsigned int attr, v = 0, b;
	const char *hex;
	uint8_t bytes[2] = { 0, 0 };
	size_t n = 0;

	assert_int_equal(sscanf(arg, "%u:", &attr), 1);
	hex = strchr(arg, ':') + 1;
	while (hex[0] && hex[1] && n < 2) {
		assert_int_equal(sscanf(hex, "%2x", &b), 1);
		bytes[n++] = (uint8_t)b;
		hex += 2;
	}
	if (n == 2) {
		uint16_t u16;

		memcpy(&u16, bytes, 2);
		v = u16;
	} else {
		v = bytes[0];
	}
	switch (attr) {
	case 1: *type = v; break;
	case 2: p->order = (uint16_t)v; *mask |= IPEH_ATTR_ORDER; break;
	case 3: p->admin_perm = (uint8_t)v; *mask |= IPEH_ATTR_ADMIN_PERM; break;
	case 4: p->user_perm = (uint8_t)v; *mask |= IPEH_ATTR_USER_PERM; break;
	case 5: p->class_mask = (uint8_t)v; *mask |= IPEH_ATTR_CLASS; break;
	case 6: p->align_mult = (uint8_t)v; *mask |= IPEH_ATTR_ALIGN_MULT; break;
	case 7: p->align_off = (uint8_t)v; *mask |= IPEH_ATTR_ALIGN_OFF; break;
	case 8: p->min_data_len = (uint8_t)v; *mask |= IPEH_ATTR_MIN_DATA_LEN; break;
	case 9: p->max_data_len = (uint8_t)v; *mask |= IPEH_ATTR_MAX_DATA_LEN; break;
	case 10: p->data_len_mult = (uint8_t)v; *mask |= IPEH_ATTR_DATA_LEN_MULT; break;
	case 11: p->data_len_off = (uint8_t)v; *mask |= IPEH_ATTR_DATA_LEN_OFF; break;
	default: fail_msg("attribute %u in '%s'", attr, arg);
	}
}

/*
 * Runs one step ("set A:B ...", "unset 1:T" or "get 1:T") on the fake's
 * table; returns the rule the fakes sort it under.
 */
static const char *step(struct fake *f, const char *cmd)
{
	char buf[128], *save = NULL, *w;
	struct ipeh_tlv_params p;
	unsigned int type = 0, mask = 0;
	char msg[200];
	const char *rule;

	memset(&p, 0, sizeof(p));
	snprintf(buf, sizeof(buf), "%s", cmd);
	w = strtok_r(buf, " ", &save);
	assert_non_null(w);
	if (!strcmp(w, "get")) {
		put_attr(strtok_r(NULL, " ", &save), &type, &p, &mask);
		return f->t.params[type].order ? "hao-built-in" : "no-entry";
	}
	if (!strcmp(w, "unset")) {
		put_attr(strtok_r(NULL, " ", &save), &type, &p, &mask);
		rule = kernel_unset_rule(&f->t, type, kernel_table_flags());
		fake_unset(f, (uint8_t)type, msg, sizeof(msg));
		return rule;
	}
	assert_string_equal(w, "set");
	while ((w = strtok_r(NULL, " ", &save)))
		put_attr(w, &type, &p, &mask);
	if (!(mask & IPEH_ATTR_ADMIN_PERM))
		p.admin_perm = IPEH_PERM_UNKNOWN;
	rule = kernel_set_rule(&f->t, type, &p, mask);
	if (!strcmp(rule, "ok") && type < 256)
		kernel_set_apply(&f->t, type, &p, mask);
	return rule;
}

/* Each recorded request is sorted under its rule; libipeh agrees */
static void test_every_recorded_request_gets_its_rule(void **state)
{
	size_t n, i;
	const struct kernel_reply *r = kernel_replies(&n);

	(void)state;
	assert_true(n >= 17);
	for (i = 0; i < n; i++) {
		struct fake f;
		struct backend be;
		struct logger lg;
		char req[sizeof(r[i].request)], *last, *s;
		const char *rule;

		fake_init(&f, &be, &lg);
		snprintf(req, sizeof(req), "%s", r[i].request);
		/* set-up steps, then the request judged */
		last = req;
		while ((s = strchr(last, ';'))) {
			*s = '\0';
			assert_string_equal(step(&f, kr_trim(last)), "ok");
			last = s + 1;
		}
		if (r[i].user) {
			/* genetlink refuses a user before any rule of ours */
			assert_string_equal(r[i].rule, "not-admin");
			assert_int_equal(r[i].err, -EPERM);
			continue;
		}
		rule = step(&f, kr_trim(last));
		if (strcmp(rule, r[i].rule))
			fail_msg("'%s': the fakes' rules say '%s', the kernel's reply was recorded as '%s'",
				 r[i].request, rule, r[i].rule);
		assert_int_equal(!!strcmp(rule, "ok") && strcmp(rule, "hao-built-in"),
				 r[i].err != 0);
	}
}

/* The fake's answer to a refusal is the recorded reply, word for word */
static void test_fake_answers_with_the_recorded_reply(void **state)
{
	struct fake f;
	struct backend be;
	struct logger lg;
	struct ipeh_tlv_params p;
	char msg[200], want[200];

	(void)state;
	fake_init(&f, &be, &lg);
	/* 0xbe with the order of IOAM (50) */
	ipeh_table_default_params(0xbe, 0, &p);
	p.order = 50;
	p.admin_perm = IPEH_PERM_NO_CHECK;
	p.user_perm = IPEH_PERM_CHECK;
	p.class_mask = IPEH_CLASS_DSTOPT;
	assert_int_equal(fake_set(&f, 0xbe, &p, msg, sizeof(msg)), -EALREADY);
	kernel_reply_libipeh_msg(kernel_reply("order-taken"), want, sizeof(want));
	assert_string_equal(msg, want);
	assert_string_equal(msg, "Order is used by another type (Operation already in progress)");
	assert_int_equal(f.t.params[0xbe].order, 0);
	/* class 0, the empty set of the policy's mask: accepted */
	p.order = 190;
	p.class_mask = 0;
	assert_int_equal(fake_set(&f, 0xbe, &p, msg, sizeof(msg)), 0);
	assert_int_equal(f.t.params[0xbe].order, 190);
	assert_int_equal(f.t.params[0xbe].class_mask, 0);
}

/* The fakes start from the table of the kernel that was recorded */
static void test_fake_table_is_the_recorded_kernels(void **state)
{
	struct fake f;
	struct backend be;
	struct logger lg;

	(void)state;
	fake_init(&f, &be, &lg);
	assert_int_equal(f.t.params[IPEH_OPT_HAO].order != 0,
			 kernel_reply("hao-built-in")->err == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_recorded_request_gets_its_rule),
		cmocka_unit_test(test_fake_answers_with_the_recorded_reply),
		cmocka_unit_test(test_fake_table_is_the_recorded_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
