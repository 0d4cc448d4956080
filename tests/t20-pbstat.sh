#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t20-pbstat.sh: pbstat's statistics against hand-computed values, its
# verdicts on clear and ambiguous inputs, and its refusal of bad input.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
P=$T_TMP/pbstat
t_build pbstat

# check WANT_RC WANT_LINE DESC ARGS...: run pbstat ARGS; pass when it exits
# WANT_RC, prints exactly WANT_LINE and nothing on stderr.
check() {
	local want_rc=$1 want=$2 desc=$3 got
	shift 3
	run_rc "$P" "$@"
	got="rc=$rc $(cat "$T_TMP/out")$(cat "$T_TMP/err")"
	is "$got" "rc=$want_rc $want" "$desc"
}

# field KEY ARGS...: print the value of KEY= in pbstat's output line.
field() {
	local key=$1
	shift
	"$P" "$@" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$key=//p"
}

# usage DESC ARGS...: pass when pbstat exits 2 with one "error:" line on
# stderr naming the offending token (the last word of DESC) and no stdout.
usage() {
	local desc=$1 tok
	shift
	tok=${desc##* }
	run_rc "$P" "$@"
	if [ "$rc" = 2 ] && [ "$(wc -l <"$T_TMP/err")" -eq 1 ] &&
		[ ! -s "$T_TMP/out" ] && grep -q 'pbstat: error: ' "$T_TMP/err" &&
		grep -qF -- "$tok" "$T_TMP/err"; then
		pass "usage error: $desc: $(cut -c1-70 "$T_TMP/err")"
	else
		fail "usage error: $desc: want exit 2 and one error line naming '$tok'"
		printf '#   got exit %s, stdout/stderr:\n' "$rc"
		sed 's/^/#   /' "$T_TMP/out" "$T_TMP/err" | head -5
	fi
}

# --- summary: median (odd/even), mean, sample sd, cv, MAD by hand -------
# 1 2 3 4 100: mean 22, sd sqrt(7610/4) = 43.6177, |x-3| = 2 1 0 1 97 -> 1
check 0 "n=5 median=3 mean=22 sd=43.6177 cv_pct=198.262 min=1 max=100 mad=1" \
	"summary, odd n: median, mean, sd (n-1), cv, MAD" summary 1 2 3 4 100
# 2 4 4 4 5 5 7 9: median 4.5, sd sqrt(32/7), |x-4.5| -> 0.5 x5 ... -> 0.5
check 0 "n=8 median=4.5 mean=5 sd=2.1381 cv_pct=42.762 min=2 max=9 mad=0.5" \
	"summary, even n: median of the middle pair, MAD 0.5" summary 2 4 4 4 5 5 7 9
check 0 "n=1 median=7 mean=7 sd=0 cv_pct=0 min=7 max=7 mad=0" \
	"summary of one value: sd 0" summary 7
check 0 "n=2 median=-1.25 mean=-1.25 sd=1.0607 cv_pct=84.853 min=-2 max=-0.5 mad=0.75" \
	"summary takes negative numbers" summary -0.5 -2

# --- Mann-Whitney U, exact -----------------------------------------------
is "$(field p calibrate --alpha 0.1 -g 4 5 6 -b 1 2 3)" 0.05 \
	"exact p, [1,2,3] < [4,5,6]: 1/C(6,3) = 0.05"
is "$(field p calibrate -g 4 5 6 7 8 -b 1 2 3)" 0.017857 \
	"exact p, 3 below 5: 1/C(8,3) = 1/56"
is "$(field p calibrate --alpha 0.5 -g 1 2 3 -b 4 5 6)" 1 \
	"exact p, wrong direction: 1"
# ranks 1 | 3 3 3 | 5 6; bad {1,2,2} has sum 7, 3 of the 20 subsets reach it
is "$(field p calibrate --alpha 0.5 -g 2 3 4 -b 1 2 2)" 0.15 \
	"exact p with ties (midranks): [1,2,2] < [2,3,4] = 3/20"
is "$(field p calibrate --alpha 0.5 -g 5 5 5 -b 5 5 5 5)" 1 \
	"exact p, all tied: 1"
is "$(field p effect -a 4 5 6 -b 1 2 3)" 0.1 \
	"two-sided exact p: 2/20"

# --- Mann-Whitney U, normal approximation (N > 40) ---------------------
# odd 1..41 vs even 2..42: U = 210, mu = 220.5, var = 21*21*43/12,
# z = (210 - 220.5 + 0.5) / 39.7524 = -0.25156, Phi(z) = 0.400692
mapfile -t odd < <(seq 1 2 41)
mapfile -t even < <(seq 2 2 42)
is "$(field p_good judge -g "${even[@]}" -b 0.1 0.2 0.3 -c "${odd[@]}")" 0.400692 \
	"normal approximation, 21 vs 21: p = 0.400692"
# 1x8 2x8 3x5 vs 1x4 2x6 3x6 4x5: U = 137, sum(t^3-t) = 5886,
# var = 441/12 * (43 - 5886/1722) = 1454.634, z = -2.1763, p = 0.01477
c=(1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3)
g=(1 1 1 1 2 2 2 2 2 2 3 3 3 3 3 3 4 4 4 4 4)
is "$(field p_good judge -g "${g[@]}" -b 0.1 0.2 0.3 -c "${c[@]}")" 0.01477 \
	"normal approximation with tie correction: p = 0.01477"

# Exact up to 40 samples in all (EXACT_MAX): 11 vs 12 (23), exact
# 0.034409, where the normal approximation gives 0.034716.
mapfile -t c11 < <(seq 1.5 1 11.5)
mapfile -t g12 < <(seq 4.25 1 15.25)
is "$(field p_good judge -g "${g12[@]}" -b 0.1 0.2 0.3 -c "${c11[@]}")" 0.034409 \
	"exact p at 23 samples in all: 0.034409 (not the normal 0.034716)"

# --- calibrate ---------------------------------------------------------
G=(100 102 98 101 99)
B=(80 82 79 81 78)
# MAD 1 both sides -> s = 1.4826; threshold midway; noise 1.4826/80
check 0 "good_median=100 bad_median=80 threshold=90 noise_pct=1.853 effect_pct=20 p=0.003968 separated=1" \
	"calibrate, separated ends: exit 0" calibrate -g "${G[@]}" -b "${B[@]}"
check 1 "good_median=100 bad_median=99 threshold=99.5 noise_pct=1.498 effect_pct=1 p=0.222222 separated=0" \
	"calibrate, overlapping ends: exit 1" calibrate -g "${G[@]}" -b 99 101 97 100 98
# spreads 6*1.4826 (g) and 1.4826 (b): threshold leans towards the tight side
is "$(field threshold calibrate -g 94 100 106 112 88 -b 79 80 81 82 78)" 82.8571 \
	"calibrate, threshold weighted by spread: (100*s_b + 80*s_g)/(s_g+s_b)"
is "$(field separated calibrate -g 100 100.5 101 101.5 102 -b 98.5 99 99.2 99.4 99.6)" 0 \
	"calibrate, apart and significant but effect 1.78% < --min-effect 2"
is "$(field separated calibrate --min-effect 1 -g 100 100.5 101 101.5 102 -b 98.5 99 99.2 99.4 99.6)" 1 \
	"calibrate, same with --min-effect 1: separated"
is "$(field separated calibrate -g 100 110 120 130 140 -b 60 70 80 90 105)" 0 \
	"calibrate, p < alpha but ranges overlap and effect < 2 x noise"
# one BAD sample above the lowest GOOD one: rank sum 16, p = 2/252
is "$(field separated calibrate -g "${G[@]}" -b 80 82 79 81 98.5)" 1 \
	"calibrate, ranges overlap but effect 20% > 2 x noise: separated"
is "$(field separated calibrate --alpha 0.005 -g "${G[@]}" -b 80 82 79 81 98.5)" 0 \
	"calibrate, same at --alpha 0.005 (p = 0.0079): not separated"
usage "5 vs 5 cannot reach --alpha 0.001" calibrate --alpha 0.001 -g "${G[@]}" -b "${B[@]}"

# --- judge -------------------------------------------------------------
check 1 "verdict=bad median=81 p_good=0.017857 p_bad=0.196429 threshold=90 confidence=0.982143 pos=0.0557 clear=0" \
	"judge, candidate like BAD: bad, exit 1" judge -g "${G[@]}" -b "${B[@]}" -c 81 80 83
check 0 "verdict=good median=100 p_good=0.589286 p_bad=0.017857 threshold=90 confidence=0.982143 pos=1 clear=0" \
	"judge, candidate like GOOD: good, exit 0" judge -g "${G[@]}" -b "${B[@]}" -c 99 101 100
check 3 "verdict=unsure median=90 p_good=0.017857 p_bad=0.017857 threshold=90 confidence=0 pos=0.5278 clear=0" \
	"judge, candidate midway: unsure, exit 3" judge -g "${G[@]}" -b "${B[@]}" -c 90 91 89
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 85 86 84)" bad \
	"judge, in the lower part of the span, significantly slower than GOOD: bad (drift-proof)"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 95 96 94)" good \
	"judge, in the upper part of the span, significantly faster than BAD: good (drift-proof)"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 88 89 87.5)" unsure \
	"judge, in the middle part of the span (log scale): unsure"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 81 100 80 99 90)" unsure \
	"judge, bimodal candidate at the threshold: unsure"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 81 99)" unsure \
	"judge, two samples that disagree: unsure"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 81 80 83 --threshold 75)" unsure \
	"judge, --threshold 75 puts median 81 on the good side: unsure"
