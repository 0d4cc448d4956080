// SPDX-License-Identifier: GPL-2.0
/*
 * The list of sub-tests a workfile may name.
 *
 * The order is the order of `pbaim --list` and of the per-test job counts.
 * Also the two process helpers the sub-tests share.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pb.h"

const struct pb_test *const pb_tests[] = {
	&pb_test_add_int,
	&pb_test_add_double,
	&pb_test_dev_null,
	&pb_test_dev_zero,
	&pb_test_pty_open,
	&pb_test_fcntl_setfl,
	&pb_test_tty_ioctl,
	&pb_test_pipe_pingpong,
	&pb_test_creat_clo,
	&pb_test_link_test,
	&pb_test_fork_test,
	&pb_test_exec_test,
	&pb_test_signal_test,
	&pb_test_brk_test,
	&pb_test_page_test,
};

const unsigned int pb_ntests = ARRAY_SIZE(pb_tests);

int pb_test_find(const struct pb_test *const *tests, unsigned int ntests,
		 const char *name)
{
	unsigned int i;

	for (i = 0; i < ntests; i++)
		if (strcmp(tests[i]->name, name) == 0)
			return (int)i;
	return -1;
}

pid_t pb_fork(void)
{
	fflush(stdout);
	fflush(stderr);
	return fork();
}

int pb_wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int pb_wait_ok(pid_t pid)
{
	return pb_wait_status(pid) == 0 ? 0 : -ECHILD;
}
