// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parser: well-formed blocks iterate exactly; truncated and malformed
 * blocks are reported and never read past the buffer (random and mutated
 * input, checked under ASan with exact-size heap copies).
 */

#include "common.h"
#include "hexblk.h"

static void test_iterates_options_and_padding(void **state)
{
	uint8_t b[64];
	size_t len = hexblk(b, sizeof(b),
			    "00 05 30 04 05 00 05 dc 31 22 00 00 z32 01 02 00 00");
	struct ipeh_iter it;
	struct ipeh_opt o;

	(void)state;
	assert_int_equal(ipeh_iter_init(&it, b, len, 0), 0);
	assert_int_equal(ipeh_iter_next(&it, &o), 1);
	assert_int_equal(o.type, IPEH_OPT_PMTU);
	assert_int_equal(o.len, 4);
	assert_int_equal(o.offset, 2);
	assert_ptr_equal(o.data, b + 4);
	assert_int_equal(ipeh_iter_next(&it, &o), 1);
	assert_int_equal(o.type, IPEH_OPT_IOAM);
	assert_int_equal(o.len, 34);
	assert_int_equal(o.offset, 8);
	assert_int_equal(ipeh_iter_next(&it, &o), 0);
	assert_int_equal(ipeh_iter_next(&it, &o), 0);

	assert_int_equal(ipeh_iter_init(&it, b, len, IPEH_ITER_PADDING), 0);
	assert_int_equal(ipeh_iter_next(&it, &o), 1);
	assert_int_equal(ipeh_iter_next(&it, &o), 1);
	assert_int_equal(ipeh_iter_next(&it, &o), 1);
	assert_int_equal(o.type, IPEH_OPT_PADN);
	assert_int_equal(o.offset, 44);
	assert_int_equal(o.len, 2);
	assert_int_equal(ipeh_iter_next(&it, &o), 0);
}

static void test_pad1_reported_with_padding_flag(void **state)
{
	uint8_t b[8] = { 0, 0, 0, 0x1e, 2, 7, 7, 0 };
	struct ipeh_opt o[8];

	(void)state;
	assert_int_equal(ipeh_parse(b, 8, o, 8, 0, NULL), 1);
	assert_int_equal(o[0].type, 0x1e);
	assert_int_equal(o[0].offset, 3);
	assert_int_equal(ipeh_parse(b, 8, o, 8, IPEH_ITER_PADDING, NULL), 3);
	assert_int_equal(o[0].type, IPEH_OPT_PAD1);
	assert_null(o[0].data);
	assert_int_equal(o[2].type, IPEH_OPT_PAD1);
	assert_int_equal(o[2].offset, 7);
}

static void test_truncated_and_malformed(void **state)
{
	static const char *const bad[] = {
		"00 00 1e 07 00 00 00 00",	/* option past the end */
		"00 00 1e 02 00 00 01 01",	/* PadN past the end */
		"00 00 1e 03 00 00 00 1e",	/* type byte, no length */
		"00 00 1e 03 00 00 00 01",	/* PadN type byte, no length */
		"00 01 1e 04 00 00 00 00",	/* header longer than buffer */
	};
	struct ipeh_opt o[8];
	struct ipeh_error e;
	struct ipeh_iter it;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t b[16];
		size_t len = hexblk(b, sizeof(b), bad[i]);
		uint8_t *exact = malloc(len);	/* ASan catches any overread */

		memcpy(exact, b, len);
		assert_int_equal(ipeh_parse(exact, len, o, 8, 0, &e), -EINVAL);
		assert_int_equal(e.rule, IPEH_RULE_STRUCTURE);
		free(exact);
	}
	assert_int_equal(ipeh_iter_init(&it, NULL, 0, 0), -EINVAL);
	assert_int_equal(ipeh_iter_next(&it, o), -EINVAL);
	assert_int_equal(ipeh_iter_init(&it, "\0", 1, 0), -EINVAL);
	{
		uint8_t b[8] = { 0, 0, 0x1e, 0, 0x1e, 0, 0x1e, 0 };

		assert_int_equal(ipeh_parse(b, 8, o, 2, 0, &e), -ENOBUFS);
		assert_int_equal(e.rule, IPEH_RULE_BUFFER);
	}
}

