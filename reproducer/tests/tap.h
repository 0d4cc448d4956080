/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few TAP helpers pbaim's unit tests share: "ok N - what" or
 * "not ok N - what" per check, and the plan line at the end.
 */
#ifndef PB_TAP_H
#define PB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_count;
static int tap_failed;

/* One check: @cond true is "ok". */
static inline void tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* @got within @eps of the hand-computed @want. */
static inline void tap_near(double got, double want, double eps,
			    const char *what)
{
	tap_ok(fabs(got - want) <= eps, "%s (got %.6f, want %.6f)", what, got,
	       want);
}

/* Print the plan; the exit status for main(). */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif /* PB_TAP_H */
