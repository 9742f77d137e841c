// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "apply.h"

__attribute__((format(printf, 3, 4)))
static void logf_(const struct logger *log, int level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!log || !log->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log->fn(log->arg, level, line);
}

void policy_wanted_table(const struct policy *pol,
			 const struct ipeh_table *live,
			 struct ipeh_table *want)
{
	struct ipeh_table def;

	tlv_table_kernel_default(&def, live);
	if (pol->unmentioned == POLICY_UNMENTIONED_RESET)
		*want = def;
	else
		*want = *live;
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
		if (pol->mentioned[t])
			want->params[t] = pol->table.params[t];
		else if (pol->dropped[t])
			want->params[t] = def.params[t];
	}
}

void policy_restore_table(const struct policy *pol,
			  const struct ipeh_table *live,
			  struct ipeh_table *want)
{
	struct ipeh_table def;

	tlv_table_kernel_default(&def, live);
	*want = *live;
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++)
		if (pol->mentioned[t] ||
		    pol->unmentioned == POLICY_UNMENTIONED_RESET)
			want->params[t] = def.params[t];
}

static void add_change(struct change *c, unsigned int type,
		       const struct ipeh_tlv_params *from,
		       const struct ipeh_tlv_params *to)
{
	c->type = (uint8_t)type;
	c->op = tlv_params_has_entry(to) ? CHANGE_SET : CHANGE_UNSET;
	c->from = *from;
	c->to = *to;
}

void table_diff(const struct ipeh_table *from, const struct ipeh_table *to,
		struct changeset *cs)
{
	cs->count = 0;
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++)
		if (!tlv_params_equal(&from->params[t], &to->params[t]))
			add_change(&cs->change[cs->count++], t,
				   &from->params[t], &to->params[t]);
}

int table_find_order_clash(const struct ipeh_table *t, unsigned int *a,
			   unsigned int *b)
{
	/* first type seen with each order */
	uint8_t *holder = calloc(65536, 1);

	if (!holder)
		return -1;
	for (unsigned int i = TLV_TYPE_FIRST; i < TLV_TYPE_COUNT; i++) {
		uint16_t order = t->params[i].order;

		if (!order)
			continue;
		if (holder[order]) {
			*a = holder[order];
			*b = i;
			free(holder);
			return 0;
		}
		holder[order] = (uint8_t)i;
	}
	free(holder);
	return -1;
}

static int order_holder(const struct ipeh_table *t, uint16_t order,
			unsigned int except)
{
	for (unsigned int i = TLV_TYPE_FIRST; i < TLV_TYPE_COUNT; i++)
		if (i != except && order && t->params[i].order == order)
			return (int)i;
	return -1;
}

static uint16_t free_order(const struct ipeh_table *a,
			   const struct ipeh_table *b)
{
	for (unsigned int o = 65535; o > 0; o--)
		if (order_holder(a, (uint16_t)o, 0) < 0 &&
		    order_holder(b, (uint16_t)o, 0) < 0)
			return (uint16_t)o;
	return 0;	/* cannot happen: 254 types, 65535 orders */
}

int plan_changes(const struct ipeh_table *from, const struct ipeh_table *to,
		 struct plan *plan)
{
	struct ipeh_table sim = *from;
	bool pending[TLV_TYPE_COUNT] = { false };
	unsigned int left = 0;

	plan->count = 0;
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
		pending[t] = !tlv_params_equal(&from->params[t],
					       &to->params[t]);
		left += pending[t];
	}

	while (left) {
		bool progress = false;

		for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
			const struct ipeh_tlv_params *want = &to->params[t];

			if (!pending[t])
				continue;
			if (tlv_params_has_entry(want) &&
			    order_holder(&sim, want->order, t) >= 0)
				continue;
			add_change(&plan->step[plan->count++], t,
				   &sim.params[t], want);
			sim.params[t] = *want;
			pending[t] = false;
			left--;
			progress = true;
		}
		if (progress)
			continue;

		/* Every pending type waits for an order another pending
		 * type holds: move one holder out of the way. */
		for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
			struct ipeh_tlv_params moved;
			int u;

			if (!pending[t])
				continue;
			u = order_holder(&sim, to->params[t].order, t);
			if (u < 0 || !pending[u])
				return -EALREADY;	/* @to has a clash */
			moved = sim.params[u];
			moved.order = free_order(&sim, to);
			add_change(&plan->step[plan->count++], (unsigned int)u,
				   &sim.params[u], &moved);
			sim.params[u] = moved;
			progress = true;
			break;
		}
		if (!progress || plan->count >= 2 * TLV_TYPE_COUNT - 1)
			return -EALREADY;
	}
	return 0;
}

