// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: the walk over a received control buffer
 * (ipeh_cmsg_next()).  The input is the buffer itself, in a heap block of
 * exactly its size, so ASan sees any read past msg_control +
 * msg_controllen, whatever the cmsg_len fields claim.  Every block the walk
 * returns must lie inside the buffer, and is parsed.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <ipeh.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipeh_opt opts[IPEH_OPTS_MAX];
	struct msghdr msg = { 0 };
	struct ipeh_error e;
	const uint8_t *blk;
	void *cookie = NULL;
	enum ipeh_hdr hdr;
	size_t len;
	uint8_t *buf;
	int i, r;

	/* malloc() aligns for struct cmsghdr; exactly the input's size */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	msg.msg_control = buf;
	msg.msg_controllen = size;
	for (i = 0; i < 64; i++) {
		r = ipeh_cmsg_next(&msg, &cookie, &hdr, &blk, &len);
		if (r <= 0)
			break;
		if (blk < buf || len > size || (size_t)(blk - buf) > size - len)
			abort();	/* a block outside the buffer */
		(void)ipeh_parse(blk, len, opts, IPEH_OPTS_MAX, 0, &e);
	}
	free(buf);
	return 0;
}
