// SPDX-License-Identifier: GPL-2.0
/*
 * The decision rules of perfbisect's rounds (see decide.h and
 * the top of pbstat.c for what each one says), with the arithmetic they
 * need. No input, no output: pbstat prints, pbsim counts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"

double dec_mean(const double *v, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

double dec_sd(const double *v, int n)
{
	double m = dec_mean(v, n), s = 0;
	int i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (n - 1));
}

/*
 * Continued fraction of the regularized incomplete beta function I_x(a, b)
 * (modified Lentz), good for x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), f, num, delta;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	f = d;
	for (m = 1; m <= 300; m++) {
		/* even step */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		f *= d * c;
		/* odd step */
		num = -(a + m) * (a + b + m) * x /
		      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		delta = d * c;
		f *= delta;
		if (fabs(delta - 1) < 1e-14)
			break;
	}
	return f;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* Two-sided p of Student's t with DF degrees of freedom: P(|T| >= t). */
double dec_t_two_sided(double t, double df)
{
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

/* The t with P(|T| >= t) = P, by bisection (t_two_sided is monotone). */
double dec_t_quantile(double p, double df)
{
	double lo = 0, hi = 1e7, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (dec_t_two_sided(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * One-sided p of a one-sample t-test that the mean of D[0..N-1] is above
 * zero; the mean goes to *M.
 */
static double p_above(const double *d, int n, double *m)
{
	double s = dec_sd(d, n), p;

	*m = dec_mean(d, n);
	if (s == 0)
		return *m > 0 ? 0 : 1;
	p = dec_t_two_sided(fabs(*m / (s / sqrt(n))), n - 1) / 2;
	return *m > 0 ? p : 1 - p;
}

int dec_place(const double *g, const double *b, const double *c, int n,
	      double alpha, struct dec_place *o)
{
	double *ends = calloc(3 * n, sizeof(*ends)), *cb, *near, mnear;
	int i, rc = DEC_UNSURE;

	if (!ends)
		abort();
	cb = ends + n;
	near = cb + n;
	for (i = 0; i < n; i++) {
		ends[i] = log(g[i]) - log(b[i]);
		cb[i] = log(c[i]) - log(b[i]);
		near[i] = 2 * cb[i] - ends[i];
	}
	o->n = n;
	o->p_ends = p_above(ends, n, &o->span);
	o->p_near_good = p_above(near, n, &mnear);
	o->p_near_bad = mnear == 0 && dec_sd(near, n) == 0 ? 1 : 1 - o->p_near_good;
	o->pos = o->span > 0 ? dec_mean(cb, n) / o->span : 0.5;
	if (o->p_ends < alpha && o->p_near_bad < alpha && o->pos < DEC_JUDGE_SIDE)
		rc = DEC_BAD;
	else if (o->p_ends < alpha && o->p_near_good < alpha &&
		 o->pos > 1 - DEC_JUDGE_SIDE)
		rc = DEC_GOOD;
	free(ends);
	return rc;
}

void dec_paired(const double *a, const double *b, int n, double alpha,
		struct dec_paired *o)
{
	double *d = calloc(n, sizeof(*d)), half;
	int i;

	if (!d)
		abort();
	for (i = 0; i < n; i++)
		d[i] = log(b[i]) - log(a[i]);
	o->n = n;
	o->mean = dec_mean(d, n);
	o->sd = dec_sd(d, n);
	half = dec_t_quantile(alpha, n - 1) * o->sd / sqrt(n);
	o->lo = o->mean - half;
	o->hi = o->mean + half;
	if (o->sd > 0)
		o->p = dec_t_two_sided(fabs(o->mean / (o->sd / sqrt(n))), n - 1);
	else
		o->p = o->mean == 0 ? 1 : 0;
	free(d);
}

/*
 * B is slower than A in paired rounds: p below ALPHA and the estimated
 * ratio more than MIN_EFFECT_PCT below 1. The interval answers whether
 * there is an effect at all; the estimate whether it is large enough to
 * bisect. Asking the whole interval to lie below -MIN_EFFECT_PCT instead
 * turned away most 10% regressions at a round-to-round sd of 8%
 * (bench/decisions.sh), and a range without one costs no wrong culprit:
 * its steps stay undecided, and the culprit is confirmed on its own.
 */
int dec_separated(const struct dec_paired *o, double alpha,
		  double min_effect_pct)
{
	return o->p < alpha && o->hi < 0 &&
	       100 * expm1(o->mean) < -min_effect_pct;
}

/*
 * B is not slower than A by MIN_EFFECT_PCT, with the confidence of the
 * interval: its lower end lies above -MIN_EFFECT_PCT (at a minimum effect
 * of 0, above 0). More rounds could not separate them.
 */
int dec_not_slower(const struct dec_paired *o, double min_effect_pct)
{
	return o->n >= 2 && 100 * expm1(o->lo) > -min_effect_pct;
}

/*
 * B against A with a tolerance (validate -x): DEC_BAD when the whole
 * interval lies below -TOL_PCT (B shown slower by more than the
 * tolerance), DEC_GOOD when its lower end is at or above -TOL_PCT (B
 * shown within it), DEC_UNSURE when the interval straddles -TOL_PCT: the
 * rounds so far cannot tell, and "within the noise" is no answer.
 */
int dec_tolerance(const struct dec_paired *o, double tol_pct)
{
	if (o->n < 2)
		return DEC_UNSURE;
	if (100 * expm1(o->hi) < -tol_pct)
		return DEC_BAD;
	if (100 * expm1(o->lo) >= -tol_pct)
		return DEC_GOOD;
	return DEC_UNSURE;
}

/*
 * A step whose remaining rounds could not reach the bound even with twice
 * the evidence they are expected to give, the span and the spread taken
 * at the pool's point estimates, stops as unsure: a range whose span is
 * within the noise would otherwise cost every step its 10 rounds
 * (bench/decisions.sh: 40 boots a step at a 2% regression, 6-14 with
 * this rule, and as many steps decided at 10% with sigma 0.05).
 */
static int futile(const struct dec_sprt *o, int k, int max_rounds)
{
	double v = o->sd_boot * o->sd_boot * (1.0 / k + 0.5);

	if (o->span <= 0)
		return 1;
	if (v <= 0)
		return 0;
	return fabs(o->llr) + DEC_SPRT_FUTILITY * (max_rounds - o->n) *
	       o->span * o->span / (2 * v) < o->upper;
}

/*
 * The weighted residual sum of squares of every observation the step
 * rule has, fitting the span D under the hypothesis that the candidate
 * runs at GOOD's level (SIGN +1) or at BAD's (SIGN -1), all in units of
 * one boot's variance v:
 *	each end pair d = ln G - ln B: mean D, variance 2 v;
 *	each candidate pair e = ln C1 - ln C2: mean 0, variance 2 v;
 *	each round's s (see dec_sprt): mean SIGN D / 2, variance v / W,
 *	W = 1 / (1/K + 1/2).
 * D is fitted by weighted least squares: the sum of d / 2 and of
 * W SIGN s / 2, over M / 2 + N W / 4.
 */
static double rss(const struct dec_pool *pool, const double *s, int n,
		  double w, int sign)
{
	double sum = 0, r = 0, dh, e;
	int i;

	for (i = 0; i < pool->m; i++)
		sum += (log(pool->g[i]) - log(pool->b[i])) / 2;
	for (i = 0; i < n; i++)
		sum += w * sign * s[i] / 2;
	dh = sum / (pool->m / 2.0 + n * w / 4);
	for (i = 0; i < pool->m; i++) {
		e = log(pool->g[i]) - log(pool->b[i]) - dh;
		r += e * e / 2;
	}
	for (i = 0; i < pool->mc; i++) {
		e = log(pool->c1[i]) - log(pool->c2[i]);
		r += e * e / 2;
	}
	for (i = 0; i < n; i++) {
		e = s[i] - sign * dh / 2;
		r += w * e * e;
	}
	return r;
}

/*
 * The sequential rule of a step. Round i boots GOOD, BAD and the
 * candidate K times (step.sh: C G B C, so that a drift linear in time
 * cancels too) and gives s[i] = mean_j ln C[i][j] - (ln G[i] + ln B[i]) / 2:
 * +D/2 when the candidate runs at GOOD's level, -D/2 at BAD's, D being the
 * span ln GOOD - ln BAD, with variance v (1/K + 1/2), v that of one boot.
 * D and v are unknown; the pool estimates them: every GOOD and BAD boot
 * pair of the bisect so far (this step's included) and every round's pair
 * of candidate boots (ln C1 - ln C2: mean 0, variance 2 v, more with a
 * drift between the two boots: the conservative side). Both hypotheses
 * ("at GOOD's level", "at BAD's level") then are the same linear model of
 * all those observations with one mean parameter D and one variance v,
 * and differ only in the sign of the rounds' D / 2. With the usual prior
 * that knows nothing of them (flat in D, 1 / v in v), the ratio of the
 * two hypotheses' likelihoods, D and v integrated out, is
 *	(RSS_bad / RSS_good) ^ ((M + MC + N - 1) / 2),
 * the RSS being each fit's residual sum of squares (rss() above): a
 * t-like statistic, cautious while the pool is small (few degrees of
 * freedom) and the SPRT with D and v known once it is large. The step
 * answers when its logarithm leaves [-ln((1 - a) / a), ln((1 - a) / a)],
 * a being the error each way: good above, bad below.
 * This replaced the likelihood ratio with D and v taken at conservative
 * bounds (D at its 90% lower bound, the sd at its 80% upper bound, Wald's
 * bounds less 0.8 for the overshoot): at 20%, sigma 0.10, 88% of the
 * steps are decided within 5 rounds instead of 86%, with 7% fewer boots
 * a bisect, and no cell's steps more than 0.86% wrong over three seeds
 * (bench/README.md).
 * A second candidate boot per round makes a round worth 1.5 times as much
 * evidence for 4 boots instead of 3.
 * Below DEC_SPRT_MIN_POOL end pairs, or with the pool's span not above
 * zero, there is no answer yet. A step that cannot reach a bound in its
 * remaining rounds is unsure at once (futile).
 */
int dec_sprt(const struct dec_pool *pool, const double *g, const double *b,
	     const double *c, int n, int k, double alpha, int max_rounds,
	     struct dec_sprt *o)
{
	double *s = calloc(n > 0 ? n : 1, sizeof(*s));
	double cb = 0, span_rounds = 0, lc, d, ss = 0, w, r_good, r_bad;
	int i, j, m = pool->m, rc = DEC_MORE;

	if (!s)
		abort();
	o->n = n;
	o->k = k;
	o->m = m;
	o->mc = pool->mc;
	o->span = o->sd_boot = 0;
	o->llr = 0;
	o->upper = log((1 - alpha) / alpha);
	o->lower = -o->upper;
	o->pos = 0.5;
	for (i = 0; i < n; i++) {
		lc = 0;
		for (j = 0; j < k; j++)
			lc += log(c[i * k + j]) / k;
		s[i] = lc - (log(g[i]) + log(b[i])) / 2;
		cb += lc - log(b[i]);
		span_rounds += log(g[i]) - log(b[i]);
	}
	if (n > 0 && span_rounds > 0)
		o->pos = cb / span_rounds;
	if (m >= DEC_SPRT_MIN_POOL) {
		for (i = 0; i < m; i++)
			o->span += (log(pool->g[i]) - log(pool->b[i])) / m;
		for (i = 0; i < m; i++) {
			d = log(pool->g[i]) - log(pool->b[i]) - o->span;
			ss += d * d;
		}
		for (i = 0; i < pool->mc; i++) {
			d = log(pool->c1[i]) - log(pool->c2[i]);
			ss += d * d;
		}
		o->sd_boot = sqrt(ss / (m - 1 + pool->mc) / 2);
	}
	if (m >= DEC_SPRT_MIN_POOL && o->span > 0 && n > 0) {
		w = 1 / (1.0 / k + 0.5);
		r_good = rss(pool, s, n, w, 1);
		r_bad = rss(pool, s, n, w, -1);
		if (r_good > 0 && r_bad > 0) {
			o->llr = (m + pool->mc + n - 1) / 2.0 * log(r_bad / r_good);
			if (o->llr >= o->upper)
				rc = DEC_GOOD;
			else if (o->llr <= o->lower)
				rc = DEC_BAD;
		} else {
			/* Boots that agree exactly: the better fit decides. */
			rc = r_good < r_bad ? DEC_GOOD :
			     r_bad < r_good ? DEC_BAD : DEC_MORE;
		}
	}
	if (rc == DEC_MORE && m >= DEC_SPRT_MIN_POOL && n > 0 &&
	    futile(o, k, max_rounds))
		rc = DEC_UNSURE;
	free(s);
	if (rc == DEC_MORE && n >= max_rounds)
		rc = DEC_UNSURE;
	return rc;
}

/*
 * A candidate whose t at max_boots boots, were its mean and sd to stay
 * what they are, would fall short of the last look's critical t even when
 * doubled, is unsure at once: boots near the threshold would otherwise
 * cost every step max_boots boots (bench/decisions.sh, rule level).
 */
static int level_futile(const struct dec_level *o, int max_boots)
{
	double t_max;

	if (o->sd <= 0)
		return 0;
	t_max = fabs(o->mean) / o->sd * sqrt(max_boots);
	return DEC_SPRT_FUTILITY * t_max <
	       dec_t_quantile(o->p_look, max_boots - 1);
}

/*
 * The candidate's boot medians C against a fixed threshold T: a two-sided
 * one-sample t-test of ln C - ln T, looked at after every boot from the
 * DEC_LEVEL_MIN-th to the max_boots-th.  alpha is the error each way over
 * all the looks (Bonferroni): a look decides at p < 2 alpha / looks.
 * Boots that all agree (sd 0) decide by their side of T at once.  No
 * answer after max_boots, or one out of reach before (level_futile):
 * unsure.
 */
int dec_level(const double *c, int n, double threshold, double alpha,
	      int max_boots, struct dec_level *o)
{
	double *d = calloc(n, sizeof(*d));
	int i;

	if (!d)
		abort();
	o->n = n;
	o->looks = max_boots - DEC_LEVEL_MIN + 1;
	if (o->looks < 1)
		o->looks = 1;
	o->p_look = 2 * alpha / o->looks;
	for (i = 0; i < n; i++)
		d[i] = log(c[i]) - log(threshold);
	o->mean = dec_mean(d, n);
	o->sd = n > 1 ? dec_sd(d, n) : 0;
	free(d);
	o->t = 0;
	o->p = 1;
	if (n < DEC_LEVEL_MIN)
		return n >= max_boots ? DEC_UNSURE : DEC_MORE;
	if (o->sd > 0) {
		o->t = o->mean / (o->sd / sqrt(n));
		o->p = dec_t_two_sided(fabs(o->t), n - 1);
	} else if (o->mean != 0) {
		o->p = 0;
	}
	if (o->p < o->p_look)
		return o->mean > 0 ? DEC_GOOD : DEC_BAD;
	if (n >= max_boots || level_futile(o, max_boots))
		return DEC_UNSURE;
	return DEC_MORE;
}

/* A round's candidate against its ends: mean ln C - (ln G + ln B) / 2. */
double dec_round_s(double g, double b, const double *c, int k)
{
	double lc = 0;
	int j;

	for (j = 0; j < k; j++)
		lc += log(c[j]) / k;
	return lc - (log(g) + log(b)) / 2;
}

/*
 * The posterior of the culprit, from the linear model dec_sprt uses (see
 * rss() there) with every round of the bisect in it: under "the culprit
 * is commit J", round i's S has mean +D/2 when AT[i] < J (GOOD's level)
 * and -D/2 otherwise. Fitting D by weighted least squares, the residual
 * sum of squares is
 *	RSS_J = C0 - (A + W S_J / 2)^2 / Q,
 * A the sum of the end pairs' d / 2, Q = M / 2 + N W / 4, C0 the
 * weighted sum of squares of every observation, S_J the sum of round
 * S's signed by J. With D and v integrated out (flat in D, 1 / v), each
 * culprit's likelihood is RSS_J ^ -((M + MC + N - 1) / 2), as dec_sprt's
 * ratio is; the culprits differ only in S_J. Below DEC_SPRT_MIN_POOL end
 * pairs there is no answer yet: the next commit is the middle one.
 */
static int listed(const int *l, int nl, int j)
{
	int i;

	for (i = 0; i < nl; i++)
		if (l[i] == j)
			return 1;
	return 0;
}

int dec_search(const struct dec_pool *pool, const int *at, const double *s,
	       int n, int k, int commits, const struct dec_line *line,
	       double alpha, int max_rounds, struct dec_search *o)
{
	double *lp = calloc(2 * (commits + 1), sizeof(*lp)), *at_sum;
	double a = 0, c0 = 0, q, w = 1 / (1.0 / k + 0.5), d, sj, total = 0;
	double top = -HUGE_VAL, sum = 0, cum = 0, floor_rss, rss, t;
	int i, j, m = pool->m, nsame = line ? line->nsame : 0;
	char *none = calloc(commits + 1, 1);	/* 1: cannot be the culprit */

	if (!lp || !none)
		abort();
	at_sum = lp + commits + 1;
	o->culprits = commits;
	for (i = 0; i < nsame; i++)
		if (line->same[i] >= 1 && line->same[i] <= commits &&
		    !none[line->same[i]]) {
			none[line->same[i]] = 1;
			o->culprits--;
		}
	if (!o->culprits) {
		memset(none, 0, commits + 1);
		o->culprits = commits;
	}
	o->n = n;
	for (o->budget = 0; (1L << o->budget) < o->culprits; o->budget++)
		;
	o->budget *= max_rounds;
	o->culprit = commits;
	o->query = 0;
	o->p_culprit = o->culprits < 2 ? 1 : 0;
	for (j = 1; o->culprits == 1 && j <= commits; j++)
		if (!none[j])
			o->culprit = j;
	o->p_before = 0.5;
	if (m < DEC_SPRT_MIN_POOL || o->culprits < 2) {
		/* No posterior yet: every possible culprit alike. */
		for (j = 1; j <= commits; j++)
			lp[j] = none[j] ? 0 : 1.0 / o->culprits;
		goto query;
	}
	for (i = 0; i < m; i++) {
		d = log(pool->g[i]) - log(pool->b[i]);
		a += d / 2;
		c0 += d * d / 2;
	}
	for (i = 0; i < pool->mc; i++) {
		d = log(pool->c1[i]) - log(pool->c2[i]);
		c0 += d * d / 2;
	}
	for (i = 0; i < n; i++) {
		c0 += w * s[i] * s[i];
		total += s[i];
		if (at[i] > 0 && at[i] < commits)
			at_sum[at[i]] += s[i];
	}
	q = m / 2.0 + n * w / 4;
	floor_rss = 1e-300 * (c0 > 0 ? c0 : 1);
	/* Culprit 1: every round's commit at BAD's level. */
	sj = -total;
	for (j = 1; j <= commits; j++) {
		if (j > 1)
			sj += 2 * at_sum[j - 1];
		t = a + w * sj / 2;
		rss = c0 - t * t / q;
		lp[j] = -(m + pool->mc + n - 1) / 2.0 *
			log(rss > floor_rss ? rss : floor_rss);
		if (!none[j] && lp[j] > top)
			top = lp[j];
	}
	for (j = 1; j <= commits; j++) {
		lp[j] = none[j] ? 0 : exp(lp[j] - top);
		sum += lp[j];
	}
	for (j = 1; j <= commits; j++) {
		lp[j] /= sum;
		if (lp[j] > o->p_culprit) {
			o->p_culprit = lp[j];
			o->culprit = j;
		}
	}
query:
	/*
	 * The next commit: P(culprit <= it) nearest to one half; of a run of
	 * commits that build one kernel, the first (the same split).
	 */
	for (j = 1; j < commits; j++) {
		cum += lp[j];
		if (line && listed(line->skip, line->nskip, j))
			continue;
		if (!o->query || fabs(cum - 0.5) < fabs(o->p_before - 0.5)) {
			o->p_before = cum;
			o->query = j;
		}
	}
	free(lp);
	free(none);
	if (o->culprits < 2 || (m >= DEC_SPRT_MIN_POOL && o->p_culprit >= 1 - alpha))
		return DEC_BAD;
	/* Nothing left to boot, or the budget spent: no answer. */
	if (!o->query || n >= o->budget)
		return DEC_UNSURE;
	return DEC_MORE;
}
