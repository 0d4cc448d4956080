// SPDX-License-Identifier: GPL-2.0
/*
 * Integer and floating-point arithmetic (AIM7 add_int,
 * add_double): pure user time, no system calls, so a job of these shows how
 * much CPU the tasks get when the kernel lets them run.
 */
#include "pb.h"

#define PB_INT_LOOP	2000
#define PB_FP_LOOP	1000

/* Mix integers with multiply, shift and xor so nothing folds away. */
static int add_int(struct pb_ctx *ctx, unsigned int repeat)
{
	unsigned long x = ctx->sink + ctx->task + 1;
	unsigned int i, j;

	for (i = 0; i < repeat; i++) {
		for (j = 0; j < PB_INT_LOOP; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			x += j * 3 + 1;
		}
	}
	ctx->sink = x;
	return 0;
}

/* A damped recurrence with a division: exact IEEE, cannot be folded. */
static int add_double(struct pb_ctx *ctx, unsigned int repeat)
{
	double x = ctx->fsink + 1.0, y = 0.5;
	unsigned int i, j;

	for (i = 0; i < repeat; i++) {
		for (j = 0; j < PB_FP_LOOP; j++) {
			x = x * 0.999 + y;
			y = y / 1.0001 + 0.25;
			if (x > 1e6)
				x /= 3.0;
		}
	}
	ctx->fsink = x + y;
	return 0;
}

const struct pb_test pb_test_add_int = {
	.name = "add_int",
	.run = add_int,
	.repeat = 50,
	.desc = "integer arithmetic",
};

const struct pb_test pb_test_add_double = {
	.name = "add_double",
	.run = add_double,
	.repeat = 50,
	.desc = "floating-point arithmetic",
};
