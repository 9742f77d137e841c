// SPDX-License-Identifier: GPL-2.0-only
/* Option names <-> numbers and the value syntax shared by tlvd.conf(5)
 * and tlvctl set. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "table.h"

static const struct {
	const char *name;
	int type;
} known[] = {
	{ "tel", 0x04 }, { "ra", 0x05 }, { "calipso", 0x07 }, { "pmtu", 0x30 },
	{ "ioam", 0x31 }, { "jumbo", 0xc2 }, { "hao", 0xc9 },
	{ "exp-1e", 0x1e }, { "exp-3e", 0x3e }, { "exp-5e", 0x5e },
	{ "exp-7e", 0x7e }, { "exp-9e", 0x9e }, { "exp-be", 0xbe },
	{ "exp-de", 0xde }, { "exp-fe", 0xfe },
};

static void test_every_name_maps_to_its_number_and_back(void **state)
{
	char buf[32], want[32];

	(void)state;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		assert_int_equal(tlv_type_parse(known[i].name), known[i].type);
		tlv_type_short((unsigned int)known[i].type, buf, sizeof(buf));
		assert_string_equal(buf, known[i].name);
		tlv_type_format((unsigned int)known[i].type, buf, sizeof(buf));
		snprintf(want, sizeof(want), "%s (0x%02x)", known[i].name,
			 known[i].type);
		assert_string_equal(buf, want);
	}
}

static void test_numbers_are_accepted_wherever_names_are(void **state)
{
	(void)state;
	assert_int_equal(tlv_type_parse("2"), 2);
	assert_int_equal(tlv_type_parse("255"), 255);
	assert_int_equal(tlv_type_parse("0x02"), 2);
	assert_int_equal(tlv_type_parse("0xff"), 255);
	assert_int_equal(tlv_type_parse("0XC2"), 0xc2);
	assert_int_equal(tlv_type_parse("49"), 0x31);
	assert_int_equal(tlv_type_parse("IOAM"), 0x31);
}

static void test_padding_and_out_of_range_types_are_refused(void **state)
{
	(void)state;
	assert_int_equal(tlv_type_parse("0"), -1);
	assert_int_equal(tlv_type_parse("1"), -1);
	assert_int_equal(tlv_type_parse("pad1"), -1);
	assert_int_equal(tlv_type_parse("padn"), -1);
	assert_int_equal(tlv_type_parse("256"), -1);
	assert_int_equal(tlv_type_parse("0x100"), -1);
	assert_int_equal(tlv_type_parse("-3"), -1);
	assert_int_equal(tlv_type_parse("+3"), -1);
	assert_int_equal(tlv_type_parse(" 3"), -1);
	assert_int_equal(tlv_type_parse("3 "), -1);
	assert_int_equal(tlv_type_parse("0x"), -1);
	assert_int_equal(tlv_type_parse(""), -1);
	assert_int_equal(tlv_type_parse("exp-2e"), -1);
	assert_int_equal(tlv_type_parse("bogus"), -1);
}

static void test_unnamed_type_is_formatted_as_hex(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(tlv_type_format(0x99, buf, sizeof(buf)), "0x99");
	assert_string_equal(tlv_type_short(0x02, buf, sizeof(buf)), "0x02");
}

static void test_builtin_types_are_those_of_tlv_table_md(void **state)
{
	unsigned int n = 0;

	(void)state;
	for (unsigned int t = 2; t < 256; t++)
		n += tlv_type_is_builtin(t);
	assert_int_equal(n, 5);
	assert_true(tlv_type_is_builtin(0xc9));
	assert_true(tlv_type_is_builtin(0x05));
	assert_true(tlv_type_is_builtin(0xc2));
	assert_true(tlv_type_is_builtin(0x07));
	assert_true(tlv_type_is_builtin(0x31));
	assert_false(tlv_type_is_builtin(0x30));
}

static void test_perm_names_round_trip(void **state)
{
	const char *why;
	uint8_t perm;

	(void)state;
	for (uint8_t p = 0; p <= IPEH_PERM_NO_CHECK; p++) {
		assert_int_equal(tlv_parse_perm(tlv_perm_name(p), &perm, &why), 0);
		assert_int_equal(perm, p);
	}
	assert_string_equal(tlv_perm_name(IPEH_PERM_NONE), "none");
	assert_string_equal(tlv_perm_name(IPEH_PERM_CHECK), "check");
	assert_string_equal(tlv_perm_name(IPEH_PERM_NO_CHECK), "nocheck");
	assert_string_equal(tlv_perm_name(IPEH_PERM_UNKNOWN), "unknown");
	assert_int_equal(tlv_parse_perm("no-check", &perm, &why), 0);
	assert_int_equal(perm, IPEH_PERM_NO_CHECK);
	assert_int_equal(tlv_parse_perm("Check", &perm, &why), -1);
}

static void test_class_names_round_trip(void **state)
{
	const char *why;
	uint8_t c;
	char buf[32];

	(void)state;
	for (uint8_t m = 1; m <= IPEH_CLASS_MASK; m++) {
		tlv_class_format(m, buf, sizeof(buf));
		assert_int_equal(tlv_parse_class(buf, &c, &why), 0);
		assert_int_equal(c, m);
	}
	assert_string_equal(tlv_class_format(0, buf, sizeof(buf)), "none");
	assert_string_equal(tlv_class_format(7, buf, sizeof(buf)), "hop,rtrdst,dst");
	/* libipeh's spelling of the routing-header destination options */
	assert_int_equal(tlv_parse_class("rtdst", &c, &why), 0);
	assert_int_equal(c, IPEH_CLASS_RTRDSTOPT);
	assert_int_equal(tlv_parse_class("dst , hop", &c, &why), 0);
	assert_int_equal(c, IPEH_CLASS_DSTOPT | IPEH_CLASS_HOPOPT);
	assert_int_equal(tlv_parse_class("", &c, &why), -1);
	assert_int_equal(tlv_parse_class(",", &c, &why), -1);
	assert_int_equal(tlv_parse_class("none", &c, &why), -1);
}

