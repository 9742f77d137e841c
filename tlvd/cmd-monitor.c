// SPDX-License-Identifier: GPL-2.0-only
/* tlvctl monitor: the kernel's "tlv-changes" notifications, one per line. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ipeh.h>

#include "backend-nl.h"
#include "json.h"
#include "tlvctl.h"

struct monitor {
	bool json;
	long left;		/* notifications still to print; -1: no end */
};

static int print_change(uint8_t cmd, uint8_t type,
			const struct ipeh_tlv_params *p, unsigned int mask,
			void *arg)
{
	struct monitor *m = arg;
	char name[32], params[300];

	(void)mask;
	if (m->json) {
		printf("{\"cmd\":\"%s\",\"entry\":",
		       cmd == IPEH_TLV_CMD_UNSET ? "unset" : "set");
		json_params(stdout, type, p);
		printf("}\n");
	} else {
		tlv_params_format(p, params, sizeof(params));
		printf("%s %s: %s\n", cmd == IPEH_TLV_CMD_UNSET ? "unset" : "set",
		       tlv_type_format(type, name, sizeof(name)), params);
	}
	fflush(stdout);
	if (m->left > 0 && --m->left == 0)
		return 1;	/* stop */
	return 0;
}

int cmd_monitor(int argc, char **argv, const struct cmd_opts *o)
{
	struct monitor m = { .json = o->json, .left = -1 };
	struct ipeh_error e;
	struct ipeh_nl *nl;
	char msg[256];
	int ret;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			m.left = strtol(argv[++i], &end, 10);
			if (*end || m.left < 1) {
				tlvctl_error("monitor: --count wants a number from 1");
				return 2;
			}
		} else {
			tlvctl_error("usage: tlvctl monitor [--count N] [--json]");
			return 2;
		}
	}
	ipeh_error_clear(&e);
	ret = ipeh_nl_open(&nl, &e);
	if (ret < 0) {
		tlvctl_error("%s", nl_strerror(ret, e.msg, msg, sizeof(msg)));
		return 1;
	}
	ret = ipeh_nl_subscribe(nl, &e);
	if (ret < 0) {
		tlvctl_error("cannot listen to the changes: %s",
			     ret == -EPERM ? "joining the group needs CAP_NET_ADMIN over the user namespace that owns this network namespace" :
			     e.msg);
		ipeh_nl_close(nl);
		return 1;
	}
	/* the line tests and scripts wait for before they make changes */
	fprintf(stderr, "tlvctl: listening\n");
	for (;;) {
		struct pollfd pfd = { .fd = ipeh_nl_fd(nl), .events = POLLIN };

		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		ret = ipeh_nl_recv_changes(nl, print_change, &m, &e);
		if (ret == -ENOBUFS) {
			tlvctl_error("warning: some changes were lost (receive buffer full)");
			continue;
		}
		if (ret < 0 || (m.left == 0))
			break;
	}
	ipeh_nl_close(nl);
	if (ret < 0) {
		tlvctl_error("monitor: %s", strerror(-ret));
		return 1;
	}
	return 0;
}
