// SPDX-License-Identifier: GPL-2.0-only
/* tlvd.conf(5) parser: every key, every error with its exact line and
 * message, and that a bad file changes nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "policy.h"

static int parse(const char *text, struct policy *pol, struct policy_error *err)
{
	return policy_parse_buffer(text, strlen(text), pol, err);
}

static void assert_error_n(const char *text, size_t len, unsigned int line,
			   const char *msg)
{
	struct policy pol, before;
	struct policy_error err;

	memset(&pol, 0xa5, sizeof(pol));
	before = pol;
	if (policy_parse_buffer(text, len, &pol, &err) == 0)
		fail_msg("accepted:\n%s", text);
	if (err.line != line || strcmp(err.msg, msg))
		fail_msg("for:\n%s\nwant %u: %s\ngot  %u: %s", text, line, msg,
			 err.line, err.msg);
	/* a bad file changes nothing */
	assert_memory_equal(&pol, &before, sizeof(pol));
}

static void assert_error(const char *text, unsigned int line, const char *msg)
{
	assert_error_n(text, strlen(text), line, msg);
}

static void test_shipped_example_grants_ioam_and_pmtu_to_users(void **state)
{
	struct policy pol;
	struct policy_error err = { 0 };
	const struct ipeh_tlv_params *ioam, *pmtu;

	(void)state;
	if (policy_parse_file(TLVD_SRCDIR "/tlvd.conf", &pol, &err))
		fail_msg("%u: %s", err.line, err.msg);
	assert_int_equal(policy_count(&pol), 2);
	assert_true(pol.mentioned[0x31]);
	assert_true(pol.mentioned[0x30]);
	assert_int_equal(pol.unmentioned, POLICY_UNMENTIONED_KEEP);
	assert_int_equal(pol.on_stop, POLICY_ON_STOP_KEEP);
	assert_int_equal(pol.interval, 30);

	/* IOAM as kernel/TLV-TABLE.md, user check */
	ioam = &pol.table.params[0x31];
	assert_int_equal(ioam->class_mask, IPEH_CLASS_HOPOPT);
	assert_int_equal(ioam->order, 50);
	assert_int_equal(ioam->admin_perm, IPEH_PERM_NO_CHECK);
	assert_int_equal(ioam->user_perm, IPEH_PERM_CHECK);
	assert_int_equal(ioam->align_mult, 4);
	assert_int_equal(ioam->align_off, 0);
	assert_int_equal(ioam->min_data_len, 10);
	assert_int_equal(ioam->max_data_len, 254);
	assert_int_equal(ioam->data_len_mult, 4);
	assert_int_equal(ioam->data_len_off, 2);

	/* PMTU as RFC 9268: 4 bytes, 4n+2 */
	pmtu = &pol.table.params[0x30];
	assert_int_equal(pmtu->class_mask, IPEH_CLASS_HOPOPT);
	assert_int_equal(pmtu->user_perm, IPEH_PERM_CHECK);
	assert_int_equal(pmtu->align_mult, 4);
	assert_int_equal(pmtu->align_off, 2);
	assert_int_equal(pmtu->min_data_len, 4);
	assert_int_equal(pmtu->max_data_len, 4);
	assert_int_not_equal(pmtu->order, 0);
}

static void test_every_option_key_is_parsed(void **state)
{
	struct policy pol;
	struct policy_error err;
	const struct ipeh_tlv_params *p;

	(void)state;
	assert_int_equal(parse("[option 0x99]\n"
			       "class = hop, rtrdst,dst\n"
			       "order = 65535\n"
			       "admin = check\n"
			       "user = nocheck\n"
			       "align = 8n+6\n"
			       "length = 0-255\n"
			       "length-mult = 16n+15\n", &pol, &err), 0);
	p = &pol.table.params[0x99];
	assert_int_equal(p->class_mask, IPEH_CLASS_MASK);
	assert_int_equal(p->order, 65535);
	assert_int_equal(p->admin_perm, IPEH_PERM_CHECK);
	assert_int_equal(p->user_perm, IPEH_PERM_NO_CHECK);
	assert_int_equal(p->align_mult, 8);
	assert_int_equal(p->align_off, 6);
	assert_int_equal(p->min_data_len, 0);
	assert_int_equal(p->max_data_len, 255);
	assert_int_equal(p->data_len_mult, 16);
	assert_int_equal(p->data_len_off, 15);
	assert_true(pol.mentioned[0x99]);
	assert_int_equal(policy_count(&pol), 1);
}

