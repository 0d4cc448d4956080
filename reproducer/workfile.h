/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AIM7-style workfiles and the per-task job list they yield.
 *
 * A workfile has one "<weight> <test>" line per sub-test; '#' starts a
 * comment, blank lines are ignored.  Each test gets a share of the jobs
 * proportional to its weight (at least one job when the job count allows),
 * and every task draws its jobs in its own random order without replacement.
 */
#ifndef PB_WORKFILE_H
#define PB_WORKFILE_H

#include <stdint.h>
#include <stdio.h>

#include "pb.h"

#define PB_WF_LINE_MAX		256	/* bytes per line, newline included */
#define PB_WF_WEIGHT_MAX	1000000UL
#define PB_JOBS_MAX		100000U
#define PB_TESTS_MAX		32

/* Every way a workfile can be wrong gets its own code and message. */
enum pb_wf_err {
	PB_WF_OK = 0,
	PB_WF_ERR_OPEN,			/* cannot open the file */
	PB_WF_ERR_READ,			/* read error */
	PB_WF_ERR_LINE_TOO_LONG,	/* a line does not fit the buffer */
	PB_WF_ERR_SYNTAX,		/* not "<weight> <test>" */
	PB_WF_ERR_WEIGHT_NOT_NUMBER,	/* weight is not a whole number */
	PB_WF_ERR_WEIGHT_NEGATIVE,	/* weight below zero */
	PB_WF_ERR_WEIGHT_TOO_LARGE,	/* weight above PB_WF_WEIGHT_MAX */
	PB_WF_ERR_UNKNOWN_TEST,		/* no sub-test of that name */
	PB_WF_ERR_DUPLICATE_TEST,	/* the same test named twice */
	PB_WF_ERR_EMPTY,		/* no "<weight> <test>" line at all */
	PB_WF_ERR_ALL_ZERO,		/* every weight is zero */
	PB_WF_ERR_JOBS_RANGE,		/* job count outside 1..PB_JOBS_MAX */
	PB_WF_ERR_COUNT
};

struct pb_workfile {
	unsigned long weight[PB_TESTS_MAX];	/* by registry index */
	unsigned long total;			/* sum of the weights */
	unsigned long seen;			/* bit per test named */
	unsigned int entries;			/* "<weight> <test>" lines */
	unsigned int err_line;			/* line of the error, or 0 */
	char token[32];				/* offending word, cut short */
};

/* The message for @err, without a trailing newline. */
const char *pb_wf_strerror(enum pb_wf_err err);

/* Parse @f against the sub-tests @tests[0..@ntests-1] into @wf. */
enum pb_wf_err pb_wf_parse(FILE *f, const struct pb_test *const *tests,
			   unsigned int ntests, struct pb_workfile *wf);

/* Open and parse the file at @path (PB_WF_ERR_OPEN keeps errno). */
enum pb_wf_err pb_wf_load(const char *path, const struct pb_test *const *tests,
			  unsigned int ntests, struct pb_workfile *wf);

/* Split @jobs into @counts[0..@ntests-1] that sum to exactly @jobs. */
enum pb_wf_err pb_wf_plan(const struct pb_workfile *wf, unsigned int ntests,
			  unsigned int jobs, unsigned int *counts);

/* xorshift64* generator, seeded through splitmix64 so any seed works. */
struct pb_rng {
	uint64_t s;
};

void pb_rng_seed(struct pb_rng *rng, uint64_t seed);
uint64_t pb_rng_next(struct pb_rng *rng);

/* Drawing a task's jobs in random order without replacement. */
struct pb_draw {
	unsigned int left[PB_TESTS_MAX];
	unsigned int remaining;
	unsigned int ntests;
	struct pb_rng rng;
};

void pb_draw_init(struct pb_draw *d, const unsigned int *counts,
		  unsigned int ntests, uint64_t seed);

/* Index of the next job's sub-test, or -1 when the list is used up. */
int pb_draw_next(struct pb_draw *d);

#endif /* PB_WORKFILE_H */