static void test_multiples_and_ranges(void **state)
{
	const char *why;
	uint8_t m, o, lo, hi;

	(void)state;
	assert_int_equal(tlv_parse_mult("4n+2", &m, &o, &why), 0);
	assert_int_equal(m, 4);
	assert_int_equal(o, 2);
	assert_int_equal(tlv_parse_mult("1n", &m, &o, &why), 0);
	assert_int_equal(m, 1);
	assert_int_equal(o, 0);
	assert_int_equal(tlv_parse_mult("16n+15", &m, &o, &why), 0);
	assert_int_equal(tlv_parse_mult("16n+16", &m, &o, &why), -1);
	assert_int_equal(tlv_parse_mult("n+1", &m, &o, &why), -1);
	assert_int_equal(tlv_parse_mult("4n+", &m, &o, &why), -1);
	assert_int_equal(tlv_parse_mult("4x+1", &m, &o, &why), -1);
	assert_int_equal(tlv_parse_len_range("10-254", &lo, &hi, &why), 0);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 254);
	assert_int_equal(tlv_parse_len_range("0", &lo, &hi, &why), 0);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 0);
	assert_int_equal(tlv_parse_len_range("1-2-3", &lo, &hi, &why), -1);
	assert_int_equal(tlv_parse_len_range("-3", &lo, &hi, &why), -1);
}

static void test_params_format_is_what_tlvd_conf_accepts(void **state)
{
	struct ipeh_tlv_params p;
	char buf[200];

	(void)state;
	ipeh_table_default_params(IPEH_OPT_IOAM, 0, &p);
	tlv_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "order 50 class hop admin nocheck user none align 4n+0 length 10-254 length-mult 4n+2");
	ipeh_tlv_params_unset(&p);
	tlv_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "no entry");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_name_maps_to_its_number_and_back),
		cmocka_unit_test(test_numbers_are_accepted_wherever_names_are),
		cmocka_unit_test(test_padding_and_out_of_range_types_are_refused),
		cmocka_unit_test(test_unnamed_type_is_formatted_as_hex),
		cmocka_unit_test(test_builtin_types_are_those_of_tlv_table_md),
		cmocka_unit_test(test_perm_names_round_trip),
		cmocka_unit_test(test_class_names_round_trip),
		cmocka_unit_test(test_multiples_and_ranges),
		cmocka_unit_test(test_params_format_is_what_tlvd_conf_accepts),
	};

	return cmocka_run_group_tests_name("tlvd names", tests, NULL, NULL);
}
