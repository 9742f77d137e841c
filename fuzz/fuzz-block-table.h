/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The table fuzz-block checks blocks against, shared with gen-seeds so that
 * the seed blocks are canonical for it: the default table, IOAM allowed to
 * users, PMTU (Hop-by-Hop, 4 bytes) and 0x1e (any header, any length).
 */
#ifndef IPEH_FUZZ_BLOCK_TABLE_H
#define IPEH_FUZZ_BLOCK_TABLE_H

#include <ipeh.h>

static inline void fuzz_block_table(struct ipeh_table *table)
{
	struct ipeh_tlv_params p;

	ipeh_table_init_default(table, 0);
	table->params[IPEH_OPT_IOAM].user_perm = IPEH_PERM_CHECK;
	ipeh_tlv_params_unset(&p);
	p.order = 5;
	p.user_perm = IPEH_PERM_CHECK;
	p.class_mask = IPEH_CLASS_HOPOPT;
	p.min_data_len = p.max_data_len = 4;
	ipeh_table_set(table, IPEH_OPT_PMTU, &p, NULL);
	p.order = 60;
	p.class_mask = IPEH_CLASS_MASK;
	p.align_mult = 1;
	p.align_off = 0;
	p.min_data_len = 0;
	p.max_data_len = 255;
	ipeh_table_set(table, 0x1e, &p, NULL);
}

#endif
