// SPDX-License-Identifier: GPL-2.0-only
/*
 * tlvd: keeps the kernel's IPv6 TLV parameter table as a policy file says.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include <event2/event.h>
#include <linux/ipeh.h>
#include <systemd/sd-daemon.h>

#include "backend-nl.h"
#include "daemon.h"
#include "log.h"

#ifndef TLVD_CONFIG
#define TLVD_CONFIG "/etc/tlvd.conf"
#endif
#ifndef TLVD_VERSION
#define TLVD_VERSION "0"
#endif

/* Notifications come in bursts (tlvd's own changes, tlvctl apply):
 * look at the table once the burst is over.  If another program keeps
 * fighting the policy, check at most once a second. */
static const struct timeval notify_delay = { 0, 200 * 1000 };
static const struct timeval notify_delay_busy = { 1, 0 };

struct loop {
	struct daemon d;
	struct event_base *base;
	struct event *timer;
	struct event *soon;
	struct event *notify;
	int notify_fd;
	struct event *watchdog;
	int exit_code;
	unsigned long reloads;		/* reloads done, for --reload */
	struct timespec last_soon;	/* last check after a notification */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tlvd [-c FILE] [-i SECONDS]\n"
		"       tlvd --check FILE\n"
		"       tlvd --reload PID\n"
		"Keep the kernel's IPv6 TLV parameter table as FILE says.\n\n"
		"  -c, --config FILE     policy file (default " TLVD_CONFIG ")\n"
		"  -i, --interval SECS   re-check the table every SECS seconds\n"
		"                        (overrides the file's interval; 0: never)\n"
		"  -t, --check FILE      check FILE and exit; touches nothing\n"
		"  -r, --reload PID      make tlvd PID reload and wait for the result\n"
		"                        (ExecReload= of tlvd.service; needs\n"
		"                        RUNTIME_DIRECTORY, as systemd sets it)\n"
		"  -h, --help            this text\n"
		"  -V, --version         version\n"
		"See tlvd(8) and tlvd.conf(5).\n");
}

/*
 * The result of each reload, for "tlvd --reload" (a systemd unit's
 * ExecReload=, which must end only when the reload is done and fail if it
 * failed): $RUNTIME_DIRECTORY/reload holds "SEQ ok|failed MESSAGE", SEQ
 * one more at each reload. Written only under systemd's RuntimeDirectory=.
 */
static const char *runtime_file(const char *name, char *buf, size_t len)
{
	const char *dir = getenv("RUNTIME_DIRECTORY");

	if (!dir || !dir[0])
		return NULL;
	/* several directories are ':'-separated: the first is ours */
	snprintf(buf, len, "%.*s/%s", (int)strcspn(dir, ":"), dir, name);
	return buf;
}

static void write_reload_result(unsigned long seq, bool ok, const char *msg)
{
	char path[512], tmp[530];
	FILE *f;

	if (!runtime_file("reload", path, sizeof(path)))
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return;
	fprintf(f, "%lu %s %s\n", seq, ok ? "ok" : "failed", msg);
	if (fclose(f) || rename(tmp, path))
		log_msg(LOG_WARNING, "cannot write %s: %s", path, strerror(errno));
}

/*
 * $RUNTIME_DIRECTORY/state: what this tlvd manages, for tlvctl to warn
 * that a change to a managed type will be undone (tlvctl(8)).
 */
static void write_state(const struct daemon *d)
{
	char path[512], tmp[530], name[32];
	struct stat st;
	FILE *f;

	if (!runtime_file("state", path, sizeof(path)))
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return;
	fprintf(f, "pid=%ld\nnetns=%llu\nconfig=%s\nunmentioned=%s\nmanaged=",
		(long)getpid(),
		stat("/proc/self/ns/net", &st) ? 0ULL :
		(unsigned long long)st.st_ino, d->config_path,
		d->pol.unmentioned == POLICY_UNMENTIONED_RESET ? "reset" : "keep");
	for (unsigned int t = TLV_TYPE_FIRST, n = 0; t < TLV_TYPE_COUNT; t++)
		if (d->pol.mentioned[t])
			fprintf(f, "%s%s", n++ ? " " : "",
				tlv_type_short(t, name, sizeof(name)));
	fputc('\n', f);
	if (fclose(f) || rename(tmp, path))
		log_msg(LOG_WARNING, "cannot write %s: %s", path, strerror(errno));
}

/* $RUNTIME_DIRECTORY/lock, held around each apply (tlvctl takes it too) */
static int open_lock(void)
{
	char path[512];

	if (!runtime_file("lock", path, sizeof(path)))
		return -1;
	return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
}

