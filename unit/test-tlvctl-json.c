// SPDX-License-Identifier: GPL-2.0-only
/* tlvctl --json output: exact documents for entries, tables, diffs and
 * policy checks, and string escaping. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"

static FILE *out;
static char *buf;
static size_t len;

static int setup(void **state)
{
	(void)state;
	out = open_memstream(&buf, &len);
	return out ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	if (out)
		fclose(out);
	free(buf);
	out = NULL;
	buf = NULL;
	return 0;
}

static const char *output(void)
{
	fflush(out);
	return buf;
}

#define IOAM_JSON \
	"{\"type\":49,\"name\":\"ioam\",\"entry\":true,\"order\":50," \
	"\"class\":[\"hop\"],\"admin\":\"nocheck\",\"user\":\"none\"," \
	"\"align\":\"4n+0\",\"align_mult\":4,\"align_off\":0," \
	"\"min_length\":10,\"max_length\":254,\"length_mult\":\"4n+2\"," \
	"\"data_len_mult\":4,\"data_len_off\":2}"

static void test_entry_has_every_parameter(void **state)
{
	struct ipeh_tlv_params p;

	(void)state;
	ipeh_table_default_params(IPEH_OPT_IOAM, 0, &p);
	json_params(out, IPEH_OPT_IOAM, &p);
	assert_string_equal(output(), IOAM_JSON);
}

static void test_unnamed_type_without_entry(void **state)
{
	struct ipeh_tlv_params p;

	(void)state;
	ipeh_tlv_params_unset(&p);
	json_params(out, 0x99, &p);
	assert_string_equal(output(), "{\"type\":153,\"name\":null,\"entry\":false}");
}

static void test_unknown_admin_perm_is_null_and_classes_are_listed(void **state)
{
	struct ipeh_tlv_params p;

	(void)state;
	ipeh_table_default_params(IPEH_OPT_IOAM, 0, &p);
	p.admin_perm = IPEH_PERM_UNKNOWN;
	p.class_mask = IPEH_CLASS_MASK;
	json_params(out, IPEH_OPT_IOAM, &p);
	assert_non_null(strstr(output(), "\"class\":[\"hop\",\"rtrdst\",\"dst\"],\"admin\":null,"));
}

static void test_table_lists_entries_in_type_order(void **state)
{
	struct ipeh_table t;
	const char *s;

	(void)state;
	ipeh_table_init_default(&t, 0);
	json_table(out, &t, 0);
	s = output();
	assert_int_equal(s[0], '[');
	assert_int_equal(s[strlen(s) - 1], ']');
	/* RA (5), CALIPSO (7), IOAM (49), Jumbo (194), HAO (201) */
	assert_true(strstr(s, "\"type\":5,") < strstr(s, "\"type\":7,"));
	assert_true(strstr(s, "\"type\":7,") < strstr(s, "\"type\":49,"));
	assert_true(strstr(s, "\"type\":49,") < strstr(s, "\"type\":194,"));
	assert_true(strstr(s, "\"type\":194,") < strstr(s, "\"type\":201,"));
	assert_null(strstr(s, "\"entry\":false"));
	assert_non_null(strstr(s, IOAM_JSON));
}

static void test_table_all_lists_254_types(void **state)
{
	struct ipeh_table t;
	const char *s;
	unsigned int n = 0;

	(void)state;
	ipeh_table_init_default(&t, 0);
	json_table(out, &t, 1);
	for (s = output(); (s = strstr(s, "\"type\":")); s++)
		n++;
	assert_int_equal(n, 254);
}

static void test_empty_table_is_an_empty_array(void **state)
{
	struct ipeh_table t;

	(void)state;
	ipeh_table_init_empty(&t);
	json_table(out, &t, 0);
	assert_string_equal(output(), "[]");
}

