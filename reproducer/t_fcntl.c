// SPDX-License-Identifier: GPL-2.0
/*
 * fcntl(F_SETFL) toggles of O_NONBLOCK and O_APPEND.  setfl()
 * took the Big Kernel Lock around the FASYNC check and the f_flags update in
 * 2.6.26, for every file.
 */
#include <fcntl.h>

#include "pb.h"

static int fcntl_setfl(struct pb_ctx *ctx, unsigned int repeat)
{
	unsigned int i;
	int fl;

	fl = fcntl(ctx->null_fd, F_GETFL);
	if (fl < 0)
		return pb_fail(ctx, "fcntl F_GETFL", errno);
	for (i = 0; i < repeat; i++) {
		if (fcntl(ctx->null_fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
		    fcntl(ctx->null_fd, F_SETFL, fl) < 0 ||
		    fcntl(ctx->null_fd, F_SETFL, fl | O_APPEND) < 0 ||
		    fcntl(ctx->null_fd, F_SETFL, fl) < 0)
			return pb_fail(ctx, "fcntl F_SETFL", errno);
	}
	return 0;
}

const struct pb_test pb_test_fcntl_setfl = {
	.name = "fcntl_setfl",
	.run = fcntl_setfl,
	.repeat = 100,
	.desc = "fcntl F_SETFL O_NONBLOCK/O_APPEND toggles",
};
