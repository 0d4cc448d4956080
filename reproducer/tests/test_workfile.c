// SPDX-License-Identifier: GPL-2.0
/*
 * The workfile parser, the job split and the job draw.
 * Every malformed input must give its own error code.
 *
 * Usage: test_workfile [WORKFILE_DIR]  (checks the shipped workfiles too)
 */
#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "tap.h"
#include "workfile.h"

static enum pb_wf_err parse_text(const char *text, struct pb_workfile *wf)
{
	enum pb_wf_err err;
	FILE *f;

	f = fmemopen((void *)text, strlen(text), "r");
	if (!f) {
		/* fmemopen refuses an empty buffer on old libcs */
		f = fopen("/dev/null", "r");
		if (!f)
			return PB_WF_ERR_OPEN;
	}
	err = pb_wf_parse(f, pb_tests, pb_ntests, wf);
	fclose(f);
	return err;
}

static unsigned long weight_of(const struct pb_workfile *wf, const char *name)
{
	int i = pb_test_find(pb_tests, pb_ntests, name);

	return i < 0 ? 0 : wf->weight[i];
}

static void expect(const char *text, enum pb_wf_err want, unsigned int line,
		   const char *what)
{
	struct pb_workfile wf;
	enum pb_wf_err got = parse_text(text, &wf);

	tap_ok(got == want && wf.err_line == line,
	       "%s: %s (got \"%s\" at line %u)", what, pb_wf_strerror(want),
	       pb_wf_strerror(got), wf.err_line);
}

static void test_good(void)
{
	struct pb_workfile wf;
	enum pb_wf_err err;

	err = parse_text("# a comment\n\n10 add_int\n 5\tdev_null # why\n"
			 "0 fork_test\n", &wf);
	tap_ok(err == PB_WF_OK && wf.entries == 3 && wf.total == 15,
	       "comments, blank lines, tabs and zero weights are fine");
	tap_ok(weight_of(&wf, "add_int") == 10 &&
	       weight_of(&wf, "dev_null") == 5, "weights land on their tests");
	expect("3 add_int", PB_WF_OK, 0, "last line without a newline");
	expect("3 add_int\r\n2 dev_zero\r\n", PB_WF_OK, 0, "CRLF line ends");
}

static void test_bad(void)
{
	char longline[400];

	expect("-5 add_int\n", PB_WF_ERR_WEIGHT_NEGATIVE, 1, "negative weight");
	expect("1 dev_null\nabc add_int\n", PB_WF_ERR_WEIGHT_NOT_NUMBER, 2,
	       "non-numeric weight");
	expect("1.5 add_int\n", PB_WF_ERR_WEIGHT_NOT_NUMBER, 1,
	       "fractional weight");
	expect("+5 add_int\n", PB_WF_ERR_WEIGHT_NOT_NUMBER, 1, "signed weight");
	expect("5 no_such_test\n", PB_WF_ERR_UNKNOWN_TEST, 1, "unknown test");
	expect("", PB_WF_ERR_EMPTY, 0, "empty file");
	expect("# nothing\n\n \t\n", PB_WF_ERR_EMPTY, 0, "only comments");
	expect("0 add_int\n0 dev_null\n", PB_WF_ERR_ALL_ZERO, 0,
	       "all weights zero");
	expect("2000000 add_int\n", PB_WF_ERR_WEIGHT_TOO_LARGE, 1,
	       "absurd weight");
	expect("99999999999999999999999 add_int\n", PB_WF_ERR_WEIGHT_TOO_LARGE,
	       1, "weight beyond unsigned long");
	expect("5\n", PB_WF_ERR_SYNTAX, 1, "weight without a test");
	expect("5 add_int extra\n", PB_WF_ERR_SYNTAX, 1, "a third word");
	expect("1 add_int\n2 add_int\n", PB_WF_ERR_DUPLICATE_TEST, 2,
	       "test named twice");

	memset(longline, 'x', sizeof(longline));
	memcpy(longline, "1 add_int\n#", 11);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	expect(longline, PB_WF_ERR_LINE_TOO_LONG, 2, "line longer than buffer");

	/* 1 + 254 = 255 characters before the newline still fit */
	memset(longline, 'x', sizeof(longline));
	memcpy(longline, "1 add_int\n#", 11);
	longline[10 + 255] = '\n';
	longline[10 + 256] = '\0';
	expect(longline, PB_WF_OK, 0, "line of exactly 255 characters");
}

static void test_messages(void)
{
	int i, j, distinct = 1;

	for (i = 0; i < PB_WF_ERR_COUNT; i++)
		for (j = i + 1; j < PB_WF_ERR_COUNT; j++)
			if (strcmp(pb_wf_strerror(i), pb_wf_strerror(j)) == 0)
				distinct = 0;
	tap_ok(distinct, "every workfile error has its own message");
	tap_ok(strcmp(pb_wf_strerror(PB_WF_ERR_COUNT),
		      "unknown workfile error") == 0, "out of range code");
}

static void test_load(void)
{
	struct pb_workfile wf;

	tap_ok(pb_wf_load("/nonexistent/pb-workfile", pb_tests, pb_ntests,
			  &wf) == PB_WF_ERR_OPEN, "missing file: open error");
}

/* Sum of @counts[0..@n-1]. */
static unsigned int sum_of(const unsigned int *counts, unsigned int n)
{
	unsigned int i, s = 0;

	for (i = 0; i < n; i++)
		s += counts[i];
	return s;
}