static void test_changeset_has_op_from_and_to(void **state)
{
	struct ipeh_table a, b;
	struct changeset cs;

	(void)state;
	ipeh_table_init_default(&a, 0);
	b = a;
	b.params[IPEH_OPT_IOAM].user_perm = IPEH_PERM_CHECK;
	ipeh_tlv_params_unset(&b.params[IPEH_OPT_CALIPSO]);
	table_diff(&a, &b, &cs);
	json_changeset(out, &cs);
	assert_string_equal(output(),
		"[{\"type\":7,\"name\":\"calipso\",\"op\":\"unset\",\"from\":"
		"{\"type\":7,\"name\":\"calipso\",\"entry\":true,\"order\":40,"
		"\"class\":[\"hop\"],\"admin\":\"nocheck\",\"user\":\"none\","
		"\"align\":\"4n+2\",\"align_mult\":4,\"align_off\":2,"
		"\"min_length\":8,\"max_length\":252,\"length_mult\":\"4n+0\","
		"\"data_len_mult\":4,\"data_len_off\":0},\"to\":null},"
		"{\"type\":49,\"name\":\"ioam\",\"op\":\"set\",\"from\":" IOAM_JSON
		",\"to\":{\"type\":49,\"name\":\"ioam\",\"entry\":true,\"order\":50,"
		"\"class\":[\"hop\"],\"admin\":\"nocheck\",\"user\":\"check\","
		"\"align\":\"4n+0\",\"align_mult\":4,\"align_off\":0,"
		"\"min_length\":10,\"max_length\":254,\"length_mult\":\"4n+2\","
		"\"data_len_mult\":4,\"data_len_off\":2}}]");
}

static void test_empty_changeset_is_an_empty_array(void **state)
{
	struct changeset cs = { .count = 0 };

	(void)state;
	json_changeset(out, &cs);
	assert_string_equal(output(), "[]");
}

static void test_policy_document(void **state)
{
	struct policy pol;
	struct policy_error err;
	static const char text[] = "[global]\nunmentioned = reset\n"
				   "on-stop = restore\ninterval = 9\nempty = yes\n";

	(void)state;
	assert_int_equal(policy_parse_buffer(text, strlen(text), &pol, &err), 0);
	json_policy(out, "/etc/tlvd.conf", &pol);
	assert_string_equal(output(),
		"{\"file\":\"/etc/tlvd.conf\",\"ok\":true,\"unmentioned\":\"reset\","
		"\"on_stop\":\"restore\",\"interval\":9,\"options\":[]}");
}

static void test_policy_error_document_escapes_strings(void **state)
{
	struct policy_error err = { .line = 3 };

	(void)state;
	snprintf(err.msg, sizeof(err.msg), "unknown key 'a\"b\\c\td' in [global]");
	json_policy_error(out, "dir\n/x.conf", &err);
	assert_string_equal(output(),
		"{\"file\":\"dir\\n/x.conf\",\"ok\":false,\"line\":3,"
		"\"error\":\"unknown key 'a\\\"b\\\\c\\td' in [global]\"}");
}

static void test_control_characters_are_escaped(void **state)
{
	(void)state;
	json_string(out, "\x01\x1f ok");
	assert_string_equal(output(), "\"\\u0001\\u001f ok\"");
}

/* Bytes >= 0x80: well-formed UTF-8 as it is, anything else U+FFFD
 * (issue 14 §6: a message cut by %.40s inside a character, or a file name
 * in Latin-1, made tlvctl -j print invalid JSON)
 */
static void test_invalid_utf8_becomes_replacement_characters(void **state)
{
	(void)state;
	json_string(out, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80|"
		    "\xc3|\xff|\xc0\x80|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82");
	assert_string_equal(output(),
		"\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80|"
		"\\ufffd|\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
		"\\ufffd\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_entry_has_every_parameter),
		T(test_unnamed_type_without_entry),
		T(test_unknown_admin_perm_is_null_and_classes_are_listed),
		T(test_table_lists_entries_in_type_order),
		T(test_table_all_lists_254_types),
		T(test_empty_table_is_an_empty_array),
		T(test_changeset_has_op_from_and_to),
		T(test_empty_changeset_is_an_empty_array),
		T(test_policy_document),
		T(test_policy_error_document_escapes_strings),
		T(test_control_characters_are_escaped),
		T(test_invalid_utf8_becomes_replacement_characters),
#undef T
	};

	return cmocka_run_group_tests_name("tlvctl json", tests, NULL, NULL);
}
