// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>

#include "backend-nl.h"
#include "json.h"
#include "tlvctl.h"

int cmd_diff(int argc, char **argv, const struct cmd_opts *o)
{
	struct policy pol;
	struct policy_error err;
	struct ipeh_table live;
	struct changeset *cs;
	struct backend be;
	char msg[256], line[400];
	int ret;

	if (argc != 2) {
		tlvctl_error("usage: tlvctl diff FILE [--json]");
		return 2;
	}
	if (policy_parse_file(argv[1], &pol, &err)) {
		policy_error_print(stderr, argv[1], &err);
		return 2;
	}
	cs = malloc(sizeof(*cs));
	if (!cs || tlvctl_open(&be)) {
		free(cs);
		return 2;
	}
	ret = diff_policy(&be, &pol, &live, cs, msg, sizeof(msg));
	nl_backend_close(&be);
	if (ret) {
		tlvctl_error("cannot read the table: %s", msg);
		free(cs);
		return 2;
	}
	if (o->json) {
		json_changeset(stdout, cs);
		putchar('\n');
	} else {
		for (unsigned int i = 0; i < cs->count; i++) {
			change_format(&cs->change[i], line, sizeof(line));
			printf("%s\n", line);
		}
	}
	ret = cs->count ? 1 : 0;
	free(cs);
	return ret;
}