/* -1 if there is no result yet */
static long read_reload_seq(const char *path, char *line, size_t len)
{
	FILE *f = fopen(path, "re");
	long seq = -1;

	line[0] = '\0';
	if (!f)
		return -1;
	if (fgets(line, (int)len, f))
		seq = strtol(line, NULL, 10);
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return seq;
}

/* tlvd --reload PID: SIGHUP, then wait (at most 60 s) for the result */
static int reload_and_wait(const char *pidstr)
{
	char path[512], line[600];
	long seq0, seq;
	char *end;
	long pid;

	if (!runtime_file("reload", path, sizeof(path))) {
		fprintf(stderr, "tlvd --reload: RUNTIME_DIRECTORY is not set (this is tlvd.service's ExecReload=; by hand, use kill -HUP)\n");
		return 2;
	}
	errno = 0;
	pid = strtol(pidstr, &end, 10);
	if (errno || *end || pid <= 1) {
		fprintf(stderr, "tlvd --reload: '%s' is not a process id\n", pidstr);
		return 2;
	}
	seq0 = read_reload_seq(path, line, sizeof(line));
	if (kill((pid_t)pid, SIGHUP)) {
		fprintf(stderr, "tlvd --reload: cannot signal %ld: %s\n", pid,
			strerror(errno));
		return 1;
	}
	for (int i = 0; i < 1200; i++) {
		const char *msg;

		usleep(50 * 1000);
		seq = read_reload_seq(path, line, sizeof(line));
		if (seq < 0 || seq == seq0)
			continue;
		msg = strchr(line, ' ');
		msg = msg ? msg + 1 : line;
		if (!strncmp(msg, "ok ", 3)) {
			printf("%s\n", msg + 3);
			return 0;
		}
		fprintf(stderr, "%s\n", !strncmp(msg, "failed ", 7) ? msg + 7 : msg);
		return 1;
	}
	fprintf(stderr, "tlvd --reload: no result from %ld within 60 s\n", pid);
	return 1;
}

static void notify_status(struct loop *l, const char *state)
{
	daemon_update_status(&l->d);
	sd_notifyf(0, "%sSTATUS=%s", state, l->d.status);
}

static void arm_timer(struct loop *l)
{
	unsigned int secs = daemon_interval(&l->d);
	struct timeval tv = { .tv_sec = secs, .tv_usec = 0 };

	evtimer_del(l->timer);
	if (secs)
		evtimer_add(l->timer, &tv);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct loop *l = arg;

	(void)fd;
	(void)what;
	if (daemon_check(&l->d) != 0)
		notify_status(l, "");
	arm_timer(l);
}

static void on_soon(evutil_socket_t fd, short what, void *arg)
{
	struct loop *l = arg;

	(void)fd;
	(void)what;
	clock_gettime(CLOCK_MONOTONIC, &l->last_soon);
	if (daemon_check(&l->d) != 0)
		notify_status(l, "");
}

static bool checked_within_a_second(const struct loop *l)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return l->last_soon.tv_sec &&
	       (now.tv_sec - l->last_soon.tv_sec) * 1000000000L +
	       (now.tv_nsec - l->last_soon.tv_nsec) < 1000000000L;
}

static void on_notify(evutil_socket_t fd, short what, void *arg)
{
	struct loop *l = arg;
	int n;

	(void)what;
	n = nl_notify_drain(fd);
	if (n < 0 && n != -EAGAIN) {
		log_msg(LOG_ERR, "tlv-changes socket: %s; relying on the periodic re-check",
			strerror(-n));
		event_del(l->notify);
		return;
	}
	if (n && !evtimer_pending(l->soon, NULL))
		evtimer_add(l->soon, checked_within_a_second(l) ?
			    &notify_delay_busy : &notify_delay);
}

static void on_hup(evutil_socket_t sig, short what, void *arg)
{
	struct loop *l = arg;
	struct timespec ts;

	(void)sig;
	(void)what;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=reloading %s",
		   (unsigned long long)ts.tv_sec * 1000000ULL +
		   (unsigned long long)ts.tv_nsec / 1000ULL,
		   l->d.config_path);
	if (daemon_reload(&l->d)) {
		write_reload_result(++l->reloads, false, l->d.last_error);
	} else {
		write_state(&l->d);
		write_reload_result(++l->reloads, true, "policy applied");
	}
	arm_timer(l);
	notify_status(l, "READY=1\n");
}

static void on_watchdog(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	sd_notify(0, "WATCHDOG=1");
}

static void on_term(evutil_socket_t sig, short what, void *arg)
{
	struct loop *l = arg;

	(void)what;
	log_msg(LOG_INFO, "%s received", sig == SIGINT ? "SIGINT" : "SIGTERM");
	event_base_loopbreak(l->base);
}