static void test_every_global_key_is_parsed(void **state)
{
	struct policy pol;
	struct policy_error err;

	(void)state;
	assert_int_equal(parse("[global]\nunmentioned = reset\n"
			       "on-stop = restore\ninterval = 0\nempty = yes\n",
			       &pol, &err), 0);
	assert_int_equal(pol.unmentioned, POLICY_UNMENTIONED_RESET);
	assert_int_equal(pol.on_stop, POLICY_ON_STOP_RESTORE);
	assert_int_equal(pol.interval, 0);
	/* [defaults] is another name for [global] */
	assert_int_equal(parse("[defaults]\ninterval = 5\nempty = yes\n", &pol, &err), 0);
	assert_int_equal(pol.interval, 5);
	assert_int_equal(parse("[global]\nunmentioned = keep\n"
			       "on-stop = keep\ninterval = 86400\nempty = yes\n",
			       &pol, &err), 0);
	assert_int_equal(pol.unmentioned, POLICY_UNMENTIONED_KEEP);
	assert_int_equal(pol.on_stop, POLICY_ON_STOP_KEEP);
	assert_int_equal(pol.interval, 86400);
}

/* issue 14 §12: a truncated or emptied file must not quietly apply
 * nothing; an empty policy needs "empty = yes"
 */
static void test_empty_file_is_refused_unless_said(void **state)
{
	struct policy pol;
	struct policy_error err;

	(void)state;
	assert_error("", 1,
		     "the file names no option type (empty or cut short?); write 'empty = yes' in [global] to apply a policy without options");
	assert_error("# only\n; comments\n\n   \n", 4,
		     "the file names no option type (empty or cut short?); write 'empty = yes' in [global] to apply a policy without options");
	assert_error("[global]\nunmentioned = reset\n", 2,
		     "the file names no option type (empty or cut short?); write 'empty = yes' in [global] to apply a policy without options");
	assert_int_equal(parse("[global]\nempty = yes\n", &pol, &err), 0);
	assert_int_equal(policy_count(&pol), 0);
	assert_int_equal(pol.unmentioned, POLICY_UNMENTIONED_KEEP);
	assert_int_equal(pol.on_stop, POLICY_ON_STOP_KEEP);
	assert_int_equal(pol.interval, POLICY_DEFAULT_INTERVAL);
	assert_error("[global]\nempty = maybe\n", 2,
		     "invalid empty 'maybe': expected yes or no");
	assert_error("[option ioam]\nempty = yes\n", 2,
		     "unknown key 'empty' in [option ioam]");
}

/* issue 14 §12: a BOM is named; [defaults] errors say [defaults] */
static void test_bom_and_defaults_are_named(void **state)
{
	(void)state;
	assert_error("\xef\xbb\xbf[option ioam]\nuser = check\n", 1,
		     "the file starts with a UTF-8 byte order mark (EF BB BF): save it without one");
	assert_error("[defaults]\nbogus = 1\n", 2,
		     "unknown key 'bogus' in [defaults]");
	assert_error("[global]\nbogus = 1\n", 2,
		     "unknown key 'bogus' in [global]");
}

static void test_builtin_type_keeps_unset_keys_at_its_default(void **state)
{
	struct policy pol;
	struct policy_error err;
	const struct ipeh_tlv_params *p;

	(void)state;
	/* RA: hop, order 20, 2n+0, length 2 */
	assert_int_equal(parse("[option ra]\nuser = check\n", &pol, &err), 0);
	p = &pol.table.params[5];
	assert_int_equal(p->user_perm, IPEH_PERM_CHECK);
	assert_int_equal(p->order, 20);
	assert_int_equal(p->class_mask, IPEH_CLASS_HOPOPT);
	assert_int_equal(p->align_mult, 2);
	assert_int_equal(p->min_data_len, 2);
	assert_int_equal(p->max_data_len, 2);
}

static void test_new_type_defaults_are_the_no_entry_defaults(void **state)
{
	struct policy pol;
	struct policy_error err;
	const struct ipeh_tlv_params *p;

	(void)state;
	assert_int_equal(parse("[option exp-1e]\nclass = dst\norder = 99\n",
			       &pol, &err), 0);
	p = &pol.table.params[0x1e];
	assert_int_equal(p->admin_perm, IPEH_PERM_NO_CHECK);
	assert_int_equal(p->user_perm, IPEH_PERM_NONE);
	assert_int_equal(p->align_mult, 4);
	assert_int_equal(p->align_off, 2);
	assert_int_equal(p->min_data_len, 0);
	assert_int_equal(p->max_data_len, 255);
	assert_int_equal(p->data_len_mult, 1);
	assert_int_equal(p->data_len_off, 0);
}

