// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "backend-nl.h"
#include "log.h"
#include "tlvctl.h"

int cmd_apply(int argc, char **argv, const struct cmd_opts *o)
{
	struct policy pol;
	struct policy_error err;
	struct apply_result res;
	struct backend be;
	int ret, lock;

	(void)o;
	if (argc != 2) {
		tlvctl_error("usage: tlvctl apply FILE");
		return 2;
	}
	if (policy_parse_file(argv[1], &pol, &err)) {
		policy_error_print(stderr, argv[1], &err);
		return 1;
	}
	if (tlvctl_open(&be))
		return 1;
	tlvctl_warn_managed(-1);
	lock = tlvctl_lock();
	ret = apply_policy(&be, &pol, &log_stderr, &res);
	tlvctl_unlock(lock);
	nl_backend_close(&be);
	if (ret) {
		tlvctl_error("%s: %s%s", argv[1], res.msg,
			     res.rollback_failed ? " (rollback failed)" :
			     res.rolled_back ? " (rolled back)" : "");
		return 1;
	}
	printf("%s: %u change%s\n", argv[1], res.changed,
	       res.changed == 1 ? "" : "s");
	return 0;
}
