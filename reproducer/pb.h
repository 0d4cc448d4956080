/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the pbaim harness and its sub-tests.
 *
 * A sub-test is one small function that runs one AIM7-style job: it does one
 * kind of work "repeat" times and returns 0, or records what failed with
 * pb_fail() and returns a negative errno.  Sub-tests live in t_*.c, one file
 * per sub-test or small group, and are listed in registry.c.
 */
#ifndef PB_H
#define PB_H

#include <errno.h>
#include <sys/types.h>

/* Exit codes of pbaim: one per kind of outcome, documented in README.md. */
enum pb_exit {
	PB_EXIT_PASS = 0,	/* all samples ran (and reached --threshold) */
	PB_EXIT_FAIL = 1,	/* median jobs/min below --threshold */
	PB_EXIT_USAGE = 2,	/* bad command line */
	PB_EXIT_WORKFILE = 3,	/* workfile unreadable or malformed */
	PB_EXIT_SETUP = 4,	/* fork refused, device missing, no memory... */
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define PB_PATH_MAX	512
#define PB_WHAT_MAX	48

/* Per-task state handed to every sub-test; kept small (2000+ tasks). */
struct pb_ctx {
	unsigned int task;		/* task index, 0..tasks-1 */
	unsigned long seq;		/* counter for unique file names */
	int null_fd;			/* /dev/null, for fcntl F_SETFL */
	const char *exec_path;		/* tiny static binary for exec_test */
	char dir[PB_PATH_MAX];		/* this task's private work dir */
	unsigned long sink;		/* keeps arithmetic results alive */
	double fsink;
	const char *what;		/* failed operation, set by pb_fail() */
	int err;			/* its errno */
};

/* One sub-test: run() does one job made of @repeat iterations. */
struct pb_test {
	const char *name;
	int (*run)(struct pb_ctx *ctx, unsigned int repeat);
	unsigned int repeat;
	const char *desc;
};

/* Record the failed operation @what with errno @err; return -errno. */
static inline int pb_fail(struct pb_ctx *ctx, const char *what, int err)
{
	ctx->what = what;
	ctx->err = err > 0 ? err : EIO;
	return -ctx->err;
}

/* Sub-tests, defined in t_*.c. */
extern const struct pb_test pb_test_add_int;
extern const struct pb_test pb_test_add_double;
extern const struct pb_test pb_test_dev_null;
extern const struct pb_test pb_test_dev_zero;
extern const struct pb_test pb_test_pty_open;
extern const struct pb_test pb_test_fcntl_setfl;
extern const struct pb_test pb_test_tty_ioctl;
extern const struct pb_test pb_test_pipe_pingpong;
extern const struct pb_test pb_test_creat_clo;
extern const struct pb_test pb_test_link_test;
extern const struct pb_test pb_test_fork_test;
extern const struct pb_test pb_test_exec_test;
extern const struct pb_test pb_test_signal_test;
extern const struct pb_test pb_test_brk_test;
extern const struct pb_test pb_test_page_test;

/* The registry (registry.c): every sub-test a workfile may name. */
extern const struct pb_test *const pb_tests[];
extern const unsigned int pb_ntests;

/* fork() after flushing stdout, so no buffered line is printed twice. */
pid_t pb_fork(void);

/* waitpid() that retries on EINTR: @pid's exit status, -1 if killed. */
int pb_wait_status(pid_t pid);

/* 0 if @pid exited with status 0, else -ECHILD. */
int pb_wait_ok(pid_t pid);

/* Index of the sub-test called @name in pb_tests, or -1. */
int pb_test_find(const struct pb_test *const *tests, unsigned int ntests,
		 const char *name);

#endif /* PB_H */
