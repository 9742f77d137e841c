// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "backend-nl.h"
#include "tlvctl.h"

int cmd_unset(int argc, char **argv, const struct cmd_opts *o)
{
	struct backend be;
	char msg[256], name[32];
	int type, ret, lock;

	(void)o;
	if (argc != 2) {
		tlvctl_error("usage: tlvctl unset TYPE");
		return 2;
	}
	type = tlvctl_type_arg(argv[1]);
	if (type < 0)
		return 2;
	if (tlvctl_open(&be))
		return 1;
	tlvctl_warn_managed(type);
	lock = tlvctl_lock();
	ret = be.ops->unset(be.ctx, (uint8_t)type, msg, sizeof(msg));
	tlvctl_unlock(lock);
	nl_backend_close(&be);
	if (ret) {
		tlvctl_error("unset %s: %s",
			     tlv_type_format((unsigned int)type, name,
					     sizeof(name)), msg);
		return 1;
	}
	return 0;
}
