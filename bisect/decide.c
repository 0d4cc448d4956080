// SPDX-License-Identifier: GPL-2.0
/*
 * The decision rules of perfbisect's rounds (see decide.h and
 * the top of pbstat.c for what each one says), with the arithmetic they
 * need. No input, no output: pbstat prints, pbsim counts.
 */
#include <math.h>
#include <stdlib.h>

#include "decide.h"

#define Z90		1.2815515655	/* the standard normal's 90% quantile */

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
 * The chi-square quantile of DF degrees of freedom with 10% below it
 * (Wilson-Hilferty), never below a tenth of DF: enough for an upper bound
 * of a standard deviation.
 */
double dec_chi2_q10(double df)
{
	double k = 2 / (9 * df), q;

	q = 1 - k - Z90 * sqrt(k);
	q = df * q * q * q;
	return q > df / 10 ? q : df / 10;
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
 * B is slower than A in paired rounds: p below ALPHA and the whole 1 -
 * ALPHA interval of the ratio below -MIN_EFFECT_PCT.
 */
int dec_separated(const struct dec_paired *o, double alpha,
		  double min_effect_pct)
{
	return o->p < alpha && 100 * expm1(o->hi) < -min_effect_pct;
}

/*
 * The sequential rule of a step in rounds. Round i gives s[i] = 2 ln C[i]
 * - ln G[i] - ln B[i]: +D when the candidate runs at GOOD's level, -D at
 * BAD's, D being the span ln GOOD - ln BAD, with sd sqrt(3) times that of
 * a pair's ln G - ln B (each boot adds its own noise). Wald's SPRT of
 * "at GOOD's level" against "at BAD's level" sums the log-likelihood
 * ratio 2 D s[i] / (3 sd^2) and answers when it leaves
 * [-ln((1 - a) / a), ln((1 - a) / a)], a being the error each way.
 * D and sd come from the pool of end pairs (every GOOD and BAD boot pair
 * of the bisect so far, this step's included), taken conservatively: D
 * at the lower end of its 80% interval, sd at the upper end of its 80%
 * interval, so a pool of a few pairs asks for more rounds, not for
 * more luck. Below DEC_SPRT_MIN_POOL pairs, or with a span not above
 * zero, there is no answer yet.
 */
int dec_sprt(const double *pool_g, const double *pool_b, int m,
	     const double *g, const double *b, const double *c, int n,
	     double alpha, int max_rounds, struct dec_sprt *o)
{
	double *d, sum = 0, cb = 0, span_rounds = 0, var_s;
	int i, rc = DEC_MORE;

	o->n = n;
	o->m = m;
	o->span = o->sd_boot = o->span_used = o->sd_used = 0;
	o->llr = 0;
	o->upper = log((1 - alpha) / alpha);
	o->lower = -o->upper;
	o->pos = 0.5;
	for (i = 0; i < n; i++) {
		sum += 2 * log(c[i]) - log(g[i]) - log(b[i]);
		cb += log(c[i]) - log(b[i]);
		span_rounds += log(g[i]) - log(b[i]);
	}
	if (n > 0 && span_rounds > 0)
		o->pos = cb / span_rounds;
	if (m >= DEC_SPRT_MIN_POOL) {
		d = calloc(m, sizeof(*d));
		if (!d)
			abort();
		for (i = 0; i < m; i++)
			d[i] = log(pool_g[i]) - log(pool_b[i]);
		o->span = dec_mean(d, m);
		o->sd_boot = dec_sd(d, m) / M_SQRT2;
		o->sd_used = dec_sd(d, m);
		o->span_used = o->span;
		o->sd_used *= sqrt((m - 1) / dec_chi2_q10(m - 1));
		o->span_used -= dec_t_quantile(0.2, m - 1) * dec_sd(d, m) / sqrt(m);
		free(d);
		var_s = 3 * o->sd_used * o->sd_used;
		if (o->span_used > 0 && var_s > 0) {
			o->llr = 2 * o->span_used * sum / var_s;
			if (o->llr >= o->upper)
				rc = DEC_GOOD;
			else if (o->llr <= o->lower)
				rc = DEC_BAD;
		} else if (o->span_used > 0 && n > 0) {
			/* Boots that agree exactly: the sign decides. */
			rc = sum > 0 ? DEC_GOOD : sum < 0 ? DEC_BAD : DEC_MORE;
		}
	}
	if (rc == DEC_MORE && n >= max_rounds)
		rc = DEC_UNSURE;
	return rc;
}
