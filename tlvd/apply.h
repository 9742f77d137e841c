/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * From a policy to the kernel's table: the table the policy wants, the
 * difference from the live table, and applying it with rollback.
 *
 * Nothing here knows about netlink: the table is reached through
 * struct backend, so the logic is tested against a fake table.
 */
#ifndef TLVD_APPLY_H
#define TLVD_APPLY_H

#include "policy.h"
#include "table.h"

struct change;

struct backend_ops {
	/* Each returns 0 or a negative errno, with a message in @msg. */
	int (*dump)(void *ctx, struct ipeh_table *t, char *msg, size_t len);
	int (*set)(void *ctx, uint8_t type, const struct ipeh_tlv_params *p,
		   char *msg, size_t len);
	int (*unset)(void *ctx, uint8_t type, char *msg, size_t len);
	/*
	 * Optional: all @n changes in one step, all or nothing (the
	 * kernel's REPLACE).  -EOPNOTSUPP if the kernel cannot: then the
	 * changes are made one by one.
	 */
	int (*replace)(void *ctx, const struct change *c, unsigned int n,
		       char *msg, size_t len);
};

struct backend {
	const struct backend_ops *ops;
	void *ctx;
};

/* One line per event; @level is a syslog priority (LOG_INFO ...). */
typedef void (*log_fn)(void *arg, int level, const char *line);

struct logger {
	log_fn fn;
	void *arg;
};

enum change_op { CHANGE_SET, CHANGE_UNSET };

struct change {
	uint8_t type;
	enum change_op op;
	struct ipeh_tlv_params from;
	struct ipeh_tlv_params to;
};

struct changeset {
	unsigned int count;
	struct change change[TLV_TYPE_COUNT];
};

/*
 * The table @pol wants, given the @live one: mentioned types as in the
 * file; the others as in @live (unmentioned = keep) or at the kernel's
 * built-in default (unmentioned = reset).
 */
void policy_wanted_table(const struct policy *pol,
			 const struct ipeh_table *live,
			 struct ipeh_table *want);

/*
 * The table tlvd leaves when it stops with on-stop = restore: the types
 * the policy manages (mentioned ones; all with unmentioned = reset) at
 * their built-in default, the others as in @live.
 */
void policy_restore_table(const struct policy *pol,
			  const struct ipeh_table *live,
			  struct ipeh_table *want);

/* Changes that turn @from into @to, in type order. */
void table_diff(const struct ipeh_table *from, const struct ipeh_table *to,
		struct changeset *cs);

/*
 * Two types with an entry that share a preferred order (the kernel
 * refuses that with -EALREADY): returns 0 and sets *a < *b, or -1 if all
 * orders are distinct.
 */
int table_find_order_clash(const struct ipeh_table *t, unsigned int *a,
			   unsigned int *b);

/*
 * The kernel calls, in order, that turn @from into @to without ever
 * giving two types the same order: a type whose new order is still held
 * by another waits for it to move; a cycle (two types swapping orders)
 * is broken by first moving one to a free order.  @to must have no order
 * clash.  Up to 2 steps per type.
 */
struct plan {
	unsigned int count;
	struct change step[2 * TLV_TYPE_COUNT];
};
int plan_changes(const struct ipeh_table *from, const struct ipeh_table *to,
		 struct plan *plan);

/* "set ioam (0x31): user none -> check", "unset 0x99 (was order 9 ...)" */
void change_format(const struct change *c, char *buf, size_t len);

struct apply_result {
	unsigned int changed;	/* kernel calls made (and kept) */
	int error;		/* 0 or the negative errno of the failure */
	bool rolled_back;	/* a failure happened and was undone */
	bool rollback_failed;	/* ... and the table still differs */
	char msg[300];		/* what failed, for STATUS= */
};

/*
 * Dumps the live table and applies the changes that turn it into @target
 * (computed by @wanted from the live table), each logged.  Where the
 * backend can, all of them in one request, which the kernel makes all or
 * nothing (an interrupted apply leaves the table old or new, never in
 * between).  Otherwise one call per change: if a change fails, undoes the
 * ones made, re-dumps and repeats the undo once for anything still
 * different, so that the table is exactly what it was.  Returns 0 or the
 * negative errno of the failure.
 */
typedef void (*wanted_fn)(const struct policy *pol,
			  const struct ipeh_table *live,
			  struct ipeh_table *want);
/* apply_table() flags: on failure, keep the changes made (re-asserting a
 * policy after a drift: they bring the table closer to it) */
#define APPLY_NO_ROLLBACK	(1u << 0)
int apply_table(const struct backend *be, const struct policy *pol,
		wanted_fn wanted, unsigned int flags,
		const struct logger *log, struct apply_result *res);

static inline int apply_policy(const struct backend *be,
			       const struct policy *pol,
			       const struct logger *log,
			       struct apply_result *res)
{
	return apply_table(be, pol, policy_wanted_table, 0, log, res);
}

/*
 * Dumps the live table and computes what applying @pol would change,
 * without changing anything.
 */
int diff_policy(const struct backend *be, const struct policy *pol,
		struct ipeh_table *live, struct changeset *cs, char *msg,
		size_t len);

#endif
