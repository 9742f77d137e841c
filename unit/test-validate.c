// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Validator: hand-made blocks accepted or rejected for each rule of
 * kernel/TLV-TABLE.md, with the kernel's errno, the rule, the option type
 * and the byte offset in the error record.
 */

#include "common.h"
#include "hexblk.h"

static struct ipeh_table table;

static int setup(void **state)
{
	(void)state;
	test_table(&table);
	return 0;
}

struct vcase {
	const char *name;
	enum ipeh_hdr hdr;
	unsigned int flags;
	int max_num, max_len;	/* 0 = defaults */
	const char *hex;
	int ret;
	enum ipeh_rule rule;
	int type;
	long offset;
};

#define HOP IPEH_HDR_HOPOPTS
#define DST IPEH_HDR_DSTOPTS
#define RTD IPEH_HDR_RTHDRDSTOPTS
#define ADM IPEH_F_ADMIN
#define DEL IPEH_F_DELETING
#define SSO IPEH_F_SETSOCKOPT
#define R(x) IPEH_RULE_##x

#define PMTU_IOAM "00 05 30 04 05 00 05 dc 31 22 00 00 z32 01 02 00 00"

static const struct vcase cases[] = {
	/* accepted */
	{ "pmtu_ioam_canonical", HOP, 0, 0, 0, PMTU_IOAM, 0, R(NONE), -1, -1 },
	{ "pmtu_ioam_setsockopt", HOP, SSO, 0, 0, PMTU_IOAM, 0, R(NONE), -1, -1 },
	{ "ioam_after_padn0", HOP, 0, 0, 0, "00 04 01 00 31 22 z34", 0, R(NONE), -1, -1 },
	{ "exp_aligned_1n", HOP, 0, 0, 0, "00 00 1e 04 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "equal_order_twice", HOP, 0, 0, 0, "00 00 1e 00 1e 00 01 00", 0, R(NONE), -1, -1 },
	{ "padn4_before_8n3", HOP, 0, 0, 0,
	  "00 01 1e 01 00 01 04 00 00 00 00 7e 03 00 00 00", 0, R(NONE), -1, -1 },
	{ "dstonly_in_dst", DST, 0, 0, 0, "00 00 5e 04 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "exp_in_rtdst", RTD, 0, 0, 0, "00 00 1e 04 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "only_pad1s_admin", HOP, ADM, 0, 0, "00 00 00 00 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "unknown_type_admin_nocheck", HOP, ADM, 0, 0, "00 00 42 04 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "ra_misaligned_admin", HOP, ADM, 0, 0, "00 00 00 05 02 00 00 00", 0, R(NONE), -1, -1 },
	{ "nocheck_resets_padding", HOP, 0, 0, 0, "00 00 00 00 3e 00 1e 00", 0, R(NONE), -1, -1 },
	{ "count_negative_is_abs_ok", HOP, 0, -2, 0, PMTU_IOAM, 0, R(NONE), -1, -1 },
	{ "count_nocheck_counts_under_limit", HOP, 0, 2, 0, "00 00 3e 00 1e 00 01 00", 0, R(NONE), -1, -1 },
	{ "delete_no_trailing_check", HOP, DEL, 0, 0, "00 00 00 00 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "nocheck_only_bad_trailing_admin", HOP, ADM, 0, 0, "00 00 3e 00 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "nocheck_only_over_count_admin", HOP, ADM, 1, 0, "00 00 3e 00 3e 00 3e 00", 0, R(NONE), -1, -1 },
	{ "nocheck_only_over_length_admin", HOP, ADM, 0, 4, "00 00 3e 00 01 02 00 00", 0, R(NONE), -1, -1 },
	{ "count_at_limit", HOP, 0, 2, 0, PMTU_IOAM, 0, R(NONE), -1, -1 },
	{ "length_at_limit", HOP, 0, 0, 48, PMTU_IOAM, 0, R(NONE), -1, -1 },
	{ "length_nocheck_unlimited", HOP, ADM, 0, 8,
	  "00 01 42 0c z12", 0, R(NONE), -1, -1 },
	{ "buffer_longer_than_header", HOP, 0, 0, 0,
	  "00 00 1e 04 00 00 00 00 ff ff ff ff ff ff ff ff", 0, R(NONE), -1, -1 },
	{ "delete_ignores_lengths", HOP, DEL, 0, 0, "00 00 30 03 00 00 00 00", 0, R(NONE), -1, -1 },
	{ "delete_ignores_alignment", HOP, DEL, 0, 0, "00 01 01 00 30 04 z4 01 04 z4", 0, R(NONE), -1, -1 },

	/* permission */
	{ "ra_user_none", HOP, 0, 0, 0, "00 00 05 02 00 00 01 00", -EPERM, R(PERM), 5, 2 },
	{ "unknown_type_user_none", HOP, 0, 0, 0, "00 00 42 04 00 00 00 00", -EPERM, R(PERM), 0x42, 2 },
	{ "ra_misaligned_user", HOP, 0, 0, 0, "00 00 00 05 02 00 00 00", -EPERM, R(PERM), 5, 3 },
	{ "delete_always_allowed_perm", HOP, DEL, 0, 0, "00 00 05 02 00 00 01 00", 0, R(NONE), -1, -1 },
	{ "only_padn4_user", HOP, 0, 0, 0, "00 00 01 04 z4", -EPERM, R(PERM), -1, 2 },
	{ "only_pad1s_user", HOP, 0, 0, 0, "00 00 00 00 00 00 00 00", -EPERM, R(PERM), -1, 2 },
	{ "only_padn12_user", HOP, 0, 0, 0, "00 01 01 0c z12", -EPERM, R(PERM), -1, 2 },
	{ "only_padding_dst_user", DST, 0, 0, 0, "00 00 01 04 z4", -EPERM, R(PERM), -1, 2 },
	{ "only_padding_rtdst_user", RTD, 0, 0, 0, "00 00 01 04 z4", -EPERM, R(PERM), -1, 2 },
	/* class */
	{ "dstonly_in_hop", HOP, 0, 0, 0, "00 00 5e 04 00 00 00 00", -EINVAL, R(CLASS), 0x5e, 2 },
	{ "dstonly_in_rtdst", RTD, 0, 0, 0, "00 00 5e 04 00 00 00 00", -EINVAL, R(CLASS), 0x5e, 2 },
	{ "pmtu_in_dst", DST, 0, 0, 0, "00 00 30 04 05 00 05 dc", -EINVAL, R(CLASS), 0x30, 2 },
	{ "delete_always_allowed_class", HOP, DEL, 0, 0, "00 00 5e 04 00 00 00 00", 0, R(NONE), -1, -1 },
	/* data length */
	{ "pmtu_len_3", HOP, 0, 0, 0, "00 00 30 03 00 00 00 00", -EINVAL, R(DATA_LEN), 0x30, 2 },
	{ "pmtu_len_5", HOP, 0, 0, 0, "00 01 30 05 z5 01 05 z5", -EINVAL, R(DATA_LEN), 0x30, 2 },
	{ "ioam_len_12_not_4n2", HOP, 0, 0, 0, "00 02 01 00 31 0c z12 01 04 z4",
	  -EINVAL, R(DATA_LEN_MULT), 0x31, 4 },
	/* count */
	{ "count_over_limit", HOP, 0, 1, 0, PMTU_IOAM, -E2BIG, R(COUNT), 0x31, 8 },
	{ "count_negative_is_abs", HOP, 0, -1, 0, PMTU_IOAM, -E2BIG, R(COUNT), 0x31, 8 },
	{ "count_includes_nocheck", HOP, 0, 1, 0, "00 00 3e 00 1e 00 01 00", -E2BIG, R(COUNT), 0x1e, 4 },
	{ "count_nocheck_after_checked", HOP, 0, 1, 0, "00 00 1e 00 3e 00 01 00", -E2BIG, R(COUNT), 0x3e, 4 },
	{ "count_nocheck_only_user", HOP, 0, 2, 0, "00 00 3e 00 3e 00 3e 00", -E2BIG, R(COUNT), 0x3e, 6 },
	{ "count_int_max", HOP, 0, 0x7fffffff, 0, PMTU_IOAM, 0, R(NONE), -1, -1 },
	/* order */
	{ "ioam_before_pmtu", HOP, 0, 0, 0, "00 05 01 00 31 22 z34 01 00 30 04 05 00 05 dc",
	  -EINVAL, R(ORDER), 0x30, 42 },
	/* alignment */
	{ "pmtu_at_4", HOP, 0, 0, 0, "00 01 01 00 30 04 z4 01 04 z4", -EINVAL, R(ALIGN), 0x30, 4 },
	{ "ioam_at_2", HOP, 0, 0, 0, "00 04 31 22 z34 01 00", -EINVAL, R(ALIGN), 0x31, 2 },
	/* padding before an option */
	{ "two_pad1_before_ioam", HOP, 0, 0, 0, "00 04 00 00 31 22 z34", -EINVAL, R(PADDING), 0x31, 4 },
	{ "pad1_not_needed", HOP, 0, 0, 0, "00 00 00 1e 03 00 00 00", -EINVAL, R(PADDING), 0x1e, 3 },
	{ "padn_nonzero", HOP, 0, 0, 0,
	  "00 01 1e 01 00 01 04 00 00 ff 00 7e 03 00 00 00", -EINVAL, R(PADDING), 0x7e, 11 },
	{ "padding_longer_than_needed", HOP, 0, 0, 0,
	  "00 02 1e 01 00 01 0c z12 7e 03 00 00 00", -EINVAL, R(PADDING), 0x7e, 19 },
	/* trailing padding */
	{ "trailing_after_checked_then_nocheck", HOP, 0, 0, 0, "00 00 1e 00 3e 00 00 00",
	  -EINVAL, R(TRAILING_PADDING), -1, 6 },
	{ "trailing_two_pad1", HOP, 0, 0, 0, "00 00 1e 02 00 00 00 00", -EINVAL, R(TRAILING_PADDING), -1, 6 },
	{ "trailing_nonzero", HOP, 0, 0, 0, "00 00 1e 01 00 01 01 ff", -EINVAL, R(TRAILING_PADDING), -1, 5 },
	{ "trailing_12_bytes", HOP, 0, 0, 0, "00 01 1e 00 01 0a z10", -EINVAL, R(TRAILING_PADDING), -1, 4 },
	/* the limit itself: 7 bytes of trailing padding pass, 8 do not (mutant L02) */
	{ "trailing_7_bytes", HOP, 0, 0, 0, "00 01 1e 05 z5 01 05 z5", 0, R(NONE), -1, -1 },
	{ "trailing_8_bytes", HOP, 0, 0, 0, "00 01 1e 04 z4 01 06 z6", -EINVAL, R(TRAILING_PADDING), -1, 8 },
	{ "trailing_after_nocheck_last", HOP, 0, 0, 0, "00 00 00 3e 01 00 00 00",
	  -EINVAL, R(TRAILING_PADDING), -1, 6 },
	{ "trailing_after_nocheck_only", HOP, 0, 0, 0, "00 00 3e 00 00 00 00 00",
	  -EINVAL, R(TRAILING_PADDING), -1, 4 },
	/* length */
	{ "length_over_limit", HOP, 0, 0, 40, PMTU_IOAM, -EMSGSIZE, R(LENGTH), -1, -1 },
	{ "length_nocheck_only_user", HOP, 0, 0, 4, "00 00 3e 00 01 02 00 00", -EMSGSIZE, R(LENGTH), -1, -1 },
	{ "length_padding_only_user", RTD, 0, 0, 4, "3c 00 01 04 00 00 00 00", -EPERM, R(PERM), -1, 2 },
	{ "length_negative_limit", HOP, 0, 0, -1, PMTU_IOAM, -EMSGSIZE, R(LENGTH), -1, -1 },
	{ "length_negative_limit_admin_nocheck", HOP, ADM, 0, -1, PMTU_IOAM, 0, R(NONE), -1, -1 },
	/* structure */
	{ "option_past_end", HOP, 0, 0, 0, "00 00 1e 07 00 00 00 00", -EINVAL, R(STRUCTURE), 0x1e, 2 },
	{ "padn_past_end", HOP, 0, 0, 0, "00 00 1e 02 00 00 01 01", -EINVAL, R(STRUCTURE), 1, 6 },
	{ "type_byte_last", HOP, 0, 0, 0, "00 00 1e 03 00 00 00 1e", -EINVAL, R(STRUCTURE), 0x1e, 7 },
	{ "padn_type_byte_last", HOP, ADM, 0, 0, "00 00 42 03 00 00 00 01", -EINVAL, R(STRUCTURE), 1, 7 },
	{ "hdrlen_beyond_buffer", HOP, 0, 0, 0, "00 01 1e 04 00 00 00 00", -EINVAL, R(STRUCTURE), -1, 1 },
	{ "one_byte", HOP, 0, 0, 0, "00", -EINVAL, R(STRUCTURE), -1, -1 },
	{ "setsockopt_not_8n", HOP, SSO, 0, 0, "00 00 1e 04 00 00 00 00 00 00 00 00", -EINVAL, R(STRUCTURE), -1, -1 },
	{ "setsockopt_empty_clears", HOP, SSO, 0, 0, "", 0, R(NONE), -1, -1 },
	{ "cmsg_empty", HOP, 0, 0, 0, "", -EINVAL, R(STRUCTURE), -1, -1 },
};

static void run_case_in(const struct ipeh_table *t, const struct vcase *c)
{
	uint8_t b[2048];
	size_t len = hexblk(b, sizeof(b), c->hex);
	struct ipeh_limits lim;
	struct ipeh_error e;
	int ret;

	ipeh_limits_default(&lim);
	if (c->max_num)
		lim.max_opts_number = c->max_num;
	if (c->max_len)
		lim.max_opts_length = c->max_len;
	ipeh_error_clear(&e);
	ret = ipeh_validate(t, c->hdr, b, len, &lim, c->flags, &e);
	if (ret != c->ret || (ret && (e.rule != c->rule ||
				      e.type != c->type ||
				      e.offset != c->offset)))
		print_error("case %s: ret %d (want %d) rule %s (want %s) "
			    "type %d (want %d) offset %ld (want %ld): %s\n",
			    c->name, ret, c->ret, ipeh_rule_name(e.rule),
			    ipeh_rule_name(c->rule), e.type, c->type,
			    e.offset, c->offset, e.msg);
	assert_int_equal(ret, c->ret);
	if (ret) {
		assert_int_equal(e.err, ret);
		assert_int_equal(e.rule, c->rule);
		assert_int_equal(e.type, c->type);
		assert_int_equal(e.offset, c->offset);
		assert_true(e.msg[0] != '\0');
	}
}

static void run_case(const struct vcase *c)
{
	run_case_in(&table, c);
}

static void test_every_rule_case(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

/*
 * The examples of kernel/TLV-TABLE.md ("one rule for options the
 * administrator marks no-check"): a no-check option (0x3e) skips only its
 * own checks, and the count, trailing padding and length rules hold for
 * every header of an unprivileged caller, wherever a checked option (Router
 * Alert, granted user=check here; 0x1e) stands.
 */
static const struct vcase nocheck_rule[] = {
	{ "three_nocheck_count_2", HOP, 0, 2, 0, "00 00 3e 00 3e 00 3e 00",
	  -E2BIG, R(COUNT), 0x3e, 6 },
	{ "ra_three_nocheck_count_2", HOP, 0, 2, 0,
	  "00 01 05 02 00 00 3e 00 3e 00 3e 00 01 02 00 00",
	  -E2BIG, R(COUNT), 0x3e, 8 },
	{ "ra_two_nocheck_ra_count_2", HOP, 0, 2, 0,
	  "00 01 05 02 00 00 3e 00 3e 00 05 02 00 00 01 00",
	  -E2BIG, R(COUNT), 0x3e, 8 },
	{ "nocheck_two_trailing_pad1", HOP, 0, 0, 0, "09 00 3e 02 01 99 00 00",
	  -EINVAL, R(TRAILING_PADDING), -1, 6 },
	{ "checked_nocheck_nonzero_trailing", DST, 0, 0, 0,
	  "00 01 1e 04 34 26 64 b0 01 00 3e 00 01 02 01 00",
	  -EINVAL, R(TRAILING_PADDING), -1, 12 },
	{ "padding_only_length_4", RTD, 0, 0, 4, "3c 00 01 04 00 00 00 00",
	  -EPERM, R(PERM), -1, 2 },
	{ "nocheck_only_length_4", RTD, 0, 0, 4, "00 00 3e 00 01 02 00 00",
	  -EMSGSIZE, R(LENGTH), -1, -1 },
	/* the same blocks within the limits are accepted */
	{ "three_nocheck_count_3", HOP, 0, 3, 0, "00 00 3e 00 3e 00 3e 00", 0, R(NONE), -1, -1 },
	{ "ra_three_nocheck_count_4", HOP, 0, 4, 0,
	  "00 01 05 02 00 00 3e 00 3e 00 3e 00 01 02 00 00", 0, R(NONE), -1, -1 },
	{ "ra_two_nocheck_ra_count_4", HOP, 0, 4, 0,
	  "00 01 05 02 00 00 3e 00 3e 00 05 02 00 00 01 00", 0, R(NONE), -1, -1 },
	{ "checked_nocheck_zero_trailing", DST, 0, 0, 0,
	  "00 01 1e 04 34 26 64 b0 01 00 3e 00 01 02 00 00", 0, R(NONE), -1, -1 },
	{ "nocheck_only_length_8", RTD, 0, 0, 8, "00 00 3e 00 01 02 00 00", 0, R(NONE), -1, -1 },
	/* a privileged caller's header with no checked option: no header rules */
	{ "three_nocheck_count_2_admin", HOP, ADM, 2, 0, "00 00 3e 00 3e 00 3e 00", 0, R(NONE), -1, -1 },
	{ "nocheck_two_trailing_pad1_admin", HOP, ADM, 0, 0, "09 00 3e 02 01 99 00 00", 0, R(NONE), -1, -1 },
};

static void test_nocheck_rule_examples(void **state)
{
	struct ipeh_table t = table;
	size_t i;

	(void)state;
	t.params[IPEH_OPT_RA].user_perm = IPEH_PERM_CHECK;
	for (i = 0; i < sizeof(nocheck_rule) / sizeof(nocheck_rule[0]); i++)
		run_case_in(&t, &nocheck_rule[i]);
}

/* The default table refuses every option to users and passes all to admin. */
static void test_default_table_user_vs_admin(void **state)
{
	struct ipeh_table def;
	uint8_t b[64];
	size_t len = hexblk(b, sizeof(b), PMTU_IOAM);

	(void)state;
	ipeh_table_init_default(&def, 0);
	assert_int_equal(ipeh_validate(&def, HOP, b, len, NULL, 0, NULL), -EPERM);
	assert_int_equal(ipeh_validate(&def, HOP, b, len, NULL, ADM, NULL), 0);
}

/*
 * While the table grants users nothing, the kernel answers a user -EPERM
 * before it reads the header, as Linux 6.12 did: a structural error is
 * -EPERM for a user, -EINVAL for an admin.  A cmsg's own framing is
 * checked before (EINVAL for both).
 */
static void test_nothing_granted_eperm_first(void **state)
{
	struct ipeh_table def;
	uint8_t b[64];
	size_t n6 = hexblk(b, sizeof(b), "00 00 1e 04 de ad");
	struct ipeh_error e;

	(void)state;
	ipeh_table_init_default(&def, 0);
	assert_int_equal(ipeh_validate(&def, HOP, b, n6, NULL, SSO, &e), -EPERM);
	assert_int_equal(e.rule, IPEH_RULE_PERM);
	assert_int_equal(ipeh_validate(&def, HOP, b, n6, NULL, SSO | ADM, NULL), -EINVAL);
	/* hdrlen 1 (16 bytes) in an 8-byte buffer */
	hexblk(b, sizeof(b), "00 01 42 04 00 00 00 00");
	assert_int_equal(ipeh_validate(&def, HOP, b, 8, NULL, SSO, NULL), -EPERM);
	assert_int_equal(ipeh_validate(&def, HOP, b, 8, NULL, 0, NULL), -EINVAL);
	/* an option running past the header, in both paths */
	hexblk(b, sizeof(b), "00 00 42 09 00 00 00 00");
	assert_int_equal(ipeh_validate(&def, HOP, b, 8, NULL, SSO, NULL), -EPERM);
	assert_int_equal(ipeh_validate(&def, HOP, b, 8, NULL, 0, NULL), -EPERM);
	assert_int_equal(ipeh_validate(&def, HOP, b, 8, NULL, ADM, NULL), -EINVAL);
	/* once one option is granted, the header is read */
	def.params[IPEH_OPT_RA].user_perm = IPEH_PERM_CHECK;
	assert_int_equal(ipeh_validate(&def, HOP, b, 8, NULL, 0, NULL), -EINVAL);
}

/* A table entry with an impossible multiple is reported, never divides by 0. */
static void test_bad_table_entry_no_crash(void **state)
{
	struct ipeh_table t = table;
	uint8_t b[16];
	size_t len = hexblk(b, sizeof(b), "00 00 1e 04 00 00 00 00");
	struct ipeh_error e;

	(void)state;
	t.params[T_EXP1].align_mult = 0;
	assert_int_equal(ipeh_validate(&t, HOP, b, len, NULL, 0, &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_PARAM);
	t.params[T_EXP1].align_mult = 1;
	t.params[T_EXP1].data_len_mult = 0;
	assert_int_equal(ipeh_validate(&t, HOP, b, len, NULL, 0, &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_PARAM);
}

/* NULL error record is fine everywhere. */
static void test_null_error_record(void **state)
{
	uint8_t b[8] = { 0, 0, 5, 2, 0, 0, 1, 0 };

	(void)state;
	assert_int_equal(ipeh_validate(&table, HOP, b, 8, NULL, 0, NULL), -EPERM);
	assert_int_equal(ipeh_validate(&table, 3, b, 8, NULL, 0, NULL), -EINVAL);
}

/* A NULL table is an error, not a crash (issue 14 §15) */
static void test_null_table_is_einval(void **state)
{
	static const uint8_t blk[8] = { 0, 0, 0x1e, 4, 1, 2, 3, 4 };
	struct ipeh_opt o = { .type = 0x1e, .len = 4, .data = blk + 4 };
	struct ipeh_tlv_params p;
	struct ipeh_prepared pr;
	struct ipeh_error e;
	uint8_t out[64];

	(void)state;
	assert_int_equal(ipeh_validate(NULL, IPEH_HDR_DSTOPTS, blk, 8, NULL, 0, &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_PARAM);
	assert_int_equal(ipeh_build(NULL, IPEH_HDR_DSTOPTS, &o, 1, out, sizeof(out), NULL, 0, &e), -EINVAL);
	assert_int_equal(ipeh_prepare(&pr, NULL, IPEH_HDR_DSTOPTS, &o, 1, NULL, 0, &e), -EINVAL);
	errno = 0;
	assert_null(ipeh_builder_new(NULL, IPEH_HDR_DSTOPTS, NULL, 0));
	assert_int_equal(errno, EINVAL);
	ipeh_tlv_params_unset(&p);
	p.order = 5;
	assert_int_equal(ipeh_table_set(NULL, 0x1e, &p, &e), -EINVAL);
	assert_int_equal(ipeh_table_unset(NULL, 0x1e, 0), -EINVAL);
	assert_false(ipeh_table_has_entry(NULL, 0x1e));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_table_is_einval),
		cmocka_unit_test(test_every_rule_case),
		cmocka_unit_test(test_nocheck_rule_examples),
		cmocka_unit_test(test_default_table_user_vs_admin),
		cmocka_unit_test(test_nothing_granted_eperm_first),
		cmocka_unit_test(test_bad_table_entry_no_crash),
		cmocka_unit_test(test_null_error_record),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