static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used >= len)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return n < 0 ? used : used + (size_t)n;
}

static size_t describe_fields(char *buf, size_t len, size_t used,
			      const struct ipeh_tlv_params *a,
			      const struct ipeh_tlv_params *b)
{
	char ca[24], cb[24];
	const char *sep = "";

#define FIELD(cond, ...) do {					\
		if (cond) {					\
			used = append(buf, len, used, "%s", sep);	\
			used = append(buf, len, used, __VA_ARGS__);	\
			sep = ", ";				\
		}						\
	} while (0)

	FIELD(a->order != b->order, "order %u -> %u", a->order, b->order);
	FIELD(a->class_mask != b->class_mask, "class %s -> %s",
	      tlv_class_format(a->class_mask, ca, sizeof(ca)),
	      tlv_class_format(b->class_mask, cb, sizeof(cb)));
	FIELD(a->admin_perm != b->admin_perm &&
	      b->admin_perm != TLV_PERM_UNKNOWN, "admin %s -> %s",
	      tlv_perm_name(a->admin_perm), tlv_perm_name(b->admin_perm));
	FIELD(a->user_perm != b->user_perm, "user %s -> %s",
	      tlv_perm_name(a->user_perm), tlv_perm_name(b->user_perm));
	FIELD(a->align_mult != b->align_mult || a->align_off != b->align_off,
	      "align %un+%u -> %un+%u", a->align_mult, a->align_off,
	      b->align_mult, b->align_off);
	FIELD(a->min_data_len != b->min_data_len ||
	      a->max_data_len != b->max_data_len,
	      "length %u-%u -> %u-%u", a->min_data_len, a->max_data_len,
	      b->min_data_len, b->max_data_len);
	FIELD(a->data_len_mult != b->data_len_mult ||
	      a->data_len_off != b->data_len_off,
	      "length-mult %un+%u -> %un+%u", a->data_len_mult,
	      a->data_len_off, b->data_len_mult, b->data_len_off);
#undef FIELD
	return used;
}

void change_format(const struct change *c, char *buf, size_t len)
{
	char name[32], params[160];
	size_t used;

	tlv_type_format(c->type, name, sizeof(name));
	if (c->op == CHANGE_UNSET) {
		tlv_params_format(&c->from, params, sizeof(params));
		snprintf(buf, len, "unset %s (was %s)", name, params);
		return;
	}
	if (!tlv_params_has_entry(&c->from)) {
		tlv_params_format(&c->to, params, sizeof(params));
		snprintf(buf, len, "set %s: new entry %s", name, params);
		return;
	}
	used = append(buf, len, 0, "set %s: ", name);
	describe_fields(buf, len, used, &c->from, &c->to);
}

static int do_step(const struct backend *be, const struct change *c,
		   char *msg, size_t len)
{
	msg[0] = '\0';
	if (c->op == CHANGE_UNSET)
		return be->ops->unset(be->ctx, c->type, msg, len);
	return be->ops->set(be->ctx, c->type, &c->to, msg, len);
}

/* Runs @plan; returns 0, or the failed step's errno with *failed set. */
static int run_plan(const struct backend *be, const struct plan *plan,
		    const struct logger *log, const char *what,
		    unsigned int *done, char *msg, size_t len)
{
	char line[400];

	*done = 0;
	for (unsigned int i = 0; i < plan->count; i++) {
		const struct change *c = &plan->step[i];
		int ret = do_step(be, c, msg, len);

		change_format(c, line, sizeof(line));
		if (ret) {
			logf_(log, LOG_ERR, "%sfailed: %s: %s", what, line,
			      msg[0] ? msg : strerror(-ret));
			return ret;
		}
		logf_(log, LOG_INFO, "%s%s", what, line);
		(*done)++;
	}
	return 0;
}

