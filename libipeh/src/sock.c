// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Socket helpers: sticky options, sendmsg() ancillary data, receipt.
 */

#include <netinet/in.h>
#include <sys/socket.h>

#include "internal.h"

int ipeh_sock_set(int fd, enum ipeh_hdr hdr, const void *block, size_t len)
{
	int optname = ipeh_hdr_sockopt(hdr);

	if (optname < 0 || len > IPEH_BLOCK_MAX || (len && !block))
		return -EINVAL;
	if (setsockopt(fd, IPPROTO_IPV6, optname, block, (socklen_t)len) < 0)
		return -errno;
	return 0;
}

int ipeh_sock_clear(int fd, enum ipeh_hdr hdr)
{
	return ipeh_sock_set(fd, hdr, NULL, 0);
}

int ipeh_sock_recv_enable(int fd, enum ipeh_hdr hdr, bool on)
{
	int val = on ? 1 : 0;
	int optname;

	switch (hdr) {
	case IPEH_HDR_HOPOPTS:
		optname = IPV6_RECVHOPOPTS;
		break;
	case IPEH_HDR_DSTOPTS:
	case IPEH_HDR_RTHDRDSTOPTS:
		optname = IPV6_RECVDSTOPTS;
		break;
	default:
		return -EINVAL;
	}
	if (setsockopt(fd, IPPROTO_IPV6, optname, &val, sizeof(val)) < 0)
		return -errno;
	return 0;
}

size_t ipeh_cmsg_space(size_t len)
{
	return CMSG_SPACE(len);
}

int ipeh_cmsg_put(struct msghdr *msg, size_t cap, enum ipeh_hdr hdr,
		  const void *block, size_t len)
{
	int type = ipeh_hdr_sockopt(hdr);
	struct cmsghdr *cm;
	size_t used = msg->msg_controllen;

	if (type < 0 || !msg->msg_control || !block || len < 2 ||
	    len > IPEH_HDR_MAX)
		return -EINVAL;
	/* keep every cmsg aligned as CMSG_NXTHDR() expects */
	used = CMSG_ALIGN(used);
	if (used > cap || cap - used < CMSG_SPACE(len))
		return -ENOBUFS;
	cm = (struct cmsghdr *)((char *)msg->msg_control + used);
	memset(cm, 0, CMSG_SPACE(len));
	cm->cmsg_level = IPPROTO_IPV6;
	cm->cmsg_type = type;
	cm->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(cm), block, len);
	msg->msg_controllen = used + CMSG_SPACE(len);
	return 0;
}

int ipeh_cmsg_next(const struct msghdr *msg, void **cookie,
		   enum ipeh_hdr *hdr, const uint8_t **block, size_t *len)
{
	struct msghdr *m = (struct msghdr *)msg;
	struct cmsghdr *cm = *cookie;

	for (cm = cm ? CMSG_NXTHDR(m, cm) : CMSG_FIRSTHDR(m); cm;
	     cm = CMSG_NXTHDR(m, cm)) {
		/* cmsg_len is the sender's word: bound it by the buffer */
		size_t avail = (size_t)((const char *)msg->msg_control +
					msg->msg_controllen - (const char *)cm);
		size_t dlen;

		if (cm->cmsg_level != IPPROTO_IPV6)
			continue;
		if (cm->cmsg_type == IPV6_HOPOPTS)
			*hdr = IPEH_HDR_HOPOPTS;
		else if (cm->cmsg_type == IPV6_DSTOPTS)
			*hdr = IPEH_HDR_DSTOPTS;
		else if (cm->cmsg_type == IPV6_RTHDRDSTOPTS)
			*hdr = IPEH_HDR_RTHDRDSTOPTS;
		else
			continue;
		*cookie = cm;
		if (cm->cmsg_len < CMSG_LEN(2) || cm->cmsg_len > avail)
			return -EINVAL;
		dlen = cm->cmsg_len - CMSG_LEN(0);
		if (((size_t)CMSG_DATA(cm)[1] + 1) * 8 > dlen)
			return -EINVAL;
		*block = CMSG_DATA(cm);
		*len = dlen;
		return 1;
	}
	return 0;
}
