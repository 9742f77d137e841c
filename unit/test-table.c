// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Table: the built-in default is kernel/TLV-TABLE.md's, SET/UNSET follow
 * the kernel's rules, and the names tlvd/tlvctl use parse and print back.
 */

#include "common.h"

struct row {
	uint8_t type;
	uint8_t cls;
	uint16_t order;
	uint8_t am, ao, min, max, lm, lo;
};

/* kernel/TLV-TABLE.md "Built-in entries", copied by hand */
static const struct row rows[] = {
	{ 0xC9, IPEH_CLASS_DSTOPT, 10, 8, 6, 16, 16, 1, 0 },
	{ 0x05, IPEH_CLASS_HOPOPT, 20, 2, 0, 2, 2, 1, 0 },
	{ 0xC2, IPEH_CLASS_HOPOPT, 30, 4, 2, 4, 4, 1, 0 },
	{ 0x07, IPEH_CLASS_HOPOPT, 40, 4, 2, 8, 252, 4, 0 },
	{ 0x31, IPEH_CLASS_HOPOPT, 50, 4, 0, 10, 254, 4, 2 },
};

static void assert_row(const struct ipeh_tlv_params *p, const struct row *r)
{
	assert_int_equal(p->order, r->order);
	assert_int_equal(p->admin_perm, IPEH_PERM_NO_CHECK);
	assert_int_equal(p->user_perm, IPEH_PERM_NONE);
	assert_int_equal(p->class_mask, r->cls);
	assert_int_equal(p->align_mult, r->am);
	assert_int_equal(p->align_off, r->ao);
	assert_int_equal(p->min_data_len, r->min);
	assert_int_equal(p->max_data_len, r->max);
	assert_int_equal(p->data_len_mult, r->lm);
	assert_int_equal(p->data_len_off, r->lo);
}

static void assert_unset(const struct ipeh_tlv_params *p)
{
	assert_int_equal(p->order, 0);
	assert_int_equal(p->admin_perm, IPEH_PERM_NO_CHECK);
	assert_int_equal(p->user_perm, IPEH_PERM_NONE);
	assert_int_equal(p->class_mask, 0);
	assert_int_equal(p->align_mult, 4);
	assert_int_equal(p->align_off, 2);
	assert_int_equal(p->min_data_len, 0);
	assert_int_equal(p->max_data_len, 255);
	assert_int_equal(p->data_len_mult, 1);
	assert_int_equal(p->data_len_off, 0);
}

static void test_default_table_is_tlv_table_md(void **state)
{
	struct ipeh_table t;
	unsigned int i, j, entries = 0;

	(void)state;
	ipeh_table_init_default(&t, 0);
	for (i = 2; i < 256; i++) {
		const struct row *r = NULL;

		for (j = 0; j < sizeof(rows) / sizeof(rows[0]); j++)
			if (rows[j].type == i)
				r = &rows[j];
		if (r) {
			assert_row(ipeh_table_get(&t, (uint8_t)i), r);
			assert_true(ipeh_table_has_entry(&t, (uint8_t)i));
			entries++;
		} else {
			assert_unset(ipeh_table_get(&t, (uint8_t)i));
			assert_false(ipeh_table_has_entry(&t, (uint8_t)i));
		}
		assert_int_equal(ipeh_tlv_params_check(&t.params[i], NULL), 0);
	}
	assert_int_equal(entries, 5);
	ipeh_table_init_default(&t, IPEH_TABLE_NO_MIP6);
	assert_unset(&t.params[IPEH_OPT_HAO]);
}

