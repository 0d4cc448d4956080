// SPDX-License-Identifier: GPL-2.0
/*
 * pbstat: the statistics behind perfbisect's verdicts. Samples are
 * throughput values (jobs/min, higher is better) given as plain decimal
 * numbers (-?[0-9]+(\.[0-9]+)?, at most 32 characters).
 *
 * Usage:
 *	pbstat summary V...
 *	pbstat calibrate -g G... -b B... [--alpha A] [--min-effect PCT]
 *	pbstat judge -g G... -b B... -c C... [--alpha A] [--threshold T]
 *	pbstat ends -g G... -b B... [--rounds-below R] [--start N]
 *	pbstat effect -a A... -b B... [--alpha A]
 *	pbstat paired -a A... -b B... [--alpha A] [--min-effect PCT]
 *		[--tolerance PCT]
 *	pbstat place -g G... -b B... -c C... [--alpha A]
 *	pbstat sprt -g G... -b B... -c C... [-G POOL_G... -B POOL_B...]
 *		[-C POOL_C...] [--cand-boots K]
 *		[--alpha A] [--max-rounds R]
 *	pbstat search --commits N [-a AT... -g G... -b B... -c C...]
 *		[-G POOL_G... -B POOL_B...] [-C POOL_C...] [-s SKIP...] [-z SAME...]
 *		[--cand-boots K] [--alpha A] [--max-rounds R]
 *	pbstat detcmp -a A... -b B... [--min-effect PCT] [--eps PCT]
 *	pbstat detplace -g G... -b B... -c C... [--eps PCT] [--threshold T]
 *	pbstat level -c C... --threshold T [--alpha A] [--max-rounds R]
 *
 * Each command prints one line of key=value pairs on stdout.
 *
 * summary: sd is the sample standard deviation (n - 1), 0 for a single
 * value; mad is the raw median absolute deviation (not scaled).
 *
 * Rank tests are Mann-Whitney U on midranks. Up to EXACT_MAX samples in
 * all the p-value is exact: the permutation distribution of the rank sum,
 * ties included, counted by dynamic programming over doubled midranks.
 * Above, the normal approximation with tie correction and a continuity
 * correction of 0.5.
 *
 * The spread of a side is s = max(1.4826 * MAD, 1% of its median): the
 * scaled MAD estimates the standard deviation robustly, the floor keeps
 * a side whose few samples happen to agree from pulling the threshold
 * onto its own median.
 *
 * calibrate (GOOD vs BAD, each >= 3 samples):
 *	threshold = (med_g * s_b + med_b * s_g) / (s_g + s_b)
 *	noise_pct = 100 * max(s_g / med_g, s_b / med_b)
 *	effect_pct = 100 * (med_g - med_b) / med_g
 *	p = one-sided Mann-Whitney p that BAD < GOOD
 *	separated = p < alpha && effect_pct >= min_effect &&
 *		    (max(BAD) < min(GOOD) || effect_pct > 2 * noise_pct)
 *	Exit 0 when separated, 1 when not.
 *
 * judge (candidate C against both ends):
 *	p_good = one-sided p that C < GOOD, p_bad = one-sided p that C > BAD
 *	pos = (ln median(C) - ln median(BAD)) / (ln median(GOOD) - ln median(BAD))
 *	bad:  p_good < alpha && pos < 0.35 (or median(C) < --threshold)
 *	good: p_bad < alpha && pos > 0.65 (or median(C) > --threshold)
 *	(Not "and like the near end": this machine drifts by tens of percent
 *	even between adjacent boots.)
 *	else unsure. confidence = 1 - p of the winning test, 0 when unsure.
 *	clear = 1 when GOOD is at least REUSE_RATIO (2.5) times BAD and the
 *	candidate lies in the outer CLEAR_SIDE (fifth) of the span on its
 *	verdict's side: an answer that ends booted minutes ago may confirm.
 *	Exit 0 good, 1 bad, 3 unsure.
 *
 * ends (GOOD and BAD, >= 1 sample each): their medians, ratio = med_g /
 *	med_b, large = ratio >= LARGE_RATIO (2: the calibration may stop
 *	early), reuse = ratio >= REUSE_RATIO (2.5: a step may reuse recent
 *	ends), apart = every GOOD sample above every BAD one, rounds = the
 *	steps go in rounds: always, or with --rounds-below R (PB_ROUNDS_BELOW)
 *	when ratio < R; early = the calibration may stop at these samples:
 *	not rounds, large, apart, and --start N samples of a candidate
 *	against the fewer side's can reach a rank p below 0.05 (0 without
 *	--start); enough = that last condition alone (bisect.sh refuses a
 *	-n that can never reach it). Exit 0.
 *
 * effect (B relative to A, each >= 2 samples, all positive):
 *	ratio = med_b / med_a, delta_pct = 100 * (ratio - 1)
 *	p = two-sided Mann-Whitney p
 *	ci = Hodges-Lehmann (Moses) 1 - alpha interval of the shift of
 *	     log(B) - log(A), as percent; when the sizes cannot reach that
 *	     level it is the widest one, [min, max] of the pairwise ratios.
 *
 * paired (B relative to A, measured in rounds: A[i] and B[i] come from the
 * same round, i.e. the same stretch of the machine's time; >= 2 rounds):
 *	d[i] = ln B[i] - ln A[i], n rounds, mean and sd of d (n - 1)
 *	ratio = exp(mean d), delta_pct = 100 * (ratio - 1)
 *	ci = exp(mean d -+ t(1 - alpha/2, n - 1) * sd / sqrt(n)) - 1, percent
 *	p = two-sided one-sample t-test p of mean d = 0
 *	sd_pct = 100 * sd (the round-to-round noise of the ratio)
 *	separated = p < alpha && ci_high_pct < 0 && delta_pct < -min_effect
 *	(B is slower, and by more than min_effect, default 2, as estimated)
 *	not_slower = ci_low_pct > -min_effect (B is not slower by min_effect,
 *	with the interval's confidence: more rounds would not separate them)
 *	Pairing cancels the drift that moves both kernels of a round alike,
 *	which on this kind of machine is larger than the effects sought.
 *	With --tolerance T (validate -x): tol = beyond when ci_high_pct < -T
 *	(B slower by more than T), within when ci_low_pct >= -T (B not
 *	slower by T), else unsure; resolves_pct = (ci_high_pct -
 *	ci_low_pct) / 2, the tolerance these rounds could resolve.
 *
 * place (candidate C between the ends, measured in rounds: G[i], B[i] and
 * C[i] are the medians of one boot each in round i; >= 3 rounds):
 *	s[i] = 2 ln C[i] - ln G[i] - ln B[i] (> 0: C nearer GOOD, on a log
 *	       scale, than BAD in that round)
 *	p_ends = one-sided paired t p that ln G - ln B > 0
 *	p_near_good = one-sided t p that mean s > 0, p_near_bad that it is < 0
 *	pos = dec_mean(ln C - ln B) / dec_mean(ln G - ln B)
 *	bad:  p_ends < alpha && p_near_bad < alpha && pos < 0.35
 *	good: p_ends < alpha && p_near_good < alpha && pos > 0.65
 *	else unsure. Exit 0 good, 1 bad, 3 unsure. A small regression is
 *	within one boot's noise; pairing each candidate boot with end boots
 *	of the same round is what separates it, and asking which end it is
 *	nearer (not only whether it differs from the far end) keeps a
 *	candidate halfway from being called either. Steps used it before
 *	sprt; pbsim --rule place compares the two.
 *
 * sprt (candidate C between the ends, in rounds, sequentially: G[i], B[i]
 * and K (--cand-boots, default 1) values C[i][j] are boot medians of round
 * i, -c listing round by round; POOL_G, POOL_B: every pair of end boots
 * the bisect measured so far, this step's rounds included; POOL_C: every
 * round's pair of candidate boots so far, as C1 C2 C1 C2...):
 *	s[i] = mean_j ln C[i][j] - (ln G[i] + ln B[i]) / 2, +D/2 at GOOD's
 *	       level, -D/2 at BAD's, var = v (1/K + 1/2), v = one boot's
 *	       variance = var(ln G - ln B) / 2 = var(ln C1 - ln C2) / 2
 *	D, v unknown: the pool (>= 3 end pairs, its span above 0) and the
 *	rounds are one linear model with mean parameter D and variance v
 *	(end pairs: D, 2 v; candidate pairs: 0, 2 v; rounds: +-D/2, v (1/K
 *	+ 1/2)), fitted once with the rounds at +D/2 (good) and once at
 *	-D/2 (bad), RSS being each fit's weighted residual sum of squares
 *	llr = (pool + cand_pairs + n - 1) / 2 * ln(RSS_bad / RSS_good),
 *	      the log of the two hypotheses' likelihood ratio with D and v
 *	      integrated out (flat prior in D, 1 / v in v: decide.c)
 *	bound = ln((1 - alpha) / alpha)
 *	good: llr >= bound, bad: llr <= -bound (boots that agree exactly:
 *	the fit without residuals), unsure at once when the remaining rounds
 *	could not reach the bound (futility),
 *	else more (exit 4) while n < R, unsure (exit 3) at R.
 *	alpha (default 0.01) is the error each way of one step; it must be
 *	below 0.2. span_pct and sd_boot_pct are the pool's estimates of D
 *	and sqrt(v). Exit 0 good, 1 bad, 3 unsure, 4 more.
 *
 * search (a probabilistic bisection of the commits 0 = GOOD to N = BAD,
 * --commits N, over every round of the bisect: round i booted commit
 * AT[i] (1..N-1) K times beside G[i] and B[i]; the pool as for sprt;
 * SKIP: commits that did not build or boot, never asked for; SAME,
 * -z, 1..N: commits that cannot be the culprit, prior 0):
 *	the posterior of each culprit J in 1..N (flat prior): the model of
 *	sprt with round i at +D/2 when AT[i] < J, -D/2 otherwise, D and v
 *	integrated out (decide.c dec_search)
 *	bad (exit 1): culprit J holds p_culprit >= 1 - alpha (alpha
 *	default 0.005); else more (exit 4): boot query next, the commit
 *	where P(culprit <= query) = p_before is nearest to one half; unsure
 *	(exit 3) after budget = R (default 10) rounds for each halving of
 *	the culprits = the commits 1..N not in SAME (all of them when SAME
 *	holds every one), or with no commit left to boot.
 *
 * Deterministic mode (QEMU -icount: the guest clock counts instructions)
 * gives the same number on every boot of a kernel, up to a small boot-to-
 * boot spread. Its values are boot medians, one per boot, and its rules
 * compare levels, not distributions:
 *	spread_pct = the largest 100 * (max / min - 1) among the sides
 *	eps_pct = max(--eps, DET_EPS_SCALE * spread_pct, DET_EPS_FLOOR)
 *	(the tolerance: a boot of a kernel lies within eps of its level)
 *
 * detcmp (B relative to A, >= 1 boot median each):
 *	delta_pct = 100 * (med_b / med_a - 1), threshold = sqrt(med_a * med_b)
 *	slower: ln(med_a / med_b) > ln(1 + min_effect%) + ln(1 + eps%)
 *	        and > DET_SPAN_EPS * ln(1 + eps%) (room for a middle)
 *	within: ln(med_a / med_b) < ln(1 + min_effect%) - ln(1 + eps%)
 *	        (B is not slower than A by min_effect, whatever the spread)
 *	Exit 0 when slower, 1 when not.
 *
 * detplace (candidate C between the ends, >= 1 boot median each):
 *	d = ln med_c - (ln med_g + ln med_b) / 2, e = ln(1 + eps%)
 *	pos = (ln med_c - ln med_b) / (ln med_g - ln med_b)
 *	good: d > e, bad: d < -e, else unsure; the ends must be slower by
 *	more than DET_SPAN_EPS * e (detcmp's rule), or exit 2; when the
 *	candidate's own spread widens eps beyond that, unsure. With the ends
 *	that far apart a candidate within eps of either end is never unsure,
 *	and never on the other side. Exit 0 good, 1 bad, 3 unsure.
 *	--threshold T (bisect.sh -x): d = ln med_c - ln T instead, the same
 *	eps band around it, pos as above.
 *
 * level (the candidate's boot medians against a threshold the user gave,
 * one boot a round; decide.c): d = ln C - ln T, a two-sided one-sample
 * t-test of mean(d) = 0 after each boot from the third on, alpha (default
 * 0.01) the error each way over the R - 2 looks: a look decides at
 * p < 2 alpha / (R - 2); boots that agree exactly decide by their side.
 * good: mean(d) > 0, bad: mean(d) < 0. Exit 0 good, 1 bad, 4 one more
 * boot, 3 unsure after R boots (default 10), or before when twice the t
 * that R boots would give at this mean and sd falls short of the last
 * look's critical t (futile).
 *
 * Minimum sample sizes: a side of calibrate/judge needs 3 samples, and
 * the smallest possible one-sided p of each comparison, 1 / C(n1+n2, n1),
 * must be below alpha, or the command exits 2: at alpha 0.05, 3 vs 4
 * (1/35), 2 vs 5 (1/21) or 1 vs 20 (1/21) is the least; 3 vs 3 (1/20) is
 * not enough. Ties can only raise the p-value.
 *
 * Exit 2 with one line on stderr for any usage error: an unknown token,
 * a value that is not a plain decimal number, too few samples.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"

#define JUDGE_SIDE	DEC_JUDGE_SIDE
#define PROG		"pbstat"
#define EXIT_USAGE	2
#define EXIT_UNSURE	3
#define MAX_TOKEN	32
#define MAX_SAMPLES	1000
#define MAX_COMMITS	1000000	/* search: commits between GOOD and BAD */
#define EXACT_MAX	40	/* exact rank-sum distribution up to this N */
#define MAD_SCALE	1.4826	/* MAD to sd for normal data */
#define SPREAD_FLOOR	0.01	/* spread is at least 1% of the median */
#define DEF_ALPHA	0.05
#define DEF_MIN_EFFECT	2.0
#define DET_EPS_FLOOR	0.25	/* percent: deterministic boots agree this well */
#define DET_EPS_SCALE	1.5	/* eps is 1.5 times the widest spread seen */
#define DET_SPAN_EPS	4.0	/* the ends must be 4 eps apart */
#define LARGE_RATIO	2.0	/* GOOD this many times BAD: a large regression */
#define REUSE_RATIO	2.5	/* ... clear enough to reuse recent ends */
#define CLEAR_SIDE	0.2	/* the outer fifth of the span */

