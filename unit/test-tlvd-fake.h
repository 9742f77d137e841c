/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake kernel table behind tlvd's struct backend.  SET, UNSET and
 * REPLACE refuse what the kernel refuses, by the kernel's rules
 * (kernel-replies.h), with the errno and message the kernel gave for that
 * rule in a guest (unit/kernel-replies.txt), as tlvd's netlink backend
 * reports them; what the kernel accepts is applied with libipeh's table
 * code.  Any call can also be made to fail on purpose (fault injection:
 * "fake refusal", not a kernel reply).
 */
#ifndef TEST_TLVD_FAKE_H
#define TEST_TLVD_FAKE_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdint.h>
#include <string.h>

#include "apply.h"
#include "kernel-replies.h"

struct fake {
	struct ipeh_table t;
	unsigned int calls;	/* set + unset calls */
	unsigned int dumps;
	uint64_t fail_calls;	/* bit N-1: fail the Nth set/unset call */
	int fail_type;		/* fail calls on this type ... */
	int fail_type_times;	/* ... this many times (-1: always) */
	int fail_errno;
	bool fail_dump;
	unsigned int replaces;	/* replace calls */
	unsigned int raise_on_call;	/* raise(SIGTERM) in this set/unset call */
	unsigned int mutate_on_call;	/* in this call, another tool sets */
	uint8_t mutate_type;		/* ... this type */
	struct ipeh_tlv_params mutate_to;	/* ... to this */
	int replace_errno;	/* fail every replace with it */
	char calls_log[4096];	/* "set 0x31;unset 0x99;" */
	char log[8192];		/* the lines tlvd logged, '\n'-separated */
};

static inline bool fake_should_fail(struct fake *f, uint8_t type)
{
	if (f->calls <= 64 && (f->fail_calls >> (f->calls - 1)) & 1)
		return true;
	if (f->fail_type == type && f->fail_type_times) {
		if (f->fail_type_times > 0)
			f->fail_type_times--;
		return true;
	}
	return false;
}

static inline int fake_dump(void *ctx, struct ipeh_table *t, char *msg,
			    size_t len)
{
	struct fake *f = ctx;

	f->dumps++;
	if (f->fail_dump) {
		snprintf(msg, len, "fake dump failure");
		return -EIO;
	}
	*t = f->t;
	return 0;
}

/* A refusal: the recorded reply for @rule, as tlvd's backend reports it */
static inline int fake_kernel_refuses(const char *rule, char *msg, size_t len)
{
	const struct kernel_reply *r = kernel_reply(rule);

	kernel_reply_libipeh_msg(r, msg, len);
	return r->err;
}

static inline int fake_set(void *ctx, uint8_t type,
			   const struct ipeh_tlv_params *p, char *msg,
			   size_t len)
{
	struct fake *f = ctx;
	unsigned int mask = IPEH_ATTR_ALL;
	const char *rule;

	f->calls++;
	if (f->raise_on_call && f->calls == f->raise_on_call)
		raise(SIGTERM);
	if (f->mutate_on_call && f->calls == f->mutate_on_call)
		f->t.params[f->mutate_type] = f->mutate_to;
	snprintf(f->calls_log + strlen(f->calls_log),
		 sizeof(f->calls_log) - strlen(f->calls_log), "set 0x%02x;",
		 type);
	if (fake_should_fail(f, type)) {
		snprintf(msg, len, "fake refusal");
		return -(f->fail_errno ? f->fail_errno : EINVAL);
	}
	/* tlvd's backend leaves out an admin_perm it could not read */
	if (p->admin_perm == IPEH_PERM_UNKNOWN)
		mask &= ~IPEH_ATTR_ADMIN_PERM;
	rule = kernel_set_rule(&f->t, type, p, mask);
	if (strcmp(rule, "ok"))
		return fake_kernel_refuses(rule, msg, len);
	kernel_set_apply(&f->t, type, p, mask);
	return 0;
}