# c 80 81 83 99 vs GOOD: ranks 1 2 3 5.5 (99 ties); 3 of C(9,4) = 126 subsets
# sum to 11.5 or less: p_good = 3/126 = 0.02381
is "$(field p_good judge -g "${G[@]}" -b "${B[@]}" -c 81 80 83 99)" 0.02381 \
	"judge, exact p_good with a tie against GOOD: 3/126"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 81 80 83 99)" bad \
	"judge, same candidate at alpha 0.05: bad"
is "$(field verdict judge --alpha 0.01 -g "${G[@]}" -b "${B[@]}" -c 81 80 83 99)" unsure \
	"judge, same candidate at --alpha 0.01: unsure"
usage "3 vs 5 cannot reach --alpha 0.01" judge --alpha 0.01 -g "${G[@]}" -b "${B[@]}" -c 81 80 83
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 60 61 62)" bad \
	"judge, candidate slower than BAD: bad"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 95.5 96 96.5 95)" good \
	"judge, candidate below GOOD (drift) but in the upper part of the span: good"
is "$(field verdict judge -g "${G[@]}" -b "${B[@]}" -c 97 99.5 101)" good \
	"judge, noisy candidate within GOOD's range: good"

# clear: GOOD at least 2.5 times BAD and the candidate in the outer fifth.
is "$(field clear judge -g 100 102 98 101 -b 40 41 39 40 -c 41 40 42)" 1 \
	"judge, 2.5x ends, candidate at BAD: clear"
is "$(field clear judge -g 100 102 98 101 -b 41 42 40 41 -c 41 40 42)" 0 \
	"judge, ends 2.45x apart: not clear (the ratio is 2.5, not 2.4)"
is "$(field clear judge -g 100 102 98 101 -b 40 41 39 40 -c 47 48 46)" 1 \
	"judge, candidate at 0.18 of the span: clear"
is "$(field clear judge -g 100 102 98 101 -b 40 41 39 40 -c 49 49.5 48.5)" 0 \
	"judge, candidate at 0.22 of the span: bad, but not clear (the side is 0.2, not 0.25)"

# --- ends --------------------------------------------------------------
check 0 "good_median=100 bad_median=50 ratio=2 large=1 reuse=0 apart=1 rounds=1 early=0 enough=0" \
	"ends, GOOD twice BAD: large, not enough to reuse" ends -g 100 99 101 -b 50 49 51
check 0 "good_median=100 bad_median=50.5 ratio=1.9802 large=0 reuse=0 apart=1 rounds=1 early=0 enough=0" \
	"ends, GOOD 1.98 times BAD: not large" ends -g 100 -b 50.5
check 0 "good_median=100 bad_median=40 ratio=2.5 large=1 reuse=1 apart=1 rounds=1 early=0 enough=0" \
	"ends, GOOD 2.5 times BAD: may reuse recent ends" ends -g 100 -b 40
# apart: every GOOD sample above every BAD one; rounds: always, or below
# --rounds-below times BAD; early: not rounds, large, apart, and --start
# samples against the fewer side's can reach p < 0.05 (4 vs 3: 1/35).
is "$(field apart ends -g 100 99 60 -b 50 49 59)" 1 "ends: apart (59 < 60)"
is "$(field apart ends -g 100 99 60 -b 50 49 60)" 0 "ends: not apart (60 = 60)"
is "$(field rounds ends --rounds-below 2.1 -g 100 -b 50)" 1 "ends --rounds-below 2.1: GOOD 2 times BAD goes in rounds"
is "$(field rounds ends --rounds-below 1.9 -g 100 -b 50)" 0 "ends --rounds-below 1.9: GOOD 2 times BAD does not"
is "$(field early ends --rounds-below 1.5 --start 4 -g 100 99 101 -b 50 49 51)" 1 \
	"ends: early with 3 samples a side, 4 a step (p 1/35)"
