// SPDX-License-Identifier: GPL-2.0
/*
 * pbsim: simulate whole bisects in rounds with perfbisect's own decision
 * rules (decide.c, the code pbstat runs for step.sh and bisect.sh), to
 * count how often they decide and how often they name a wrong culprit.
 *
 * Usage:
 *	pbsim [--rule sprt|place|level|search] [--sizes PCT,...] [--sigmas SD,...]
 *	      [--bisects M] [--commits N] [--max-rounds R] [--within SD]
 *	      [--drift SD] [--min-effect PCT] [--cand-boots K] [--seed S]
 *	      [--spread-from ends|all] [--pool-min P] [--salted 0|1]
 *
 * The model: commits 0 (GOOD) to N (BAD), one culprit drawn uniformly
 * from 1..N; a commit before it runs at level 0, from it on at
 * ln(1 - size / 100). One boot's median is its commit's level plus the
 * round's drift (the machine's speed in that stretch of time, shared by
 * the boots of a round), a boot effect (sd sigma) and the within-boot
 * noise of a median (sd --within).
 *
 * --salted 1 models deterministic mode with PB_SALT=1 (bisect.sh -d det):
 * a boot is exact for its inputs, so there is no drift and no within-boot
 * noise, and sigma is the effect of a boot's salt (a draw per commit and
 * salt). The ends' boot i (salt i) is measured once and cached: the ends
 * check's rounds are boots 1, 2, ..., and round i of every step reuses
 * GOOD's and BAD's boot i, booting a new pair only past the last one;
 * every cached pair is the pool. A round boots the candidate once
 * (salt i). The culprit's confirmation boots parent and culprit with
 * salts not used before: fresh draws. With --rule level (bisect.sh -d det
 * -x, step.sh threshold_boots) the ends are checked as above, and a step
 * boots only the candidate, salt r in round r, against the threshold.
 *
 * A simulated bisect does what bisect.sh and step.sh do in rounds:
 *	1. the ends in paired rounds (3 to R): dec_paired and dec_separated
 *	   at PB_ROUNDS_ALPHA (0.02) and the minimum effect, stopping early
 *	   once dec_not_slower; not separated: "no regression" (exit 15);
 *	2. binary search; a step boots GOOD, BAD and K times the candidate
 *	   (--cand-boots, default 2 as step.sh) in each round and asks the
 *	   rule: sprt, dec_sprt over the pool of every end pair and each
 *	   round's first two candidate boots so far (what step.sh does;
 *	   --spread-from ends: the end pairs alone), or place, dec_place from
 *	   round 3 (the rule before it); no answer after R rounds: skip;
 *	   --pool-min P: before the first step, end pairs until the pool has
 *	   P (a top-up that step.sh does not do; bench/README.md says why);
 *	   rule level (bisect.sh -x in wall-clock mode): no ends check (but
 *	   with --salted 1), the
 *	   candidate booted once a round (its own drift: nothing cancels it)
 *	   and dec_level against a threshold halfway between the levels on a
 *	   log scale;
 *	   a range of skipped commits only: undecided (exit 1);
 *	   rule search (a probabilistic bisection, no steps): each round boots
 *	   GOOD, BAD and K times the commit where dec_search puts even odds
 *	   on the culprit being before or after it, and dec_search weighs
 *	   every round of the bisect until one culprit holds 99.5% of the
 *	   posterior, at most R rounds for each halving of the range (else
 *	   undecided); the step columns then count the whole search as one
 *	   step, and "within 5 rounds" means within 5 rounds a halving;
 *	3. the culprit against its parent in paired rounds (dec_separated,
 *	   minimum effect 0): not slower, "cannot decide" (exit 18).
 *
 * One line per size and sigma: decided % (exit 0), wrong % (exit 0 with a
 * culprit that is not the one), the other endings (no regression at the
 * ends check, undecided, culprit not confirmed), the steps decided (at
 * all, and within 5 rounds), the steps decided wrongly, the rounds and
 * the boots per step and per bisect; the last line: "wrong culprits: W of M
 * (P%)".
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"

#define PROG		"pbsim"
#define MAX_LIST	16
#define MAX_ROUNDS	40
#define MAX_COMMITS	4096
#define MAX_POOL	4096
#define MAX_SEARCH	(MAX_ROUNDS * 12)	/* rounds of a search: 4096 commits */
#define ROUNDS_ALPHA	0.02	/* PB_ROUNDS_ALPHA in lib.sh */
#define PLACE_ALPHA	0.02

enum ending { END_RIGHT, END_WRONG, END_NOREG, END_UNDECIDED, END_UNCONF };

