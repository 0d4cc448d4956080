// SPDX-License-Identifier: GPL-2.0
/*
 * Strict parsing of pbaim's numeric options and command line.
 */
#include <string.h>

#include "opts.h"
#include "pb.h"
#include "tap.h"

#define ARGC(a) ((int)ARRAY_SIZE(a) - 1)

static void test_uint(void)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "1x", "0x10", "10001",
		"99999999999999999999999", "1e3",
	};
	unsigned long long v = 0;
	unsigned int i;

	tap_ok(pb_parse_uint("10000", 1, 10000, &v) == 0 && v == 10000,
	       "10000 is a valid task count");
	tap_ok(pb_parse_uint("007", 1, 10, &v) == 0 && v == 7,
	       "leading zeros are fine");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		tap_ok(pb_parse_uint(bad[i], 1, 10000, &v) < 0,
		       "'%s' is rejected as a number in 1..10000", bad[i]);
}

static void test_decimal(void)
{
	static const char *const bad[] = {
		"1e9", "1.", ".5", "inf", "nan", "-1", "0x10", "1,5", "",
	};
	double v = 0;
	unsigned int i;

	tap_ok(pb_parse_decimal("1000000000", 0, 1e12, &v) == 0 && v == 1e9,
	       "1000000000 is a valid threshold");
	tap_ok(pb_parse_decimal("1234.5", 0, 1e12, &v) == 0 && v == 1234.5,
	       "1234.5 is a valid threshold");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		tap_ok(pb_parse_decimal(bad[i], 0, 1e12, &v) < 0,
		       "'%s' is rejected as a threshold", bad[i]);
}

static int parse(int argc, char *const *argv, struct pb_opts *o)
{
	char msg[256];

	return pb_opts_parse(argc, argv, o, msg, sizeof(msg));
}

static void test_cmdline(void)
{
	char *const good[] = { "pbaim", "-f", "wf", "-t", "2000", "-j", "5",
			 "--threshold", "1000.5", "-n", "7", "-w", "1",
			 "-s", "99", "--exec", "/bin/true", "-d", "/tmp/x",
			 "--timeout", "60", NULL };
	char *const deflt[] = { "pbaim", "-f", "wf", NULL };
	char *const zero[] = { "pbaim", "-f", "wf", "-t", "0", NULL };
	char *const many[] = { "pbaim", "-f", "wf", "-t", "10001", NULL };
	char *const word[] = { "pbaim", "-f", "wf", "-j", "lots", NULL };
	char *const samples[] = { "pbaim", "-f", "wf", "-n", "1001", NULL };
	char *const nowf[] = { "pbaim", "-t", "5", NULL };
	char *const unknown[] = { "pbaim", "-f", "wf", "--bogus", NULL };
	char *const extra[] = { "pbaim", "-f", "wf", "stray", NULL };
	char *const novalue[] = { "pbaim", "-f", NULL };
	char *const help[] = { "pbaim", "--help", NULL };
	struct pb_opts o;

	tap_ok(parse(ARGC(good), good, &o) == 0 && o.tasks == 2000 &&
	       o.jobs == 5 && o.has_threshold && o.threshold == 1000.5 &&
	       o.samples == 7 && o.warmup == 1 && o.seed == 99 &&
	       o.timeout == 60 && strcmp(o.dir, "/tmp/x") == 0 &&
	       strcmp(o.exec_path, "/bin/true") == 0,
	       "every option parsed");
	tap_ok(parse(ARGC(deflt), deflt, &o) == 0 && o.tasks == 100 &&
	       o.jobs == 100 && o.samples == 3 && o.warmup == 0 &&
	       o.seed == 1 && !o.has_threshold && strcmp(o.dir, "/tmp") == 0 &&
	       !o.exec_path, "defaults");
	tap_ok(parse(ARGC(zero), zero, &o) < 0, "-t 0 is a usage error");
	tap_ok(parse(ARGC(many), many, &o) < 0, "-t 10001 is a usage error");
	tap_ok(parse(ARGC(word), word, &o) < 0, "-j lots is a usage error");
	tap_ok(parse(ARGC(samples), samples, &o) < 0,
	       "-n 1001 is a usage error");
	tap_ok(parse(ARGC(nowf), nowf, &o) < 0, "missing -f is a usage error");
	tap_ok(parse(ARGC(unknown), unknown, &o) < 0,
	       "unknown option is a usage error");
	tap_ok(parse(ARGC(extra), extra, &o) < 0,
	       "stray argument is a usage error");
	tap_ok(parse(ARGC(novalue), novalue, &o) < 0,
	       "option without its value is a usage error");
	tap_ok(parse(ARGC(help), help, &o) == 0 && o.help,
	       "--help needs no workfile");
}

int main(void)
{
	test_uint();
	test_decimal();
	test_cmdline();
	return tap_done();
}