is "$(field early ends --rounds-below 1.5 --start 3 -g 100 99 101 -b 50 49 51)" 0 \
	"ends: not early at 3 a step against 3 (p 1/20)"
is "$(field early ends --rounds-below 2.1 --start 4 -g 100 99 101 -b 50 49 51)" 0 "ends: not early when the steps go in rounds"
is "$(field early ends --rounds-below 1.5 --start 4 -g 100 99 101 -b 50 49 102)" 0 "ends: not early when not apart"
is "$(field early ends --rounds-below 1.5 --start 4 -g 100 99 101 -b 51 50 52)" 0 "ends: not early below twice BAD"
is "$(field early ends --start 4 -g 100 99 101 -b 50 49 51)" 0 "ends: not early without --rounds-below (always rounds)"
is "$(field enough ends --start 4 -g 100 99 101 -b 50 49 51 48)" 1 "ends: enough, 4 a step against the fewer side's 3 (p 1/35)"
is "$(field enough ends --start 3 -g 100 99 101 -b 50 49 51)" 0 "ends: not enough, 3 a step against 3 (p 1/20 is not below 0.05)"
is "$(field enough ends --start 2 -g 1 1 1 1 1 1 1 1 -b 1 1 1 1 1 1 1 1)" 1 "ends: enough, 2 a step against 8 (p 1/45)"
is "$(field enough ends --start 1 -g 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 -b 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)" 0 \
	"ends: not enough, 1 a step against 19 (p 1/20)"
is "$(field enough ends --start 1 -g 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 -b 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)" 1 \
	"ends: enough, 1 a step against 20 (p 1/21)"
usage "ends without BAD: -b" ends -g 100
usage "ends --start 0" ends --start 0 -g 100 -b 50
usage "ends --rounds-below 0" ends --rounds-below 0 -g 100 -b 50

# --- effect ------------------------------------------------------------
# ratios b/a: 90 95 100 105 110 %, each 5 times; 5 vs 5 at 95%: k = 3
check 0 "ratio=1 delta_pct=0 p=1 ci_low_pct=-10 ci_high_pct=10" \
	"effect, Hodges-Lehmann/Moses CI, 5 vs 5: 3rd smallest/largest ratio" \
	effect -a 100 100 100 100 100 -b 90 95 100 105 110
check 0 "ratio=0.8 delta_pct=-20 p=0.007937 ci_low_pct=-22.549 ci_high_pct=-17.347" \
	"effect, 20% regression: p = 2/252, CI excludes 0" effect -a "${G[@]}" -b "${B[@]}"
check 0 "ratio=1.09901 delta_pct=9.901 p=0.1 ci_low_pct=7.843 ci_high_pct=12" \
	"effect, 3 vs 3: widest interval (min/max ratio)" \
	effect -a 100 101 102 -b 110 111 112
out1=$("$P" effect -a "${G[@]}" -b "${B[@]}")
out2=$("$P" effect -a "${G[@]}" -b "${B[@]}")
is "$out1" "$out2" "effect is deterministic"

# --- paired ------------------------------------------------------------
# log ratios +0.1, -0.1, 0: mean 0, sd 0.1, t(0.975, 2) = 4.302653,
# half width 0.1 * 4.302653 / sqrt(3) = 0.248414: exp(-+0.248414) - 1
check 0 "n=3 ratio=1 delta_pct=0 p=1 ci_low_pct=-21.996 ci_high_pct=28.199 sd_pct=10 separated=0 not_slower=0" \
	"paired, 3 rounds: t interval on the log ratios" \
	paired -a 100 100 100 -b 110.517091807565 90.483741803596 100
# log ratios ln 1.01 .. ln 1.04: mean 0.024633, sd 0.012601, t = 3.9098,
# t(0.975, 3) = 3.182446: exp(0.024633 -+ 0.020050) - 1
check 0 "n=4 ratio=1.024939 delta_pct=2.494 p=0.029697 ci_low_pct=0.46 ci_high_pct=4.569 sd_pct=1.26 separated=0 not_slower=1" \
	"paired, 4 rounds, significant: p from Student's t with 3 df" \
	paired -a 100 100 100 100 -b 101 102 103 104
# The drift of the rounds cancels: B is 0.8 x A in every round while the
# machine's speed triples.
check 0 "n=4 ratio=0.8 delta_pct=-20 p=0 ci_low_pct=-20 ci_high_pct=-20 sd_pct=0 separated=1 not_slower=0" \
	"paired, drift between rounds cancels" \
	paired -a 100 150 200 300 -b 80 120 160 240
is "$(field ci_high_pct paired --alpha 0.01 -a 100 100 100 -b 110.517091807565 90.483741803596 100)" 77.36 \
	"paired, --alpha 0.01: t(0.995, 2) = 9.924843"
# separated: p below alpha, the interval below 0 and the estimate below
# -min_effect; not_slower: the interval above -min_effect.
is "$(field separated paired --min-effect 19 -a 100 150 200 300 -b 80 120 160 240)" 1 \
	"paired, separated: 20% slower, --min-effect 19"
is "$(field separated paired --min-effect 21 -a 100 150 200 300 -b 80 120 160 240)" 0 \
	"paired, not separated: 20% slower, --min-effect 21"
# -5.4%: p = 0.0099 < 0.05, interval -8.2..-2.5%: separated at 5, not at
# 6; not slower by 9 (the interval's low end is above -9%), but may be by 8.
is "$(field separated paired --min-effect 5 -a 100 100 100 100 -b 97 93 95 93.5)" 1 \
	"paired, separated: the estimate -5.4% below -5%, the interval below 0"
is "$(field separated paired --min-effect 6 -a 100 100 100 100 -b 97 93 95 93.5)" 0 \
	"paired, not separated: the estimate -5.4% above -6%"
is "$(field not_slower paired --min-effect 6 -a 100 100 100 100 -b 97 93 95 93.5)" 0 \
	"paired, not not_slower at 6: the interval reaches -8.2%"
is "$(field not_slower paired --min-effect 9 -a 100 100 100 100 -b 97 93 95 93.5)" 1 \
	"paired, not_slower at 9: the interval's low end -8.2% is above -9%"
# At a minimum effect of 0 (the culprit's confirmation) the interval must
# lie below 0: +2.5%, p = 0.03, is not slower.
is "$(field separated paired --min-effect 0 -a 100 100 100 100 -b 101 102 103 104)" 0 \
	"paired, --min-effect 0: faster is not separated"
