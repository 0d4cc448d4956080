// SPDX-License-Identifier: GPL-2.0
/*
 * One byte ping-pong between two processes over two pipes (AIM7
 * pipe_cpy / stream_pipe): every round trip is two wake-ups and two context
 * switches, which is what makes lock hand-off to a sleeping task expensive.
 */
#include <unistd.h>

#include "pb.h"

/* The echo side: return every byte until the parent closes its end. */
static void echo_child(int in, int out)
{
	char c;

	while (read(in, &c, 1) == 1) {
		if (write(out, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static int pipe_pingpong(struct pb_ctx *ctx, unsigned int repeat)
{
	int to_child[2], to_parent[2];
	unsigned int i;
	char c = 'x';
	pid_t pid;
	int err = 0;

	if (pipe(to_child) < 0)
		return pb_fail(ctx, "pipe", errno);
	if (pipe(to_parent) < 0) {
		err = pb_fail(ctx, "pipe", errno);
		goto close_to_child;
	}
	pid = pb_fork();
	if (pid < 0) {
		err = pb_fail(ctx, "fork", errno);
		goto close_to_parent;
	}
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		echo_child(to_child[0], to_parent[1]);
	}
	close(to_child[0]);
	close(to_parent[1]);
	to_child[0] = -1;
	to_parent[1] = -1;
	for (i = 0; i < repeat; i++) {
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1) {
			err = pb_fail(ctx, "pipe ping-pong", errno);
			break;
		}
	}
	close(to_child[1]);
	to_child[1] = -1;
	if (pb_wait_ok(pid) < 0 && !err)
		err = pb_fail(ctx, "pipe echo child", ECHILD);
close_to_parent:
	if (to_parent[0] >= 0)
		close(to_parent[0]);
	if (to_parent[1] >= 0)
		close(to_parent[1]);
close_to_child:
	if (to_child[0] >= 0)
		close(to_child[0]);
	if (to_child[1] >= 0)
		close(to_child[1]);
	return err;
}

const struct pb_test pb_test_pipe_pingpong = {
	.name = "pipe_pingpong",
	.run = pipe_pingpong,
	.repeat = 20,
	.desc = "1-byte pipe ping-pong with a child",
};