static void test_types_by_name_and_number_are_the_same(void **state)
{
	static const char *const spellings[] = { "ioam", "IOAM", "49", "0x31",
						 "0X31" };
	struct policy pol;
	struct policy_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		char text[64];

		snprintf(text, sizeof(text), "[option %s]\nuser = check\n",
			 spellings[i]);
		assert_int_equal(parse(text, &pol, &err), 0);
		assert_true(pol.mentioned[0x31]);
		assert_int_equal(policy_count(&pol), 1);
	}
}

static void test_syntax_variants(void **state)
{
	struct policy pol;
	struct policy_error err;

	(void)state;
	/* CRLF, tabs, inline comments, no final newline, 4n == 4n+0,
	 * no-check == nocheck, single length */
	assert_int_equal(parse("\t[ option\tioam ]  # c\r\n"
			       "  user=check ; c\r\n"
			       "align = 4n\r\n"
			       "admin = no-check\r\n"
			       "length = 14", &pol, &err), 0);
	assert_int_equal(pol.table.params[0x31].user_perm, IPEH_PERM_CHECK);
	assert_int_equal(pol.table.params[0x31].align_off, 0);
	assert_int_equal(pol.table.params[0x31].admin_perm,
			 IPEH_PERM_NO_CHECK);
	assert_int_equal(pol.table.params[0x31].min_data_len, 14);
	assert_int_equal(pol.table.params[0x31].max_data_len, 14);
}

static void test_structure_errors(void **state)
{
	(void)state;
	assert_error_n("[global]\ninterval = 1\0x\n", 23, 2, "NUL byte in line");
	assert_error("\n[global\n", 2, "section header is missing ']'");
	assert_error("[global] x\n", 1, "text after ']'");
	assert_error("[global]\n[global]\n", 2,
		     "duplicate [global] section (first at line 1)");
	assert_error("[global]\n[defaults]\n", 2,
		     "duplicate [defaults] section (first at line 1)");
	assert_error("[foo]\n", 1,
		     "unknown section [foo] (expected [global] or [option TYPE])");
	assert_error("[optionioam]\n", 1,
		     "unknown section [optionioam] (expected [global] or [option TYPE])");
	assert_error("[option xyz]\n", 1,
		     "unknown option type 'xyz' (expected a name such as ioam or pmtu, or a number from 2 to 255)");
	assert_error("[option 1]\n", 1,
		     "unknown option type '1' (expected a name such as ioam or pmtu, or a number from 2 to 255)");
	assert_error("[option 0300]\n", 1,
		     "unknown option type '0300' (expected a name such as ioam or pmtu, or a number from 2 to 255)");
	assert_error("[option 0x0x31]\n", 1,
		     "unknown option type '0x0x31' (expected a name such as ioam or pmtu, or a number from 2 to 255)");
	assert_error("[option padn]\n", 1,
		     "unknown option type 'padn' (expected a name such as ioam or pmtu, or a number from 2 to 255)");
	assert_error("[option 256]\n", 1,
		     "unknown option type '256' (expected a name such as ioam or pmtu, or a number from 2 to 255)");
	assert_error("[option -5]\n", 1,
		     "unknown option type '-5' (expected a name such as ioam or pmtu, or a number from 2 to 255)");
	assert_error("[option ioam]\n\n[option 0x31]\n", 3,
		     "option 0x31 already has a section at line 1");
	assert_error("[global]\njust words\n", 2,
		     "expected 'key = value' or a [section] header");
	assert_error("[global]\n= 3\n", 2, "missing key before '='");
	assert_error("order = 5\n", 1, "'order' is outside a section");
	assert_error("[global]\nfoo = 1\n", 2, "unknown key 'foo' in [global]");
	assert_error("[global]\norder = 1\n", 2,
		     "unknown key 'order' in [global]");
	assert_error("[option ioam]\nfoo = 1\n", 2,
		     "unknown key 'foo' in [option ioam]");
	assert_error("[option ioam]\ninterval = 1\n", 2,
		     "unknown key 'interval' in [option ioam]");
	assert_error("[option ioam]\norder =\n", 2, "missing value for 'order'");
	assert_error("[option ioam]\nuser = check\n\nuser = none\n", 4,
		     "'user' already set at line 2");
	assert_error("[global]\ninterval = 1\ninterval = 2\n", 3,
		     "'interval' already set at line 2");
}