#define USAGE "usage: pbstat summary V... | calibrate -g G... -b B... " \
	"[--alpha A] [--min-effect PCT] | judge -g G... -b B... -c C... " \
	"[--alpha A] [--threshold T] | ends -g G... -b B... [--rounds-below R] [--start N] | effect -a A... -b B... [--alpha A] | " \
	"paired -a A... -b B... [--alpha A] [--min-effect PCT] [--tolerance PCT] | " \
	"place -g G... -b B... -c C... [--alpha A] | " \
	"sprt -g G... -b B... -c C... [-G G... -B B...] [-C C...] [--alpha A] " \
	"[--max-rounds R] [--cand-boots K] | " \
	"search --commits N [-a AT... -g G... -b B... -c C...] [-G G... -B B...] " \
	"[-C C...] [-s SKIP...] [-z SAME...] [--cand-boots K] [--alpha A] [--max-rounds R] | " \
	"detcmp -a A... -b B... [--min-effect PCT] [--eps PCT] | " \
	"detplace -g G... -b B... -c C... [--eps PCT] [--threshold T] | " \
	"level -c C... --threshold T [--alpha A] [--max-rounds R]"

struct list {
	char flag;		/* 'g', 'b', 'c', 'a', or 0 for summary */
	int n;
	double v[MAX_SAMPLES];
};

