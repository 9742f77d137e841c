// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD stand-in for libipeh's netlink client, for the host smoke
 * test of the real tlvd and tlvctl binaries (unit/test-tlvd-smoke.sh):
 * the "kernel table" is a file, so tlvd and tlvctl share it.
 *
 *   TLVD_FAKE_TABLE=path     the table (created with the built-in default)
 *   TLVD_FAKE_NO_FAMILY=1    ipeh_nl_open() fails with -ENOENT
 *   TLVD_FAKE_FAIL_TYPE=N    every SET/UNSET of type N is refused as the
 *                            kernel refuses an order another type holds
 *
 * Refusals follow the kernel's rules, with the errno and message the
 * kernel gave for each in a guest (kernel-replies.h, kernel-replies.txt);
 * what the kernel accepts is applied with libipeh's table code.
 * It stands for a kernel without REPLACE: ipeh_nl_replace() gives
 * -EOPNOTSUPP, so tlvd takes its one-call-per-change path (its REPLACE
 * path is unit-tested with test-tlvd-fake.h, and run in the guests).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <ipeh.h>

#include "kernel-replies.h"

struct ipeh_nl {
	int dummy;
};

static int fake_fail(struct ipeh_error *err, int e, const char *msg)
{
	if (err) {
		ipeh_error_clear(err);
		err->err = e;
		err->rule = IPEH_RULE_NETLINK;
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	}
	return e;
}

/* The kernel's recorded reply for , as libipeh reports it */
static int kernel_refuses(struct ipeh_error *err, const char *rule)
{
	const struct kernel_reply *r = kernel_reply(rule);
	char msg[IPEH_ERROR_MSG_MAX];

	kernel_reply_libipeh_msg(r, msg, sizeof(msg));
	return fake_fail(err, r->err, msg);
}

static int load(struct ipeh_table *t)
{
	const char *path = getenv("TLVD_FAKE_TABLE");
	int fd;

	if (!path)
		return -EINVAL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		ipeh_table_init_default(t, kernel_table_flags());
		return 0;
	}
	flock(fd, LOCK_SH);
	if (read(fd, t, sizeof(*t)) != (ssize_t)sizeof(*t))
		ipeh_table_init_default(t, kernel_table_flags());
	close(fd);
	return 0;
}

static int store(const struct ipeh_table *t)
{
	const char *path = getenv("TLVD_FAKE_TABLE");
	char tmp[4200];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -errno;
	if (write(fd, t, sizeof(*t)) != (ssize_t)sizeof(*t)) {
		close(fd);
		return -EIO;
	}
	close(fd);
	return rename(tmp, path) ? -errno : 0;
}

int ipeh_nl_open(struct ipeh_nl **nlp, struct ipeh_error *err)
{
	if (getenv("TLVD_FAKE_NO_FAMILY"))
		return fake_fail(err, -ENOENT,
				 "kernel has no \"ipeh-tlv\" netlink family");
	*nlp = calloc(1, sizeof(**nlp));
	return *nlp ? 0 : -ENOMEM;
}

void ipeh_nl_close(struct ipeh_nl *nl)
{
	free(nl);
}

int ipeh_nl_dump_table(struct ipeh_nl *nl, struct ipeh_table *t,
		       struct ipeh_error *err)
{
	(void)nl;
	(void)err;
	return load(t);
}

static int fails(uint8_t type)
{
	const char *s = getenv("TLVD_FAKE_FAIL_TYPE");

	return s && strtol(s, NULL, 0) == type;
}

int ipeh_nl_set(struct ipeh_nl *nl, uint8_t type,
		const struct ipeh_tlv_params *p, unsigned int mask,
		struct ipeh_error *err)
{
	struct ipeh_table t;
	const char *rule;

	(void)nl;
	if (fails(type))
		return kernel_refuses(err, "order-taken");
	load(&t);
	rule = kernel_set_rule(&t, type, p, mask);
	if (strcmp(rule, "ok"))
		return kernel_refuses(err, rule);
	kernel_set_apply(&t, type, p, mask);
	return store(&t);
}

int ipeh_nl_unset(struct ipeh_nl *nl, uint8_t type, struct ipeh_error *err)
{
	struct ipeh_table t;
	const char *rule;

	(void)nl;
	if (fails(type))
		return kernel_refuses(err, "order-taken");
	load(&t);
	rule = kernel_unset_rule(&t, type, kernel_table_flags());
	if (strcmp(rule, "ok"))
		return kernel_refuses(err, rule);
	ipeh_table_unset(&t, type, kernel_table_flags());
	return store(&t);
}

int ipeh_nl_replace(struct ipeh_nl *nl, const struct ipeh_nl_entry *e,
		    size_t n, unsigned int flags, struct ipeh_error *err)
{
	(void)nl;
	(void)e;
	(void)n;
	(void)flags;
	return fake_fail(err, -EOPNOTSUPP,
			 "the kernel's ipeh-tlv family has no REPLACE command");
}
