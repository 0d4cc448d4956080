// SPDX-License-Identifier: GPL-2.0
/*
 * The pbaim statistics against hand-computed values.
 */
#include <string.h>

#include "stats.h"
#include "tap.h"

#define EPS 1e-6

static void test_jpm(void)
{
	/* 10 jobs x 4 tasks x 60 / 8 s */
	tap_near(pb_jpm(10, 4, 8.0), 300.0, EPS, "jpm 10 jobs x 4 tasks in 8 s");
	/* 100 x 2000 x 60 / 250 */
	tap_near(pb_jpm(100, 2000, 250.0), 48000.0, EPS,
		 "jpm 100 jobs x 2000 tasks in 250 s");
	tap_near(pb_jpm(100, 2000, 0), 0, EPS, "jpm is 0 for a zero time");
	tap_near(pb_jpst(10, 4.0), 2.5, EPS, "jpst 10 jobs in 4 s");
	/* 100 / 207.5 = 0.481927710... */
	tap_near(pb_jpst(100, 207.5), 0.4819277, 1e-7, "jpst 100 jobs in 207.5 s");
}

static void test_jti(void)
{
	const double same[] = { 3, 3, 3, 3 };
	const double two[] = { 1, 3 };
	const double eight[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double skew[] = { 0, 0, 0, 10 };
	const double one[] = { 5 };

	tap_near(pb_jti(same, 4), 100, EPS, "jti of equal times is 100");
	/* mean 2, population stddev 1: (1 - 1/2) x 100 */
	tap_near(pb_jti(two, 2), 50, EPS, "jti of 1 and 3 s is 50");
	/* mean 5, population stddev 2: (1 - 2/5) x 100 */
	tap_near(pb_jti(eight, 8), 60, EPS, "jti of 2 4 4 4 5 5 7 9 is 60");
	/* mean 2.5, stddev 4.33: below zero, clamped */
	tap_near(pb_jti(skew, 4), 0, EPS, "jti clamps at 0");
	tap_near(pb_jti(one, 1), 100, EPS, "jti of one task is 100");
}

static void test_cpu(void)
{
	struct rusage a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.ru_utime.tv_sec = 1;
	a.ru_utime.tv_usec = 500000;
	a.ru_stime.tv_usec = 250000;
	b.ru_utime.tv_sec = 3;
	b.ru_stime.tv_sec = 1;
	/* user 3 - 1.5 plus system 1 - 0.25 */
	tap_near(pb_cpu_seconds(&a, &b), 2.25, EPS, "cpu user + system delta");
}

static void test_median(void)
{
	double odd[] = { 3, 1, 2 };
	double even[] = { 4, 1, 3, 2 };
	double single[] = { 5 };

	tap_near(pb_median(odd, 3), 2, EPS, "median of 3 1 2");
	tap_near(pb_median(even, 4), 2.5, EPS, "median of 4 1 3 2");
	tap_near(pb_median(single, 1), 5, EPS, "median of one value");
}

static void test_summary(void)
{
	const double v[] = { 100, 110, 90, 100 };
	const double one[] = { 42 };
	struct pb_summary s;

	tap_ok(pb_summarize(v, 4, &s) == 0, "summary of 4 samples");
	tap_near(s.median, 100, EPS, "summary median");
	tap_near(s.min, 90, EPS, "summary min");
	tap_near(s.max, 110, EPS, "summary max");
	/* (110 - 90) / 100 */
	tap_near(s.spread_pct, 20, EPS, "spread is (max - min) / median");
	/* sample stddev sqrt(200 / 3) = 8.164966 over mean 100 */
	tap_near(s.cv_pct, 8.164966, 1e-6, "cv is sample stddev / mean");
	tap_ok(pb_summarize(one, 1, &s) == 0 && s.spread_pct == 0 &&
	       s.cv_pct == 0 && s.median == 42, "summary of one sample");
	tap_ok(pb_summarize(v, 0, &s) < 0, "summary of no samples fails");
}

static void test_procstat(void)
{
	const char *a_txt =
		"cpu  100 20 30 800 50 0 0 0 0 0\n"
		"cpu0 50 10 15 400 25 0 0 0 0 0\n"
		"intr 1 2 3\nctxt 12345\nbtime 1\n";
	const char *b_txt =
		"cpu  400 20 130 1250 100 50 50 0 0 0\n"
		"intr 1 2 3\nctxt 22345\n";
	struct pb_cpustat a, b;

	tap_ok(pb_procstat_parse(a_txt, &a) == 0, "parse /proc/stat");
	tap_ok(a.idle == 850 && a.total == 1000 && a.ctxt == 12345,
	       "idle+iowait 850, total 1000, ctxt 12345");
	tap_ok(pb_procstat_parse(b_txt, &b) == 0, "parse a later /proc/stat");
	/* idle 1350 - 850 of total 2000 - 1000 */
	tap_near(pb_idle_pct(&a, &b), 50, EPS, "idle 500 of 1000 jiffies");
	/* 10000 switches for 100 jobs */
	tap_near(pb_csw_per_job(&a, &b, 100), 100, EPS, "100 csw per job");
	tap_ok(pb_procstat_parse("cpu  1 2 3 4\n", &a) < 0,
	       "no ctxt line is an error");
	tap_ok(pb_procstat_parse("ctxt 5\n", &a) < 0,
	       "no cpu line is an error");
}

int main(void)
{
	test_jpm();
	test_jti();
	test_cpu();
	test_median();
	test_summary();
	test_procstat();
	return tap_done();
}