static int check_only(const char *path)
{
	struct policy pol;
	struct policy_error err;

	if (policy_parse_file(path, &pol, &err)) {
		policy_error_print(stderr, path, &err);
		return 1;
	}
	printf("%s: OK, %u option type%s\n", path, policy_count(&pol),
	       policy_count(&pol) == 1 ? "" : "s");
	return 0;
}

static int run(struct loop *l)
{
	struct event *sigs[3];
	static const int signums[3] = { SIGHUP, SIGTERM, SIGINT };
	uint64_t wd_usec = 0;
	char msg[256];

	l->base = event_base_new();
	if (!l->base) {
		log_msg(LOG_ERR, "cannot create the event loop");
		return 1;
	}
	for (int i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(l->base, signums[i],
				       signums[i] == SIGHUP ? on_hup : on_term, l);
		if (!sigs[i] || evsignal_add(sigs[i], NULL)) {
			log_msg(LOG_ERR, "cannot watch signal %d", signums[i]);
			return 1;
		}
	}
	l->timer = evtimer_new(l->base, on_timer, l);
	l->soon = evtimer_new(l->base, on_soon, l);

	l->notify_fd = nl_notify_open(msg, sizeof(msg));
	if (l->notify_fd >= 0) {
		l->notify = event_new(l->base, l->notify_fd, EV_READ | EV_PERSIST,
				      on_notify, l);
		event_add(l->notify, NULL);
		log_msg(LOG_INFO, "watching the " IPEH_TLV_GENL_MCGRP_NAME
			" multicast group");
	} else {
		log_msg(LOG_NOTICE, "%s; relying on the periodic re-check", msg);
	}
	/* WatchdogSec=: tell systemd the loop runs, twice per period */
	if (sd_watchdog_enabled(0, &wd_usec) > 0 && wd_usec) {
		struct timeval tv = {
			.tv_sec = (time_t)(wd_usec / 2 / 1000000),
			.tv_usec = (suseconds_t)(wd_usec / 2 % 1000000),
		};

		l->watchdog = event_new(l->base, -1, EV_PERSIST, on_watchdog, l);
		if (l->watchdog)
			event_add(l->watchdog, &tv);
	}
	arm_timer(l);
	write_state(&l->d);
	write_reload_result(0, true, "started");
	notify_status(l, "READY=1\n");
	if (daemon_interval(&l->d))
		log_msg(LOG_INFO, "ready; re-checking every %u s",
			daemon_interval(&l->d));
	else
		log_msg(LOG_INFO, "ready; periodic re-check off");

	event_base_dispatch(l->base);

	sd_notify(0, "STOPPING=1\nSTATUS=stopping");
	if (daemon_stop(&l->d))
		l->exit_code = 1;

	if (l->notify)
		event_free(l->notify);
	if (l->notify_fd >= 0)
		close(l->notify_fd);
	if (l->watchdog)
		event_free(l->watchdog);
	event_free(l->soon);
	event_free(l->timer);
	for (int i = 0; i < 3; i++)
		event_free(sigs[i]);
	event_base_free(l->base);
	return l->exit_code;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "check", required_argument, NULL, 't' },
		{ "reload", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	static struct loop l;
	const char *config = TLVD_CONFIG;
	struct backend be;
	char msg[256];
	int c, ret, interval = -1;

	log_init("tlvd");
	l.notify_fd = -1;

	while ((c = getopt_long(argc, argv, "c:i:t:r:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 'i': {
			unsigned long v;

			if (tlv_parse_uint(optarg, POLICY_MAX_INTERVAL, &v)) {
				fprintf(stderr, "tlvd: --interval: expected seconds from 0 to %u\n",
					POLICY_MAX_INTERVAL);
				return 2;
			}
			interval = (int)v;
			break;
		}
		case 't':
			return check_only(optarg);
		case 'r':
			return reload_and_wait(optarg);
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("tlvd %s\n", TLVD_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	ret = nl_backend_open(&be, msg, sizeof(msg));
	if (ret) {
		log_msg(LOG_ERR, "%s", msg);
		sd_notifyf(0, "STATUS=%s\nERRNO=%d", msg, -ret);
		return 1;
	}
	if (!have_cap_net_admin()) {
		nl_strerror(-EPERM, NULL, msg, sizeof(msg));
		log_msg(LOG_ERR, "%s", msg);
		sd_notifyf(0, "STATUS=%s\nERRNO=%d", msg, EPERM);
		nl_backend_close(&be);
		return 1;
	}
	daemon_init(&l.d, config, &be, &log_stderr);
	l.d.interval_override = interval;
	l.d.lock_fd = open_lock();
	if (daemon_start(&l.d)) {
		sd_notifyf(0, "STATUS=%s", l.d.last_error);
		nl_backend_close(&be);
		return 1;
	}
	ret = run(&l);
	nl_backend_close(&l.d.be);
	return ret;
}
