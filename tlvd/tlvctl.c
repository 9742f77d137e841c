// SPDX-License-Identifier: GPL-2.0-only
/*
 * tlvctl: show and change the kernel's IPv6 TLV parameter table.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <signal.h>
#include <errno.h>
#include <unistd.h>

#include "backend-nl.h"
#include "log.h"
#include "tlvctl.h"

#ifndef TLVD_VERSION
#define TLVD_VERSION "0"
#endif

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, const struct cmd_opts *o);
	const char *usage;
	const char *help;
} cmds[] = {
	{ "show", cmd_show, "show [TYPE...] [--all] [--json]",
	  "Show the table: the types with an entry, every type with --all,\n"
	  "or the TYPEs given (names such as ioam or numbers such as 0x31);\n"
	  "with --json one TYPE is an object, several an array." },
	{ "showconf", cmd_showconf, "showconf",
	  "Print the live table as a tlvd.conf(5) policy; applying it to\n"
	  "the same table changes nothing." },
	{ "monitor", cmd_monitor, "monitor [--count N] [--json]",
	  "Print each change of the table as the kernel announces it, one\n"
	  "line (or JSON object) per changed type, until interrupted or N\n"
	  "changes; needs CAP_NET_ADMIN (the kernel's group is restricted)." },
	{ "set", cmd_set, "set TYPE KEY VALUE [KEY VALUE]...",
	  "Change TYPE.  KEY is order, class, admin, user, align, length or\n"
	  "length-mult, with values as in tlvd.conf(5), e.g.\n"
	  "  tlvctl set pmtu order 60 class hop user check align 4n+2 length 4\n"
	  "Only the given keys are sent; a type with no entry needs order." },
	{ "unset", cmd_unset, "unset TYPE",
	  "Give TYPE back its kernel default." },
	{ "del", cmd_unset, "del TYPE",
	  "The same as unset." },
	{ "apply", cmd_apply, "apply FILE",
	  "Apply a tlvd.conf(5) policy once (FILE - reads standard input),\n"
	  "as tlvd does at start:\n"
	  "every change is logged; the kernel makes them all in one step,\n"
	  "or none (older kernels: one by one, restored on failure)." },
	{ "check", cmd_check, "check FILE [--json]",
	  "Check a policy file; touches nothing.  Exit 1 on error." },
	{ "diff", cmd_diff, "diff FILE [--json]",
	  "Show what applying FILE would change.  Exit 0 if nothing,\n"
	  "1 if something would change, 2 on error." },
};

#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

void tlvctl_error(const char *fmt, ...)
{
	va_list ap;

	fputs("tlvctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int tlvctl_open(struct backend *be)
{
	char msg[256];

	if (nl_backend_open(be, msg, sizeof(msg))) {
		tlvctl_error("%s", msg);
		return -1;
	}
	return 0;
}

int tlvctl_common_opts(int *argc, char **argv, struct cmd_opts *o)
{
	int out = 1, help = 0;

	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j"))
			o->json = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			help = 1;
		else
			argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return help;
}

int tlvctl_type_arg(const char *s)
{
	int type = tlv_type_parse(s);

	if (type < 0)
		tlvctl_error("unknown option type '%s' (expected a name such as ioam or pmtu, or a number from 2 to 255)",
			     s);
	return type;
}

/* What a tlvd running in this network namespace manages (its state file) */
struct tlvd_state {
	char path[512];		/* the state file */
	long pid;
	bool reset;
	char config[1200];
	char managed[1200];
};

static const char *state_path(void)
{
	const char *path = getenv("TLVD_STATE");

	return path && path[0] ? path : "/run/tlvd/state";
}

/* 0 if a tlvd that still runs in this network namespace wrote @st */
static int read_state(struct tlvd_state *st)
{
	char line[1200];
	unsigned long long netns = 0;
	struct stat sb;
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(st->path, sizeof(st->path), "%s", state_path());
	st->config[0] = '?';
	f = fopen(st->path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "pid=", 4))
			st->pid = strtol(line + 4, NULL, 10);
		else if (!strncmp(line, "netns=", 6))
			netns = strtoull(line + 6, NULL, 10);
		else if (!strncmp(line, "config=", 7))
			memcpy(st->config, line + 7, strlen(line + 7) + 1);
		else if (!strncmp(line, "unmentioned=", 12))
			st->reset = !strcmp(line + 12, "reset");
		else if (!strncmp(line, "managed=", 8))
			memcpy(st->managed, line + 8, strlen(line + 8) + 1);
	}
	fclose(f);
	if (st->pid <= 1 || (kill((pid_t)st->pid, 0) && errno != EPERM) ||
	    stat("/proc/self/ns/net", &sb) ||
	    (unsigned long long)sb.st_ino != netns)
		return -1;
	return 0;
}

void tlvctl_warn_managed(int type)
{
	struct tlvd_state st;
	bool ours;

	if (read_state(&st))
		return;
	ours = st.reset || type < 0;
	for (char *save = NULL, *tok = strtok_r(st.managed, " ", &save);
	     tok && !ours; tok = strtok_r(NULL, " ", &save))
		ours = tlv_type_parse(tok) == type;
	if (!ours)
		return;
	if (type < 0) {
		fprintf(stderr, "tlvctl: warning: tlvd (pid %ld) keeps this table as %s says: its next check undoes what that file does not agree with\n",
			st.pid, st.config);
	} else {
		char name[32];

		fprintf(stderr, "tlvctl: warning: tlvd (pid %ld) manages %s (%s): its next check puts the policy's entry back; change the file and reload instead\n",
			st.pid, tlv_type_format((unsigned int)type, name,
						sizeof(name)), st.config);
	}
}

