#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t21-decisions.sh: the decision rules of a bisect in rounds, simulated
# over whole bisects with pbsim (bisect/decide.c, the code pbstat runs):
# the bounds they must keep, stated here, and pbsim's refusal of bad input.
# Bounds (1000 simulated bisects a cell, fixed seed): at most 1% of the
# bisects name a wrong culprit and at most 1% of the steps are decided
# wrongly, in every cell; the sequential rule decides more steps than the
# fixed-sample rule before it, in fewer rounds. Salted deterministic boots
# (pbsim --salted 1): at most 1% wrong culprits and 1.5% wrong steps a
# cell, at least 95% of the bisects decided at 3%/sigma 0.006 and
# 5%/sigma 0.01; with a threshold (--rule level --salted 1): at most 1%
# wrong, at least 95% decided at 5%/sigma 0.008. The search (--rule
# search): see its bounds below.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
S=$T_TMP/pbsim
t_build pbsim

# col TABLE SIZE SIGMA N: column N of a cell.
col() {
	awk -v s="$2" -v g="$3" -v c="$4" '$1 == s && $2 == g { print $c }' "$1"
}
# at_most VALUE BOUND DESC [UNIT]
at_most() {
	awk -v v="$1" -v b="$2" 'BEGIN { exit !(v != "" && v <= b) }' && pass "$3 ($1${4-%})" || fail "$3 ($1${4-%} > $2${4-%})"
}
# cells_bounded NAME TABLE SIZES SIGMAS STEPS_BOUND: in every cell of
# TABLE (comma-separated SIZES and SIGMAS), at most 1% wrong culprits
# and at most STEPS_BOUND% of the steps decided wrongly.
cells_bounded() {
	local s g
	for s in ${3//,/ }; do
		for g in ${4//,/ }; do
			at_most "$(col "$2" "$s" "$g" 4)" 1 "$1, $s% regression, sigma $g: wrong culprits at most 1%"
			at_most "$(col "$2" "$s" "$g" 10)" "$5" "$1, $s% regression, sigma $g: steps decided wrongly at most $5%"
		done
	done
}

sizes=5,10,20,40 sigmas=0,0.05,0.1,0.2
"$S" --rule sprt --bisects 1000 --sizes $sizes --sigmas $sigmas >"$T_TMP/sprt" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --rule sprt runs"
"$S" --rule place --bisects 1000 --sizes $sizes --sigmas $sigmas >"$T_TMP/place" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --rule place runs"
like "$(tail -1 "$T_TMP/sprt")" '^wrong culprits: [0-9]+ of 16000 \([0-9.]+%\)$' "the last line counts the wrong culprits"
cells_bounded sprt "$T_TMP/sprt" "$sizes" "$sigmas" 1
# The cells where rounds matter: more steps decided, fewer boots per
# decided step.
for c in "20 0.1" "10 0.05" "40 0.2"; do
	read -r s g <<<"$c"
	awk -v a="$(col "$T_TMP/sprt" "$s" "$g" 8)" -v b="$(col "$T_TMP/place" "$s" "$g" 8)" \
		-v ra="$(col "$T_TMP/sprt" "$s" "$g" 12)" -v rb="$(col "$T_TMP/place" "$s" "$g" 12)" \
		'BEGIN { exit !(a > b && ra / a < rb / b) }' &&
		pass "$s% regression, sigma $g: sprt decides more steps than place, in fewer boots per decided step" ||
		fail "$s% regression, sigma $g: sprt decides more steps than place, in fewer boots per decided step"
done
# Two candidate boots a round (C G B C, step.sh) against one: more steps
# decided within 5 rounds, and fewer boots per decided step.
"$S" --rule sprt --bisects 1000 --sizes 20,10 --sigmas 0.1,0.05 --cand-boots 1 >"$T_TMP/k1" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --cand-boots 1 runs"
for c in "20 0.1" "10 0.05"; do
	read -r s g <<<"$c"
	awk -v a5="$(col "$T_TMP/sprt" "$s" "$g" 9)" -v b5="$(col "$T_TMP/k1" "$s" "$g" 9)" \
		-v a="$(col "$T_TMP/sprt" "$s" "$g" 8)" -v b="$(col "$T_TMP/k1" "$s" "$g" 8)" \
		-v ba="$(col "$T_TMP/sprt" "$s" "$g" 12)" -v bb="$(col "$T_TMP/k1" "$s" "$g" 12)" \
		'BEGIN { exit !(a5 > b5 && ba / a < bb / b) }' &&
		pass "$s% regression, sigma $g: 2 candidate boots a round decide more steps within 5 rounds, in fewer boots per decided step" ||
		fail "$s% regression, sigma $g: 2 candidate boots a round decide more steps within 5 rounds, in fewer boots per decided step"
done
# The pairs of candidate boots add to the spread's estimate (pbstat sprt
# -C): more steps decided within 5 rounds than from the end pairs alone.
"$S" --rule sprt --bisects 1000 --sizes 20,10 --sigmas 0.1,0.05 --spread-from ends >"$T_TMP/ends" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --spread-from ends runs"
for c in "20 0.1" "10 0.05"; do
	read -r s g <<<"$c"
	awk -v a="$(col "$T_TMP/sprt" "$s" "$g" 9)" -v b="$(col "$T_TMP/ends" "$s" "$g" 9)" 'BEGIN { exit !(a > b) }' &&
		pass "$s% regression, sigma $g: candidate pairs in the spread decide more steps within 5 rounds" ||
		fail "$s% regression, sigma $g: candidate pairs in the spread decide more steps within 5 rounds"
done
# A threshold given by the user (-x) in wall-clock mode: the level rule
# keeps the same bounds, though nothing cancels the drift (10 boots a
# step at most, PB_ROUNDS_MAX's default).
"$S" --rule level --bisects 300 --max-rounds 10 --sizes 5,20,40 --sigmas 0,0.1 >"$T_TMP/level" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --rule level runs"
cells_bounded level "$T_TMP/level" 5,20,40 0,0.1 1
awk -v d="$(col "$T_TMP/level" 40 0 3)" 'BEGIN { exit !(d >= 95) }' &&
	pass "level, 40% regression, no boot noise: at least 95% of the bisects decided" ||
	fail "level, 40% regression, no boot noise: at least 95% of the bisects decided"
# Without noise a 40% regression is decided in one round a step, always.
is "$(col "$T_TMP/sprt" 40 0 3):$(col "$T_TMP/sprt" 40 0 8)" "100.0:100.0" "40%, no boot noise: every bisect and step decided"
at_most "$(col "$T_TMP/sprt" 40 0 11)" 1.1 "40%, no boot noise: about one round a step" " rounds"
# Salted deterministic boots (bisect.sh -d det, PB_SALT=1): sigma is a
# salt's effect, the ends' boot i serves round i of every step.
ssizes=2,3,5,10 ssigmas=0.004,0.006,0.008,0.01
"$S" --salted 1 --min-effect 1 --bisects 1000 --max-rounds 10 --sizes $ssizes --sigmas $ssigmas \
	>"$T_TMP/salted" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --salted 1 runs"
like "$(head -1 "$T_TMP/salted")" "1 candidate boot a round, within 0, drift 0, .*salted" "salted: no drift, no within-boot noise, one candidate boot a round"
cells_bounded salted "$T_TMP/salted" "$ssizes" "$ssigmas" 1.5
for c in "3 0.006" "5 0.01"; do
	read -r s g <<<"$c"
	awk -v d="$(col "$T_TMP/salted" "$s" "$g" 3)" 'BEGIN { exit !(d >= 95) }' &&
		pass "salted, $s% regression, sigma $g: at least 95% of the bisects decided" ||
		fail "salted, $s% regression, sigma $g: at least 95% of the bisects decided ($(col "$T_TMP/salted" "$s" "$g" 3)%)"
done
# Reusing the ends' cached boots: fewer boots a bisect than booting a
# new pair of ends every round, the noise being the same.
"$S" --min-effect 1 --bisects 1000 --max-rounds 10 --cand-boots 1 --spread-from ends --drift 0 --within 0 \
	--sizes 3,5 --sigmas 0.006,0.01 >"$T_TMP/unsalted" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim, the same noise without the cache, runs"
for c in "3 0.006" "5 0.01"; do
	read -r s g <<<"$c"
	awk -v a="$(col "$T_TMP/salted" "$s" "$g" 13)" -v b="$(col "$T_TMP/unsalted" "$s" "$g" 13)" \
		'BEGIN { exit !(a > 0 && a < b) }' &&
		pass "salted, $s% regression, sigma $g: the cached ends save boots" ||
		fail "salted, $s% regression, sigma $g: the cached ends save boots ($(col "$T_TMP/salted" "$s" "$g" 13) vs $(col "$T_TMP/unsalted" "$s" "$g" 13))"
done
# A threshold (-x) over salted deterministic boots (step.sh
# threshold_boots): the ends are checked as without it, a step boots the
# candidate alone, salt r in round r, and decides from its third boot.
"$S" --rule level --salted 1 --min-effect 1 --bisects 500 --max-rounds 10 --sizes 1,3,5,20 --sigmas 0.002,0.008,0.012 \
	>"$T_TMP/slevel" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --rule level --salted 1 runs"
like "$(head -1 "$T_TMP/slevel")" "1 candidate boot a round, within 0, drift 0, .*the ends checked" "salted level: no drift, no within-boot noise, the ends checked"
cells_bounded "salted level" "$T_TMP/slevel" 3,5,20 0.002,0.008,0.012 1
awk -v n="$(col "$T_TMP/slevel" 1 0.012 5)" 'BEGIN { exit !(n > 10) }' &&
	pass "salted level, 1% regression, sigma 0.012: the ends check refuses some bisects ($(col "$T_TMP/slevel" 1 0.012 5)%)" ||
	fail "salted level, 1% regression, sigma 0.012: the ends check refuses some bisects ($(col "$T_TMP/slevel" 1 0.012 5)%)"
is "$(col "$T_TMP/slevel" 20 0.002 3):$(col "$T_TMP/slevel" 20 0.002 11)" "100.0:3.00" \
	"salted level, 20%, sigma 0.002: every bisect decided, 3 boots a step (the fewest the test takes)"
awk -v d="$(col "$T_TMP/slevel" 5 0.008 3)" 'BEGIN { exit !(d >= 95) }' &&
	pass "salted level, 5% regression, sigma 0.008: at least 95% of the bisects decided" ||
	fail "salted level, 5% regression, sigma 0.008: at least 95% of the bisects decided ($(col "$T_TMP/slevel" 5 0.008 3)%)"
# The search (a probabilistic bisection over every round of the bisect,
# pbsim --rule search): at most 1% wrong culprits in every cell and at
# most 2% of the searches locating a wrong one before its confirmation;
# where rounds matter it decides as many bisects as sprt (within a
# point) for at least 10% fewer boots a bisect, and at 20%, sigma 0.10,
# at least 95% of the searches end within 5 rounds a halving.
"$S" --rule search --bisects 1000 --sizes $sizes --sigmas $sigmas >"$T_TMP/search" 2>"$T_TMP/err"
is "$?:$(cat "$T_TMP/err")" "0:" "pbsim --rule search runs"
like "$(head -1 "$T_TMP/search")" "^rule search, .*a step is the whole search" "search: the header says what a step is"
cells_bounded search "$T_TMP/search" "$sizes" "$sigmas" 2
for c in "20 0.1" "10 0.05" "40 0.2"; do
	read -r s g <<<"$c"
	awk -v a="$(col "$T_TMP/search" "$s" "$g" 3)" -v b="$(col "$T_TMP/sprt" "$s" "$g" 3)" 		-v ba="$(col "$T_TMP/search" "$s" "$g" 13)" -v bb="$(col "$T_TMP/sprt" "$s" "$g" 13)" 		'BEGIN { exit !(a >= b - 1 && ba < 0.9 * bb) }' &&
		pass "$s% regression, sigma $g: search decides as many bisects as sprt for fewer boots" ||
		fail "$s% regression, sigma $g: search decides as many bisects as sprt for fewer boots ($(col "$T_TMP/search" "$s" "$g" 3)% in $(col "$T_TMP/search" "$s" "$g" 13) boots vs $(col "$T_TMP/sprt" "$s" "$g" 3)% in $(col "$T_TMP/sprt" "$s" "$g" 13))"
done
awk -v d="$(col "$T_TMP/search" 20 0.1 9)" 'BEGIN { exit !(d >= 95) }' &&
	pass "search, 20% regression, sigma 0.10: at least 95% of the searches within 5 rounds a halving" ||
	fail "search, 20% regression, sigma 0.10: at least 95% of the searches within 5 rounds a halving ($(col "$T_TMP/search" 20 0.1 9)%)"
# Without noise a 40% regression takes one round a halving: 6 for 64.
is "$(col "$T_TMP/search" 40 0 3):$(col "$T_TMP/search" 40 0 11)" "100.0:6.00" "search, 40%, no boot noise: every bisect decided, one round a halving"
# The same seed gives the same table.
"$S" --rule sprt --bisects 50 --sizes 20 --sigmas 0.1 --seed 7 >"$T_TMP/a"
"$S" --rule sprt --bisects 50 --sizes 20 --sigmas 0.1 --seed 7 >"$T_TMP/b"
is "$(cmp -s "$T_TMP/a" "$T_TMP/b" && echo same)" same "pbsim is deterministic for a seed"

# Bad input: exit 2, one line.
for args in "--rule magic" "--sizes 0" "--sizes 100" "--sigmas -1" "--sizes 1,,2" "--bisects 0" \
	"--sizes 5,x" "--within 0.1,0.2" "--drift x" "--max-rounds 2" "--commits 1" "--seed x" "--frobnicate 1" "--rule" "--cand-boots 5" \
	"--spread-from pool" "--pool-min 101" "--salted 2" "--salted 1 --rule place" "--salted 1 --rule search"; do
	# shellcheck disable=SC2086
	run_rc "$S" $args
	if [ "$rc" = 2 ] && [ "$(wc -l <"$T_TMP/err")" = 1 ] && [ ! -s "$T_TMP/out" ]; then
		pass "pbsim $args: exit 2, one line"
	else
		fail "pbsim $args: exit 2, one line (exit $rc)"
	fi
done
done_testing
