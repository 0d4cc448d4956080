/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pbaim command line: defaults, ranges and strict parsing.
 */
#ifndef PB_OPTS_H
#define PB_OPTS_H

#include <stddef.h>

#define PB_TASKS_DEFAULT	100
#define PB_TASKS_MAX		10000
#define PB_JOBS_DEFAULT		100
#define PB_SAMPLES_DEFAULT	3
#define PB_WARMUP_MAX		100
#define PB_SEED_DEFAULT		1
#define PB_SEED_MAX		4294967295ULL
#define PB_TIMEOUT_MAX		86400
#define PB_THRESHOLD_MAX	1000000000000.0
#define PB_DIR_DEFAULT		"/tmp"
#define PB_DIR_LEN_MAX		400	/* room for "/pbaim.<pid>/t<n>/f<n>" */

struct pb_opts {
	unsigned int tasks;		/* -t */
	unsigned int jobs;		/* -j: jobs per task */
	unsigned int samples;		/* -n: measured samples */
	unsigned int warmup;		/* -w: samples thrown away first */
	unsigned long long seed;	/* -s */
	unsigned int timeout;		/* --timeout seconds per sample, 0 */
	int has_threshold;
	double threshold;		/* --threshold jobs/min */
	const char *workfile;		/* -f */
	const char *dir;		/* -d */
	const char *exec_path;		/* --exec, NULL: pbtrue next to us */
	int help;			/* -h */
	int list;			/* -l */
};

/* Whole decimal number in @min..@max, nothing else; 0 or -1. */
int pb_parse_uint(const char *s, unsigned long long min,
		  unsigned long long max, unsigned long long *out);

/* Plain decimal ("123" or "123.45", no sign/exponent) in range; 0 or -1. */
int pb_parse_decimal(const char *s, double min, double max, double *out);

/* Parse @argv into @o; on error -1 and a one-line reason in @msg. */
int pb_opts_parse(int argc, char *const *argv, struct pb_opts *o, char *msg,
		  size_t msglen);

#endif /* PB_OPTS_H */