int tlvctl_lock(void)
{
	struct tlvd_state st;
	char path[530];
	char *slash;
	int fd;

	if (read_state(&st))
		return -1;
	slash = strrchr(st.path, '/');
	snprintf(path, sizeof(path), "%.*s/lock",
		 slash ? (int)(slash - st.path) : 1, slash ? st.path : ".");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* tlvd's applies are short; wait at most 10 s */
	for (int i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (errno != EWOULDBLOCK || i == 200) {
			tlvctl_error("warning: tlvd (pid %ld) holds %s; going on without it",
				     st.pid, path);
			close(fd);
			return -1;
		}
		if (i == 20)
			tlvctl_error("waiting for tlvd (pid %ld) to finish applying its policy", st.pid);
		usleep(50 * 1000);
	}
	return fd;
}

void tlvctl_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* Re-indents the compact JSON in @in onto @out, two spaces per level */
static void json_pretty(FILE *in, FILE *out)
{
	int c, depth = 0;
	bool str = false, esc = false, open = false;

	while ((c = fgetc(in)) != EOF) {
		if (str) {
			fputc(c, out);
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				str = false;
			continue;
		}
		if (open && c != '}' && c != ']') {
			fprintf(out, "\n%*s", 2 * depth, "");
			open = false;
		}
		switch (c) {
		case '{':
		case '[':
			fputc(c, out);
			depth++;
			open = true;
			break;
		case '}':
		case ']':
			depth--;
			if (!open)
				fprintf(out, "\n%*s", 2 * depth, "");
			open = false;
			fputc(c, out);
			break;
		case ',':
			fprintf(out, ",\n%*s", 2 * depth, "");
			break;
		case ':':
			fputs(": ", out);
			break;
		case '"':
			str = true;
			fputc(c, out);
			break;
		default:
			fputc(c, out);
		}
	}
}

static void usage(FILE *f)
{
	fputs("Usage: tlvctl [--json|--pretty] COMMAND [ARGS]\n"
	      "Show and change the kernel's IPv6 TLV parameter table.\n\n"
	      "Commands:\n", f);
	for (size_t i = 0; i < NCMDS; i++)
		fprintf(f, "  %s\n", cmds[i].usage);
	fputs("\nTYPE is a name (ioam, pmtu, ra, jumbo, calipso, hao, tel, exp-1e ...)\n"
	      "or a number (49, 0x31).  --json: JSON output for show, check, diff\n"
	      "and monitor; --pretty (-p): the same, indented.\n"
	      "tlvctl COMMAND --help, tlvctl(8), tlvd.conf(5).\n", f);
}

int main(int argc, char **argv)
{
	struct cmd_opts o = { .json = false };
	bool pretty = false;
	int i = 1;

	log_init("tlvctl");
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			o.json = true;
		} else if (!strcmp(argv[i], "--pretty") || !strcmp(argv[i], "-p")) {
			o.json = pretty = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version") ||
			   !strcmp(argv[i], "-V")) {
			printf("tlvctl %s\n", TLVD_VERSION);
			return 0;
		} else {
			tlvctl_error("unknown option '%s'", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (i == argc) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 == argc) {
			usage(stdout);
			return 0;
		}
		for (size_t c = 0; c < NCMDS; c++) {
			if (!strcmp(argv[i + 1], cmds[c].name) && i + 2 == argc) {
				printf("Usage: tlvctl %s\n%s\n", cmds[c].usage,
				       cmds[c].help);
				return 0;
			}
		}
		tlvctl_error("help: unknown command '%s'", argv[i + 1]);
		usage(stderr);
		return 2;
	}
	for (size_t c = 0; c < NCMDS; c++) {
		int sub_argc = argc - i;
		char **sub_argv = argv + i;

		if (strcmp(argv[i], cmds[c].name))
			continue;
		if (tlvctl_common_opts(&sub_argc, sub_argv, &o)) {
			printf("Usage: tlvctl %s\n%s\n", cmds[c].usage,
			       cmds[c].help);
			return 0;
		}
		if (pretty && strcmp(cmds[c].name, "monitor")) {
			/* the command's JSON, then indented */
			FILE *tmp = tmpfile();
			int saved = dup(1), ret;

			if (!tmp || saved < 0) {
				tlvctl_error("--pretty: no temporary file");
				return 1;
			}
			fflush(stdout);
			dup2(fileno(tmp), 1);
			ret = cmds[c].fn(sub_argc, sub_argv, &o);
			fflush(stdout);
			dup2(saved, 1);
			close(saved);
			rewind(tmp);
			json_pretty(tmp, stdout);
			fclose(tmp);
			return ret;
		}
		return cmds[c].fn(sub_argc, sub_argv, &o);
	}
	tlvctl_error("unknown command '%s'", argv[i]);
	usage(stderr);
	return 2;
}
