// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "json.h"
#include "tlvctl.h"

int cmd_check(int argc, char **argv, const struct cmd_opts *o)
{
	struct policy pol;
	struct policy_error err;

	if (argc != 2) {
		tlvctl_error("usage: tlvctl check FILE [--json]");
		return 2;
	}
	if (policy_parse_file(argv[1], &pol, &err)) {
		if (o->json) {
			json_policy_error(stdout, argv[1], &err);
			putchar('\n');
		}
		policy_error_print(stderr, argv[1], &err);
		return 1;
	}
	if (o->json) {
		json_policy(stdout, argv[1], &pol);
		putchar('\n');
	} else {
		printf("%s: OK, %u option type%s\n", argv[1],
		       policy_count(&pol), policy_count(&pol) == 1 ? "" : "s");
	}
	return 0;
}
