/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared set-up for the libipeh suites (cmocka). */
#ifndef UNIT_COMMON_H
#define UNIT_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include <ipeh.h>

#define T_PMTU	IPEH_OPT_PMTU	/* user check, hop, 4n+2, 4..4 */
#define T_IOAM	IPEH_OPT_IOAM	/* user check, built-in params */
#define T_EXP1	0x1E		/* user check, all headers, 1n+0, 0..255 */
#define T_DSTONLY 0x5E		/* user check, dst only, 2n+0, 0..255 */
#define T_NOCHK	0x3E		/* user no-check, hop */
#define T_ODD	0x7E		/* user check, hop, 8n+3, 3..19, 4/3 */

static inline void test_table(struct ipeh_table *t)
{
	struct ipeh_tlv_params p;

	ipeh_table_init_default(t, 0);
	t->params[T_IOAM].user_perm = IPEH_PERM_CHECK;

	p = (struct ipeh_tlv_params){ .order = 5, .admin_perm = IPEH_PERM_NO_CHECK,
		.user_perm = IPEH_PERM_CHECK, .class_mask = IPEH_CLASS_HOPOPT,
		.align_mult = 4, .align_off = 2, .min_data_len = 4,
		.max_data_len = 4, .data_len_mult = 1 };
	assert_int_equal(ipeh_table_set(t, T_PMTU, &p, NULL), 0);

	p = (struct ipeh_tlv_params){ .order = 70, .admin_perm = IPEH_PERM_NO_CHECK,
		.user_perm = IPEH_PERM_CHECK, .class_mask = IPEH_CLASS_MASK,
		.align_mult = 1, .align_off = 0, .min_data_len = 0,
		.max_data_len = 255, .data_len_mult = 1 };
	assert_int_equal(ipeh_table_set(t, T_EXP1, &p, NULL), 0);

	p.order = 80;
	p.class_mask = IPEH_CLASS_DSTOPT;
	p.align_mult = 2;
	assert_int_equal(ipeh_table_set(t, T_DSTONLY, &p, NULL), 0);

	p.order = 90;
	p.class_mask = IPEH_CLASS_HOPOPT;
	p.user_perm = IPEH_PERM_NO_CHECK;
	assert_int_equal(ipeh_table_set(t, T_NOCHK, &p, NULL), 0);

	p = (struct ipeh_tlv_params){ .order = 100, .admin_perm = IPEH_PERM_CHECK,
		.user_perm = IPEH_PERM_CHECK, .class_mask = IPEH_CLASS_HOPOPT,
		.align_mult = 8, .align_off = 3, .min_data_len = 3,
		.max_data_len = 19, .data_len_mult = 4, .data_len_off = 3 };
	assert_int_equal(ipeh_table_set(t, T_ODD, &p, NULL), 0);
}

#endif