enum rule { RULE_SPRT, RULE_PLACE, RULE_LEVEL, RULE_SEARCH };
static const char *const rule_names[] = { "sprt", "place", "level", "search" };

struct opts {
	enum rule rule;
	double sizes[MAX_LIST], sigmas[MAX_LIST];
	int nsizes, nsigmas;
	int bisects, commits, max_rounds, ends_rounds, cand_boots, cand_spread, pool_min;
	int salted;
	double within, drift, min_effect;
	uint64_t seed;
};

struct sim {
	const struct opts *o;
	uint64_t rng;
	double sigma, bad_level, threshold;
	int culprit;
	double pool_g[MAX_POOL], pool_b[MAX_POOL];
	double pool_c1[MAX_POOL], pool_c2[MAX_POOL];
	int m, mc;
	long all_boots;
	long steps, decided_steps, decided5_steps, wrong_steps, rounds, boots;
};

static void die(const char *msg)
{
	fprintf(stderr, PROG ": error: %s\n", msg);
	exit(2);
}

/* xorshift64*, and a normal deviate by Box-Muller. */
static double uniform(struct sim *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return ((s->rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double normal(struct sim *s)
{
	double u = uniform(s), v = uniform(s);

	if (u < 1e-300)
		u = 1e-300;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static double level(const struct sim *s, int commit)
{
	return commit >= s->culprit ? s->bad_level : 0;
}

/* One boot's median, in jobs/min around 1000 at GOOD's level. */
static double boot(struct sim *s, int commit, double drift)
{
	s->all_boots++;
	return 1000 * exp(level(s, commit) + drift + s->sigma * normal(s) +
			  s->o->within * normal(s));
}

static void pool_add(struct sim *s, double g, double b)
{
	if (s->m < MAX_POOL) {
		s->pool_g[s->m] = g;
		s->pool_b[s->m] = b;
		s->m++;
	}
}

/* Add a round's two boots of one candidate to the pool's spread. */
static void cand_pair_add(struct sim *s, double c1, double c2)
{
	if (s->o->cand_spread && s->mc < MAX_POOL) {
		s->pool_c1[s->mc] = c1;
		s->pool_c2[s->mc] = c2;
		s->mc++;
	}
}

/* The pool of the bisect so far, as the rules take it. */
static struct dec_pool sim_pool(const struct sim *s)
{
	struct dec_pool pool = {
		.g = s->pool_g, .b = s->pool_b, .c1 = s->pool_c1,
		.c2 = s->pool_c2, .m = s->m, .mc = s->mc,
	};

	return pool;
}

/* Paired rounds of A against B (3 to R): is B slower by EFFECT%? */
static int paired_rounds(struct sim *s, int a, int b, double effect, int pool,
			 int max)
{
	double va[MAX_ROUNDS], vb[MAX_ROUNDS], drift;
	struct dec_paired p;
	int r;

	for (r = 0; r < max; r++) {
		drift = s->o->drift * normal(s);
		va[r] = boot(s, a, drift);
		vb[r] = boot(s, b, drift);
		if (pool)
			pool_add(s, va[r], vb[r]);
		if (r + 1 < 3)
			continue;
		dec_paired(va, vb, r + 1, ROUNDS_ALPHA, &p);
		if (dec_separated(&p, ROUNDS_ALPHA, effect))
			return 1;
		if (dec_not_slower(&p, effect))
			return 0;
	}
	return 0;
}

/* One step: the verdict on COMMIT, DEC_UNSURE being a skip. */
static int step(struct sim *s, int commit, int bad_end)
{
	double g[MAX_ROUNDS], b[MAX_ROUNDS], c[4 * MAX_ROUNDS], drift;
	int r, j, k = s->o->rule == RULE_SPRT ? s->o->cand_boots : 1;
	int v = DEC_MORE, cached;
	struct dec_sprt q;
	struct dec_place p;
	struct dec_pool pool;
	struct dec_level l;

	s->steps++;
	for (r = 0; r < s->o->max_rounds && v == DEC_MORE; r++) {
		drift = s->o->drift * normal(s);
		if (s->o->rule == RULE_LEVEL) {
			/* One boot a round, against the user's threshold. */
			c[r] = boot(s, commit, drift);
			s->rounds++;
			s->boots++;
			v = dec_level(c, r + 1, s->threshold, DEC_SPRT_ALPHA,
				      s->o->max_rounds, &l);
			continue;
		}
		/* Salted: the ends' boot r + 1 may be in the cache. */
		cached = s->o->salted && r < s->m;
		g[r] = cached ? s->pool_g[r] : boot(s, 0, drift);
		for (j = 0; j < k; j++)
			c[r * k + j] = boot(s, commit, drift);
		if (!cached) {
			b[r] = boot(s, bad_end, drift);
			pool_add(s, g[r], b[r]);
		} else {
			b[r] = s->pool_b[r];
		}
		if (k > 1)
			cand_pair_add(s, c[r * k], c[r * k + 1]);
		s->rounds++;
		s->boots += cached ? k : 2 + k;
		if (s->o->rule == RULE_SPRT) {
			pool = sim_pool(s);
			v = dec_sprt(&pool, g, b, c, r + 1, k, DEC_SPRT_ALPHA,
				     s->o->max_rounds, &q);
		} else if (r + 1 >= DEC_PLACE_MIN) {
			v = dec_place(g, b, c, r + 1, PLACE_ALPHA, &p);
			if (v == DEC_UNSURE && r + 1 < s->o->max_rounds)
				v = DEC_MORE;
		}
	}
	if (v == DEC_MORE)
		v = DEC_UNSURE;
	if (v != DEC_UNSURE)
		s->decided_steps++;
	if (v != DEC_UNSURE && r <= 5)
		s->decided5_steps++;
	if ((v == DEC_GOOD && commit >= s->culprit) ||
	    (v == DEC_BAD && commit < s->culprit))
		s->wrong_steps++;
	return v;
}

/*
 * The search rule: no steps. Each round boots GOOD, the commit dec_search
 * names and BAD; dec_search weighs every round so far until one culprit
 * holds 99.5% of the posterior, within R rounds for each halving of the
 * range (R * ceil(log2 N)). The whole search counts as one step.
 */
static int search(struct sim *s, int *found)
{
	static int at[MAX_SEARCH];
	static double sv[MAX_SEARCH];
	int n = s->o->commits, k = s->o->cand_boots, r, j;
	int v = DEC_MORE;
	double c[4], g, b, drift;
	struct dec_search q;
	struct dec_pool pool;

	s->steps++;
	for (r = 0;; r++) {
		pool = sim_pool(s);
		v = dec_search(&pool, at, sv, r, k, n, NULL, DEC_SEARCH_ALPHA,
			       s->o->max_rounds, &q);
		if (v != DEC_MORE || r >= MAX_SEARCH)
			break;
		drift = s->o->drift * normal(s);
		g = boot(s, 0, drift);
		for (j = 0; j < k; j++)
			c[j] = boot(s, q.query, drift);
		b = boot(s, n, drift);
		pool_add(s, g, b);
		if (k > 1)
			cand_pair_add(s, c[0], c[1]);
		at[r] = q.query;
		sv[r] = dec_round_s(g, b, c, k);
		s->rounds++;
		s->boots += 2 + k;
	}
	*found = q.culprit;
	if (v != DEC_BAD)
		return 0;
	s->decided_steps++;
	if (r <= 5 * q.budget / s->o->max_rounds)
		s->decided5_steps++;
	if (q.culprit != s->culprit)
		s->wrong_steps++;
	return 1;
}

static enum ending bisect(struct sim *s)
{
	static char skipped[MAX_COMMITS + 1];
	int n = s->o->commits, lo = 0, hi = n, mid, best, i, v;

	s->m = s->mc = 0;
	/* Deterministic mode checks the ends even against a threshold. */
	if ((s->o->rule != RULE_LEVEL || s->o->salted) &&
	    !paired_rounds(s, 0, n, s->o->min_effect, 1, s->o->ends_rounds))
		return END_NOREG;
	while (s->o->rule != RULE_LEVEL && s->o->rule != RULE_PLACE &&
	       s->m < s->o->pool_min) {
		double drift = s->o->drift * normal(s), g = boot(s, 0, drift);

		pool_add(s, g, boot(s, n, drift));
	}
	if (s->o->rule == RULE_SEARCH) {
		if (!search(s, &hi))
			return END_UNDECIDED;
		lo = hi;	/* skip the steps below */
	}
	memset(skipped, 0, n + 1);
	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		best = -1;
		for (i = 1; i < hi - lo; i++) {
			/* nearest to the middle first, alternating sides */
			int k = mid + (i % 2 ? -(i / 2) : i / 2);

			if (k > lo && k < hi && !skipped[k]) {
				best = k;
				break;
			}
		}
		if (best < 0)
			return END_UNDECIDED;
		v = step(s, best, n);
		if (v == DEC_GOOD)
			lo = best;
		else if (v == DEC_BAD)
			hi = best;
		else
			skipped[best] = 1;
	}
	if (!paired_rounds(s, hi - 1, hi, 0, 0, s->o->max_rounds))
		return END_UNCONF;
	return hi == s->culprit ? END_RIGHT : END_WRONG;
}

static int parse_list(const char *arg, double *v)
{
	const char *p = arg;
	char *end;
	int n = 0;

	for (;;) {
		if (n == MAX_LIST)
			die("too many values in a list (16 at most)");
		v[n] = strtod(p, &end);
		if (end == p || v[n] < 0 || !isfinite(v[n]) ||
		    (*end && *end != ','))
			die("a list holds non-negative numbers separated by commas");
		n++;
		if (!*end)
			return n;
		p = end + 1;
	}
}

/* One non-negative number, for an option that takes a single value. */
static double parse_one(const char *arg, const char *what)
{
	double v[MAX_LIST];

	if (parse_list(arg, v) != 1) {
		fprintf(stderr, PROG ": error: %s takes one number\n", what);
		exit(2);
	}
	return v[0];
}

static long parse_int(const char *arg, long min, long max, const char *what)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || end == arg || v < min || v > max) {
		fprintf(stderr, PROG ": error: %s must be an integer from %ld to %ld\n",
			what, min, max);
		exit(2);
	}
	return v;
}

static void parse(int argc, char **argv, struct opts *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			puts("usage: pbsim [--rule sprt|place|level|search] [--sizes PCT,...] [--sigmas SD,...] [--bisects M] [--commits N] [--max-rounds R] [--within SD] [--drift SD] [--min-effect PCT] [--cand-boots K] [--seed S] [--spread-from ends|all] [--pool-min P] [--salted 0|1]");
			exit(0);
		}
		if (!v)
			die("an option without its value (see --help)");
		i++;
		if (!strcmp(a, "--rule")) {
			if (!strcmp(v, "sprt"))
				o->rule = RULE_SPRT;
			else if (!strcmp(v, "place"))
				o->rule = RULE_PLACE;
			else if (!strcmp(v, "level"))
				o->rule = RULE_LEVEL;
			else if (!strcmp(v, "search"))
				o->rule = RULE_SEARCH;
			else
				die("--rule is sprt, place, level or search");
		} else if (!strcmp(a, "--sizes")) {
			o->nsizes = parse_list(v, o->sizes);
		} else if (!strcmp(a, "--sigmas")) {
			o->nsigmas = parse_list(v, o->sigmas);
		} else if (!strcmp(a, "--bisects")) {
			o->bisects = parse_int(v, 1, 10000000, "--bisects");
		} else if (!strcmp(a, "--commits")) {
			o->commits = parse_int(v, 2, MAX_COMMITS, "--commits");
		} else if (!strcmp(a, "--max-rounds")) {
			o->max_rounds = parse_int(v, 3, MAX_ROUNDS, "--max-rounds");
		} else if (!strcmp(a, "--ends-rounds")) {
			o->ends_rounds = parse_int(v, 3, MAX_ROUNDS, "--ends-rounds");
		} else if (!strcmp(a, "--cand-boots")) {
			o->cand_boots = parse_int(v, 1, 4, "--cand-boots");
		} else if (!strcmp(a, "--spread-from")) {
			if (strcmp(v, "ends") && strcmp(v, "all"))
				die("--spread-from is ends or all");
			o->cand_spread = !strcmp(v, "all");
		} else if (!strcmp(a, "--pool-min")) {
			o->pool_min = parse_int(v, 0, 100, "--pool-min");
		} else if (!strcmp(a, "--salted")) {
			o->salted = parse_int(v, 0, 1, "--salted");
		} else if (!strcmp(a, "--seed")) {
			o->seed = parse_int(v, 1, 2147483647, "--seed");
		} else if (!strcmp(a, "--within")) {
			o->within = parse_one(v, "--within");
		} else if (!strcmp(a, "--drift")) {
			o->drift = parse_one(v, "--drift");
		} else if (!strcmp(a, "--min-effect")) {
			o->min_effect = parse_one(v, "--min-effect");
		} else {
			die("unknown option (see --help)");
		}
	}
	for (i = 0; i < o->nsizes; i++)
		if (o->sizes[i] <= 0 || o->sizes[i] >= 100)
			die("a regression size is a percentage above 0 and below 100");
	if (o->salted && (o->rule == RULE_PLACE || o->rule == RULE_SEARCH))
		die("--salted 1 models the steps of deterministic mode: --rule sprt or level");
	if (o->salted) {
		/* A salted deterministic boot: exact for its inputs. */
		o->drift = 0;
		o->within = 0;
		o->cand_boots = 1;
		o->cand_spread = 0;
	}
}

