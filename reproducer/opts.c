// SPDX-License-Identifier: GPL-2.0
/*
 * Strict command line parsing for pbaim: every number is checked
 * for trailing junk, sign and range, and every error is one line.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "stats.h"
#include "workfile.h"

int pb_parse_uint(const char *s, unsigned long long min,
		  unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int pb_parse_decimal(const char *s, double min, double max, double *out)
{
	const char *p = s;
	char *end;
	double v;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

enum {
	OPT_THRESHOLD = 256,
	OPT_EXEC,
	OPT_TIMEOUT,
};

static const struct option pb_long_opts[] = {
	{ "tasks", required_argument, NULL, 't' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "workfile", required_argument, NULL, 'f' },
	{ "seed", required_argument, NULL, 's' },
	{ "dir", required_argument, NULL, 'd' },
	{ "samples", required_argument, NULL, 'n' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "exec", required_argument, NULL, OPT_EXEC },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "list", no_argument, NULL, 'l' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Parse an unsigned option value into @out, or explain in @msg. */
static int uint_opt(const char *name, const char *arg, unsigned long long min,
		    unsigned long long max, unsigned int *out, char *msg,
		    size_t msglen)
{
	unsigned long long v;

	if (pb_parse_uint(arg, min, max, &v) < 0) {
		snprintf(msg, msglen, "%s: '%s' is not a whole number in %llu..%llu",
			 name, arg, min, max);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

static void set_defaults(struct pb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tasks = PB_TASKS_DEFAULT;
	o->jobs = PB_JOBS_DEFAULT;
	o->samples = PB_SAMPLES_DEFAULT;
	o->seed = PB_SEED_DEFAULT;
	o->dir = PB_DIR_DEFAULT;
}

/* Handle one option letter @c with argument @arg; 0 or -1. */
static int one_opt(int c, const char *arg, const char *word, struct pb_opts *o,
		   char *msg, size_t msglen)
{
	switch (c) {
	case 't':
		return uint_opt("-t", arg, 1, PB_TASKS_MAX, &o->tasks, msg,
				msglen);
	case 'j':
		return uint_opt("-j", arg, 1, PB_JOBS_MAX, &o->jobs, msg,
				msglen);
	case 'n':
		return uint_opt("-n", arg, 1, PB_SAMPLES_MAX, &o->samples, msg,
				msglen);
	case 'w':
		return uint_opt("-w", arg, 0, PB_WARMUP_MAX, &o->warmup, msg,
				msglen);
	case OPT_TIMEOUT:
		return uint_opt("--timeout", arg, 0, PB_TIMEOUT_MAX,
				&o->timeout, msg, msglen);
	case 's':
		if (pb_parse_uint(arg, 0, PB_SEED_MAX, &o->seed) == 0)
			return 0;
		snprintf(msg, msglen, "-s: '%s' is not a whole number in 0..%llu",
			 arg, PB_SEED_MAX);
		return -1;
	case OPT_THRESHOLD:
		o->has_threshold = 1;
		if (pb_parse_decimal(arg, 0, PB_THRESHOLD_MAX,
				     &o->threshold) == 0)
			return 0;
		snprintf(msg, msglen, "--threshold: '%s' is not a plain decimal number in 0..1000000000000",
			 arg);
		return -1;
	case 'f':
		o->workfile = arg;
		return 0;
	case 'd':
		o->dir = arg;
		if (*arg && strlen(arg) <= PB_DIR_LEN_MAX)
			return 0;
		snprintf(msg, msglen, "-d: directory name empty or longer than %d",
			 PB_DIR_LEN_MAX);
		return -1;
	case OPT_EXEC:
		o->exec_path = arg;
		if (*arg && strlen(arg) < PB_PATH_MAX)
			return 0;
		snprintf(msg, msglen, "--exec: path empty or longer than %d",
			 PB_PATH_MAX - 1);
		return -1;
	case 'l':
		o->list = 1;
		return 0;
	case 'h':
		o->help = 1;
		return 0;
	case ':':
		snprintf(msg, msglen, "option '%s' needs a value", word);
		return -1;
	default:
		snprintf(msg, msglen, "unknown option '%s'", word);
		return -1;
	}
}

int pb_opts_parse(int argc, char *const *argv, struct pb_opts *o, char *msg,
		  size_t msglen)
{
	char shortopt[3];
	const char *word;
	int c;

	set_defaults(o);
	msg[0] = '\0';
	opterr = 0;
	optind = 0;	/* glibc: full re-initialisation, for the tests */
	for (;;) {
		c = getopt_long(argc, argv, "+:t:j:f:s:d:n:w:lh", pb_long_opts,
				NULL);
		if (c == -1)
			break;
		word = argv[optind - 1];
		if ((c == '?' || c == ':') && optopt > 0 && optopt < 128) {
			snprintf(shortopt, sizeof(shortopt), "-%c", optopt);
			word = shortopt;
		}
		if (one_opt(c, optarg, word, o, msg, msglen) < 0)
			return -1;
	}
	if (optind < argc) {
		snprintf(msg, msglen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!o->help && !o->list && !o->workfile) {
		snprintf(msg, msglen, "missing -f WORKFILE");
		return -1;
	}
	return 0;
}
