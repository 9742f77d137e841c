// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "log.h"

static const char *prog_name = "tlvd";
static bool to_journal;

bool log_stream_is_journal(const char *env, int fd)
{
	unsigned long long dev, ino;
	struct stat st;
	int used = 0;

	/* "DEVICE:INODE" of the stream systemd connected, in decimal; a
	 * process that merely inherited the variable has another fd 2
	 */
	if (!env || sscanf(env, "%llu:%llu%n", &dev, &ino, &used) != 2 ||
	    env[used] != '\0' || fstat(fd, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

void log_init(const char *prog)
{
	prog_name = prog;
	to_journal = log_stream_is_journal(getenv("JOURNAL_STREAM"), 2);
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