static void test_value_errors(void **state)
{
	(void)state;
	assert_error("[option ioam]\norder = 0\n", 2,
		     "invalid order '0': expected a number from 1 to 65535");
	assert_error("[option ioam]\norder = 65536\n", 2,
		     "invalid order '65536': expected a number from 1 to 65535");
	assert_error("[option ioam]\norder = 5x\n", 2,
		     "invalid order '5x': expected a number from 1 to 65535");
	assert_error("[option ioam]\norder = -1\n", 2,
		     "invalid order '-1': expected a number from 1 to 65535");
	/* one number syntax (issue 14 §3): decimal without a leading zero;
	 * 0x hex for types only
	 */
	/* an order a built-in type keeps, as the file does not set it, is
	 * refused when the file is read (issue 14 §4), not at apply
	 */
	assert_error("[global]\nunmentioned = keep\n[option pmtu]\nclass = hop\norder = 20\n", 3,
		     "[option pmtu]: order 20 is the built-in order of ra (0x05), which this file does not set: choose another order, or give ra another one in an [option ra] section");
	assert_error("[option ioam]\norder = 0300\n", 2,
		     "invalid order '0300': expected a number from 1 to 65535");
	assert_error("[option ioam]\norder = 0x32\n", 2,
		     "invalid order '0x32': expected a number from 1 to 65535");
	assert_error("[option ioam]\nalign = 0x2n+0x0\n", 2,
		     "invalid align '0x2n+0x0': expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2");
	assert_error("[option ioam]\nlength = 010-254\n", 2,
		     "invalid length '010-254': expected N or MIN-MAX, from 0 to 255");
	assert_error("[global]\ninterval = 030\n", 2,
		     "invalid interval '030': expected seconds from 0 to 86400");
	assert_error("[option ioam]\nclass = hop,hop\n", 2,
		     "invalid class 'hop,hop': a header is listed twice");
	assert_error("[option ioam]\nclass = hbh\n", 2,
		     "invalid class 'hbh': expected hop, dst, rtrdst or a comma-separated list of them");
	assert_error("[option ioam]\nclass = hop,\n", 2,
		     "invalid class 'hop,': expected hop, dst, rtrdst or a comma-separated list of them");
	assert_error("[option ioam]\nadmin = yes\n", 2,
		     "invalid admin 'yes': expected none, check or nocheck");
	assert_error("[option ioam]\nuser = all\n", 2,
		     "invalid user 'all': expected none, check or nocheck");
	assert_error("[option ioam]\nalign = 4n+4\n", 2,
		     "invalid align '4n+4': expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2");
	assert_error("[option ioam]\nalign = 17n+0\n", 2,
		     "invalid align '17n+0': expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2");
	assert_error("[option ioam]\nalign = 0n\n", 2,
		     "invalid align '0n': expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2");
	assert_error("[option ioam]\nalign = 4\n", 2,
		     "invalid align '4': expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2");
	assert_error("[option ioam]\nalign = 4n-2\n", 2,
		     "invalid align '4n-2': expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2");
	assert_error("[option ioam]\nlength = 256\n", 2,
		     "invalid length '256': expected N or MIN-MAX, from 0 to 255");
	assert_error("[option ioam]\nlength = 10-\n", 2,
		     "invalid length '10-': expected N or MIN-MAX, from 0 to 255");
	assert_error("[option ioam]\nlength = 20-10\n", 2,
		     "invalid length '20-10': MIN is above MAX");
	assert_error("[option ioam]\nlength-mult = 3n+3\n", 2,
		     "invalid length-mult '3n+3': expected Mn+K with M from 1 to 16 and K below M, e.g. 4n+2");
	assert_error("[global]\nunmentioned = drop\n", 2,
		     "invalid unmentioned 'drop': expected keep or reset");
	assert_error("[global]\non-stop = reset\n", 2,
		     "invalid on-stop 'reset': expected keep or restore");
	assert_error("[global]\ninterval = 86401\n", 2,
		     "invalid interval '86401': expected seconds from 0 to 86400");
	assert_error("[global]\ninterval = 1m\n", 2,
		     "invalid interval '1m': expected seconds from 0 to 86400");
	assert_error("[global]\ninterval = -1\n", 2,
		     "invalid interval '-1': expected seconds from 0 to 86400");
}