is "$(field not_slower paired --min-effect 0 -a 100 100 100 100 -b 101 102 103 104)" 1 \
	"paired, --min-effect 0: the interval above 0 is not_slower"
is "$(field separated paired --alpha 0.005 --min-effect 2 -a 100 100 100 100 -b 97 93 95 93.5)" 0 \
	"paired, not separated at --alpha 0.005 (p = 0.0099)"
# --tolerance (validate -x): beyond when the whole interval (-8.193 ..
# -2.497%) lies below -T, within when its low end is at or above -T, else
# unsure; resolves_pct is half the interval's width.
tolcase() {
	is "$(field tol paired --tolerance "$1" -a 100 100 100 100 -b 97 93 95 93.5)" "$2" \
		"paired --tolerance $1: $2 ($3)"
}
tolcase 2 beyond "the interval's high end -2.497% is below -2%"
tolcase 2.49 beyond "-2.497% is below -2.49%"
tolcase 2.5 unsure "-2.497% is above -2.5%, -8.193% below"
tolcase 8.19 unsure "the low end -8.193% is below -8.19%"
tolcase 8.2 within "the low end -8.193% is above -8.2%"
tolcase 0 beyond "slower at all"
is "$(field tol paired --tolerance 2 -a 100 100 100 100 -b 101 102 103 104)" within \
	"paired --tolerance 2: faster (0.46 .. 4.569%) is within"
is "$(field tol paired --tolerance 0 -a 100 100 100 100 -b 101 102 103 104)" within \
	"paired --tolerance 0: an interval above 0 is within"
is "$(field resolves_pct paired --tolerance 2 -a 100 100 100 100 -b 97 93 95 93.5)" 2.848 \
	"paired --tolerance: resolves half the interval's width, (8.193 - 2.497) / 2"
is "$(field tol paired --tolerance 2 --alpha 0.0001 -a 100 100 100 100 -b 97 93 95 93.5)" unsure \
	"paired --tolerance 2 at --alpha 0.0001: the wider interval straddles -2%"
is "$(field tol paired -a 100 100 100 100 -b 97 93 95 93.5)" "" "paired without --tolerance: no tol field"
usage "paired --tolerance 100" paired --tolerance 100 -a 100 100 -b 100 100
usage "paired --tolerance -1" paired --tolerance -1 -a 100 100 -b 100 100
usage "detcmp --tolerance" detcmp --tolerance 2 -a 100 -b 90
usage "paired with unequal lists: round" paired -a 100 100 100 -b 100 100
usage "paired with one round, 1 sample" paired -a 100 -b 100

# --- place -------------------------------------------------------------
# Student's t with 2 df: two-sided p = 1 - t / sqrt(2 + t^2).
# BAD is half of GOOD in each round while the machine's speed triples; the
# candidate's log ratio to BAD (or GOOD) is +0.1, -0.1, 0. Then
# s = 2 ln C - ln G - ln B is -+ln 2 + 0.2, -0.2, 0: mean -+0.693147, sd
# 0.2, t = 0.693147 / (0.2 / sqrt 3) = 6.0028, one-sided
# p = (1 - 6.0028 / sqrt(38.0336)) / 2 = 0.013324.
e1=1.10517091807565 e2=0.90483741803596
m() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.10f", a * b }'; }
check 1 "verdict=bad n=3 pos=0 p_ends=0 p_near_good=0.986676 p_near_bad=0.013324 span_pct=100" \
	"place, candidate like BAD in every round: bad" \
	place -g 100 200 300 -b 50 100 150 -c "$(m 50 $e1)" "$(m 100 $e2)" 150
check 0 "verdict=good n=3 pos=1 p_ends=0 p_near_good=0.013324 p_near_bad=0.986676 span_pct=100" \
	"place, candidate like GOOD in every round: good" \
	place -g 100 200 300 -b 50 100 150 -c "$(m 100 $e1)" "$(m 200 $e2)" 300
# Halfway on a log scale: s = 0.2, -0.2, 0, mean 0: nearer neither end,
# though significantly unlike both.
check 3 "verdict=unsure n=3 pos=0.5 p_ends=0 p_near_good=0.5 p_near_bad=0.5 span_pct=100" \
	"place, candidate halfway: unsure" \
	place -g 100 100 100 -b 50 50 50 -c "$(m 70.7106781187 $e1)" "$(m 70.7106781187 $e2)" 70.7106781187
# Significantly nearer BAD in every round, but at 0.49 of the span: unsure.
check 3 "verdict=unsure n=3 pos=0.4854 p_ends=0 p_near_good=1 p_near_bad=0 span_pct=100" \
	"place, significant but not in the outer part of the span: unsure" \
	place -g 100 100 100 -b 50 50 50 -c 70 70 70
check 3 "verdict=unsure n=3 pos=0.5 p_ends=0.5 p_near_good=0.5 p_near_bad=0.5 span_pct=0" \
	"place, ends not separated in the rounds: unsure" \
	place -g 100 100 100 -b "$(m 100 $e1)" "$(m 100 $e2)" 100 -c 100 100 100
# The outer part of the span is 0.35 of it on each side (JUDGE_SIDE), on
# a log scale: BAD 50, GOOD 100, rounds that agree exactly.
is "$(field verdict place -g 100 100 100 -b 50 50 50 -c 62.42 62.42 62.42)" bad \
	"place, at 0.32 of the span: bad (the side is 0.35, not 0.30)"
is "$(field verdict place -g 100 100 100 -b 50 50 50 -c 65.05 65.05 65.05)" unsure \
	"place, at 0.38 of the span: unsure (the side is 0.35, not 0.42; 0.30 on a linear scale)"
is "$(field verdict place -g 100 100 100 -b 50 50 50 -c 80.11 80.11 80.11)" good \
	"place, at 0.68 of the span: good"
is "$(field verdict place -g 100 100 100 -b 50 50 50 -c 76.85 76.85 76.85)" unsure \
	"place, at 0.62 of the span: unsure"
# Ends that the rounds do not separate (p_ends 0.19): no verdict, even for
# a candidate significantly nearer BAD at 0.30 of the span.
is "$(field verdict place -g 100 100 100 -b 50 95 99 -c 67.27 92.71 94.65)" unsure \
	"place, candidate nearer BAD but the ends not separated: unsure"