/* @target: the live table with the @touched types as in @before */
static void rollback_target(const struct ipeh_table *now,
			    const struct ipeh_table *before, const bool *touched,
			    struct ipeh_table *target)
{
	*target = *now;
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++)
		if (touched[t])
			target->params[t] = before->params[t];
}

/*
 * Brings the types this apply changed (@touched) back to @before, leaving
 * any other change (another tool's, meanwhile) alone; true if they match
 * again.
 */
static bool roll_back(const struct backend *be,
		      const struct ipeh_table *before, const bool *touched,
		      const struct logger *log)
{
	struct ipeh_table now, target;
	struct plan *plan = malloc(sizeof(*plan));
	char msg[256];
	unsigned int done;
	bool ok = false;

	if (!plan)
		return false;
	/* Twice: a step of the first pass may itself fail; the second
	 * pass starts from what the kernel then really holds. */
	for (int pass = 0; pass < 2 && !ok; pass++) {
		struct changeset cs;
		int ret = be->ops->dump(be->ctx, &now, msg, sizeof(msg));

		if (ret) {
			logf_(log, LOG_ERR, "rollback: cannot read the table: %s",
			      msg[0] ? msg : strerror(-ret));
			break;
		}
		rollback_target(&now, before, touched, &target);
		table_diff(&now, &target, &cs);
		if (!cs.count) {
			ok = true;
			break;
		}
		if (plan_changes(&now, &target, plan))
			break;
		run_plan(be, plan, log, "rollback: ", &done, msg, sizeof(msg));
	}
	if (!ok && !be->ops->dump(be->ctx, &now, msg, sizeof(msg))) {
		struct changeset cs;

		rollback_target(&now, before, touched, &target);
		table_diff(&now, &target, &cs);
		ok = cs.count == 0;
	}
	free(plan);
	if (ok)
		logf_(log, LOG_NOTICE, "rollback done: the types this apply changed are as they were before");
	else
		logf_(log, LOG_CRIT, "rollback failed: the table differs from what it was before");
	return ok;
}

/* After a successful apply the kernel should report what was set; say
 * so if it does not (it would otherwise show up as endless drift). */
static void verify(const struct backend *be, const struct ipeh_table *want,
		   const struct logger *log)
{
	struct ipeh_table now;
	struct changeset *cs = malloc(sizeof(*cs));
	char msg[256], line[400];

	if (!cs)
		return;
	if (!be->ops->dump(be->ctx, &now, msg, sizeof(msg))) {
		table_diff(&now, want, cs);
		for (unsigned int i = 0; i < cs->count; i++) {
			change_format(&cs->change[i], line, sizeof(line));
			logf_(log, LOG_WARNING,
			      "after applying, the kernel still differs from the policy: %s",
			      line);
		}
	}
	free(cs);
}

/*
 * All of @cs in one request.  Returns -EOPNOTSUPP (and logs nothing) if
 * the backend cannot; otherwise 0 or the errno of the refused request,
 * which changed nothing.
 */
static int apply_in_one_request(const struct backend *be,
				const struct changeset *cs,
				const struct ipeh_table *want,
				const struct logger *log,
				struct apply_result *res)
{
	char msg[256] = "", line[400];
	int ret;

	if (!be->ops->replace)
		return -EOPNOTSUPP;
	ret = be->ops->replace(be->ctx, cs->change, cs->count, msg,
			       sizeof(msg));
	if (ret == -EOPNOTSUPP)
		return ret;
	if (ret) {
		snprintf(res->msg, sizeof(res->msg),
			 "%s; nothing changed", msg[0] ? msg : strerror(-ret));
		logf_(log, LOG_ERR, "apply failed (%u changes in one request): %s",
		      cs->count, res->msg);
		return res->error = ret;
	}
	for (unsigned int i = 0; i < cs->count; i++) {
		change_format(&cs->change[i], line, sizeof(line));
		logf_(log, LOG_INFO, "%s", line);
	}
	res->changed = cs->count;
	verify(be, want, log);
	return 0;
}

