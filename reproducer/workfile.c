// SPDX-License-Identifier: GPL-2.0
/*
 * Parse AIM7-style workfiles, split the job count among the
 * sub-tests by weight, and draw each task's jobs in random order without
 * replacement.  No I/O besides reading the workfile, so the unit tests link
 * it without the harness.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workfile.h"

static const char *const pb_wf_messages[PB_WF_ERR_COUNT] = {
	[PB_WF_OK] = "no error",
	[PB_WF_ERR_OPEN] = "cannot open the workfile",
	[PB_WF_ERR_READ] = "read error",
	[PB_WF_ERR_LINE_TOO_LONG] = "line too long (max 255 characters)",
	[PB_WF_ERR_SYNTAX] = "expected '<weight> <test>'",
	[PB_WF_ERR_WEIGHT_NOT_NUMBER] = "weight is not a whole number",
	[PB_WF_ERR_WEIGHT_NEGATIVE] = "weight is negative",
	[PB_WF_ERR_WEIGHT_TOO_LARGE] = "weight is absurdly large (max 1000000)",
	[PB_WF_ERR_UNKNOWN_TEST] = "unknown test (see pbaim --list)",
	[PB_WF_ERR_DUPLICATE_TEST] = "test listed twice",
	[PB_WF_ERR_EMPTY] = "no '<weight> <test>' line in the workfile",
	[PB_WF_ERR_ALL_ZERO] = "all weights are zero",
	[PB_WF_ERR_JOBS_RANGE] = "job count outside 1..100000",
};

const char *pb_wf_strerror(enum pb_wf_err err)
{
	if ((unsigned int)err >= PB_WF_ERR_COUNT)
		return "unknown workfile error";
	return pb_wf_messages[err];
}

static void keep_token(struct pb_workfile *wf, const char *tok)
{
	snprintf(wf->token, sizeof(wf->token), "%s", tok);
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Parse a weight: digits only, at most PB_WF_WEIGHT_MAX. */
static enum pb_wf_err parse_weight(const char *tok, unsigned long *out)
{
	unsigned long v;

	if (tok[0] == '-')
		return all_digits(tok + 1) ? PB_WF_ERR_WEIGHT_NEGATIVE :
					     PB_WF_ERR_WEIGHT_NOT_NUMBER;
	if (!all_digits(tok))
		return PB_WF_ERR_WEIGHT_NOT_NUMBER;
	errno = 0;
	v = strtoul(tok, NULL, 10);
	if (errno == ERANGE || v > PB_WF_WEIGHT_MAX)
		return PB_WF_ERR_WEIGHT_TOO_LARGE;
	*out = v;
	return PB_WF_OK;
}

/* One line, comment and newline already cut off. */
static enum pb_wf_err parse_line(char *line, const struct pb_test *const *tests,
				 unsigned int ntests, struct pb_workfile *wf)
{
	static const char sep[] = " \t\r\v\f";
	char *save = NULL, *wtok, *name;
	unsigned long weight;
	enum pb_wf_err err;
	int idx;

	wtok = strtok_r(line, sep, &save);
	if (!wtok)
		return PB_WF_OK;
	name = strtok_r(NULL, sep, &save);
	if (!name || strtok_r(NULL, sep, &save)) {
		keep_token(wf, wtok);
		return PB_WF_ERR_SYNTAX;
	}
	err = parse_weight(wtok, &weight);
	if (err) {
		keep_token(wf, wtok);
		return err;
	}
	idx = pb_test_find(tests, ntests, name);
	if (idx < 0 || idx >= PB_TESTS_MAX) {
		keep_token(wf, name);
		return PB_WF_ERR_UNKNOWN_TEST;
	}
	if (wf->seen & (1UL << idx)) {
		keep_token(wf, name);
		return PB_WF_ERR_DUPLICATE_TEST;
	}
	wf->seen |= 1UL << idx;
	wf->weight[idx] = weight;
	wf->total += weight;
	wf->entries++;
	return PB_WF_OK;
}

/*
 * Read one line into @buf; PB_WF_ERR_LINE_TOO_LONG if it has more than
 * @len - 1 characters before its newline.  Returns 1 at end of file.
 */
static int read_line(FILE *f, char *buf, size_t len, enum pb_wf_err *err)
{
	size_t n;
	int c;

	if (!fgets(buf, (int)len, f))
		return 1;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n') {
		buf[n - 1] = '\0';
		return 0;
	}
	if (n + 1 < len)
		return 0;	/* last line without a newline */
	c = getc(f);
	if (c == EOF || c == '\n')
		return 0;
	*err = PB_WF_ERR_LINE_TOO_LONG;
	return 0;
}