static void test_plan(void)
{
	struct pb_workfile wf;
	unsigned int c[PB_TESTS_MAX];
	unsigned int trial, i, jobs, weighted, ok = 1;
	struct pb_rng rng;

	memset(&wf, 0, sizeof(wf));
	wf.weight[0] = 1;
	wf.weight[1] = 1;
	wf.weight[2] = 1;
	wf.total = 3;
	tap_ok(pb_wf_plan(&wf, 3, 100, c) == PB_WF_OK && c[0] == 34 &&
	       c[1] == 33 && c[2] == 33, "1:1:1 of 100 is 34 33 33");
	tap_ok(pb_wf_plan(&wf, 3, 2, c) == PB_WF_OK && sum_of(c, 3) == 2,
	       "2 jobs over 3 tests still sum to 2");
	tap_ok(pb_wf_plan(&wf, 3, 0, c) == PB_WF_ERR_JOBS_RANGE,
	       "0 jobs is a job count error");
	tap_ok(pb_wf_plan(&wf, 3, PB_JOBS_MAX + 1, c) == PB_WF_ERR_JOBS_RANGE,
	       "100001 jobs is a job count error");
	tap_ok(pb_wf_plan(&wf, 3, 4000000000U, c) == PB_WF_ERR_JOBS_RANGE,
	       "absurd job count (4e9) is a job count error");

	memset(&wf, 0, sizeof(wf));
	wf.weight[0] = 1;
	wf.weight[1] = 999;
	wf.total = 1000;
	tap_ok(pb_wf_plan(&wf, 2, 10, c) == PB_WF_OK && c[0] == 1 && c[1] == 9,
	       "1:999 of 10 gives the small test its one job");

	memset(&wf, 0, sizeof(wf));
	wf.weight[1] = 5;
	wf.total = 5;
	tap_ok(pb_wf_plan(&wf, 2, 3, c) == PB_WF_OK && c[0] == 0 && c[1] == 3,
	       "weight 0 gets no job");

	pb_rng_seed(&rng, 42);
	for (trial = 0; trial < 2000; trial++) {
		memset(&wf, 0, sizeof(wf));
		weighted = 0;
		for (i = 0; i < 15; i++) {
			wf.weight[i] = pb_rng_next(&rng) % 4 ?
				       pb_rng_next(&rng) % 1000 : 0;
			wf.total += wf.weight[i];
			weighted += wf.weight[i] > 0;
		}
		if (!wf.total)
			continue;
		jobs = 1 + pb_rng_next(&rng) % 300;
		if (pb_wf_plan(&wf, 15, jobs, c) != PB_WF_OK ||
		    sum_of(c, 15) != jobs)
			ok = 0;
		for (i = 0; i < 15 && jobs >= weighted; i++)
			if (wf.weight[i] && !c[i])
				ok = 0;
	}
	tap_ok(ok, "2000 random plans sum to the job count, 1+ per test");
}

static void test_draw(void)
{
	const unsigned int counts[4] = { 3, 2, 0, 5 };
	unsigned int seen[4] = { 0 };
	int order1[10], order2[10], order3[10];
	struct pb_draw d;
	int i, t, same12 = 1, same13 = 1;

	pb_draw_init(&d, counts, 4, 7);
	for (i = 0; i < 10; i++) {
		order1[i] = pb_draw_next(&d);
		if (order1[i] >= 0)
			seen[order1[i]]++;
	}
	t = pb_draw_next(&d);
	tap_ok(seen[0] == 3 && seen[1] == 2 && seen[2] == 0 && seen[3] == 5,
	       "each test drawn exactly its count (no replacement)");
	tap_ok(t == -1, "the list ends after the job count");
	pb_draw_init(&d, counts, 4, 7);
	for (i = 0; i < 10; i++)
		order2[i] = pb_draw_next(&d);
	pb_draw_init(&d, counts, 4, 8);
	for (i = 0; i < 10; i++)
		order3[i] = pb_draw_next(&d);
	for (i = 0; i < 10; i++) {
		same12 &= order1[i] == order2[i];
		same13 &= order1[i] == order3[i];
	}
	tap_ok(same12, "the same seed gives the same order");
	tap_ok(!same13, "another seed gives another order");
}

static void test_shipped(const char *dir)
{
	static const char *const bkl[] = {
		"dev_null", "dev_zero", "pty_open", "fcntl_setfl", "tty_ioctl",
	};
	struct pb_workfile wf;
	char path[512];
	unsigned long w = 0;
	unsigned int i;

	snprintf(path, sizeof(path), "%s/high_systime", dir);
	tap_ok(pb_wf_load(path, pb_tests, pb_ntests, &wf) == PB_WF_OK &&
	       wf.entries >= 10, "workfiles/high_systime parses, 10+ tests");
	snprintf(path, sizeof(path), "%s/bkl", dir);
	tap_ok(pb_wf_load(path, pb_tests, pb_ntests, &wf) == PB_WF_OK,
	       "workfiles/bkl parses");
	for (i = 0; i < ARRAY_SIZE(bkl); i++)
		w += weight_of(&wf, bkl[i]);
	tap_ok(wf.total && w * 100 / wf.total >= 60,
	       "workfiles/bkl puts 60%%+ of its weight on BKL sites (%lu%%)",
	       wf.total ? w * 100 / wf.total : 0);
}

int main(int argc, char **argv)
{
	test_good();
	test_bad();
	test_messages();
	test_load();
	test_plan();
	test_draw();
	if (argc > 1)
		test_shipped(argv[1]);
	return tap_done();
}