static void test_set_follows_kernel_rules(void **state)
{
	struct ipeh_table t;
	struct ipeh_tlv_params p, q;
	struct ipeh_error e;

	(void)state;
	ipeh_table_init_default(&t, 0);
	ipeh_tlv_params_unset(&p);
	assert_int_equal(ipeh_table_set(&t, 0x30, &p, &e), -EINVAL);	/* order 0 */
	p.order = 20;	/* Router Alert's */
	assert_int_equal(ipeh_table_set(&t, 0x30, &p, &e), -EALREADY);
	assert_int_equal(e.type, 0x30);
	p.order = 60;
	p.user_perm = IPEH_PERM_CHECK;
	p.class_mask = IPEH_CLASS_HOPOPT;
	assert_int_equal(ipeh_table_set(&t, 0x30, &p, &e), 0);
	/* setting a type again with its own order is fine */
	assert_int_equal(ipeh_table_set(&t, 0x30, &p, &e), 0);
	assert_int_equal(ipeh_table_set(&t, 1, &p, &e), -EINVAL);

	q = p;
	q.align_mult = 0;
	assert_int_equal(ipeh_table_set(&t, 0x30, &q, &e), -EINVAL);
	q.align_mult = 17;
	assert_int_equal(ipeh_table_set(&t, 0x30, &q, &e), -EINVAL);
	q = p;
	q.align_off = q.align_mult;
	assert_int_equal(ipeh_table_set(&t, 0x30, &q, &e), -EINVAL);
	q = p;
	q.min_data_len = 9;
	q.max_data_len = 8;
	assert_int_equal(ipeh_table_set(&t, 0x30, &q, &e), -EINVAL);
	q = p;
	q.data_len_off = q.data_len_mult;
	assert_int_equal(ipeh_table_set(&t, 0x30, &q, &e), -EINVAL);
	q = p;
	q.user_perm = 3;
	assert_int_equal(ipeh_table_set(&t, 0x30, &q, &e), -EINVAL);
	q = p;
	q.class_mask = 8;
	assert_int_equal(ipeh_table_set(&t, 0x30, &q, &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_PARAM);

	assert_int_equal(t.params[0x30].order, 60);
	assert_int_equal(ipeh_table_unset(&t, 0x30, 0), 0);
	assert_unset(&t.params[0x30]);
	t.params[IPEH_OPT_IOAM].user_perm = IPEH_PERM_CHECK;
	assert_int_equal(ipeh_table_unset(&t, IPEH_OPT_IOAM, 0), 0);
	assert_row(&t.params[IPEH_OPT_IOAM], &rows[4]);
	/* a built-in row whose order another type took meanwhile */
	p.order = 50;
	t.params[IPEH_OPT_IOAM].order = 55;
	assert_int_equal(ipeh_table_set(&t, 0x30, &p, &e), 0);
	assert_int_equal(ipeh_table_unset(&t, IPEH_OPT_IOAM, 0), -EALREADY);
	assert_int_equal(t.params[IPEH_OPT_IOAM].order, 55);
}

static void test_option_names(void **state)
{
	static const char *const names[] = { "ioam", "pmtu", "ra", "jumbo",
		"calipso", "hao", "tel", "exp-1e", "exp-3e", "exp-5e", "exp-7e",
		"exp-9e", "exp-be", "exp-de", "exp-fe", "pad1", "padn" };
	char buf[16];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int ty = ipeh_opt_type_parse(names[i]);

		assert_true(ty >= 0);
		assert_string_equal(ipeh_opt_type_name((uint8_t)ty), names[i]);
	}
	assert_int_equal(ipeh_opt_type_parse("ioam"), 0x31);
	assert_int_equal(ipeh_opt_type_parse("pmtu"), 0x30);
	assert_int_equal(ipeh_opt_type_parse("ra"), 5);
	assert_int_equal(ipeh_opt_type_parse("jumbo"), 0xc2);
	assert_int_equal(ipeh_opt_type_parse("calipso"), 7);
	assert_int_equal(ipeh_opt_type_parse("hao"), 0xc9);
	assert_int_equal(ipeh_opt_type_parse("tel"), 4);
	assert_int_equal(ipeh_opt_type_parse("EXP-0xBE"), 0xbe);
	assert_int_equal(ipeh_opt_type_parse("0x42"), 0x42);
	assert_int_equal(ipeh_opt_type_parse("66"), 66);
	assert_int_equal(ipeh_opt_type_parse("256"), -EINVAL);
	/* one number syntax: no octal, no leading zero, one 0x (issue 14 §3) */
	assert_int_equal(ipeh_opt_type_parse("0300"), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse("066"), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse("0x0x31"), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse("0x"), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse("0X31"), 0x31);
	assert_int_equal(ipeh_opt_type_parse(" 66"), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse("-1"), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse(""), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse("exp-1f"), -EINVAL);
	assert_int_equal(ipeh_opt_type_parse("bogus"), -EINVAL);
	assert_null(ipeh_opt_type_name(0x42));
	ipeh_opt_type_format(0x42, buf, sizeof(buf));
	assert_string_equal(buf, "0x42");
	ipeh_opt_type_format(0x31, buf, sizeof(buf));
	assert_string_equal(buf, "ioam");
}

static void test_perm_class_hdr_names(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(ipeh_perm_parse("none"), IPEH_PERM_NONE);
	assert_int_equal(ipeh_perm_parse("check"), IPEH_PERM_CHECK);
	assert_int_equal(ipeh_perm_parse("no-check"), IPEH_PERM_NO_CHECK);
	assert_int_equal(ipeh_perm_parse("3"), -EINVAL);
	assert_string_equal(ipeh_perm_name(IPEH_PERM_NO_CHECK), "no-check");
	assert_string_equal(ipeh_perm_name(IPEH_PERM_UNKNOWN), "unknown");

	assert_int_equal(ipeh_class_parse("hop,dst"), 5);
	assert_int_equal(ipeh_class_parse("rtdst"), 2);
	assert_int_equal(ipeh_class_parse("none"), 0);
	assert_int_equal(ipeh_class_parse("7"), 7);
	assert_int_equal(ipeh_class_parse("hop,"), -EINVAL);
	assert_int_equal(ipeh_class_parse("hop,foo"), -EINVAL);
	assert_int_equal(ipeh_class_parse("8"), -EINVAL);
	ipeh_class_format(7, buf, sizeof(buf));
	assert_string_equal(buf, "hop,rtdst,dst");
	ipeh_class_format(0, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	assert_int_equal(ipeh_class_format(5, buf, 4), 7);	/* truncated, snprintf-like */
	assert_string_equal(buf, "hop");

	assert_int_equal(ipeh_hdr_parse("hop"), IPEH_HDR_HOPOPTS);
	assert_int_equal(ipeh_hdr_parse("dst"), IPEH_HDR_DSTOPTS);
	assert_int_equal(ipeh_hdr_parse("rtdst"), IPEH_HDR_RTHDRDSTOPTS);
	assert_int_equal(ipeh_hdr_parse("x"), -EINVAL);
	assert_string_equal(ipeh_rule_name(IPEH_RULE_ALIGN), "align");
	assert_string_equal(ipeh_rule_name(999), "unknown");
	assert_string_equal(ipeh_version(), "0.1.0");
}

static void test_limits(void **state)
{
	struct ipeh_limits l;
	int r;

	(void)state;
	ipeh_limits_default(&l);
	assert_int_equal(l.max_opts_number, 8);
	assert_int_equal(ipeh_limits_read(3, &l), -EINVAL);
	r = ipeh_limits_read(IPEH_HDR_HOPOPTS, &l);
	if (r == -ENOENT)
		skip();
	assert_int_equal(r, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_table_is_tlv_table_md),
		cmocka_unit_test(test_set_follows_kernel_rules),
		cmocka_unit_test(test_option_names),
		cmocka_unit_test(test_perm_class_hdr_names),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