struct args {
	struct list g, b, c, a, vals, pool_g, pool_b, pool_c, skip, same;
	int max_rounds, cand_boots, commits;
	double alpha;
	double min_effect;
	double threshold;
	int have_threshold;
	double tolerance;
	int have_tolerance;
	double rounds_below;
	int start;
	double eps;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, PROG ": error: out of memory\n");
		exit(9);
	}
	return p;
}

/* Parse a plain decimal number: -?[0-9]+(\.[0-9]+)? and nothing else. */
static int parse_number(const char *s, double *out)
{
	const char *p = s;
	char *end;

	if (strlen(s) > MAX_TOKEN)
		return -1;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -1;
	*out = strtod(s, &end);
	if (*end || !isfinite(*out))
		return -1;
	return 0;
}

static double number_or_die(const char *what, const char *s)
{
	double x;

	if (parse_number(s, &x))
		die("%s: '%s' is not a plain decimal number", what, s);
	return x;
}

/* A whole number from MIN to MAX, the value of option WHAT, or exit 2. */
static int whole_or_die(const char *what, const char *s, int min, int max)
{
	double x = number_or_die(what, s);

	if (x < min || x > max || x != (int)x)
		die("%s: '%s' is not a whole number from %d to %d", what, s,
		    min, max);
	return (int)x;
}

static void list_add(struct list *l, const char *s)
{
	char what[8] = "value";

	if (l->flag)
		snprintf(what, sizeof(what), "-%c", l->flag);
	if (l->n >= MAX_SAMPLES)
		die("%s: more than %d samples", what, MAX_SAMPLES);
	l->v[l->n++] = number_or_die(what, s);
}

/* Match "--name VALUE" or "--name=VALUE"; return VALUE or NULL. */
static const char *opt_value(const char *name, int argc, char **argv, int *i)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, len))
		return NULL;
	if (a[len] == '=')
		return a + len + 1;
	if (a[len])
		return NULL;
	if (*i + 1 >= argc)
		die("%s needs a value", name);
	return argv[++*i];
}

static int is_negative_number(const char *s)
{
	return s[0] == '-' && s[1] >= '0' && s[1] <= '9';
}

