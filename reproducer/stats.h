/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AIM7 figures of merit (Jobs/Min, JTI, Jobs/sec/task, CPU), the
 * statistics over samples (median, spread, coefficient of variation) and
 * the system-wide idle time and context switches from /proc/stat.
 */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stddef.h>
#include <sys/resource.h>

#define PB_SAMPLES_MAX	1000

/* jobs per task x tasks x 60 / real seconds; 0 if @real_s <= 0. */
double pb_jpm(unsigned int jobs, unsigned int tasks, double real_s);

/* Jobs per second per task: jobs per task / real seconds. */
double pb_jpst(unsigned int jobs, double real_s);

/*
 * Job Timing Index: (1 - stddev / mean) x 100 of the tasks' completion
 * times, population stddev, 100 for one task, clamped to 0..100.
 */
double pb_jti(const double *t, size_t n);

/* Children's user + system seconds between two getrusage() snapshots. */
double pb_cpu_seconds(const struct rusage *before, const struct rusage *after);

/* Median of @v; sorts @v in place.  0 for an empty set. */
double pb_median(double *v, size_t n);

struct pb_summary {
	size_t n;
	double median;
	double min;
	double max;
	double spread_pct;	/* (max - min) / median x 100 */
	double cv_pct;		/* sample stddev / mean x 100 */
};

/* Summarise @n values (n <= PB_SAMPLES_MAX); -1 if n is out of range. */
int pb_summarize(const double *v, size_t n, struct pb_summary *s);

/* The totals of /proc/stat this tool uses. */
struct pb_cpustat {
	unsigned long long idle;	/* idle + iowait jiffies */
	unsigned long long total;	/* all "cpu" line jiffies but guest */
	unsigned long long ctxt;	/* context switches since boot */
};

/* Parse the text of /proc/stat; -1 if the cpu or ctxt line is missing. */
int pb_procstat_parse(const char *text, struct pb_cpustat *cs);

/* Percentage of CPU time idle between two snapshots, 0 if none passed. */
double pb_idle_pct(const struct pb_cpustat *a, const struct pb_cpustat *b);

/* Context switches per job between two snapshots. */
double pb_csw_per_job(const struct pb_cpustat *a, const struct pb_cpustat *b,
		      unsigned long long jobs);

#endif /* PB_STATS_H */
