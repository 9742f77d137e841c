// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option blocks the examples send are what the kernel accepts from an
 * ordinary user under tlvd's shipped policy (checked with libipeh's
 * validator, which follows kernel/TLV-TABLE.md), whatever table they were
 * laid out for: the kernel's as an unprivileged dump shows it, or the
 * built-in one when the kernel's cannot be read.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common.h"

static int failed;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		printf("ok - " __VA_ARGS__);				\
	} else {							\
		printf("not ok - " __VA_ARGS__);			\
		printf("    (%s:%d: %s)\n", __FILE__, __LINE__, #cond);	\
		failed = 1;						\
	}								\
	printf("\n");							\
} while (0)

/* tlvd/tlvd.conf's [option ioam] and [option pmtu], user = check */
static void tlvd_policy(struct ipeh_table *t)
{
	struct ipeh_tlv_params p;

	ipeh_table_init_default(t, 0);
	p = t->params[IPEH_OPT_IOAM];
	p.user_perm = IPEH_PERM_CHECK;
	p.admin_perm = IPEH_PERM_NO_CHECK;
	t->params[IPEH_OPT_IOAM] = p;
	p = (struct ipeh_tlv_params){
		.order = 60, .admin_perm = IPEH_PERM_NO_CHECK,
		.user_perm = IPEH_PERM_CHECK, .class_mask = IPEH_CLASS_HOPOPT,
		.align_mult = 4, .align_off = 2, .min_data_len = 4,
		.max_data_len = 4, .data_len_mult = 1,
	};
	t->params[IPEH_OPT_PMTU] = p;
}

/* What an unprivileged dump returns: no admin permission. */
static void as_dumped(struct ipeh_table *t)
{
	int i;

	for (i = 2; i < 256; i++)
		t->params[i].admin_perm = IPEH_PERM_UNKNOWN;
}

static int validate_user(const struct ipeh_table *policy, const uint8_t *b,
			 size_t len, unsigned int flags)
{
	struct ipeh_error err;
	int ret;

	ret = ipeh_validate(policy, IPEH_HDR_HOPOPTS, b, len, NULL, flags, &err);
	if (ret < 0)
		printf("    validate: %s (rule %s)\n", err.msg, ipeh_rule_name(err.rule));
	return ret;
}

static void test_ioam(const char *what, const struct ipeh_table *layout,
		      bool live, const struct ipeh_table *policy)
{
	struct ipeh_ioam_trace tr = {
		.namespace_id = 123,
		.trace_type = 0xf00000,
		.remaining_len = 16,	/* 4 nodes of 4 words */
	};
	static const uint8_t head[] = { 0x00, 0x09, 0x01, 0x00, 0x31, 0x4a,
					0x00, 0x00, 0x00, 0x7b, 0x20, 0x10,
					0xf0, 0x00, 0x00, 0x00 };
	uint8_t data[256], block[IPEH_BLOCK_MAX];
	struct ex_table xt;
	ssize_t n;
	int len;

	ex_table_init(&xt, IPEH_OPT_IOAM, layout, live);
	len = ipeh_ioam_trace_encode(&tr, data, sizeof(data));
	CHECK(len == 74, "ioam (%s): default trace is 74 bytes of option data", what);
	n = ex_build_hbh(&xt, data, (size_t)len, block, sizeof(block));
	CHECK(n == 80, "ioam (%s): the Hop-by-Hop header is 80 bytes", what);
	if (n != 80)
		return;
	CHECK(!memcmp(block, head, sizeof(head)),
	      "ioam (%s): PadN then the option at offset 4 (4n, as ipv6_hop_ioam wants)", what);
	CHECK(validate_user(policy, block, (size_t)n, 0) == 0,
	      "ioam (%s): a user may send it under tlvd's policy", what);
}

static void test_pmtu(const char *what, const struct ipeh_table *layout,
		      bool live, const struct ipeh_table *policy)
{
	struct ipeh_pmtu p = { .min_pmtu = 1500, .r = true };
	static const uint8_t want[] = { 0x00, 0x00, 0x30, 0x04, 0x05, 0xdc, 0x00, 0x01 };
	uint8_t data[4], block[IPEH_BLOCK_MAX];
	struct ipeh_prepared prep;
	struct ex_table xt;
	ssize_t n;

	ex_table_init(&xt, IPEH_OPT_PMTU, layout, live);
	CHECK(ipeh_pmtu_encode(&p, data, sizeof(data)) == 4,
	      "pmtu (%s): 4 bytes of option data", what);
	n = ex_build_hbh(&xt, data, sizeof(data), block, sizeof(block));
	CHECK(n == 8 && !memcmp(block, want, sizeof(want)),
	      "pmtu (%s): the option at offset 2 (4n+2): 00 00 30 04 05 dc 00 01", what);
	if (n == 8)
		CHECK(validate_user(policy, block, (size_t)n, 0) == 0,
		      "pmtu (%s): a user may send it under tlvd's policy", what);
	n = ex_prepare_hbh(&xt, 4, &prep);
	CHECK(n == 8, "pmtu (%s): prepared once, 8 bytes", what);
	if (n == 8) {
		p = (struct ipeh_pmtu){ .min_pmtu = 1400, .rtn_pmtu = 1500 };
		ipeh_pmtu_encode(&p, ipeh_prepared_data(&prep, 0), 4);
		CHECK(!memcmp(prep.block, "\x00\x00\x30\x04\x05\x78\x05\xdc", 8) &&
		      validate_user(policy, prep.block, 8, 0) == 0,
		      "pmtu (%s): a reply written into the prepared block is valid", what);
	}
}

int main(void)
{
	struct ipeh_table policy, dumped, builtin, none;
	uint8_t b[8];
	char hex[32];
	uint32_t type;

	ex_prog = "test-common";
	tlvd_policy(&policy);
	dumped = policy;
	as_dumped(&dumped);
	ipeh_table_init_default(&builtin, 0);

	test_ioam("kernel table under tlvd's policy", &dumped, true, &policy);
	test_ioam("built-in table", &builtin, false, &policy);
	test_pmtu("kernel table under tlvd's policy", &dumped, true, &policy);
	test_pmtu("built-in table, no pmtu entry", &builtin, false, &policy);

	/* the kernel says user = none: the block is still laid out (the
	 * kernel gives the verdict) and the record says what the table said */
	none = dumped;
	none.params[IPEH_OPT_IOAM].user_perm = IPEH_PERM_NONE;
	{
		struct ex_table xt;

		ex_table_init(&xt, IPEH_OPT_IOAM, &none, true);
		CHECK(xt.user_perm == IPEH_PERM_NONE && !xt.layout_fallback,
		      "user = none in the kernel's table is remembered for the EPERM message");
	}

	CHECK(ex_ioam_trace_type_parse("hop-limit,if-ids,ts-sec,ts-frac", &type) == 0 &&
	      type == 0xf00000, "trace type names: hop-limit,if-ids,ts-sec,ts-frac is 0xf00000");
	CHECK(ex_ioam_trace_type_parse("0x840000", &type) == 0 && type == 0x840000,
	      "trace type numbers");
	CHECK(ex_ioam_trace_type_parse("colour", &type) == -EINVAL, "unknown names refused");
	CHECK(ex_unhex("00:09 01 00", b, sizeof(b)) == 4 && b[1] == 9,
	      "hex with ':' and spaces");
	CHECK(ex_unhex("0", b, sizeof(b)) < 0, "odd hex refused");
	ex_hex((const uint8_t *)"\x31\x4a", 2, hex, sizeof(hex));
	CHECK(!strcmp(hex, "314a"), "hex out");
	return failed;
}