# --- sprt --------------------------------------------------------------
# Pool: 4 end pairs with d = ln G - ln B = 0.6, 0.7, 0.8, 0.7: span 0.7,
# one boot's sd 0.0816497 / sqrt(2) = 0.0577350. One round at GOOD's
# level, one candidate boot: s = ln C - (ln G + ln B) / 2 = 0.35, weight
# w = 1 / (1/1 + 1/2) = 2/3 against an end pair's 1/2. The span fitted
# with the round at +D/2: (1.4 + w 0.35 / 2) / (2 + w / 4) = 0.7, residual
# sum of squares 0.02 / 2 = 0.01; at -D/2: 0.592308, RSS 0.311538.
# llr = (4 + 0 + 1 - 1) / 2 * ln(0.311538 / 0.01) = 6.8779, above
# ln(0.99 / 0.01) = 4.5951. The same figure came from integrating the
# two likelihoods over D and ln v on a grid (6.8782).
PG=(100 100 100 100)
PB=(54.8811636094 49.6585303791 44.9328964117 49.6585303791)
b7=49.6585303791
check 0 "verdict=good n=1 k=1 pool=4 cand_pairs=0 pos=1 llr=6.8779 bound=4.5951 span_pct=101.375 sd_boot_pct=5.774" \
	"sprt, one round at GOOD's level, a pool of 4: good" \
	sprt -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c 100
is "$(field llr sprt -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c "$b7")" -6.8779 \
	"sprt, one round at BAD's level: llr -6.8779"
check 1 "verdict=bad n=1 k=1 pool=4 cand_pairs=0 pos=0 llr=-6.8779 bound=4.5951 span_pct=101.375 sd_boot_pct=5.774" \
	"sprt, one round at BAD's level: bad" \
	sprt -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c "$b7"
# Two candidate boots a round (step.sh's C G B C): w = 1 / (1/2 + 1/2) =
# 1, llr = 2 * ln(RSS_bad / RSS_good) = 7.5935 (grid: 7.5941).
is "$(field llr sprt --cand-boots 2 -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c 100 100)" 7.5935 \
	"sprt --cand-boots 2, one round at GOOD's level: llr 7.5935"
# Pairs of candidate boots in the pool (-C) add to the spread's degrees of
# freedom: two pairs that agree (100 100, 90 90) add nothing to either
# RSS and 2 to the exponent: llr = 3 * ln(RSS_bad / RSS_good) = 11.3902
# (grid: 11.3902).
check 0 "verdict=good n=1 k=2 pool=4 cand_pairs=2 pos=1 llr=11.3902 bound=4.5951 span_pct=101.375 sd_boot_pct=4.472" \
	"sprt, candidate pairs in the pool: the spread from 3 + 2 df" \
	sprt --cand-boots 2 -G "${PG[@]}" -B "${PB[@]}" -C 100 100 90 90 -g 100 -b "$b7" -c 100 100
# Pairs that disagree widen it: 100 against 80 (ln 1.25 = 0.2231436) adds
# 0.0497931 to the sum of squares: 0.0697931 over 4 df, a pair's variance
# 0.0174483, one boot's sd sqrt(0.0174483 / 2) = 0.0934031; the llr falls
# from 7.5935 to 6.5033.
is "$(field sd_boot_pct sprt --cand-boots 2 -G "${PG[@]}" -B "${PB[@]}" -C 100 80 -g 100 -b "$b7" -c 100 100)" 9.34 \
	"sprt, a candidate pair 25% apart: one boot's sd 9.34%"
is "$(field llr sprt --cand-boots 2 -G "${PG[@]}" -B "${PB[@]}" -C 100 80 -g 100 -b "$b7" -c 100 100)" 6.5033 \
	"sprt, a candidate pair 25% apart: llr 6.5033"
usage "sprt with an odd -C: pairs" sprt --cand-boots 2 -G "${PG[@]}" -B "${PB[@]}" -C 100 -g 100 -b "$b7" -c 100 100
# One boot at each end's level: their mean is halfway, s = 0.
is "$(field llr sprt --cand-boots 2 -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c 100 "$b7")" 0 \
	"sprt --cand-boots 2, the candidate's boots at GOOD's and BAD's level: llr 0"
is "$(field verdict sprt --cand-boots 2 -G "${PG[@]}" -B "${PB[@]}" -g 100 100 -b "$b7" "$b7" -c 100 100 "$b7" "$b7")" more \
	"sprt --cand-boots 2, the candidate's rounds at either end's level: more"
# Halfway on a log scale (sqrt(100 * 49.6585) = 70.4688): s = 0, llr 0.
is "$(run_rc "$P" sprt -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c 70.4688; echo "$rc $(sed 's/ .*//' "$T_TMP/out")")" \
	"4 verdict=more" "sprt, halfway: one more round (exit 4)"
is "$(run_rc "$P" sprt --max-rounds 1 -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c 70.4688; echo "$rc $(sed 's/ .*//' "$T_TMP/out")")" \
	"3 verdict=unsure" "sprt, halfway at --max-rounds: unsure (exit 3)"
# 0.4 of the span every round: s = 0.28 - 0.35 = -0.07, far from both
# levels (+-0.35) for a pool whose boots agree within 0.058: each round
# widens the spread the fits see, and the evidence grows slowly. llr
# -1.4214 after one round, -4.3417 after 8, -4.7448 after 9 (grid: the
# same): bad at 9 rounds, not before (--max-rounds 10; the default, 6,
# would end it unsure); at --alpha 0.001 (bound 6.9068) not at 9.
c3=$(awk 'BEGIN { printf "%.10f", 49.6585303791 * exp(0.28) }')
rep() { local i; for ((i = 0; i < $1; i++)); do printf '%s ' "$2"; done; }
read -r -a R8 < <(rep 8 100)
read -r -a B8 < <(rep 8 "$b7")
read -r -a C8 < <(rep 8 "$c3")
is "$(field llr sprt -G "${PG[@]}" -B "${PB[@]}" -g 100 -b "$b7" -c "$c3")" -1.4214 \
	"sprt, 0.4 of the span, one round: llr -1.4214"
is "$(field verdict sprt --max-rounds 10 -G "${PG[@]}" -B "${PB[@]}" -g "${R8[@]}" -b "${B8[@]}" -c "${C8[@]}")" more \
	"sprt, 0.4 of the span, 8 rounds: more"
is "$(field verdict sprt --max-rounds 10 -G "${PG[@]}" -B "${PB[@]}" -g "${R8[@]}" 100 -b "${B8[@]}" "$b7" -c "${C8[@]}" "$c3")" bad \
	"sprt, 0.4 of the span, 9 rounds: bad"
is "$(field verdict sprt --max-rounds 10 --alpha 0.001 -G "${PG[@]}" -B "${PB[@]}" -g "${R8[@]}" 100 -b "${B8[@]}" "$b7" -c "${C8[@]}" "$c3")" more \
	"sprt, the same at --alpha 0.001 (bound 6.9068): more"