/* Parse the arguments of CMD; LISTS holds the list flags it takes. */
static void parse_args(const char *cmd, const char *lists, int argc,
		       char **argv, struct args *a)
{
	struct list *cur = NULL;
	const char *v;
	int i;

	a->alpha = DEF_ALPHA;
	a->min_effect = DEF_MIN_EFFECT;
	a->g.flag = 'g';
	a->b.flag = 'b';
	a->c.flag = 'c';
	a->a.flag = 'a';
	a->pool_g.flag = 'G';
	a->pool_b.flag = 'B';
	a->pool_c.flag = 'C';
	a->skip.flag = 's';
	a->same.flag = 'z';
	if (!strcmp(cmd, "sprt") || !strcmp(cmd, "level"))
		a->alpha = DEC_SPRT_ALPHA;
	if (!strcmp(cmd, "search"))
		a->alpha = DEC_SEARCH_ALPHA;
	a->max_rounds = strcmp(cmd, "level") && strcmp(cmd, "search") ? 6 : 10;
	a->cand_boots = 1;
	if (!*lists)
		cur = &a->vals;
	for (i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (s[0] != '-' || is_negative_number(s)) {
			if (!cur)
				die("%s: unexpected value '%s'", cmd, s);
			list_add(cur, s);
			continue;
		}
		if (*lists && s[1] && !s[2] && strchr(lists, s[1])) {
			switch (s[1]) {
			case 'g':
				cur = &a->g;
				break;
			case 'b':
				cur = &a->b;
				break;
			case 'c':
				cur = &a->c;
				break;
			case 'G':
				cur = &a->pool_g;
				break;
			case 'B':
				cur = &a->pool_b;
				break;
			case 'C':
				cur = &a->pool_c;
				break;
			case 's':
				cur = &a->skip;
				break;
			case 'z':
				cur = &a->same;
				break;
			default:
				cur = &a->a;
				break;
			}
			continue;
		}
		if (*lists) {
			v = opt_value("--alpha", argc, argv, &i);
			if (v) {
				a->alpha = number_or_die("--alpha", v);
				if (a->alpha <= 0 || a->alpha >= 1)
					die("--alpha: '%s' is not in (0, 1)",
					    v);
				cur = NULL;
				continue;
			}
		}
		if (!strncmp(cmd, "det", 3)) {
			v = opt_value("--eps", argc, argv, &i);
			if (v) {
				a->eps = number_or_die("--eps", v);
				if (a->eps < 0 || a->eps >= 100)
					die("--eps: '%s' is not in [0, 100)", v);
				cur = NULL;
				continue;
			}
		}
		if (!strcmp(cmd, "sprt") || !strcmp(cmd, "level") ||
		    !strcmp(cmd, "search")) {
			v = opt_value("--max-rounds", argc, argv, &i);
			if (v) {
				a->max_rounds = whole_or_die("--max-rounds", v, 1, 100);
				cur = NULL;
				continue;
			}
			v = strcmp(cmd, "search") ? NULL :
				opt_value("--commits", argc, argv, &i);
			if (v) {
				a->commits = whole_or_die("--commits", v, 2, MAX_COMMITS);
				cur = NULL;
				continue;
			}
			v = !strcmp(cmd, "level") ? NULL :
				opt_value("--cand-boots", argc, argv, &i);
			if (v) {
				a->cand_boots = whole_or_die("--cand-boots", v, 1, 4);
				cur = NULL;
				continue;
			}
		}
		if (!strcmp(cmd, "calibrate") || !strcmp(cmd, "detcmp") ||
		    !strcmp(cmd, "paired")) {
			v = opt_value("--min-effect", argc, argv, &i);
			if (v) {
				a->min_effect = number_or_die("--min-effect",
							      v);
				if (a->min_effect < 0)
					die("--min-effect: '%s' is negative",
					    v);
				cur = NULL;
				continue;
			}
		}
		v = strcmp(cmd, "ends") ? NULL :
			opt_value("--rounds-below", argc, argv, &i);
		if (v) {
			a->rounds_below = number_or_die("--rounds-below", v);
			if (a->rounds_below <= 0)
				die("--rounds-below: '%s' is not positive", v);
			cur = NULL;
			continue;
		}
		v = strcmp(cmd, "ends") ? NULL :
			opt_value("--start", argc, argv, &i);
		if (v) {
			a->start = whole_or_die("--start", v, 1, MAX_SAMPLES);
			cur = NULL;
			continue;
		}
		v = strcmp(cmd, "paired") ? NULL :
			opt_value("--tolerance", argc, argv, &i);
		if (v) {
			a->tolerance = number_or_die("--tolerance", v);
			if (a->tolerance < 0 || a->tolerance >= 100)
				die("--tolerance: '%s' is not in [0, 100)", v);
			a->have_tolerance = 1;
			cur = NULL;
			continue;
		}
		if (!strcmp(cmd, "judge") || !strcmp(cmd, "level") ||
		    !strcmp(cmd, "detplace")) {
			v = opt_value("--threshold", argc, argv, &i);
			if (v) {
				a->threshold = number_or_die("--threshold", v);
				if (a->threshold <= 0)
					die("--threshold: '%s' is not positive",
					    v);
				a->have_threshold = 1;
				cur = NULL;
				continue;
			}
		}
		die("%s: unknown option '%s'", cmd, s);
	}
}

/* Require at least MIN samples in L, all of them positive. */
static void need(const struct list *l, int min)
{
	int i;

	if (l->n < min)
		die("-%c: %d sample%s, at least %d required", l->flag, l->n,
		    l->n == 1 ? "" : "s", min);
	for (i = 0; i < l->n; i++)
		if (l->v[i] <= 0)
			die("-%c: '%g' is not a positive throughput", l->flag,
			    l->v[i]);
}

/*
 * Format X with DEC decimals, trailing zeros dropped, never "-0", into one
 * of FMT_SLOTS static buffers (enough for one output line).
 */
#define FMT_SLOTS	8
#define FMT_SIZE	48

static const char *fmt(double x, int dec)
{
	static char slots[FMT_SLOTS][FMT_SIZE];
	static int next;
	char *buf = slots[next++ % FMT_SLOTS], *p;
	size_t size = FMT_SIZE;

	snprintf(buf, size, "%.*f", dec, x);
	if (strchr(buf, '.')) {
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
	}
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	return buf;
}

#define F(x)	fmt((x), 4)		/* a value */
#define FP(x)	fmt((x), 6)		/* a probability */
#define FPCT(x)	fmt((x), 3)		/* a percentage */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double *s = xcalloc(n, sizeof(*s));
	double m;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static double mad(const double *v, int n)
{
	double *d = xcalloc(n, sizeof(*d));
	double m = median(v, n), r;
	int i;

	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - m);
	r = median(d, n);
	free(d);
	return r;
}

