// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipeh-example-policy: the administrator's side of the examples, for
 * systems without tlvd.  Grants (or revokes) ordinary users the IOAM and
 * Minimum Path MTU options in Hop-by-Hop headers, with the same entries as
 * tlvd's shipped tlvd.conf, over the kernel's "ipeh-tlv" netlink family.
 * Needs CAP_NET_ADMIN for everything but "show".  Installed in
 * libexec/ipeh: the demo and the e2e tests use it; people should use tlvd.
 *
 *   ipeh-example-policy show|grant|revoke|reset [ioam|pmtu]...
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "common.h"

/* tlvd/tlvd.conf: [option ioam] and [option pmtu] */
static void policy_entry(uint8_t type, struct ipeh_tlv_params *p)
{
	memset(p, 0, sizeof(*p));
	p->class_mask = IPEH_CLASS_HOPOPT;
	p->admin_perm = IPEH_PERM_NO_CHECK;
	p->user_perm = IPEH_PERM_CHECK;
	p->align_mult = 4;
	p->data_len_mult = 1;
	if (type == IPEH_OPT_IOAM) {
		p->order = 50;
		p->align_off = 0;
		p->min_data_len = 10;
		p->max_data_len = 254;
		p->data_len_mult = 4;
		p->data_len_off = 2;
	} else {
		p->order = 60;
		p->align_off = 2;
		p->min_data_len = IPEH_PMTU_DATA_LEN;
		p->max_data_len = IPEH_PMTU_DATA_LEN;
	}
}

static void show(uint8_t type, const struct ipeh_tlv_params *p)
{
	char class[32];

	ipeh_class_format(p->class_mask, class, sizeof(class));
	printf("%s 0x%02x: user=%s admin=%s class=%s order=%u align=%un+%u "
	       "length=%u..%u length-mult=%un+%u%s\n",
	       ipeh_opt_type_name(type), type,
	       p->user_perm == IPEH_PERM_UNKNOWN ? "?" : ipeh_perm_name(p->user_perm),
	       p->admin_perm == IPEH_PERM_UNKNOWN ? "?" : ipeh_perm_name(p->admin_perm),
	       class, p->order, p->align_mult, p->align_off, p->min_data_len,
	       p->max_data_len, p->data_len_mult, p->data_len_off,
	       p->order ? "" : " (no entry)");
}

static int run(struct ipeh_nl *nl, const char *cmd, uint8_t type)
{
	struct ipeh_tlv_params p;
	struct ipeh_error err;
	int ret;

	ipeh_error_clear(&err);
	if (!strcmp(cmd, "grant")) {
		policy_entry(type, &p);
		ret = ipeh_nl_set(nl, type, &p, IPEH_ATTR_ALL, &err);
	} else if (!strcmp(cmd, "reset")) {
		ret = ipeh_nl_unset(nl, type, &err);
		/* already the built-in default (e.g. pmtu without an entry) */
		if (ret == -EALREADY)
			ret = 0;
	} else if (!strcmp(cmd, "revoke")) {
		ret = ipeh_nl_get(nl, type, &p, &err);
		if (ret == 0 && !p.order) {
			/* no entry: users may not send it already */
			goto show;
		}
		if (ret == 0) {
			p.user_perm = IPEH_PERM_NONE;
			ret = ipeh_nl_set(nl, type, &p, IPEH_ATTR_USER_PERM, &err);
		}
	} else {
		ret = 0;
	}
	if (ret < 0) {
		ex_warn("%s %s: %s", cmd, ipeh_opt_type_name(type),
			err.msg[0] ? err.msg : strerror(-ret));
		return ret;
	}
show:
	ret = ipeh_nl_get(nl, type, &p, &err);
	if (ret < 0) {
		ex_warn("show %s: %s", ipeh_opt_type_name(type),
			err.msg[0] ? err.msg : strerror(-ret));
		return ret;
	}
	show(type, &p);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const cmds[] = { "show", "grant", "revoke", "reset" };
	struct timeval tv = { .tv_sec = 5 };
	uint8_t types[8];
	size_t ntypes = 0, i;
	struct ipeh_error err;
	struct ipeh_nl *nl;
	const char *cmd;
	int ret, status = 0;

	ex_prog = "ipeh-example-policy";
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("Usage: ipeh-example-policy show|grant|revoke|reset [ioam|pmtu]...\n"
		       "Grant ordinary users the IOAM (0x31) and Minimum Path MTU (0x30)\n"
		       "options in Hop-by-Hop headers as tlvd's tlvd.conf does (grant), set\n"
		       "their user permission to none (revoke), restore the kernel's\n"
		       "built-in defaults (reset), or print the entries (show).  Without\n"
		       "option names: both.  For the demo and tests; use tlvd otherwise.\n");
		return argc < 2 ? EX_USAGE : EX_OK;
	}
	cmd = argv[1];
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmd, cmds[i]))
			break;
	if (i == sizeof(cmds) / sizeof(cmds[0]))
		ex_usage_error("unknown command '%s'", cmd);
	for (i = 2; i < (size_t)argc && ntypes < sizeof(types); i++) {
		if (!strcmp(argv[i], "ioam"))
			types[ntypes++] = IPEH_OPT_IOAM;
		else if (!strcmp(argv[i], "pmtu"))
			types[ntypes++] = IPEH_OPT_PMTU;
		else
			ex_usage_error("unknown option name '%s' (ioam or pmtu)", argv[i]);
	}
	if (!ntypes) {
		types[ntypes++] = IPEH_OPT_IOAM;
		types[ntypes++] = IPEH_OPT_PMTU;
	}

	ipeh_error_clear(&err);
	ret = ipeh_nl_open(&nl, &err);
	if (ret < 0) {
		ex_warn("%s", err.msg[0] ? err.msg : strerror(-ret));
		return EX_FAIL;
	}
	setsockopt(ipeh_nl_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (i = 0; i < ntypes; i++)
		if (run(nl, cmd, types[i]) < 0)
			status = EX_FAIL;
	ipeh_nl_close(nl);
	return status;
}