static void test_find(void **state)
{
	uint8_t b[16];
	size_t len = hexblk(b, sizeof(b), "00 01 04 01 05 01 00 05 02 00 01 01 03 00 00 00");
	struct ipeh_opt o;

	(void)state;
	assert_int_equal(ipeh_find(b, len, IPEH_OPT_TEL, &o), 1);
	assert_int_equal(o.data[0], 5);
	assert_int_equal(ipeh_find(b, len, IPEH_OPT_RA, &o), 1);
	assert_int_equal(o.offset, 7);
	assert_int_equal(ipeh_find(b, len, IPEH_OPT_IOAM, &o), 0);
	assert_int_equal(ipeh_find(b, len, IPEH_OPT_PADN, &o), 1);
	assert_int_equal(o.offset, 5);
}

static uint32_t rs = 0x9e3779b9;

static uint32_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 17;
	rs ^= rs << 5;
	return rs;
}

/* Random and mutated input: terminates, stays in bounds, and agrees with
 * the validator's structural verdict (admin, so only structure matters).
 */
static void test_random_input_safe(void **state)
{
	struct ipeh_table t;
	unsigned int iter;

	(void)state;
	ipeh_table_init_empty(&t);	/* admin no-check for every type */
	for (iter = 0; iter < 50000; iter++) {
		size_t len = 1 + rnd() % 64, i;
		uint8_t *b = malloc(len);
		struct ipeh_opt o[64];
		struct ipeh_iter it;
		struct ipeh_opt one;
		int n, v, steps = 0, r;

		for (i = 0; i < len; i++)
			b[i] = (uint8_t)(rnd() % 4 ? rnd() % 8 : rnd());
		if (len >= 2)
			b[1] = (uint8_t)(rnd() % 4 ? (len / 8) - (len >= 8) : rnd() % 8);
		n = ipeh_parse(b, len, o, 64, IPEH_ITER_PADDING, NULL);
		v = ipeh_validate(&t, IPEH_HDR_DSTOPTS, b, len, NULL,
				  IPEH_F_ADMIN, NULL);
		/* admin + no-check: only structure can fail */
		assert_true(v == 0 || v == -EINVAL);
		assert_int_equal(n >= 0, v == 0);
		if (n > 0) {
			for (i = 0; i < (size_t)n; i++)
				assert_true(o[i].offset + (o[i].type ? 2u + o[i].len : 1u) <= len);
		}
		if (ipeh_iter_init(&it, b, len, 0) == 0) {
			while ((r = ipeh_iter_next(&it, &one)) > 0)
				assert_true(++steps <= 1024);
		}
		free(b);
	}
}

/* ipeh_parse() with no array only counts (issue 14 §16) */
static void test_parse_can_just_count(void **state)
{
	/* PadN, 0x1e (4 bytes), 0x3e (2 bytes): 2 options */
	static const uint8_t blk[16] = { 0, 1, 1, 0, 0x1e, 4, 1, 2, 3, 4,
					 0x3e, 2, 9, 9, 1, 0 };
	struct ipeh_error e;

	(void)state;
	assert_int_equal(ipeh_parse(blk, sizeof(blk), NULL, 0, 0, &e), 2);
	assert_int_equal(ipeh_parse(blk, sizeof(blk), NULL, 0,
				    IPEH_ITER_PADDING, &e), 4);
	/* still refuses a malformed block */
	assert_int_equal(ipeh_parse(blk, 10, NULL, 0, 0, &e), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_can_just_count),
		cmocka_unit_test(test_iterates_options_and_padding),
		cmocka_unit_test(test_pad1_reported_with_padding_flag),
		cmocka_unit_test(test_truncated_and_malformed),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_random_input_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
