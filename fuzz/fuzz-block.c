// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: received or application blocks.  The first byte picks
 * the header kind, admin/user and limits; the rest is the block, in a heap
 * buffer of exactly its size so ASan sees any read past it.  Checks, beyond
 * "no crash": the parser and the validator agree on structure, and a block
 * the validator accepts for a user parses back and rebuilds to itself.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ipeh.h>

#include "fuzz-block-table.h"

static struct ipeh_table table;
static int ready;

static void setup(void)
{
	fuzz_block_table(&table);
	ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ipeh_hdr hdrs[4] = { IPEH_HDR_HOPOPTS,
		IPEH_HDR_DSTOPTS, IPEH_HDR_RTHDRDSTOPTS, IPEH_HDR_HOPOPTS };
	struct ipeh_opt opts[IPEH_OPTS_MAX];
	struct ipeh_limits lim = { 8, 0x7fffffff };
	struct ipeh_error e;
	enum ipeh_hdr hdr;
	unsigned int flags;
	uint8_t *b;
	size_t len;
	int n, v, i;

	if (!ready)
		setup();
	if (size < 1)
		return 0;
	hdr = hdrs[data[0] & 3];
	flags = (data[0] & 4) ? IPEH_F_ADMIN : 0;
	if (data[0] & 8)
		lim.max_opts_number = -(int)(data[0] >> 4);
	len = size - 1;
	b = malloc(len ? len : 1);
	if (!b)
		return 0;
	memcpy(b, data + 1, len);

	n = ipeh_parse(b, len, opts, IPEH_OPTS_MAX, 0, &e);
	v = ipeh_validate(&table, hdr, b, len, &lim, flags, &e);
	if (v == 0 && n < 0)
		abort();	/* accepted but not parseable */
	if (v == 0 && !(flags & IPEH_F_ADMIN) && n >= 0) {
		/* a block accepted with user checks is canonical: rebuilt
		 * from its options, it comes out identical
		 */
		uint8_t *r = malloc(IPEH_HDR_MAX);
		ssize_t rl;

		if (!r)
			abort();
		rl = ipeh_build(&table, hdr, opts, (size_t)n, r, IPEH_HDR_MAX,
				&lim, flags, NULL);
		if (rl > 0 && (size_t)rl == ((size_t)b[1] + 1) * 8) {
			for (i = 2; i < rl; i++)
				if (r[i] != b[i])
					abort();
		}
		free(r);
	}
	ipeh_validate(&table, hdr, b, len, &lim, flags | IPEH_F_SETSOCKOPT, &e);
	ipeh_validate(&table, hdr, b, len, &lim, flags | IPEH_F_DELETING, &e);
	if (ipeh_find(b, len, IPEH_OPT_IOAM, &opts[0]) == 1) {
		struct ipeh_ioam_trace t;
		struct ipeh_ioam_node node;
		size_t pos = 0;

		if (ipeh_ioam_trace_decode(opts[0].data, opts[0].len, &t) == 0)
			while (ipeh_ioam_trace_next_node(&t, &pos, &node) > 0)
				;
	}
	free(b);
	return 0;
}
