// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: netlink replies (family, parameters, errors with
 * extack) as they arrive from the kernel, in an aligned heap buffer whose
 * nlmsg_len is made consistent with its size, as a receive loop does.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include <ipeh.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipeh_tlv_params p;
	struct nlmsghdr *nlh;
	struct ipeh_error e;
	unsigned int mask;
	uint32_t grp;
	uint16_t fam;
	uint8_t type;

	if (size < sizeof(*nlh) || size > 65536)
		return 0;
	nlh = aligned_alloc(8, (size + 7) & ~(size_t)7);
	if (!nlh)
		return 0;
	memcpy(nlh, data, size);
	/* a receive loop only hands over messages that fit (mnl_nlmsg_ok) */
	if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > size)
		nlh->nlmsg_len = (uint32_t)size;
	ipeh_nlmsg_parse_family(nlh, &fam);
	ipeh_nlmsg_parse_mcast_group(nlh, "tlv-changes", &grp);
	ipeh_nlmsg_parse_params(nlh, &type, &p, &mask);
	ipeh_nlmsg_parse_error(nlh, &e);
	free(nlh);
	return 0;
}
