// SPDX-License-Identifier: GPL-2.0
/*
 * File system work on the task's own directory (tmpfs in the
 * guest): AIM7 creat_clo (creat, write, close, open, read, close, unlink)
 * and link_test (link and unlink of a file).
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "pb.h"

#define PB_FILE_SIZE	4096

static const char pb_zeros[PB_FILE_SIZE];

/* Build a fresh file name in the task's directory; -1 if it is too long. */
static int task_path(struct pb_ctx *ctx, char *buf, size_t len, char kind)
{
	int n;

	n = snprintf(buf, len, "%s/%c%lu", ctx->dir, kind, ctx->seq++);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int creat_clo(struct pb_ctx *ctx, unsigned int repeat)
{
	char path[PB_PATH_MAX + 32];
	char buf[PB_FILE_SIZE];
	unsigned int i;
	int fd, err = 0;

	for (i = 0; i < repeat; i++) {
		if (task_path(ctx, path, sizeof(path), 'f') < 0)
			return pb_fail(ctx, "work dir path", ENAMETOOLONG);
		fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return pb_fail(ctx, "creat in work dir", errno);
		if (write(fd, pb_zeros, sizeof(pb_zeros)) != sizeof(pb_zeros))
			err = pb_fail(ctx, "write in work dir", errno);
		close(fd);
		if (err)
			goto unlink_file;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = pb_fail(ctx, "open in work dir", errno);
			goto unlink_file;
		}
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			err = pb_fail(ctx, "read in work dir", errno);
		close(fd);
unlink_file:
		if (unlink(path) < 0 && !err)
			err = pb_fail(ctx, "unlink in work dir", errno);
		if (err)
			return err;
	}
	return 0;
}

static int link_test(struct pb_ctx *ctx, unsigned int repeat)
{
	char path[PB_PATH_MAX + 32], lpath[PB_PATH_MAX + 32];
	unsigned int i;
	int fd, err = 0;

	if (task_path(ctx, path, sizeof(path), 'f') < 0 ||
	    task_path(ctx, lpath, sizeof(lpath), 'l') < 0)
		return pb_fail(ctx, "work dir path", ENAMETOOLONG);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return pb_fail(ctx, "creat in work dir", errno);
	close(fd);
	for (i = 0; i < repeat; i++) {
		if (link(path, lpath) < 0) {
			err = pb_fail(ctx, "link in work dir", errno);
			break;
		}
		if (unlink(lpath) < 0) {
			err = pb_fail(ctx, "unlink in work dir", errno);
			break;
		}
	}
	if (unlink(path) < 0 && !err)
		err = pb_fail(ctx, "unlink in work dir", errno);
	return err;
}

const struct pb_test pb_test_creat_clo = {
	.name = "creat_clo",
	.run = creat_clo,
	.repeat = 4,
	.desc = "creat/write/close/open/read/close/unlink 4 KiB",
};

const struct pb_test pb_test_link_test = {
	.name = "link_test",
	.run = link_test,
	.repeat = 20,
	.desc = "link/unlink of a file",
};
