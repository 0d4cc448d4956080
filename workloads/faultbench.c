// SPDX-License-Identifier: GPL-2.0
/*
 * faultbench: page faults, in the spirit of will-it-scale's page_fault1.
 * Each of TASKS processes maps SIZE_KB of anonymous memory, writes one
 * byte to every page (a page fault each), unmaps it, and does so LOOPS
 * times. The figure is page faults a second, over all processes.
 *
 * Usage: faultbench [-t TASKS] [-s SIZE_KB] [-l LOOPS]
 *	(defaults 2, 8192, 20)
 * Output, one line (perfbisect --metric 'faults/s'):
 *	faultbench: tasks=T size_kb=S loops=L faults=F time_s=T faults/s=R
 * Exit: 0, 1 on a failure of the system (with a message), 2 bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "faultbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(const char *why)
{
	fprintf(stderr, "faultbench: %s\nusage: faultbench [-t TASKS] [-s SIZE_KB] [-l LOOPS]\n",
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

/* One process: LOOPS times map, touch every page, unmap. */
static void worker(size_t size, long pagesize, long loops, int go)
{
	char c;
	size_t off;
	char *p;

	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	while (loops--) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		for (off = 0; off < size; off += pagesize)
			p[off] = 1;
		if (munmap(p, size) < 0)
			die("munmap");
	}
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
	long tasks = 2, size_kb = 8192, loops = 20, pagesize, i, failed = 0;
	int go[2], opt, status;
	double t0, t1, faults;
	size_t size;
	pid_t pid;

	while ((opt = getopt(argc, argv, "t:s:l:h")) != -1) {
		switch (opt) {
		case 't':
			tasks = number(optarg, 1, 256, "TASKS (-t)");
			break;
		case 's':
			size_kb = number(optarg, 4, 4194304, "SIZE_KB (-s)");
			break;
		case 'l':
			loops = number(optarg, 1, 100000000, "LOOPS (-l)");
			break;
		case 'h':
			printf("usage: faultbench [-t TASKS] [-s SIZE_KB] [-l LOOPS]\n");
			return 0;
		default:
			usage("unknown option");
		}
	}
	if (optind != argc)
		usage("no arguments besides the options");
	pagesize = sysconf(_SC_PAGESIZE);
	size = (size_t)size_kb * 1024;
	if (pipe(go) < 0)
		die("pipe");
	for (i = 0; i < tasks; i++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			close(go[1]);
			worker(size, pagesize, loops, go[0]);
		}
	}
	close(go[0]);
	t0 = now();
	for (i = 0; i < tasks; i++)
		if (write(go[1], "g", 1) != 1)
			die("write");
	for (i = 0; i < tasks; i++) {
		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	t1 = now();
	if (failed) {
		fprintf(stderr, "faultbench: %ld processes failed\n", failed);
		return 1;
	}
	faults = (double)tasks * loops * ((size + pagesize - 1) / pagesize);
	printf("faultbench: tasks=%ld size_kb=%ld loops=%ld faults=%.0f time_s=%.6f faults/s=%.1f\n",
	       tasks, size_kb, loops, faults, t1 - t0, faults / (t1 - t0));
	return 0;
}