# Futility: a pool whose span (2%) is within its spread (ln G - ln B = 0.1,
# -0.08, 0.12, -0.06: sd 0.1046, one boot's 0.0740): 9 more rounds could
# give 2 * 9 * 0.02^2 / (2 * 0.0740^2 * 1.5) = 0.44, not 4.6: unsure after
# the first round, not after the tenth.
read -r -a FB < <(awk 'BEGIN { printf "%.10f %.10f %.10f %.10f", 100 * exp(-0.1), 100 * exp(0.08), 100 * exp(-0.12), 100 * exp(0.06) }')
is "$(run_rc "$P" sprt --max-rounds 10 -G 100 100 100 100 -B "${FB[@]}" -g 100 -b 98 -c 99; echo "$rc $(sed 's/ .*//' "$T_TMP/out")")" \
	"3 verdict=unsure" "sprt, a span within the noise: unsure in the first round (futile)"
# The same candidate with ends further apart: ln G - ln B = 0.15, -0.05,
# 0.17, -0.07 (span 0.05, pair sd 0.1275, one boot's 0.0902): 9 rounds
# could give 2 * 9 * 0.05^2 / (2 * 0.0902^2 * 1.5) = 1.84, below 4.6:
# still futile; with the same spread around a span of 0.1 (7.4 possible):
# one more round.
read -r -a FB < <(awk 'BEGIN { printf "%.10f %.10f %.10f %.10f", 100 * exp(-0.15), 100 * exp(0.05), 100 * exp(-0.17), 100 * exp(0.07) }')
is "$(field verdict sprt --max-rounds 10 -G 100 100 100 100 -B "${FB[@]}" -g 100 -b 98 -c 99)" unsure \
	"sprt, a 5% span with a 9% spread: futile"
read -r -a FB < <(awk 'BEGIN { printf "%.10f %.10f %.10f %.10f", 100 * exp(-0.2), 100 * exp(0), 100 * exp(-0.22), 100 * exp(0.02) }')
is "$(field verdict sprt --max-rounds 10 -G 100 100 100 100 -B "${FB[@]}" -g 100 -b 98 -c 99)" more \
	"sprt, a 10% span with a 9% spread: one more round"
# The pool is what estimates the span: fewer than 3 pairs, no verdict.
is "$(field verdict sprt -G 100 100 -B 50 50 -g 100 -b 50 -c 100)" more \
	"sprt, a pool of 2 pairs: more"
is "$(field verdict sprt -G 100 100 100 -B 50 50 50 -g 100 -b 50 -c 100)" good \
	"sprt, boots that agree exactly: the sign of s decides"
usage "sprt with unequal pool lists: pair" sprt -G 100 100 100 -B 50 50 -g 100 -b 50 -c 100
usage "sprt with unequal round lists: round" sprt -g 100 100 -b 50 -c 100
usage "sprt --cand-boots 2 with one candidate value a round: of the candidate" sprt --cand-boots 2 -g 100 -b 50 -c 100
usage "sprt --cand-boots 5: from 1 to 4" sprt --cand-boots 5 -g 100 -b 50 -c 100 100 100 100 100
usage "sprt --max-rounds 0" sprt --max-rounds 0 -g 100 -b 50 -c 100
usage "sprt --max-rounds 2.5" sprt --max-rounds 2.5 -g 100 -b 50 -c 100
usage "sprt --alpha 0.3: below 0.2" sprt --alpha 0.3 -g 100 -b 50 -c 100
usage "place with unequal lists: round" place -g 100 100 100 -b 50 50 50 -c 70 70 70 70
usage "place with 2 rounds: required" place -g 100 100 -b 50 50 -c 70 70

# --- search: a probabilistic bisection over every round -----------------
# Two commits (culprit 1 or 2), one round at commit 1: the posterior odds
# of culprit 2 are the sprt's likelihood ratio above, e^6.8779, so
# p_culprit = 1 / (1 + e^-6.8779) = 0.998971, above 1 - 0.005: bad.
check 1 "verdict=bad n=1 budget=10 culprit=2 p_culprit=0.998971 query=1 p_before=0.001029 culprits=2 pool=4 cand_pairs=0 span_pct=101.375 sd_boot_pct=5.774" \
	"search, 2 commits, commit 1 at GOOD's level: the culprit is 2, with the sprt's odds" \
	search --commits 2 -G "${PG[@]}" -B "${PB[@]}" -a 1 -g 100 -b "$b7" -c 100
# Eight commits, commit 4 at BAD's level: culprits 1-4 share those odds
# (0.998971 / 4 = 0.249743 each), and the next commit is 2, where
# P(culprit <= 2) = 0.499485 is nearest one half.
check 4 "verdict=more n=1 budget=30 culprit=1 p_culprit=0.249743 query=2 p_before=0.499485 culprits=8 pool=4 cand_pairs=0 span_pct=101.375 sd_boot_pct=5.774" \
	"search, 8 commits, commit 4 at BAD's level: the culprit is 1-4, boot 2 next" \
	search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -a 4 -g 100 -b "$b7" -c "$b7"
is "$(field culprit search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -a 4 -g 100 -b "$b7" -c 100):$(field query search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -a 4 -g 100 -b "$b7" -c 100)" 5:6 \
	"search, commit 4 at GOOD's level: the culprit is 5-8, boot 6 next"
# Rounds at 4 (bad), 2 (good) and 3 (bad): only culprit 3 fits.
is "$(field culprit search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -a 4 2 3 -g 100 100 100 -b "$b7" "$b7" "$b7" -c "$b7" 100 "$b7")" 3 \
	"search, commit 2 good and commits 3 and 4 bad: the culprit is 3"
# Evidence is kept across commits: two rounds at commit 1 that each lean
# a little to GOOD's level add up, so the odds grow with every round.
lean=(-G "${PG[@]}" -B "${PB[@]}" -g 100 100 -b "$b7" "$b7")
awk -v a="$(field p_culprit search --commits 2 "${lean[@]:0:10}" -a 1 -g 100 -b "$b7" -c 75)" \
	-v b="$(field p_culprit search --commits 2 "${lean[@]}" -a 1 1 -c 75 75)" 'BEGIN { exit !(a > 0.5 && b > a) }' &&
	pass "search, a second round leaning the same way raises the posterior" ||
	fail "search, a second round leaning the same way raises the posterior"
# No rounds yet: every culprit alike, the middle commit first; a commit
# that did not build is never asked for; none left to boot, or the
# budget (R rounds a halving) spent: unsure.
check 4 "verdict=more n=0 budget=30 culprit=1 p_culprit=0.125 query=4 p_before=0.5 culprits=8 pool=4 cand_pairs=0 span_pct=101.375 sd_boot_pct=5.774" \
	"search, no rounds: boot the middle commit" search --commits 8 -G "${PG[@]}" -B "${PB[@]}"