static void test_section_errors_name_the_section_line(void **state)
{
	(void)state;
	assert_error("[global]\n\n[option pmtu]\nclass = hop\n", 3,
		     "[option pmtu]: 'order' is required for a type with no built-in entry");
	assert_error("[option pmtu]\norder = 60\n[global]\n", 1,
		     "[option pmtu]: 'class' is required for a type with no built-in entry");
	/* a rule about keys points at the (last written) key's line
	 * (issue 14 §12), the header only when no key was written
	 */
	assert_error("[option ioam]\nlength = 11\n", 2,
		     "[option ioam]: no data length in the length range matches length-mult");
	assert_error("[option ioam]\nlength-mult = 4n+3\n# x\nlength = 12\n", 4,
		     "[option ioam]: no data length in the length range matches length-mult");
	assert_error("[option ioam]\n\n[option pmtu]\nclass = hop\norder = 50\n", 5,
		     "[option pmtu]: order 50 is already used by ioam (0x31) at line 1");
}

static void test_unreadable_file_is_reported_without_a_line(void **state)
{
	struct policy pol;
	struct policy_error err;
	char buf[300];

	(void)state;
	assert_int_equal(policy_parse_file("/nonexistent/tlvd.conf", &pol,
					   &err), -1);
	assert_int_equal(err.line, 0);
	policy_error_format(buf, sizeof(buf), "/nonexistent/tlvd.conf", &err);
	assert_string_equal(buf, "/nonexistent/tlvd.conf: No such file or directory");
}

/* A file of exactly 1 MiB is read; one byte more is refused */
static void test_size_limit_is_exactly_one_mib(void **state)
{
	static const char head[] = "[option ioam]\nuser = check\n";
	char path[] = "/tmp/test-tlvd-policy.XXXXXX";
	struct policy pol;
	struct policy_error err;
	size_t n = POLICY_MAX_FILE;
	FILE *f;
	int fd;

	(void)state;
	for (int extra = 0; extra < 2; extra++) {
		fd = mkstemp(path);
		assert_true(fd >= 0);
		f = fdopen(fd, "w");
		assert_non_null(f);
		fputs(head, f);
		/* a comment line filling the rest, newline included */
		fputc('#', f);
		for (size_t i = strlen(head) + 2; i < n + (size_t)extra; i++)
			fputc('x', f);
		fputc('\n', f);
		fclose(f);
		if (!extra) {
			assert_int_equal(policy_parse_file(path, &pol, &err), 0);
			assert_int_equal(policy_count(&pol), 1);
		} else {
			assert_int_equal(policy_parse_file(path, &pol, &err), -1);
			assert_int_equal(err.line, 0);
			assert_string_equal(err.msg, "file is larger than 1 MiB (1048576 bytes)");
		}
		unlink(path);
		strcpy(path, "/tmp/test-tlvd-policy.XXXXXX");
	}
}

static void test_error_is_formatted_file_colon_line(void **state)
{
	struct policy pol;
	struct policy_error err;
	char buf[300];

	(void)state;
	assert_int_equal(parse("[global]\nfoo = 1\n", &pol, &err), -1);
	policy_error_format(buf, sizeof(buf), "/etc/tlvd.conf", &err);
	assert_string_equal(buf, "/etc/tlvd.conf:2: unknown key 'foo' in [global]");
}

static void test_first_error_wins(void **state)
{
	(void)state;
	assert_error("[global]\nfoo = 1\nbar = 2\n", 2,
		     "unknown key 'foo' in [global]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_example_grants_ioam_and_pmtu_to_users),
		cmocka_unit_test(test_every_option_key_is_parsed),
		cmocka_unit_test(test_every_global_key_is_parsed),
		cmocka_unit_test(test_empty_file_is_refused_unless_said),
		cmocka_unit_test(test_bom_and_defaults_are_named),
		cmocka_unit_test(test_builtin_type_keeps_unset_keys_at_its_default),
		cmocka_unit_test(test_new_type_defaults_are_the_no_entry_defaults),
		cmocka_unit_test(test_types_by_name_and_number_are_the_same),
		cmocka_unit_test(test_syntax_variants),
		cmocka_unit_test(test_structure_errors),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_section_errors_name_the_section_line),
		cmocka_unit_test(test_unreadable_file_is_reported_without_a_line),
		cmocka_unit_test(test_size_limit_is_exactly_one_mib),
		cmocka_unit_test(test_error_is_formatted_file_colon_line),
		cmocka_unit_test(test_first_error_wins),
	};

	return cmocka_run_group_tests_name("tlvd policy parser", tests, NULL, NULL);
}
