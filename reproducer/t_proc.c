// SPDX-License-Identifier: GPL-2.0
/*
 * Process work: AIM7 fork_test (fork, exit, wait), exec_test
 * (fork and exec a tiny static binary) and signal_test (send a signal to
 * oneself and catch it).
 */
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#include "pb.h"

/* An exec child that cannot exec exits with this plus errno (< 64). */
#define PB_EXEC_FAILED	128

static int fork_test(struct pb_ctx *ctx, unsigned int repeat)
{
	unsigned int i;
	pid_t pid;

	for (i = 0; i < repeat; i++) {
		pid = pb_fork();
		if (pid < 0)
			return pb_fail(ctx, "fork", errno);
		if (pid == 0)
			_exit(0);
		if (pb_wait_ok(pid) < 0)
			return pb_fail(ctx, "wait for forked child", ECHILD);
	}
	return 0;
}

static int exec_test(struct pb_ctx *ctx, unsigned int repeat)
{
	char *const envp[] = { NULL };
	char *const argv[] = { "pbtrue", NULL };
	unsigned int i;
	int status;
	pid_t pid;

	for (i = 0; i < repeat; i++) {
		pid = pb_fork();
		if (pid < 0)
			return pb_fail(ctx, "fork", errno);
		if (pid == 0) {
			execve(ctx->exec_path, argv, envp);
			_exit(PB_EXEC_FAILED + (errno & 63));
		}
		status = pb_wait_status(pid);
		if (status >= PB_EXEC_FAILED)
			return pb_fail(ctx, "execve of the --exec binary",
				       status - PB_EXEC_FAILED);
		if (status)
			return pb_fail(ctx, "the --exec binary did not exit 0",
				       ECHILD);
	}
	return 0;
}

static atomic_uint pb_signals;

static void count_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&pb_signals, 1);
}

static int signal_test(struct pb_ctx *ctx, unsigned int repeat)
{
	struct sigaction sa = { .sa_handler = count_signal };
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) < 0)
		return pb_fail(ctx, "sigaction SIGUSR1", errno);
	atomic_store(&pb_signals, 0);
	for (i = 0; i < repeat; i++) {
		if (kill(getpid(), SIGUSR1) < 0)
			return pb_fail(ctx, "kill SIGUSR1", errno);
	}
	if (atomic_load(&pb_signals) != repeat)
		return pb_fail(ctx, "SIGUSR1 not caught", EINTR);
	return 0;
}

const struct pb_test pb_test_fork_test = {
	.name = "fork_test",
	.run = fork_test,
	.repeat = 3,
	.desc = "fork, child exits, parent waits",
};

const struct pb_test pb_test_exec_test = {
	.name = "exec_test",
	.run = exec_test,
	.repeat = 2,
	.desc = "fork and exec pbtrue, wait",
};

const struct pb_test pb_test_signal_test = {
	.name = "signal_test",
	.run = signal_test,
	.repeat = 50,
	.desc = "send SIGUSR1 to oneself and catch it",
};
