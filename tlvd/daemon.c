// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <string.h>
#include <syslog.h>

#include <sys/file.h>

#include "daemon.h"

__attribute__((format(printf, 3, 4)))
static void say(const struct daemon *d, int level, const char *fmt, ...)
{
	char line[600];
	va_list ap;

	if (!d->log || !d->log->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	d->log->fn(d->log->arg, level, line);
}

void daemon_init(struct daemon *d, const char *config_path,
		 const struct backend *be, const struct logger *log)
{
	memset(d, 0, sizeof(*d));
	d->config_path = config_path;
	d->interval_override = -1;
	d->be = *be;
	d->log = log;
	d->lock_fd = -1;
	policy_init(&d->pol);
}

unsigned int daemon_interval(const struct daemon *d)
{
	if (d->interval_override >= 0)
		return (unsigned int)d->interval_override;
	return d->pol.interval;
}

void daemon_update_status(struct daemon *d)
{
	char types[300] = "", name[32];
	size_t used = 0;
	unsigned int n = 0;

	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++) {
		if (!d->pol.mentioned[t])
			continue;
		n++;
		if (used < sizeof(types))
			used += (size_t)snprintf(types + used,
						 sizeof(types) - used, "%s%s",
						 used ? " " : "",
						 tlv_type_short(t, name, sizeof(name)));
	}
	snprintf(d->status, sizeof(d->status),
		 "%s: %u type%s (%s), unmentioned %s; %lu change%s, %lu drift%s corrected; last error: %s",
		 d->config_path, n, n == 1 ? "" : "s", n ? types : "none",
		 d->pol.unmentioned == POLICY_UNMENTIONED_RESET ? "reset" : "kept",
		 d->applies, d->applies == 1 ? "" : "s",
		 d->drifts, d->drifts == 1 ? "" : "s",
		 d->last_error[0] ? d->last_error : "none");
}

/* Applies @pol; on failure the kernel is back where it was. */
static int apply(struct daemon *d, const struct policy *pol, wanted_fn wanted,
		 unsigned int flags)
{
	struct apply_result res;
	int ret;

	/* tlvctl takes the same lock: two appliers never interleave */
	if (d->lock_fd >= 0)
		flock(d->lock_fd, LOCK_EX);
	ret = apply_table(&d->be, pol, wanted, flags, d->log, &res);
	if (d->lock_fd >= 0)
		flock(d->lock_fd, LOCK_UN);
	if (ret) {
		d->applies += res.changed;
		snprintf(d->last_error, sizeof(d->last_error), "%s%s",
			 res.msg, res.rollback_failed ?
			 " (rollback failed: table inconsistent)" : "");
		return -1;
	}
	d->applies += res.changed;
	return 0;
}

static int read_policy(struct daemon *d, struct policy *pol)
{
	struct policy_error err;

	if (policy_parse_file(d->config_path, pol, &err)) {
		policy_error_format(d->last_error, sizeof(d->last_error),
				    d->config_path, &err);
		return -1;
	}
	return 0;
}

int daemon_start(struct daemon *d)
{
	struct policy pol;
	int ret = -1;

	if (read_policy(d, &pol)) {
		say(d, LOG_ERR, "%s", d->last_error);
		goto out;
	}
	if (apply(d, &pol, policy_wanted_table, 0)) {
		say(d, LOG_ERR, "cannot apply %s: %s", d->config_path,
		    d->last_error);
		goto out;
	}
	d->pol = pol;
	say(d, LOG_INFO, "policy %s applied (%u option types)",
	    d->config_path, policy_count(&pol));
	ret = 0;
out:
	daemon_update_status(d);
	return ret;
}

int daemon_reload(struct daemon *d)
{
	struct policy pol, eff;
	int ret = -1;

	say(d, LOG_INFO, "reloading %s", d->config_path);
	if (read_policy(d, &pol)) {
		say(d, LOG_ERR, "reload failed, keeping the current policy: %s",
		    d->last_error);
		goto out;
	}
	/* A section removed from the file: the type is no longer managed,
	 * and goes back to its kernel default rather than keep the old
	 * policy's values unmanaged (as wg syncconf removes what the file
	 * no longer names).
	 */
	eff = pol;
	for (unsigned int t = TLV_TYPE_FIRST; t < TLV_TYPE_COUNT; t++)
		eff.dropped[t] = d->pol.mentioned[t] && !pol.mentioned[t];
	if (apply(d, &eff, policy_wanted_table, 0)) {
		say(d, LOG_ERR, "reload failed, keeping the current policy: %s",
		    d->last_error);
		goto out;
	}
	d->pol = pol;
	d->last_error[0] = '\0';
	say(d, LOG_INFO, "policy %s applied (%u option types)",
	    d->config_path, policy_count(&pol));
	ret = 0;
out:
	daemon_update_status(d);
	return ret;
}

int daemon_check(struct daemon *d)
{
	struct ipeh_table live;
	struct changeset cs;
	char msg[256], names[200] = "", name[32];
	size_t used = 0;
	int ret;

	ret = diff_policy(&d->be, &d->pol, &live, &cs, msg, sizeof(msg));
	if (ret) {
		snprintf(d->last_error, sizeof(d->last_error),
			 "cannot read the kernel's table: %s", msg);
		say(d, LOG_ERR, "%s", d->last_error);
		daemon_update_status(d);
		return -1;
	}
	if (!cs.count)
		return 0;
	for (unsigned int i = 0; i < cs.count && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", i ? " " : "",
					 tlv_type_short(cs.change[i].type, name,
							sizeof(name)));
	say(d, LOG_WARNING, "drift: %u %s from the policy (%s), re-asserting",
	    cs.count, cs.count == 1 ? "type differs" : "types differ", names);
	if (apply(d, &d->pol, policy_wanted_table, APPLY_NO_ROLLBACK)) {
		say(d, LOG_ERR, "re-asserting the policy failed: %s",
		    d->last_error);
		daemon_update_status(d);
		return -1;
	}
	d->drifts++;
	daemon_update_status(d);
	return (int)cs.count;
}

int daemon_stop(struct daemon *d)
{
	if (d->pol.on_stop != POLICY_ON_STOP_RESTORE) {
		say(d, LOG_INFO, "stopping, the policy stays in the kernel");
		return 0;
	}
	say(d, LOG_INFO, "stopping, restoring the kernel defaults of the managed types");
	if (apply(d, &d->pol, policy_restore_table, 0)) {
		say(d, LOG_ERR, "restoring the defaults failed: %s",
		    d->last_error);
		return -1;
	}
	return 0;
}
