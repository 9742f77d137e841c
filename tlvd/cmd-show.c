// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "backend-nl.h"
#include "json.h"
#include "tlvctl.h"

static void print_header(void)
{
	printf("%-16s %5s %-14s %-8s %-8s %-5s %-7s %s\n", "TYPE", "ORDER",
	       "CLASS", "ADMIN", "USER", "ALIGN", "LENGTH", "LENGTH-MULT");
}

static void print_row(unsigned int type, const struct ipeh_tlv_params *p)
{
	char name[32], cls[24], align[16], len[16], mult[16];

	tlv_type_format(type, name, sizeof(name));
	if (!tlv_params_has_entry(p)) {
		printf("%-16s %5s no entry\n", name, "-");
		return;
	}
	snprintf(align, sizeof(align), "%un+%u", p->align_mult, p->align_off);
	snprintf(len, sizeof(len), "%u-%u", p->min_data_len, p->max_data_len);
	snprintf(mult, sizeof(mult), "%un+%u", p->data_len_mult,
		 p->data_len_off);
	printf("%-16s %5u %-14s %-8s %-8s %-5s %-7s %s\n", name, p->order,
	       tlv_class_format(p->class_mask, cls, sizeof(cls)),
	       tlv_perm_name(p->admin_perm), tlv_perm_name(p->user_perm),
	       align, len, mult);
}

/* The kernel's table, or an error said; 0 or -1 */
static int read_table(struct ipeh_table *t)
{
	struct backend be;
	char msg[256];
	int ret;

	if (tlvctl_open(&be))
		return -1;
	ret = be.ops->dump(be.ctx, t, msg, sizeof(msg));
	nl_backend_close(&be);
	if (ret) {
		tlvctl_error("cannot read the table: %s", msg);
		return -1;
	}
	return 0;
}

int cmd_show(int argc, char **argv, const struct cmd_opts *o)
{
	struct ipeh_table t;
	int types[TLV_TYPE_COUNT], ntypes = 0, type = -1, all = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--all") || !strcmp(argv[i], "-a")) {
			all = 1;
		} else if (ntypes < TLV_TYPE_COUNT) {
			type = tlvctl_type_arg(argv[i]);
			if (type < 0)
				return 2;
			types[ntypes++] = type;
		} else {
			tlvctl_error("usage: tlvctl show [TYPE...] [--all] [--json]");
			return 2;
		}
	}
	if (ntypes && all) {
		tlvctl_error("show: TYPE and --all exclude each other");
		return 2;
	}
	if (read_table(&t))
		return 1;

	if (o->json) {
		if (ntypes == 1) {
			json_params(stdout, (unsigned int)type, &t.params[type]);
		} else if (ntypes) {
			/* several types: an array, in the order given */
			putchar('[');
			for (int i = 0; i < ntypes; i++) {
				if (i)
					putchar(',');
				json_params(stdout, (unsigned int)types[i],
					    &t.params[types[i]]);
			}
			putchar(']');
		} else {
			json_table(stdout, &t, all);
		}
		putchar('\n');
		return 0;
	}
	print_header();
	if (ntypes) {
		for (int i = 0; i < ntypes; i++)
			print_row((unsigned int)types[i], &t.params[types[i]]);
		return 0;
	}
	for (unsigned int i = TLV_TYPE_FIRST; i < TLV_TYPE_COUNT; i++) {
		if (!all && !tlv_params_has_entry(&t.params[i]))
			continue;
		print_row(i, &t.params[i]);
	}
	return 0;
}

/*
 * The live table as a tlvd.conf(5) policy: every type with an entry gets a
 * section, and "unmentioned = reset" stands for the types without one, so
 * that applying the output to the same table changes nothing.
 */
int cmd_showconf(int argc, char **argv, const struct cmd_opts *o)
{
	struct ipeh_table t;
	char name[32], cls[24];
	bool hidden = false;

	(void)argv;
	(void)o;
	if (argc != 1) {
		tlvctl_error("usage: tlvctl showconf");
		return 2;
	}
	if (read_table(&t))
		return 1;
	printf("# The kernel's TLV table as a tlvd.conf(5) policy (tlvctl showconf):\n"
	       "# every type with an entry, and the others reset to no entry.\n"
	       "[global]\nunmentioned = reset\n");
	for (unsigned int i = TLV_TYPE_FIRST; i < TLV_TYPE_COUNT; i++) {
		const struct ipeh_tlv_params *p = &t.params[i];

		if (!tlv_params_has_entry(p))
			continue;
		printf("\n[option %s]\nclass = %s\norder = %u\n",
		       tlv_type_short(i, name, sizeof(name)),
		       tlv_class_format(p->class_mask, cls, sizeof(cls)),
		       p->order);
		if (p->admin_perm == IPEH_PERM_UNKNOWN)
			hidden = true;
		else
			printf("admin = %s\n", tlv_perm_name(p->admin_perm));
		printf("user = %s\nalign = %un+%u\nlength = %u-%u\n"
		       "length-mult = %un+%u\n", tlv_perm_name(p->user_perm),
		       p->align_mult, p->align_off, p->min_data_len,
		       p->max_data_len, p->data_len_mult, p->data_len_off);
	}
	if (hidden)
		tlvctl_error("warning: the kernel did not report the admin permissions (it does so to CAP_NET_ADMIN only): they are left out");
	return 0;
}