enum pb_wf_err pb_wf_parse(FILE *f, const struct pb_test *const *tests,
			   unsigned int ntests, struct pb_workfile *wf)
{
	char line[PB_WF_LINE_MAX];
	enum pb_wf_err err = PB_WF_OK;
	unsigned int lineno = 0;
	char *hash;

	memset(wf, 0, sizeof(*wf));
	while (!read_line(f, line, sizeof(line), &err)) {
		lineno++;
		if (!err) {
			hash = strchr(line, '#');
			if (hash)
				*hash = '\0';
			err = parse_line(line, tests, ntests, wf);
		}
		if (err) {
			wf->err_line = lineno;
			return err;
		}
	}
	if (ferror(f))
		return PB_WF_ERR_READ;
	if (!wf->entries)
		return PB_WF_ERR_EMPTY;
	if (!wf->total)
		return PB_WF_ERR_ALL_ZERO;
	return PB_WF_OK;
}

enum pb_wf_err pb_wf_load(const char *path, const struct pb_test *const *tests,
			  unsigned int ntests, struct pb_workfile *wf)
{
	enum pb_wf_err err;
	FILE *f;
	int saved;

	memset(wf, 0, sizeof(*wf));
	f = fopen(path, "re");
	if (!f)
		return PB_WF_ERR_OPEN;
	err = pb_wf_parse(f, tests, ntests, wf);
	saved = errno;
	fclose(f);
	errno = saved;
	return err;
}

/* Index with the largest (@most) or smallest remainder that qualifies. */
static int pick(const uint64_t *rem, const int *ok, unsigned int n, int most)
{
	unsigned int i;
	int best = -1;

	for (i = 0; i < n; i++) {
		if (!ok[i])
			continue;
		if (best < 0 || (most ? rem[i] > rem[best] : rem[i] < rem[best]))
			best = (int)i;
	}
	return best;
}

/*
 * Largest-remainder rounding of jobs * weight / total.  When there are at
 * least as many jobs as weighted tests, each weighted test gets at least one
 * job (AIM7's rule) and the surplus is taken back from the tests with more
 * than one job and the smallest remainder.
 */
enum pb_wf_err pb_wf_plan(const struct pb_workfile *wf, unsigned int ntests,
			  unsigned int jobs, unsigned int *counts)
{
	uint64_t rem[PB_TESTS_MAX];
	int ok[PB_TESTS_MAX];
	unsigned int i, sum = 0, weighted = 0;
	int floor1, best;

	if (jobs < 1 || jobs > PB_JOBS_MAX)
		return PB_WF_ERR_JOBS_RANGE;
	if (!wf->total)
		return PB_WF_ERR_ALL_ZERO;
	if (ntests > PB_TESTS_MAX)
		ntests = PB_TESTS_MAX;
	for (i = 0; i < ntests; i++)
		weighted += wf->weight[i] > 0;
	floor1 = jobs >= weighted;
	for (i = 0; i < ntests; i++) {
		uint64_t q = (uint64_t)jobs * wf->weight[i];

		counts[i] = (unsigned int)(q / wf->total);
		rem[i] = q % wf->total;
		ok[i] = wf->weight[i] > 0;
		if (floor1 && ok[i] && counts[i] == 0) {
			counts[i] = 1;
			ok[i] = 0;	/* already above its share */
		}
		sum += counts[i];
	}
	while (sum < jobs) {
		best = pick(rem, ok, ntests, 1);
		if (best < 0) {
			/* every test had its extra job: start a new round */
			for (i = 0; i < ntests; i++)
				ok[i] = wf->weight[i] > 0;
			continue;
		}
		counts[best]++;
		ok[best] = 0;
		sum++;
	}
	while (sum > jobs) {
		for (i = 0; i < ntests; i++)
			ok[i] = counts[i] > 1;
		best = pick(rem, ok, ntests, 0);
		if (best < 0)
			break;
		counts[best]--;
		rem[best] = UINT64_MAX;	/* take from it last next time */
		sum--;
	}
	return sum == jobs ? PB_WF_OK : PB_WF_ERR_JOBS_RANGE;
}

void pb_rng_seed(struct pb_rng *rng, uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	rng->s = z ? z : 0x9e3779b97f4a7c15ULL;
}

uint64_t pb_rng_next(struct pb_rng *rng)
{
	uint64_t x = rng->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng->s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

void pb_draw_init(struct pb_draw *d, const unsigned int *counts,
		  unsigned int ntests, uint64_t seed)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	if (ntests > PB_TESTS_MAX)
		ntests = PB_TESTS_MAX;
	d->ntests = ntests;
	for (i = 0; i < ntests; i++) {
		d->left[i] = counts[i];
		d->remaining += counts[i];
	}
	pb_rng_seed(&d->rng, seed);
}

int pb_draw_next(struct pb_draw *d)
{
	uint64_t r;
	unsigned int i;

	if (!d->remaining)
		return -1;
	r = pb_rng_next(&d->rng) % d->remaining;
	for (i = 0; i < d->ntests; i++) {
		if (r < d->left[i]) {
			d->left[i]--;
			d->remaining--;
			return (int)i;
		}
		r -= d->left[i];
	}
	return -1;
}