/* The one-call-per-change path of apply_table(), signals blocked */
static int apply_plan(const struct backend *be, const struct ipeh_table *before,
		      const struct ipeh_table *want, struct plan *plan,
		      unsigned int flags, const struct logger *log,
		      struct apply_result *res)
{
	bool touched[TLV_TYPE_COUNT] = { false };
	char msg[256] = "";
	char n1[32];
	unsigned int done = 0;
	int ret;

	ret = plan_changes(before, want, plan);
	if (ret) {
		snprintf(res->msg, sizeof(res->msg),
			 "cannot order the changes; nothing changed");
		logf_(log, LOG_ERR, "%s", res->msg);
		return res->error = ret;
	}
	ret = run_plan(be, plan, log, "", &done, msg, sizeof(msg));
	if (ret) {
		const struct change *c = &plan->step[done];

		snprintf(res->msg, sizeof(res->msg), "%s %s: %s",
			 c->op == CHANGE_SET ? "set" : "unset",
			 tlv_type_format(c->type, n1, sizeof(n1)),
			 msg[0] ? msg : strerror(-ret));
		res->error = ret;
		res->changed = done;
		if (flags & APPLY_NO_ROLLBACK) {
			/* re-asserting a policy: what was put back stays */
			logf_(log, LOG_WARNING, "stopped after %u of %u changes; the rest at the next check",
			      done, plan->count);
			return ret;
		}
		for (unsigned int i = 0; i < done; i++)
			touched[plan->step[i].type] = true;
		res->rolled_back = done > 0;
		/* Even with nothing done, check the table is intact. */
		if (!roll_back(be, before, touched, log))
			res->rollback_failed = true;
		res->changed = 0;
	} else {
		res->changed = done;
		if (done)
			verify(be, want, log);
	}
	return ret;
}

int apply_table(const struct backend *be, const struct policy *pol,
		wanted_fn wanted, unsigned int flags,
		const struct logger *log, struct apply_result *res)
{
	struct ipeh_table before, want;
	sigset_t stop, old_mask;
	struct plan *plan;
	char msg[256] = "";
	char n1[32], n2[32];
	unsigned int a, b;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = be->ops->dump(be->ctx, &before, msg, sizeof(msg));
	if (ret) {
		snprintf(res->msg, sizeof(res->msg),
			 "cannot read the kernel's table: %s",
			 msg[0] ? msg : strerror(-ret));
		logf_(log, LOG_ERR, "%s", res->msg);
		return res->error = ret;
	}
	wanted(pol, &before, &want);
	if (!table_find_order_clash(&want, &a, &b)) {
		snprintf(res->msg, sizeof(res->msg),
			 "%s and %s would both have order %u; nothing changed",
			 tlv_type_format(a, n1, sizeof(n1)),
			 tlv_type_format(b, n2, sizeof(n2)),
			 want.params[a].order);
		logf_(log, LOG_ERR, "%s", res->msg);
		return res->error = -EALREADY;
	}
	if (be->ops->replace) {
		struct changeset *cs = malloc(sizeof(*cs));

		if (!cs) {
			snprintf(res->msg, sizeof(res->msg), "out of memory");
			return res->error = -ENOMEM;
		}
		table_diff(&before, &want, cs);
		ret = cs->count ? apply_in_one_request(be, cs, &want, log, res)
				: 0;
		free(cs);
		if (ret != -EOPNOTSUPP)
			return ret;
	}
	plan = malloc(sizeof(*plan));
	if (!plan) {
		snprintf(res->msg, sizeof(res->msg), "out of memory");
		return res->error = -ENOMEM;
	}
	/* One call per change: a SIGINT or SIGTERM in the middle would
	 * leave the table half-applied, so they wait until the table is
	 * whole again, applied or rolled back.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	sigprocmask(SIG_BLOCK, &stop, &old_mask);
	ret = apply_plan(be, &before, &want, plan, flags, log, res);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	free(plan);
	return ret;
}


int diff_policy(const struct backend *be, const struct policy *pol,
		struct ipeh_table *live, struct changeset *cs, char *msg,
		size_t len)
{
	struct ipeh_table want;
	int ret;

	msg[0] = '\0';
	ret = be->ops->dump(be->ctx, live, msg, len);
	if (ret)
		return ret;
	policy_wanted_table(pol, live, &want);
	table_diff(live, &want, cs);
	return 0;
}