is "$(field query search --commits 8 -s 4 -G "${PG[@]}" -B "${PB[@]}")" 3 "search, the middle commit skipped: the nearest below it"
is "$(field verdict search --commits 3 -s 1 2 -G "${PG[@]}" -B "${PB[@]}")" unsure "search, every commit skipped: unsure"
check 3 "verdict=unsure n=1 budget=1 culprit=1 p_culprit=0.5 query=1 p_before=0.5 culprits=2 pool=4 cand_pairs=0 span_pct=101.375 sd_boot_pct=5.774" \
	"search, one round halfway, budget 1 round: unsure" \
	search --commits 2 --max-rounds 1 -G "${PG[@]}" -B "${PB[@]}" -a 1 -g 100 -b "$b7" -c 70.4688089718
# Commits that build their parent's kernel (-z) are no culprit: with 2
# and 3 out, culprits 1 and 4 share the odds of BAD's level, each
# 1 / (2 + 4 e^-6.8779) = 0.498972, and commit 1 is asked next (2 and 3
# split the same way, and build its kernel); the budget is 3 halvings
# of the 6 culprits left.
check 4 "verdict=more n=1 budget=30 culprit=1 p_culprit=0.498972 query=1 p_before=0.498972 culprits=6 pool=4 cand_pairs=0 span_pct=101.375 sd_boot_pct=5.774" \
	"search, commits 2 and 3 build commit 1's kernel: culprit 1 or 4, boot 1 next" \
	search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -a 4 -g 100 -b "$b7" -c "$b7" -z 2 3
is "$(field query search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -z 5 6 7 8)" 2 \
	"search, no rounds, 5-8 build their parents' kernels: the middle of 1-4"
is "$(field verdict search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -z 1 2 3 4 6 7 8):$(field culprit search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -z 1 2 3 4 6 7 8)" bad:5 \
	"search, one commit changes the kernel: it is the culprit without a round"
is "$(field culprits search --commits 3 -G "${PG[@]}" -B "${PB[@]}" -z 1 2 3)" 3 \
	"search, -z naming every commit is ignored (GOOD and BAD differ)"
# Below 3 end pairs, no answer however clear the rounds.
is "$(field verdict search --commits 2 -G 100 100 -B "$b7" "$b7" -a 1 -g 100 -b "$b7" -c 100)" more \
	"search, 2 end pairs: no answer yet"
usage "search without --commits" search -G "${PG[@]}" -B "${PB[@]}"
usage "search, a commit past the range: 8" search --commits 8 -G "${PG[@]}" -B "${PB[@]}" -a 8 -g 100 -b "$b7" -c 100
usage "search, a commit that is no whole number: 2.5" search --commits 8 -a 2.5 -g 100 -b "$b7" -c 100
usage "search, a round without its commit: -a" search --commits 8 -a 2 -g 100 100 -b "$b7" "$b7" -c 100 100
usage "search, --alpha 0.3: 0.2" search --commits 8 --alpha 0.3
usage "search, --commits 1: --commits" search --commits 1
usage "search, -z past BAD: 9" search --commits 8 -z 9
usage "search, -z at GOOD: 0" search --commits 8 -z 0

# --- bad input ---------------------------------------------------------
usage "non-numeric abc" summary 1 2 abc
usage "not a number nan" summary 1 nan 2
usage "exponent 1e5" summary 1 2 1e5
usage "infinity inf" calibrate -g 1 2 3 4 -b inf 1 2 3
usage "plus sign +5" summary 1 +5
usage "trailing dot 5." summary 1 5.
usage "empty list -g" calibrate -g -b 1 2 3
usage "empty value ''" summary 1 ''
usage "empty summary values" summary
usage "too few GOOD -g" calibrate -g 1 2 -b 3 4 5
usage "3 vs 3 cannot reach alpha 0.05" calibrate -g 4 5 6 -b 1 2 3
usage "1 candidate vs 5 -c/-g" judge -g "${G[@]}" -b "${B[@]}" -c 81
usage "no candidate -c" judge -g "${G[@]}" -b "${B[@]}"
usage "zero throughput '0'" judge -g "${G[@]}" -b "${B[@]}" -c 0 80 81
usage "negative throughput '-3'" calibrate -g "${G[@]}" -b "${B[@]}" -3
usage "unknown option -x" judge -g "${G[@]}" -b "${B[@]}" -c 1 2 3 -x
usage "option of another command --threshold" calibrate --threshold 5 -g "${G[@]}" -b "${B[@]}"
usage "alpha out of range 1.5" judge --alpha 1.5 -g "${G[@]}" -b "${B[@]}" -c 1 2 3
usage "alpha without value --alpha" judge -g "${G[@]}" -b "${B[@]}" -c 1 2 3 --alpha
usage "value before any list 42" judge 42 -g "${G[@]}" -b "${B[@]}" -c 1 2 3
usage "unknown command frobnicate" frobnicate 1 2 3
usage "no command usage"

# Deterministic mode (detcmp, detplace): boot medians, eps from their
# spread (1.5 times, at least 0.25%), the ends at least 4 eps apart.
check 0 "n_a=2 n_b=2 median_a=1000 median_b=970 delta_pct=-3 spread_pct=0 eps_pct=0.25 min_effect=1 threshold=984.8858 slower=1 within=0" \
	"detcmp: a 3% loss between identical boots is slower" detcmp --min-effect 1 -a 1000 1000 -b 970 970
is "$(field eps_pct detcmp -a 1000 1010 -b 970 970)" 1.5 "detcmp: eps is 1.5 times the widest spread (1%)"
is "$(field eps_pct detcmp --eps 2 -a 1000 1000 -b 970 970)" 2 "detcmp: --eps raises eps"
# min effect 1% + eps 0.25%: ln(1.0125..) is the bar; 1.2% is below it.
is "$(field slower detcmp --min-effect 1 -a 1000 -b 988)" 0 "detcmp: 1.2% is not above 1% + eps"
is "$(field slower detcmp --min-effect 1 -a 1000 -b 986)" 1 "detcmp: 1.4% is above 1% + eps"
# 4 eps: with eps 1%, 3.5% is not enough room even with no minimum effect.
is "$(field slower detcmp --min-effect 0 --eps 1 -a 1000 -b 965)" 0 "detcmp: the ends must be 4 eps apart"
is "$(field slower detcmp --min-effect 0 --eps 1 -a 1000 -b 955)" 1 "detcmp: 4.5% with eps 1% is apart"
is "$(field within detcmp --min-effect 2 -a 1000 -b 990)" 1 "detcmp: 1% is within a 2% tolerance"
is "$(field within detcmp --min-effect 2 -a 1000 -b 979)" 0 "detcmp: 2.1% is not within a 2% tolerance"
is "$(field within detcmp --min-effect 2 -a 1000 -b 1100)" 1 "detcmp: faster is within"
check 0 "verdict=good median=997 pos=0.9014 eps_pct=0.25 spread_pct=0 span_pct=3.093" \
	"detplace: near GOOD is good" detplace -g 1000 1000 -b 970 970 -c 997
