// SPDX-License-Identifier: GPL-2.0
/*
 * pipebench: scheduler and pipe messaging, in the spirit of hackbench.
 * GROUPS groups of SENDERS sender and as many receiver processes; every
 * sender writes LOOPS messages of 100 bytes to each receiver of its group
 * through a pipe of its own, every receiver reads all of them. The time is
 * from the first message to the last read; the figure is messages a second.
 *
 * Usage: pipebench [-g GROUPS] [-f SENDERS] [-l LOOPS]
 *	(defaults 2, 10, 100)
 * Output, one line (perfbisect --metric 'messages/s'):
 *	pipebench: groups=G fds=F loops=L messages=M time_s=T messages/s=R
 * Exit: 0, 1 on a failure of the system (with a message), 2 bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG_SIZE	100
#define MAX_FDS		64
#define MAX_GROUPS	64

static void die(const char *what)
{
	fprintf(stderr, "pipebench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(const char *why)
{
	fprintf(stderr, "pipebench: %s\nusage: pipebench [-g GROUPS] [-f SENDERS] [-l LOOPS]\n",
		why);
	exit(2);
}

static long number(const char *arg, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max) {
		char msg[96];

		snprintf(msg, sizeof(msg), "%s must be an integer from %ld to %ld",
			 what, min, max);
		usage(msg);
	}
	return v;
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write");
		buf += n;
		len -= n;
	}
}

static void read_all(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("read");
		buf += n;
		len -= n;
	}
}

/* A receiver reads its senders' messages from its pipe; a sender writes. */
static void receiver(int fd, long count)
{
	char buf[MSG_SIZE];

	while (count--)
		read_all(fd, buf, MSG_SIZE);
	_exit(0);
}

static void sender(const int *fds, int nfds, long loops, int go)
{
	char buf[MSG_SIZE];
	long i;
	int j;

	memset(buf, 'p', sizeof(buf));
	read_all(go, buf, 1);	/* wait for the start */
	for (i = 0; i < loops; i++)
		for (j = 0; j < nfds; j++)
			write_all(fds[j], buf, MSG_SIZE);
	_exit(0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long groups = 2, nfds = 10, loops = 100, children = 0, failed = 0;
	int start[2], g, j, opt, status;
	int fds[MAX_FDS];
	double t0, t1;
	pid_t pid;

	while ((opt = getopt(argc, argv, "g:f:l:h")) != -1) {
		switch (opt) {
		case 'g':
			groups = number(optarg, 1, MAX_GROUPS, "GROUPS (-g)");
			break;
		case 'f':
			nfds = number(optarg, 1, MAX_FDS, "SENDERS (-f)");
			break;
		case 'l':
			loops = number(optarg, 1, 100000000, "LOOPS (-l)");
			break;
		case 'h':
			printf("usage: pipebench [-g GROUPS] [-f SENDERS] [-l LOOPS]\n");
			return 0;
		default:
			usage("unknown option");
		}
	}
	if (optind != argc)
		usage("no arguments besides the options");
	if (pipe(start) < 0)
		die("pipe");
	for (g = 0; g < groups; g++) {
		/* nfds receivers, each with a pipe all senders write to */
		for (j = 0; j < nfds; j++) {
			int p[2];

			if (pipe(p) < 0)
				die("pipe");
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid) {
				close(p[1]);
				receiver(p[0], nfds * loops);
			}
			children++;
			close(p[0]);
			fds[j] = p[1];
		}
		for (j = 0; j < nfds; j++) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid) {
				close(start[1]);
				sender(fds, nfds, loops, start[0]);
			}
			children++;
		}
		for (j = 0; j < nfds; j++)
			close(fds[j]);
	}
	close(start[0]);
	t0 = now();
	/* One byte each releases the senders together. */
	for (j = 0; j < groups * nfds; j++)
		write_all(start[1], "g", 1);
	while (children--) {
		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	t1 = now();
	if (failed) {
		fprintf(stderr, "pipebench: %ld processes failed\n", failed);
		return 1;
	}
	printf("pipebench: groups=%ld fds=%ld loops=%ld messages=%ld time_s=%.6f messages/s=%.1f\n",
	       groups, nfds, loops, groups * nfds * nfds * loops, t1 - t0,
	       groups * nfds * nfds * loops / (t1 - t0));
	return 0;
}
