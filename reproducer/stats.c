// SPDX-License-Identifier: GPL-2.0
/*
 * The arithmetic behind pbaim's table and result lines, kept free
 * of I/O so the unit tests check it against hand-computed values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double pb_jpm(unsigned int jobs, unsigned int tasks, double real_s)
{
	if (real_s <= 0)
		return 0;
	return (double)jobs * tasks * 60.0 / real_s;
}

double pb_jpst(unsigned int jobs, double real_s)
{
	if (real_s <= 0)
		return 0;
	return (double)jobs / real_s;
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

/* Square root of the summed squared deviations over @div. */
static double stddev_of(const double *v, size_t n, double mean, size_t div)
{
	double ss = 0;
	size_t i;

	if (!div)
		return 0;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / div);
}

double pb_jti(const double *t, size_t n)
{
	double mean, jti;

	if (n <= 1)
		return 100;
	mean = mean_of(t, n);
	if (mean <= 0)
		return 100;
	jti = (1 - stddev_of(t, n, mean, n) / mean) * 100;
	if (jti < 0)
		return 0;
	return jti > 100 ? 100 : jti;
}

static double tv_seconds(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

double pb_cpu_seconds(const struct rusage *before, const struct rusage *after)
{
	return tv_seconds(&after->ru_utime) - tv_seconds(&before->ru_utime) +
	       tv_seconds(&after->ru_stime) - tv_seconds(&before->ru_stime);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double pb_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

int pb_summarize(const double *v, size_t n, struct pb_summary *s)
{
	double sorted[PB_SAMPLES_MAX];
	double mean;

	memset(s, 0, sizeof(*s));
	if (n < 1 || n > PB_SAMPLES_MAX)
		return -1;
	memcpy(sorted, v, n * sizeof(*v));
	s->n = n;
	s->median = pb_median(sorted, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	if (s->median > 0)
		s->spread_pct = (s->max - s->min) / s->median * 100;
	mean = mean_of(v, n);
	if (mean > 0)
		s->cv_pct = stddev_of(v, n, mean, n - 1) / mean * 100;
	return 0;
}

int pb_procstat_parse(const char *text, struct pb_cpustat *cs)
{
	unsigned long long f[8] = { 0 };
	const char *p;
	int n, i;

	memset(cs, 0, sizeof(*cs));
	if (strncmp(text, "cpu ", 4) == 0)
		p = text;
	else
		p = strstr(text, "\ncpu ");
	if (!p)
		return -1;
	p += *p == '\n' ? 5 : 4;
	/* user nice system idle iowait irq softirq steal; guest is in user */
	n = sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu",
		   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]);
	if (n < 4)
		return -1;
	for (i = 0; i < 8; i++)
		cs->total += f[i];
	cs->idle = f[3] + f[4];
	p = strstr(text, "\nctxt ");
	if (!p || sscanf(p + 6, "%llu", &cs->ctxt) != 1)
		return -1;
	return 0;
}

double pb_idle_pct(const struct pb_cpustat *a, const struct pb_cpustat *b)
{
	if (b->total <= a->total || b->idle < a->idle)
		return 0;
	return (double)(b->idle - a->idle) * 100.0 / (double)(b->total - a->total);
}

double pb_csw_per_job(const struct pb_cpustat *a, const struct pb_cpustat *b,
		      unsigned long long jobs)
{
	if (!jobs || b->ctxt < a->ctxt)
		return 0;
	return (double)(b->ctxt - a->ctxt) / (double)jobs;
}
