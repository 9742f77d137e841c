/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tlvd.conf(5): the policy file.
 *
 *   [global]
 *   unmentioned = keep | reset
 *   on-stop = keep | restore
 *   interval = SECONDS
 *
 *   [option ioam]            (a name, a decimal or a 0x number)
 *   class = hop
 *   order = 50
 *   admin = nocheck
 *   user = check
 *   align = 4n+0
 *   length = 10-254
 *   length-mult = 4n+2
 */
#ifndef TLVD_POLICY_H
#define TLVD_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "table.h"

enum policy_unmentioned {
	POLICY_UNMENTIONED_KEEP,	/* types not in the file are left alone */
	POLICY_UNMENTIONED_RESET,	/* ... are set to the kernel default */
};

enum policy_on_stop {
	POLICY_ON_STOP_KEEP,		/* the policy stays in the kernel */
	POLICY_ON_STOP_RESTORE,		/* managed types go back to default */
};

#define POLICY_DEFAULT_INTERVAL 30
#define POLICY_MAX_INTERVAL 86400

/* The largest policy file read, in bytes */
#define POLICY_MAX_FILE		(1u << 20)

struct policy {
	enum policy_unmentioned unmentioned;
	enum policy_on_stop on_stop;
	unsigned int interval;		/* seconds; 0 disables the re-check */
	bool mentioned[TLV_TYPE_COUNT];
	unsigned int line[TLV_TYPE_COUNT];	/* of the [option] header */
	struct ipeh_table table;	/* entries of the mentioned types */
	/* Not from the file: types a previous policy managed and this one
	 * does not name; applying gives them back their kernel default. */
	bool dropped[TLV_TYPE_COUNT];
};

struct policy_error {
	unsigned int line;	/* 0 if the file could not be read */
	char msg[200];
};

/* The empty policy: nothing mentioned, keep, keep, default interval. */
void policy_init(struct policy *pol);

/*
 * Parses @len bytes of @buf (need not be NUL-terminated; may hold any
 * bytes).  On success fills @pol and returns 0.  On error returns -1,
 * fills @err with the line and message of the first error, and leaves
 * @pol untouched.  Safe as a fuzzing entry point.
 */
int policy_parse_buffer(const char *buf, size_t len, struct policy *pol,
			struct policy_error *err);

/* Reads and parses @path; errors as above (line 0: cannot read). */
int policy_parse_file(const char *path, struct policy *pol,
		      struct policy_error *err);

/* Prints "path:line: message" (or "path: message") to @f. */
void policy_error_print(FILE *f, const char *path,
			const struct policy_error *err);
/* Same into @buf. */
void policy_error_format(char *buf, size_t len, const char *path,
			 const struct policy_error *err);

/* Number of option types the policy mentions. */
unsigned int policy_count(const struct policy *pol);

#endif
