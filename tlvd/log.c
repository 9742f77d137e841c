// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

static const char *prog_name = "tlvd";
static bool to_journal;

void log_init(const char *prog)
{
	prog_name = prog;
	to_journal = getenv("JOURNAL_STREAM") != NULL;
}

void log_line(int level, const char *line)
{
	if (to_journal)
		fprintf(stderr, "<%d>%s\n", level, line);
	else
		fprintf(stderr, "%s: %s\n", prog_name, line);
}

void log_msg(int level, const char *fmt, ...)
{
	char line[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_line(level, line);
}

static void logger_fn(void *arg, int level, const char *line)
{
	(void)arg;
	log_line(level, line);
}

const struct logger log_stderr = { .fn = logger_fn, .arg = NULL };