int main(int argc, char **argv)
{
	static struct sim s;
	struct opts o = {
		.rule = RULE_SPRT, .bisects = 200, .commits = 64, .max_rounds = 6,
		.within = 0.035, .drift = 0.10, .min_effect = 5, .seed = 1,
		.cand_boots = 2, .cand_spread = 1,
		.sizes = { 2, 5, 10, 20, 40, 60 }, .nsizes = 6,
		.sigmas = { 0, 0.05, 0.10, 0.15, 0.20, 0.25 }, .nsigmas = 6,
	};
	long total = 0, wrong_total = 0, cnt[5];
	int i, j, k;

	parse(argc, argv, &o);
	if (!o.ends_rounds)
		o.ends_rounds = o.max_rounds;
	s.o = &o;
	k = o.rule == RULE_SPRT || o.rule == RULE_SEARCH ? o.cand_boots : 1;
	printf("rule %s, %d commits, %d bisects a cell, at most %d rounds a step, %d candidate boot%s a round, within %g, drift %g, minimum effect %g%%",
	       rule_names[o.rule], o.commits, o.bisects, o.max_rounds, k,
	       k > 1 ? "s" : "", o.within, o.drift, o.min_effect);
	if (o.salted && o.rule == RULE_LEVEL)
		printf(", salted deterministic boots: the ends checked, the candidate's boot r in round r");
	else if (o.salted)
		printf(", salted deterministic boots: the ends' boot i in every step's round i");
	else if (o.rule == RULE_SPRT || o.rule == RULE_SEARCH)
		printf(", spread from %s, at least %d end pairs before the steps",
		       o.cand_spread ? "ends and candidate pairs" : "ends",
		       o.pool_min);
	if (o.rule == RULE_LEVEL)
		printf(", threshold halfway (log scale)");
	if (o.rule == RULE_SEARCH)
		printf(", a step is the whole search, within 5 rounds: 5 a halving");
	putchar('\n');
	printf("%6s %6s %9s %7s %7s %7s %7s %9s %9s %9s %7s %7s %8s\n", "size%",
	       "sigma", "decided%", "wrong%", "noreg%", "undec%", "unconf%",
	       "steps_ok%", "steps_ok5%", "steps_bad%", "rounds", "boots",
	       "bisect");
	for (i = 0; i < o.nsizes; i++) {
		for (j = 0; j < o.nsigmas; j++) {
			s.rng = o.seed * 0x9E3779B97F4A7C15ULL + i * 7919 + j * 104729 + 1;
			s.sigma = o.sigmas[j];
			s.bad_level = log1p(-o.sizes[i] / 100);
			s.threshold = 1000 * exp(s.bad_level / 2);
			s.steps = s.decided_steps = s.decided5_steps = 0;
			s.wrong_steps = s.rounds = s.boots = s.all_boots = 0;
			memset(cnt, 0, sizeof(cnt));
			for (k = 0; k < o.bisects; k++) {
				s.culprit = 1 + (int)(uniform(&s) * o.commits);
				if (s.culprit > o.commits)
					s.culprit = o.commits;
				cnt[bisect(&s)]++;
			}
			total += o.bisects;
			wrong_total += cnt[END_WRONG];
			printf("%6g %6g %9.1f %7.2f %7.1f %7.1f %7.1f %9.1f %9.1f %9.2f %7.2f %7.2f %8.1f\n",
			       o.sizes[i], o.sigmas[j],
			       100.0 * (cnt[END_RIGHT] + cnt[END_WRONG]) / o.bisects,
			       100.0 * cnt[END_WRONG] / o.bisects,
			       100.0 * cnt[END_NOREG] / o.bisects,
			       100.0 * cnt[END_UNDECIDED] / o.bisects,
			       100.0 * cnt[END_UNCONF] / o.bisects,
			       s.steps ? 100.0 * s.decided_steps / s.steps : 0,
			       s.steps ? 100.0 * s.decided5_steps / s.steps : 0,
			       s.steps ? 100.0 * s.wrong_steps / s.steps : 0,
			       s.steps ? (double)s.rounds / s.steps : 0,
			       s.steps ? (double)s.boots / s.steps : 0,
			       (double)s.all_boots / o.bisects);
			fflush(stdout);
		}
	}
	printf("wrong culprits: %ld of %ld (%.2f%%)\n", wrong_total, total,
	       100.0 * wrong_total / total);
	return 0;
}
