/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decision rules of perfbisect's rounds, shared by pbstat
 * (which step.sh and bisect.sh run) and pbsim (which simulates whole
 * bisects with them). Values are boot medians in jobs/min; every rule
 * works on their logarithms.
 */
#ifndef DECIDE_H
#define DECIDE_H

enum dec_verdict {
	DEC_GOOD = 0,
	DEC_BAD = 1,
	DEC_UNSURE = 3,		/* no answer, and no more rounds */
	DEC_MORE = 4,		/* no answer yet: measure another round */
};

/* Place rule (fixed sample, t-tests), see pbstat.c. */
#define DEC_JUDGE_SIDE		0.35
#define DEC_PLACE_MIN		3

/* Sequential rule: error rates of one step, and its smallest round count. */
#define DEC_SPRT_ALPHA		0.01
#define DEC_SPRT_MIN_POOL	3	/* end pairs needed to estimate span, sd */
#define DEC_SPRT_FUTILITY	2	/* unsure when twice the expected falls short */

double dec_mean(const double *v, int n);
double dec_sd(const double *v, int n);
double dec_t_two_sided(double t, double df);
double dec_t_quantile(double p, double df);

struct dec_place {
	int n;
	double pos, p_ends, p_near_good, p_near_bad, span;
};

int dec_place(const double *g, const double *b, const double *c, int n,
	      double alpha, struct dec_place *o);

struct dec_paired {
	int n;
	double mean, sd, p, lo, hi;	/* of ln B - ln A, hi and lo: the CI */
};

void dec_paired(const double *a, const double *b, int n, double alpha,
		struct dec_paired *o);
int dec_separated(const struct dec_paired *o, double alpha,
		  double min_effect_pct);
int dec_not_slower(const struct dec_paired *o, double min_effect_pct);
int dec_tolerance(const struct dec_paired *o, double tol_pct);

/*
 * What the bisect has measured so far, for the spread and the span: M
 * pairs of end boots (G[i], B[i]) and MC pairs of boots of one candidate
 * in one round (C1[i], C2[i]).
 */
struct dec_pool {
	const double *g, *b, *c1, *c2;
	int m, mc;
};

struct dec_sprt {
	int n, k, m, mc;	/* rounds, candidate boots a round, pairs */
	double span, sd_boot;	/* estimates from the pool (log scale) */
	double llr, upper, lower, pos;
};

int dec_sprt(const struct dec_pool *pool, const double *g, const double *b,
	     const double *c, int n, int k, double alpha, int max_rounds,
	     struct dec_sprt *o);

/*
 * Level rule: the candidate's boots against a threshold the user gave, a
 * one-sample t-test of their logarithms, from DEC_LEVEL_MIN boots on.
 */
#define DEC_LEVEL_MIN		3

struct dec_level {
	int n, looks;
	double mean, sd, t, p, p_look;	/* mean, sd: of ln C - ln T */
};

int dec_level(const double *c, int n, double threshold, double alpha,
	      int max_boots, struct dec_level *o);

/*
 * Search rule (a probabilistic bisection): every round of the bisect, at
 * whichever commit it booted, is evidence about where the culprit is.
 * Commits 0 (GOOD) to N (BAD); round i booted commit AT[i] (1..N-1) K
 * times beside GOOD and BAD, S[i] = dec_round_s() of it. The posterior
 * of each culprit 1..N (a flat prior) answers DEC_BAD with the culprit
 * once it holds 1 - alpha, else DEC_MORE with the commit to boot next,
 * where the culprit is before or after it with even odds (never one of
 * the commits LINE says did not build or boot; a commit LINE rules out
 * is no culprit), or DEC_UNSURE after MAX_ROUNDS
 * rounds for each halving of the possible culprits (budget).
 */
/*
 * The posterior the search asks of its culprit: 99.5%, not 99%. The end
 * pairs passed the ends check for being apart, so the pool's span runs
 * high and the posterior a little overconfident: at 99% the located
 * culprit was wrong in up to 2.3% of the searches of a cell, at 99.5% in
 * under 1% of the cells' searches but one of few (bench/README.md).
 */
#define DEC_SEARCH_ALPHA	0.005

struct dec_search {
	int n, budget, culprit, query, culprits;	/* culprits: possible */
	double p_culprit, p_before;	/* p_before: P(culprit <= query) */
};

/*
 * What is known of the commits before any boot: SKIP (1..N-1) did not
 * build or boot and are never asked for; SAME (1..N) cannot be the
 * culprit (they build their parent's kernel, or lie outside the commits
 * that build GOOD's and BAD's): their prior is 0 (ignored when that
 * would leave no culprit at all). NULL: nothing known.
 */
struct dec_line {
	const int *skip, *same;
	int nskip, nsame;
};

double dec_round_s(double g, double b, const double *c, int k);
int dec_search(const struct dec_pool *pool, const int *at, const double *s,
	       int n, int k, int commits, const struct dec_line *line,
	       double alpha, int max_rounds, struct dec_search *o);

#endif