static double vmin(const double *v, int n)
{
	double m = v[0];
	int i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

static double vmax(const double *v, int n)
{
	double m = v[0];
	int i;

	for (i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

/* Robust spread of a side: scaled MAD, at least SPREAD_FLOOR of the median. */
static double spread(const double *v, int n)
{
	double s = MAD_SCALE * mad(v, n);
	double floor = SPREAD_FLOOR * fabs(median(v, n));

	return s > floor ? s : floor;
}

static double norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* 1 / C(n1 + n2, n1): the smallest one-sided rank-test p without ties. */
static double min_p(int n1, int n2)
{
	double c = 1;
	int i;

	for (i = 1; i <= n1; i++)
		c = c * (n2 + i) / i;
	return 1 / c;
}

struct obs {
	double v;
	int x;			/* 1 when the value belongs to X */
};

static int cmp_obs(const void *a, const void *b)
{
	return cmp_double(&((const struct obs *)a)->v,
			  &((const struct obs *)b)->v);
}

/*
 * Distribution of S, the sum of K of the doubled ranks R2[0..N-1] with all
 * C(N, K) subsets equally likely: returns P(S <= s) for s = 0..*SMAX.
 * The counts stay exact in a double up to C(40, 20).
 */
static double *rank_sum_cdf(const int *r2, int n, int k, int *smax_out)
{
	int smax = 0, i, j, s;
	double *dp, *cdf, tot = 0, acc = 0;

	for (i = 0; i < n; i++)
		smax += r2[i];
	dp = xcalloc((size_t)(k + 1) * (smax + 1), sizeof(*dp));
	cdf = xcalloc(smax + 1, sizeof(*cdf));
	dp[0] = 1;
	for (i = 0; i < n; i++)
		for (j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (s = smax - r2[i]; s >= 0; s--)
				dp[j * (smax + 1) + s + r2[i]] +=
					dp[(j - 1) * (smax + 1) + s];
	for (s = 0; s <= smax; s++)
		tot += dp[k * (smax + 1) + s];
	for (s = 0; s <= smax; s++) {
		acc += dp[k * (smax + 1) + s];
		cdf[s] = acc / tot;
	}
	free(dp);
	*smax_out = smax;
	return cdf;
}

static double exact_lower(const int *r2, int n, int k, int s2)
{
	int smax;
	double *cdf = rank_sum_cdf(r2, n, k, &smax);
	double p = s2 < 0 ? 0 : cdf[s2 < smax ? s2 : smax];

	free(cdf);
	return p;
}

/*
 * One-sided Mann-Whitney p-value that X is stochastically smaller than Y:
 * the probability under H0 of a rank sum of X at most the observed one.
 */
static double mw_lower(const double *x, int nx, const double *y, int ny)
{
	int n = nx + ny, i, j, r2x = 0;
	struct obs *o = xcalloc(n, sizeof(*o));
	int *r2 = xcalloc(n, sizeof(*r2));
	double ties = 0, u, mu, var, p;

	for (i = 0; i < nx; i++)
		o[i] = (struct obs){ x[i], 1 };
	for (i = 0; i < ny; i++)
		o[nx + i] = (struct obs){ y[i], 0 };
	qsort(o, n, sizeof(*o), cmp_obs);
	for (i = 0; i < n; i = j) {
		double t;
		int q;

		for (j = i + 1; j < n && o[j].v == o[i].v; j++)
			;
		/* positions i+1..j share the midrank (i+1+j)/2 */
		for (q = i; q < j; q++)
			r2[q] = i + 1 + j;
		t = j - i;
		ties += t * t * t - t;
	}
	for (i = 0; i < n; i++)
		if (o[i].x)
			r2x += r2[i];
	u = r2x / 2.0 - nx * (nx + 1) / 2.0;
	if (n <= EXACT_MAX) {
		p = exact_lower(r2, n, nx, r2x);
	} else {
		mu = nx * (double)ny / 2;
		var = nx * (double)ny / 12 *
		      ((n + 1) - ties / ((double)n * (n - 1)));
		p = var > 0 ? norm_cdf((u - mu + 0.5) / sqrt(var)) : 1;
	}
	free(o);
	free(r2);
	return p > 1 ? 1 : p;
}

/* Reject sizes with which no outcome could reach ALPHA. */
static void need_reachable(const struct list *a, const struct list *b,
			   double alpha)
{
	double p = min_p(a->n, b->n);

	if (p >= alpha)
		die("-%c/-%c: %d vs %d samples cannot reach p < %g (best %g)",
		    a->flag, b->flag, a->n, b->n, alpha, p);
}

struct calib {
	double med_g, med_b, threshold, noise_pct, effect_pct, p;
	int separated;
};

static void calibrate(const struct args *a, struct calib *c)
{
	const struct list *g = &a->g, *b = &a->b;
	double s_g = spread(g->v, g->n), s_b = spread(b->v, b->n);
	int apart;

	c->med_g = median(g->v, g->n);
	c->med_b = median(b->v, b->n);
	if (s_g + s_b > 0)
		c->threshold = (c->med_g * s_b + c->med_b * s_g) / (s_g + s_b);
	else
		c->threshold = (c->med_g + c->med_b) / 2;
	c->noise_pct = 100 * fmax(s_g / c->med_g, s_b / c->med_b);
	c->effect_pct = 100 * (c->med_g - c->med_b) / c->med_g;
	c->p = mw_lower(b->v, b->n, g->v, g->n);
	apart = vmax(b->v, b->n) < vmin(g->v, g->n) ||
		c->effect_pct > 2 * c->noise_pct;
	c->separated = c->p < a->alpha && apart &&
		       c->effect_pct >= a->min_effect;
}

static int cmd_summary(struct args *a)
{
	const struct list *l = &a->vals;
	double m;

	if (l->n < 1)
		die("summary: no values");
	m = dec_mean(l->v, l->n);
	printf("n=%d median=%s mean=%s sd=%s cv_pct=%s min=%s max=%s mad=%s\n",
	       l->n, F(median(l->v, l->n)), F(m), F(dec_sd(l->v, l->n)),
	       FPCT(m != 0 ? 100 * dec_sd(l->v, l->n) / fabs(m) : 0),
	       F(vmin(l->v, l->n)), F(vmax(l->v, l->n)), F(mad(l->v, l->n)));
	return 0;
}

static int cmd_calibrate(struct args *a)
{
	struct calib c;

	need(&a->g, 3);
	need(&a->b, 3);
	need_reachable(&a->g, &a->b, a->alpha);
	calibrate(a, &c);
	printf("good_median=%s bad_median=%s threshold=%s noise_pct=%s effect_pct=%s p=%s separated=%d\n",
	       F(c.med_g), F(c.med_b), F(c.threshold), FPCT(c.noise_pct),
	       FPCT(c.effect_pct), FP(c.p), c.separated);
	return c.separated ? 0 : 1;
}

static int cmd_judge(struct args *a)
{
	const struct list *c = &a->c;
	struct calib cal;
	double p_good, p_bad, med, t, pos, conf = 0;
	const char *verdict = "unsure";
	int lo_ok, hi_ok;
	int rc = EXIT_UNSURE;

	need(&a->g, 3);
	need(&a->b, 3);
	need(c, 1);
	need_reachable(c, &a->g, a->alpha);
	need_reachable(c, &a->b, a->alpha);
	calibrate(a, &cal);
	t = a->have_threshold ? a->threshold : cal.threshold;
	med = median(c->v, c->n);
	p_good = mw_lower(c->v, c->n, a->g.v, a->g.n);
	p_bad = mw_lower(a->b.v, a->b.n, c->v, c->n);
	/*
	 * Where the candidate's median lies between the ends, on a log scale
	 * (0 at BAD, 1 at GOOD). The machine drifts by tens of percent even
	 * between adjacent boots, so a candidate is not required to look like
	 * the near end: it must be significantly different from the far end
	 * and lie in the outer part of the span; the middle stays unsure.
	 * With a threshold given by the user, that threshold splits instead.
	 */
	pos = (log(med) - log(cal.med_b)) / (log(cal.med_g) - log(cal.med_b));
	lo_ok = a->have_threshold ? med < t : pos < JUDGE_SIDE;
	hi_ok = a->have_threshold ? med > t : pos > 1 - JUDGE_SIDE;
	if (p_good < a->alpha && lo_ok) {
		verdict = "bad";
		rc = 1;
		conf = 1 - p_good;
	} else if (p_bad < a->alpha && hi_ok) {
		verdict = "good";
		rc = 0;
		conf = 1 - p_bad;
	}
	/*
	 * clear: an answer that ends booted minutes ago may confirm (step.sh,
	 * PB_ENDS_MAX_AGE): GOOD at least REUSE_RATIO times BAD and the
	 * candidate in the outer CLEAR_SIDE of the span on its verdict's side.
	 */
	printf("verdict=%s median=%s p_good=%s p_bad=%s threshold=%s confidence=%s pos=%s clear=%d\n",
	       verdict, F(med), FP(p_good), FP(p_bad), F(t), FP(conf), F(pos),
	       cal.med_g >= REUSE_RATIO * cal.med_b &&
	       ((rc == 0 && pos >= 1 - CLEAR_SIDE) || (rc == 1 && pos <= CLEAR_SIDE)));
	return rc;
}

/* The ends' medians, their ratio and the rules that rest on it. */
static int cmd_ends(struct args *a)
{
	double mg, mb;
	int large, apart, rounds, fewest, enough;

	need(&a->g, 1);
	need(&a->b, 1);
	mg = median(a->g.v, a->g.n);
	mb = median(a->b.v, a->b.n);
	large = mg >= LARGE_RATIO * mb;
	apart = vmax(a->b.v, a->b.n) < vmin(a->g.v, a->g.n);
	rounds = !a->rounds_below || mg < a->rounds_below * mb;
	fewest = a->g.n < a->b.n ? a->g.n : a->b.n;
	enough = a->start && min_p(a->start, fewest) < DEF_ALPHA;
	printf("good_median=%s bad_median=%s ratio=%s large=%d reuse=%d apart=%d rounds=%d early=%d enough=%d\n",
	       F(mg), F(mb), F(mg / mb), large, mg >= REUSE_RATIO * mb,
	       apart, rounds, !rounds && large && apart && enough, enough);
	return 0;
}

/*
 * Moses confidence interval of the Hodges-Lehmann shift: the largest k
 * (at least 1) with P(U <= k - 1) <= ALPHA / 2 for U the Mann-Whitney
 * statistic of sizes N1, N2 without ties; the interval is the k-th
 * smallest to the k-th largest of the N1 * N2 pairwise differences.
 */
static long moses_k(int n1, int n2, double alpha)
{
	int n = n1 + n2, i, *r2, smax, base = n1 * (n1 + 1);
	long m = (long)n1 * n2, k;
	double *cdf = NULL, sigma = sqrt((double)m * (n + 1) / 12), p;

	if (n <= EXACT_MAX) {
		r2 = xcalloc(n, sizeof(*r2));
		for (i = 0; i < n; i++)
			r2[i] = 2 * (i + 1);
		cdf = rank_sum_cdf(r2, n, n1, &smax);
		free(r2);
	}
	for (k = 1; 2 * (k + 1) <= m + 1; k++) {
		/* P(U <= k): U = R - n1(n1+1)/2, doubled sum 2k + base */
		if (cdf)
			p = cdf[2 * k + base];
		else
			p = norm_cdf((k + 0.5 - m / 2.0) / sigma);
		if (p > alpha / 2)
			break;
	}
	free(cdf);
	return k;
}

static int cmd_effect(struct args *a)
{
	const struct list *x = &a->a, *y = &a->b;
	long m, k, i, j;
	double *d, med_a, med_b, lo, hi, p;

	need(x, 2);
	need(y, 2);
	m = (long)x->n * y->n;
	d = xcalloc(m, sizeof(*d));
	med_a = median(x->v, x->n);
	med_b = median(y->v, y->n);
	p = 2 * fmin(mw_lower(y->v, y->n, x->v, x->n),
		     mw_lower(x->v, x->n, y->v, y->n));
	for (i = 0; i < x->n; i++)
		for (j = 0; j < y->n; j++)
			d[i * y->n + j] = log(y->v[j]) - log(x->v[i]);
	qsort(d, m, sizeof(*d), cmp_double);
	k = moses_k(x->n, y->n, a->alpha);
	lo = d[k - 1];
	hi = d[m - k];
	printf("ratio=%s delta_pct=%s p=%s ci_low_pct=%s ci_high_pct=%s\n",
	       FP(med_b / med_a), FPCT(100 * (med_b / med_a - 1)),
	       FP(p > 1 ? 1 : p), FPCT(100 * expm1(lo)), FPCT(100 * expm1(hi)));
	free(d);
	return 0;
}

static int cmd_paired(struct args *a)
{
	const struct list *x = &a->a, *y = &a->b;
	struct dec_paired p;

	need(x, 2);
	need(y, 2);
	if (x->n != y->n)
		die("paired: -a has %d values, -b %d: one of each per round",
		    x->n, y->n);
	dec_paired(x->v, y->v, x->n, a->alpha, &p);
	printf("n=%d ratio=%s delta_pct=%s p=%s ci_low_pct=%s ci_high_pct=%s sd_pct=%s separated=%d not_slower=%d",
	       p.n, FP(exp(p.mean)), FPCT(100 * expm1(p.mean)), FP(p.p),
	       FPCT(100 * expm1(p.lo)), FPCT(100 * expm1(p.hi)),
	       FPCT(100 * p.sd), dec_separated(&p, a->alpha, a->min_effect),
	       dec_not_slower(&p, a->min_effect));
	if (a->have_tolerance) {
		int v = dec_tolerance(&p, a->tolerance);

		printf(" tol_pct=%s tol=%s resolves_pct=%s", FPCT(a->tolerance),
		       v == DEC_BAD ? "beyond" : v == DEC_GOOD ? "within" : "unsure",
		       FPCT(50 * (expm1(p.hi) - expm1(p.lo))));
	}
	putchar('\n');
	return 0;
}

static const char *verdict_name(int v)
{
	switch (v) {
	case DEC_GOOD:
		return "good";
	case DEC_BAD:
		return "bad";
	case DEC_MORE:
		return "more";
	default:
		return "unsure";
	}
}

static int cmd_place(struct args *a)
{
	const struct list *g = &a->g, *b = &a->b, *c = &a->c;
	struct dec_place p;
	int rc;

	need(g, DEC_PLACE_MIN);
	need(b, DEC_PLACE_MIN);
	need(c, DEC_PLACE_MIN);
	if (b->n != g->n || c->n != g->n)
		die("place: -g has %d values, -b %d, -c %d: one of each per round",
		    g->n, b->n, c->n);
	rc = dec_place(g->v, b->v, c->v, g->n, a->alpha, &p);
	printf("verdict=%s n=%d pos=%s p_ends=%s p_near_good=%s p_near_bad=%s span_pct=%s\n",
	       verdict_name(rc), p.n, F(p.pos), FP(p.p_ends),
	       FP(p.p_near_good), FP(p.p_near_bad), FPCT(100 * expm1(p.span)));
	return rc;
}

static int cmd_sprt(struct args *a)
{
	const struct list *g = &a->g, *b = &a->b, *c = &a->c;
	const struct list *pg = &a->pool_g, *pb = &a->pool_b, *pc = &a->pool_c;
	struct dec_pool pool;
	struct dec_sprt q;
	double *c1, *c2;
	int rc, i;

	need(g, 1);
	need(b, 1);
	need(c, 1);
	need(pg, 0);
	need(pb, 0);
	need(pc, 0);
	if (b->n != g->n || c->n != g->n * a->cand_boots)
		die("sprt: -g has %d values, -b %d, -c %d: one GOOD and one BAD per round, and %d of the candidate",
		    g->n, b->n, c->n, a->cand_boots);
	if (pg->n != pb->n)
		die("sprt: -G has %d values, -B %d: one pair of end boots per round",
		    pg->n, pb->n);
	if (pc->n % 2)
		die("sprt: -C has %d values: pairs of boots of one candidate in one round",
		    pc->n);
	if (a->max_rounds < 1)
		die("sprt: --max-rounds is a whole number of rounds, at least 1");
	if (a->alpha >= 0.2)
		die("sprt: --alpha must be below 0.2");
	c1 = calloc(pc->n / 2 + 1, sizeof(*c1));
	c2 = calloc(pc->n / 2 + 1, sizeof(*c2));
	if (!c1 || !c2)
		die("out of memory");
	for (i = 0; i < pc->n / 2; i++) {
		c1[i] = pc->v[2 * i];
		c2[i] = pc->v[2 * i + 1];
	}
	pool.g = pg->v;
	pool.b = pb->v;
	pool.c1 = c1;
	pool.c2 = c2;
	pool.m = pg->n;
	pool.mc = pc->n / 2;
	rc = dec_sprt(&pool, g->v, b->v, c->v, g->n, a->cand_boots, a->alpha,
		      a->max_rounds, &q);
	printf("verdict=%s n=%d k=%d pool=%d cand_pairs=%d pos=%s llr=%s bound=%s span_pct=%s sd_boot_pct=%s\n",
	       verdict_name(rc), q.n, q.k, q.m, q.mc, F(q.pos), F(q.llr),
	       F(q.upper), FPCT(100 * expm1(q.span)), FPCT(100 * q.sd_boot));
	free(c1);
	free(c2);
	return rc;
}

/*
 * The integer positions of list L, each from LO to HI: commits of a
 * search.
 */
static int *positions_or_die(const struct list *l, int lo, int hi)
{
	int *p = calloc(l->n + 1, sizeof(*p)), i;

	if (!p)
		die("out of memory");
	for (i = 0; i < l->n; i++) {
		if (l->v[i] != floor(l->v[i]) || l->v[i] < lo || l->v[i] > hi)
			die("-%c: '%g' is not a commit from %d to %d", l->flag,
			    l->v[i], lo, hi);
		p[i] = (int)l->v[i];
	}
	return p;
}

static int cmd_search(struct args *a)
{
	const struct list *g = &a->g, *b = &a->b, *c = &a->c, *at = &a->a;
	const struct list *pg = &a->pool_g, *pb = &a->pool_b, *pc = &a->pool_c;
	struct dec_pool pool;
	struct dec_search q;
	struct dec_line line;
	double *c1, *c2, *sv, span = 0, ss = 0, d;
	int *pos, *skip, *same, rc, i, k = a->cand_boots;

	if (!a->commits)
		die("search: --commits N (the commits from GOOD, 0, to BAD, N) is required");
	need(g, 0);
	need(b, 0);
	need(c, 0);
	need(pg, 0);
	need(pb, 0);
	need(pc, 0);
	if (b->n != g->n || at->n != g->n || c->n != g->n * k)
		die("search: -a has %d values, -g %d, -b %d, -c %d: a commit, one GOOD and one BAD per round, and %d of the candidate",
		    at->n, g->n, b->n, c->n, k);
	if (pg->n != pb->n)
		die("search: -G has %d values, -B %d: one pair of end boots per round",
		    pg->n, pb->n);
	if (pc->n % 2)
		die("search: -C has %d values: pairs of boots of one candidate in one round",
		    pc->n);
	if (a->alpha >= 0.2)
		die("search: --alpha must be below 0.2");
	pos = positions_or_die(at, 1, a->commits - 1);
	skip = positions_or_die(&a->skip, 1, a->commits - 1);
	same = positions_or_die(&a->same, 1, a->commits);
	line.skip = skip;
	line.nskip = a->skip.n;
	line.same = same;
	line.nsame = a->same.n;
	c1 = calloc(pc->n / 2 + 1, sizeof(*c1));
	c2 = calloc(pc->n / 2 + 1, sizeof(*c2));
	sv = calloc(g->n + 1, sizeof(*sv));
	if (!c1 || !c2 || !sv)
		die("out of memory");
	for (i = 0; i < pc->n / 2; i++) {
		c1[i] = pc->v[2 * i];
		c2[i] = pc->v[2 * i + 1];
	}
	for (i = 0; i < g->n; i++)
		sv[i] = dec_round_s(g->v[i], b->v[i], c->v + i * k, k);
	pool.g = pg->v;
	pool.b = pb->v;
	pool.c1 = c1;
	pool.c2 = c2;
	pool.m = pg->n;
	pool.mc = pc->n / 2;
	rc = dec_search(&pool, pos, sv, g->n, k, a->commits, &line, a->alpha,
			a->max_rounds, &q);
	for (i = 0; i < pg->n; i++)
		span += (log(pg->v[i]) - log(pb->v[i])) / pg->n;
	for (i = 0; i < pg->n; i++) {
		d = log(pg->v[i]) - log(pb->v[i]) - span;
		ss += d * d;
	}
	for (i = 0; i < pool.mc; i++) {
		d = log(c1[i]) - log(c2[i]);
		ss += d * d;
	}
	d = pg->n - 1 + pool.mc > 0 ? sqrt(ss / (pg->n - 1 + pool.mc) / 2) : 0;
	printf("verdict=%s n=%d budget=%d culprit=%d p_culprit=%s query=%d p_before=%s culprits=%d pool=%d cand_pairs=%d span_pct=%s sd_boot_pct=%s\n",
	       verdict_name(rc), q.n, q.budget, q.culprit, FP(q.p_culprit),
	       q.query, FP(q.p_before), q.culprits, pool.m, pool.mc,
	       FPCT(100 * expm1(span)), FPCT(100 * d));
	free(pos);
	free(skip);
	free(same);
	free(c1);
	free(c2);
	free(sv);
	return rc;
}

static int cmd_level(struct args *a)
{
	struct dec_level q;
	int rc;

	need(&a->c, 1);
	if (!a->have_threshold)
		die("level: --threshold T is required");
	if (a->alpha >= 0.2)
		die("level: --alpha must be below 0.2");
	if (a->max_rounds < DEC_LEVEL_MIN)
		die("level: --max-rounds must be at least %d", DEC_LEVEL_MIN);
	rc = dec_level(a->c.v, a->c.n, a->threshold, a->alpha, a->max_rounds,
		       &q);
	printf("verdict=%s n=%d median=%s threshold=%s mean_pct=%s sd_pct=%s t=%s p=%s p_look=%s looks=%d\n",
	       verdict_name(rc), q.n, F(median(a->c.v, a->c.n)),
	       F(a->threshold), FPCT(100 * expm1(q.mean)), FPCT(100 * q.sd),
	       F(q.t), FP(q.p), FP(q.p_look), q.looks);
	return rc;
}

/* The widest boot-to-boot spread of L, as 100 * (max / min - 1). */
static double level_spread(const struct list *l)
{
	return 100 * (vmax(l->v, l->n) / vmin(l->v, l->n) - 1);
}

/* The tolerance of deterministic boots, in percent (see the top). */
static double det_eps(const struct args *a, const struct list *x,
		      const struct list *y, double *spread_pct)
{
	double s = fmax(level_spread(x), level_spread(y));

	*spread_pct = s;
	return fmax(fmax(a->eps, DET_EPS_SCALE * s), DET_EPS_FLOOR);
}

static int cmd_detcmp(struct args *a)
{
	const struct list *x = &a->a, *y = &a->b;
	double s, eps, ma, mb, gap, e, m;
	int slower, within;

	need(x, 1);
	need(y, 1);
	eps = det_eps(a, x, y, &s);
	ma = median(x->v, x->n);
	mb = median(y->v, y->n);
	gap = log(ma / mb);
	e = log1p(eps / 100);
	m = log1p(a->min_effect / 100);
	slower = gap > m + e && gap > DET_SPAN_EPS * e;
	within = gap < m - e;
	printf("n_a=%d n_b=%d median_a=%s median_b=%s delta_pct=%s spread_pct=%s eps_pct=%s min_effect=%s threshold=%s slower=%d within=%d\n",
	       x->n, y->n, F(ma), F(mb), FPCT(100 * expm1(-gap)), FPCT(s),
	       FPCT(eps), FPCT(a->min_effect), F(sqrt(ma * mb)), slower,
	       within);
	return slower ? 0 : 1;
}

static int cmd_detplace(struct args *a)
{
	const struct list *g = &a->g, *b = &a->b, *c = &a->c;
	double s, sc, eps, lg, lb, lc, e, d, pos;
	const char *verdict = "unsure";
	int rc = EXIT_UNSURE;

	need(g, 1);
	need(b, 1);
	need(c, 1);
	eps = det_eps(a, g, b, &s);
	lg = log(median(g->v, g->n));
	lb = log(median(b->v, b->n));
	lc = log(median(c->v, c->n));
	e = log1p(eps / 100);
	if (lg - lb <= DET_SPAN_EPS * e)
		die("detplace: the ends differ by %s%%, not more than %g times eps (%s%%)",
		    FPCT(100 * expm1(lg - lb)), DET_SPAN_EPS, FPCT(eps));
	/* A candidate whose own boots disagree widens eps: maybe unsure. */
	sc = level_spread(c);
	eps = fmax(eps, DET_EPS_SCALE * sc);
	e = log1p(eps / 100);
	d = lc - (a->have_threshold ? log(a->threshold) : (lg + lb) / 2);
	pos = (lc - lb) / (lg - lb);
	if (lg - lb <= DET_SPAN_EPS * e)
		;	/* unsure */
	else if (d > e) {
		verdict = "good";
		rc = 0;
	} else if (d < -e) {
		verdict = "bad";
		rc = 1;
	}
	printf("verdict=%s median=%s pos=%s eps_pct=%s spread_pct=%s span_pct=%s",
	       verdict, F(exp(lc)), F(pos), FPCT(eps), FPCT(fmax(s, sc)),
	       FPCT(100 * expm1(lg - lb)));
	if (a->have_threshold)
		printf(" threshold=%s", F(a->threshold));
	putchar('\n');
	return rc;
}

static struct args args;

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		die(USAGE);
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		puts(USAGE);
		return 0;
	}
	if (!strcmp(cmd, "summary")) {
		parse_args(cmd, "", argc - 2, argv + 2, &args);
		return cmd_summary(&args);
	}
	if (!strcmp(cmd, "calibrate")) {
		parse_args(cmd, "gb", argc - 2, argv + 2, &args);
		return cmd_calibrate(&args);
	}
	if (!strcmp(cmd, "judge")) {
		parse_args(cmd, "gbc", argc - 2, argv + 2, &args);
		return cmd_judge(&args);
	}
	if (!strcmp(cmd, "ends")) {
		parse_args(cmd, "gb", argc - 2, argv + 2, &args);
		return cmd_ends(&args);
	}
	if (!strcmp(cmd, "effect")) {
		parse_args(cmd, "ab", argc - 2, argv + 2, &args);
		return cmd_effect(&args);
	}
	if (!strcmp(cmd, "paired")) {
		parse_args(cmd, "ab", argc - 2, argv + 2, &args);
		return cmd_paired(&args);
	}
	if (!strcmp(cmd, "place")) {
		parse_args(cmd, "gbc", argc - 2, argv + 2, &args);
		return cmd_place(&args);
	}
	if (!strcmp(cmd, "sprt")) {
		parse_args(cmd, "gbcGBC", argc - 2, argv + 2, &args);
		return cmd_sprt(&args);
	}
	if (!strcmp(cmd, "search")) {
		parse_args(cmd, "agbcGBCsz", argc - 2, argv + 2, &args);
		return cmd_search(&args);
	}
	if (!strcmp(cmd, "detcmp")) {
		parse_args(cmd, "ab", argc - 2, argv + 2, &args);
		return cmd_detcmp(&args);
	}
	if (!strcmp(cmd, "detplace")) {
		parse_args(cmd, "gbc", argc - 2, argv + 2, &args);
		return cmd_detplace(&args);
	}
	if (!strcmp(cmd, "level")) {
		parse_args(cmd, "c", argc - 2, argv + 2, &args);
		return cmd_level(&args);
	}
	die("unknown command '%s' (summary, calibrate, judge, ends, effect, paired, place, sprt, search, detcmp, detplace, level)",
	    cmd);
	return EXIT_USAGE;
}
