// SPDX-License-Identifier: GPL-2.0-only
/*
 * A NOTIFY_SOCKET for the tlvd smoke test (unit/test-tlvd-smoke.sh): binds
 * an AF_UNIX datagram socket at PATH and prints every sd_notify() message
 * it receives as one line on stdout, the message's own newlines turned
 * into tabs ("READY=1\tSTATUS=..."), flushed at once so that the test can
 * poll the output file.  Runs until killed.
 *
 * usage: test-tlvd-notify PATH
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc != 2 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: test-tlvd-notify PATH (shorter than %zu)\n",
			sizeof(addr.sun_path));
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		fprintf(stderr, "test-tlvd-notify: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "test-tlvd-notify: recv: %s\n", strerror(errno));
			return 1;
		}
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == '\n' || buf[i] == '\0')
				buf[i] = '\t';
		/* one write per message: a reader never sees half a line */
		if (n < (ssize_t)sizeof(buf))
			buf[n++] = '\n';
		else
			buf[n - 1] = '\n';
		if (write(STDOUT_FILENO, buf, (size_t)n) != n) {
			fprintf(stderr, "test-tlvd-notify: write: %s\n", strerror(errno));
			return 1;
		}
	}
}
