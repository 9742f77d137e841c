/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TLVCTL_H
#define TLVCTL_H

#include <stdbool.h>

#include "apply.h"

struct cmd_opts {
	bool json;
};

/* One per subcommand, in cmd-NAME.c: returns the exit code. */
int cmd_show(int argc, char **argv, const struct cmd_opts *o);
int cmd_showconf(int argc, char **argv, const struct cmd_opts *o);
int cmd_monitor(int argc, char **argv, const struct cmd_opts *o);
int cmd_set(int argc, char **argv, const struct cmd_opts *o);
int cmd_unset(int argc, char **argv, const struct cmd_opts *o);
int cmd_apply(int argc, char **argv, const struct cmd_opts *o);
int cmd_check(int argc, char **argv, const struct cmd_opts *o);
int cmd_diff(int argc, char **argv, const struct cmd_opts *o);

/* Opens the kernel's table, printing why not; 0 or -1. */
int tlvctl_open(struct backend *be);
/* Prints "tlvctl: MESSAGE" to stderr. */
void tlvctl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Strips --json/-j and --help/-h from a subcommand's arguments.
 * Returns 1 if help was asked for. */
int tlvctl_common_opts(int *argc, char **argv, struct cmd_opts *o);
/* Parses a type argument or prints an error; -1 on error. */
int tlvctl_type_arg(const char *s);
/*
 * Warns on stderr when a tlvd runs in this network namespace and manages
 * @type (-1: any type, for apply): its next check undoes such a change.
 * The tlvd's state file is /run/tlvd/state, or $TLVD_STATE.
 */
void tlvctl_warn_managed(int type);
/*
 * Takes the lock a tlvd running in this network namespace holds around
 * each of its applies (next to its state file), so that tlvctl's change
 * and tlvd's never interleave; waits up to 10 s. Returns the fd to pass
 * to tlvctl_unlock(), or -1 when there is no such tlvd.
 */
int tlvctl_lock(void);
void tlvctl_unlock(int fd);

#endif