check 1 "verdict=bad median=975 pos=0.1688 eps_pct=0.25 spread_pct=0 span_pct=3.093" \
	"detplace: near BAD is bad" detplace -g 1000 1000 -b 970 970 -c 975
check 3 "verdict=unsure median=985 pos=0.5038 eps_pct=0.25 spread_pct=0 span_pct=3.093" \
	"detplace: the middle is unsure" detplace -g 1000 1000 -b 970 970 -c 985
# On a log scale: the middle of 1000 and 250 is 500, not 625.
is "$(field verdict detplace -g 1000 -b 250 -c 560)" good "detplace: judged on a log scale (560 is above the geometric middle)"
is "$(field verdict detplace -g 1000 -b 250 -c 450)" bad "detplace: 450 is below the geometric middle"
# The candidate's own spread widens eps: 2 boots 6% apart leave 985 unsure
# where one boot of 988 would be good.
is "$(field verdict detplace -g 1000 -b 900 -c 960)" good "detplace: one boot at 960 of 900..1000 is good"
is "$(field verdict detplace -g 1000 -b 900 -c 930 990)" unsure "detplace: a candidate whose boots disagree by 6% is unsure"
# --threshold (bisect.sh -x): the threshold takes the middle's place, with
# the same eps band (0.25%) around it.
check 0 "verdict=good median=985 pos=0.5038 eps_pct=0.25 spread_pct=0 span_pct=3.093 threshold=980" \
	"detplace --threshold 980: the ends' middle (985) is good" detplace --threshold 980 -g 1000 1000 -b 970 970 -c 985
is "$(field verdict detplace --threshold 990 -g 1000 -b 970 -c 985)" bad "detplace --threshold 990: 985 is bad"
is "$(field verdict detplace --threshold 986 -g 1000 -b 970 -c 985)" unsure "detplace --threshold 986: 0.1% below it is within eps"
is "$(field verdict detplace --threshold 988 -g 1000 -b 970 -c 985)" bad "detplace --threshold 988: 0.3% below it is beyond eps"
is "$(field verdict detplace --threshold 982 -g 1000 -b 970 -c 985)" good "detplace --threshold 982: 0.3% above it is beyond eps"
usage "detplace --threshold 0" detplace --threshold 0 -g 1000 -b 970 -c 985
usage "ends closer than 4 eps 1.523" detplace --eps 0.5 -g 1000 -b 985 -c 990
usage "eps out of range 100" detcmp --eps 100 -a 1 -b 1

# --- level: boots against a threshold the user gave ---------------------
# 110, 120, 115 against 100: ln ratios 0.0953102, 0.1823216, 0.1397619,
# mean 0.1391312, sd 0.043509, t = 0.1391312 / (0.043509 / sqrt 3) =
# 5.5387 with 2 df: two-sided p = 1 - t / sqrt(2 + t^2) = 0.031086.
check 3 "verdict=unsure n=3 median=115 threshold=100 mean_pct=14.927 sd_pct=4.351 t=5.5387 p=0.031086 p_look=0.02 looks=1" \
	"level, one look at 1% each way: p 0.031 is not enough (unsure at the last boot)" \
	level --max-rounds 3 --threshold 100 -c 110 120 115
is "$(field verdict level --max-rounds 3 --alpha 0.02 --threshold 100 -c 110 120 115)" good \
	"level, one look at 2% each way: good"
# The error is spent over the looks: two looks at 2% each way give each
# look 0.02, and p 0.031 waits for another boot.
is "$(run_rc "$P" level --max-rounds 4 --alpha 0.02 --threshold 100 -c 110 120 115; echo "$rc $(field p_look level --max-rounds 4 --alpha 0.02 --threshold 100 -c 110 120 115)")" \
	"4 0.02" "level, two looks: p < 0.02 at each, so one more boot (exit 4)"
check 1 "verdict=bad n=4 median=89.75 threshold=100 mean_pct=-10.383 sd_pct=1.538 t=-14.2524 p=0.000748 p_look=0.0025 looks=8" \
	"level, 4 boots 10% below the threshold, 8 looks: bad" level --threshold 100 -c 91 89 90.5 88
is "$(run_rc "$P" level --threshold 100 -c 200 300; echo "$rc $(sed 's/ .*//' "$T_TMP/out")")" "4 verdict=more" \
	"level, 2 boots far above: at least 3 boots, one more (exit 4)"
is "$(field verdict level --threshold 100 -c 120 120 120)" good "level, boots that agree exactly: their side decides"
# Futility: 101, 99, 100.5 against 100 (mean 0.163%, sd 1.041%): at 10
# boots t would be 0.00163 / 0.01041 * sqrt(10) = 0.50; twice that is
# below the last look's critical t (9 df, two-sided p 0.0025: 4.1458):
# unsure at once.
is "$(run_rc "$P" level --threshold 100 -c 101 99 100.5; echo "$rc $(sed 's/ .*//' "$T_TMP/out")")" "3 verdict=unsure" \
	"level, 3 boots within 1% of the threshold, 10 at most: unsure at once (futile)"
# 104, 99, 103 (mean 1.977%, sd 2.611%): 2 * 2.37 = 4.74 is above 4.1458:
# one more.
is "$(run_rc "$P" level --threshold 100 -c 104 99 103; echo "$rc $(sed 's/ .*//' "$T_TMP/out")")" "4 verdict=more" \
	"level, 3 boots 2% above with a 2.6% spread: one more boot"
# On a log scale: 150, 200 and 266.67 have a geometric mean of 200 (not 205.6).
is "$(field mean_pct level --threshold 200 -c 150 200 266.6666667)" 0 "level: a log scale (geometric mean 200 against 200)"
usage "level without --threshold: is required" level -c 110 120 115
usage "level --max-rounds 2: at least 3" level --max-rounds 2 --threshold 100 -c 110
usage "level --threshold 0: not positive" level --threshold 0 -c 110
usage "level --alpha 0.2: below 0.2" level --alpha 0.2 --threshold 100 -c 110

# checkpatch.pl on pbstat.c: tests/t05-lint.sh.
done_testing
