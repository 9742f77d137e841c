/* SPDX-License-Identifier: GPL-2.0-only */
/* One line per event on stderr; with a "<N>" priority prefix when stderr
 * is the journal, so that journald keeps the level. */
#ifndef TLVD_LOG_H
#define TLVD_LOG_H

#include <stdbool.h>
#include <syslog.h>

#include "apply.h"

void log_init(const char *prog);
/*
 * Whether @fd is the stream systemd connected to the journal: JOURNAL_STREAM
 * (@env) names its device and inode, as sd-journal documents; a terminal
 * that merely inherited the variable is not.
 */
bool log_stream_is_journal(const char *env, int fd);
void log_line(int level, const char *line);
void log_msg(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A struct logger that writes through log_line(). */
extern const struct logger log_stderr;

#endif
