// SPDX-License-Identifier: GPL-2.0
/*
 * Open and close of character devices.  Every open of a char
 * device goes through chrdev_open(), which in 2.6.26 called f_op->open under
 * the Big Kernel Lock: these jobs hammer that lock.
 */
#include <fcntl.h>
#include <unistd.h>

#include "pb.h"

static int open_close(struct pb_ctx *ctx, const char *path, int flags,
		      const char *what, unsigned int repeat)
{
	unsigned int i;
	int fd;

	for (i = 0; i < repeat; i++) {
		fd = open(path, flags | O_CLOEXEC);
		if (fd < 0)
			return pb_fail(ctx, what, errno);
		close(fd);
	}
	return 0;
}

static int dev_null(struct pb_ctx *ctx, unsigned int repeat)
{
	return open_close(ctx, "/dev/null", O_RDWR, "open /dev/null", repeat);
}

static int dev_zero(struct pb_ctx *ctx, unsigned int repeat)
{
	return open_close(ctx, "/dev/zero", O_RDONLY, "open /dev/zero", repeat);
}

const struct pb_test pb_test_dev_null = {
	.name = "dev_null",
	.run = dev_null,
	.repeat = 40,
	.desc = "open/close /dev/null",
};

const struct pb_test pb_test_dev_zero = {
	.name = "dev_zero",
	.run = dev_zero,
	.repeat = 40,
	.desc = "open/close /dev/zero",
};