static inline int fake_unset(void *ctx, uint8_t type, char *msg, size_t len)
{
	struct fake *f = ctx;
	const char *rule;

	f->calls++;
	snprintf(f->calls_log + strlen(f->calls_log),
		 sizeof(f->calls_log) - strlen(f->calls_log), "unset 0x%02x;",
		 type);
	if (fake_should_fail(f, type)) {
		snprintf(msg, len, "fake refusal");
		return -(f->fail_errno ? f->fail_errno : EINVAL);
	}
	rule = kernel_unset_rule(&f->t, type, kernel_table_flags());
	if (strcmp(rule, "ok"))
		return fake_kernel_refuses(rule, msg, len);
	ipeh_table_unset(&f->t, type, kernel_table_flags());
	return 0;
}

static const struct backend_ops fake_ops = {
	.dump = fake_dump, .set = fake_set, .unset = fake_unset,
};

/* As the kernel's REPLACE: every change made on a copy, orders checked on
 * the result only, then the copy kept, or nothing.
 */
static inline int fake_replace(void *ctx, const struct change *c,
			       unsigned int n, char *msg, size_t len)
{
	struct fake *f = ctx;
	struct ipeh_table t = f->t;
	unsigned int a, b;

	f->replaces++;
	snprintf(f->calls_log + strlen(f->calls_log),
		 sizeof(f->calls_log) - strlen(f->calls_log), "replace %u;", n);
	if (f->replace_errno) {
		snprintf(msg, len, "fake refusal");
		return -f->replace_errno;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct ipeh_tlv_params q = c[i].to;

		if (c[i].op == CHANGE_UNSET) {
			ipeh_table_default_params(c[i].type,
						  kernel_table_flags(),
						  &t.params[c[i].type]);
			continue;
		}
		if (q.admin_perm == IPEH_PERM_UNKNOWN)
			q.admin_perm = t.params[c[i].type].admin_perm;
		t.params[c[i].type] = q;
	}
	/* the kernel refuses a clash with the SET's errno and message */
	if (!table_find_order_clash(&t, &a, &b))
		return fake_kernel_refuses("order-taken", msg, len);
	f->t = t;
	return 0;
}

static const struct backend_ops fake_ops_replace = {
	.dump = fake_dump, .set = fake_set, .unset = fake_unset,
	.replace = fake_replace,
};

static inline void fake_log(void *arg, int level, const char *line)
{
	struct fake *f = arg;
	size_t used = strlen(f->log);

	(void)level;
	snprintf(f->log + used, sizeof(f->log) - used, "%s\n", line);
}

/* A kernel with the built-in table, nothing failing. */
static inline void fake_init(struct fake *f, struct backend *be,
			     struct logger *log)
{
	memset(f, 0, sizeof(*f));
	ipeh_table_init_default(&f->t, kernel_table_flags());
	f->fail_type = -1;
	be->ops = &fake_ops;
	be->ctx = f;
	log->fn = fake_log;
	log->arg = f;
}

/* The same, with a kernel that has REPLACE */
static inline void fake_init_replace(struct fake *f, struct backend *be,
				     struct logger *log)
{
	fake_init(f, be, log);
	be->ops = &fake_ops_replace;
}

static inline void fake_reset_counters(struct fake *f)
{
	f->replaces = 0;
	f->calls = 0;
	f->dumps = 0;
	f->calls_log[0] = '\0';
	f->log[0] = '\0';
}

/* Fails the set/unset calls numbered in @calls (1-based, 0-terminated). */
static inline void fake_fail_calls(struct fake *f, const unsigned int *calls)
{
	f->fail_calls = 0;
	for (; *calls; calls++)
		f->fail_calls |= UINT64_C(1) << (*calls - 1);
}

#define FAIL_CALLS(f, ...) \
	fake_fail_calls(f, (const unsigned int[]){ __VA_ARGS__, 0 })

/* Every field, padding aside. */
static inline bool params_identical(const struct ipeh_tlv_params *a,
				    const struct ipeh_tlv_params *b)
{
	return a->order == b->order && a->admin_perm == b->admin_perm &&
	       a->user_perm == b->user_perm && a->class_mask == b->class_mask &&
	       a->align_mult == b->align_mult && a->align_off == b->align_off &&
	       a->min_data_len == b->min_data_len &&
	       a->max_data_len == b->max_data_len &&
	       a->data_len_mult == b->data_len_mult &&
	       a->data_len_off == b->data_len_off;
}

#endif
