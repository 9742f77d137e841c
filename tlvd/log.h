/* SPDX-License-Identifier: GPL-2.0-only */
/* One line per event on stderr; with a "<N>" priority prefix when stderr
 * is the journal, so that journald keeps the level. */
#ifndef TLVD_LOG_H
#define TLVD_LOG_H

#include <syslog.h>

#include "apply.h"

void log_init(const char *prog);
void log_line(int level, const char *line);
void log_msg(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A struct logger that writes through log_line(). */
extern const struct logger log_stderr;

#endif
