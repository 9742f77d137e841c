/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tlvd's state and what it does on each event, apart from the event
 * loop and sd_notify, so that it runs against a fake table in tests.
 */
#ifndef TLVD_DAEMON_H
#define TLVD_DAEMON_H

#include "apply.h"
#include "policy.h"

struct daemon {
	const char *config_path;
	int interval_override;		/* -1: use the file's interval */
	struct backend be;
	const struct logger *log;

	struct policy pol;		/* the policy in force */
	unsigned long applies;		/* kernel calls made since start */
	unsigned long drifts;		/* drifts found and corrected */
	int lock_fd;			/* flock()ed around each apply; -1 none */
	char last_error[400];		/* "" if none */
	char status[600];		/* for STATUS= */
};

void daemon_init(struct daemon *d, const char *config_path,
		 const struct backend *be, const struct logger *log);

/* Reads the file and applies it.  0, or -1 with d->last_error set (the
 * file's error as "file:line: message", or the kernel's). */
int daemon_start(struct daemon *d);
/*
 * SIGHUP: reads the file again; a broken file or a failed apply keeps
 * the policy in force (the kernel table is rolled back) and sets
 * d->last_error.  Returns 0 if the new policy is in force.
 */
int daemon_reload(struct daemon *d);
/* Timer or notification: re-asserts the policy if the table drifted.
 * Returns the number of types that had drifted, or -1 on error. */
int daemon_check(struct daemon *d);
/* SIGTERM: with on-stop = restore, managed types back to default. */
int daemon_stop(struct daemon *d);

/* Seconds between checks (0: none). */
unsigned int daemon_interval(const struct daemon *d);
/* Rewrites d->status. */
void daemon_update_status(struct daemon *d);

#endif
