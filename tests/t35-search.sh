#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t35-search.sh: bisect.sh -S, the search without steps (search.sh, pbstat
# search), on toy histories with the stub measurement: the exact culprit
# under boot-to-boot noise, confirmed in paired rounds; what it records;
# a commit that does not build left out; resume after Ctrl-C; a gradual
# slowdown never named; and bad input refused before anything is measured.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PB_MODE=wall PERFBISECT_HOME=$T_TMP/home PB_QUIET=1
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls
b=$T_TOP/bisect
latest=$PERFBISECT_HOME/runs/latest

# toy DIR N SPEED_OF: t_toy's line of N commits after "start" (1000
# jobs/min), SPEED_OF I printing commit I's speed.
speed_fn=''
speed_of() { "$speed_fn" "$1"; }
toy() {
	speed_fn=$3
	t_toy "$1" "$2"
}
# 20% slower from commit 23 of 40; commit 20, the search's first, does
# not build in the second toy.
step20() { if [ "$1" -ge 23 ]; then echo 800; else echo 1000; fi; }
nobuild20() { if [ "$1" -eq 20 ]; then echo nobuild; else step20 "$1"; fi; }
toy "$T_TMP/toy" 40 step20
toy "$T_TMP/toynb" 40 nobuild20
culprit=$(git -C "$T_TMP/toy" rev-parse HEAD~17)
culpritnb=$(git -C "$T_TMP/toynb" rev-parse HEAD~17)
is "$(git -C "$T_TMP/toy" log -1 --format=%s "$culprit")" "toy: change 23" "the toy's culprit is commit 23"
# search TOY ENV...: bisect TOY from scratch with -S; sets rc, st (state).
search() {
	local t=$1
	shift
	rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
	: >"$STUB_LOG"
	run_rc env "$@" "$b/bisect.sh" -S -t "$t" -g HEAD~40 -b HEAD
	st=$(readlink -f "$latest/state")
}

# 20% slower under +-10% boot noise: the exact culprit, confirmed.
search "$T_TMP/toy" STUB_BOOT_NOISE=0.1 STUB_SEED=1
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "search, 20% under +-10% boot noise: the exact culprit"
is "$(jq -r '[.confirmed, .search.verdict, .steps] | @tsv' "$latest/summary.json")" "true	bad	0" \
	"summary.json: confirmed, the search's verdict, no git bisect steps"
like "$(cat "$st/confirm")" '^in rounds: n=([3-9]|10) .*separated=1' "the culprit confirmed against its parent in paired rounds"
rounds=$(grep -c . "$st/search")
is "$(jq .search.rounds "$latest/summary.json"):$(jq .search.n "$latest/summary.json")" "$rounds:$rounds" \
	"summary.json counts the search's rounds ($rounds)"
awk -v p="$(jq .search.p_culprit "$latest/summary.json")" 'BEGIN { exit !(p >= 0.995) }' &&
	pass "the culprit holds at least 99.5% of the posterior" || fail "the culprit holds at least 99.5% of the posterior"
# Every round: 4 boots (the commit, GOOD, BAD, the commit), in the pool
# as an end pair and a candidate pair after the ends check's pairs.
ends_rounds=$(sed -n 's/^GOOD vs BAD in rounds: n=\([0-9]*\) .*/\1/p' "$latest/bisect.log" | tail -1)
is "$(awk 'NF == 2' "$st/pool" | wc -l):$(awk '$1 == "c"' "$st/pool" | wc -l)" "$((ends_rounds + rounds)):$rounds" \
	"the pool: the ends check's pairs and every round's end pair and candidate pair"
is "$(grep -c '^search round [0-9]*: commit ' "$st/measure.log")" "$rounds" "measure.log: each round's boots"
# The commits it booted, on their side of the culprit, each with the
# search's last look at it.
is "$(jq -s '[.[] | select(.role != "good-end" and .role != "bad-end")] |
	all((.verdict == "good" and .position < 23) or (.verdict == "bad" and .position >= 23)) and
	all(.decision.rule == "search" and (.decision.p_culprit | type) == "number")' "$latest/results.jsonl")" true \
	"results.jsonl: every searched commit on its side of the culprit, with its search record"
like "$(grep -m1 '^search round' "$latest/progress.txt")" '^search round 1 \(at most 60\): commit 20 of 40, [0-9a-f]{12} toy: change 20 +\(40 possible culprits, none favoured yet\)' \
	"progress: the first round boots the middle commit"
like "$(grep -m1 '^search round 2' "$latest/progress.txt")" '\(the culprit so far: most likely commit [0-9]+, posterior 0\.[0-9]+\)$' \
	"progress: from the second round, the most likely culprit and its posterior"
like "$(cat "$T_TMP/out")" 'search: [0-9]+ search rounds|search: [0-9]+ rounds over [0-9]+ commits of the first-parent line of 40' \
	"the report says what the search did"
# Run again: the finished search reports its culprit again, booting only
# the confirmation it has (nothing).
: >"$STUB_LOG"
run_rc env STUB_BOOT_NOISE=0.1 STUB_SEED=1 "$b/bisect.sh" -S -t "$T_TMP/toy" -g HEAD~40 -b HEAD
is "$rc:$(jq -r .culprit "$latest/summary.json"):$(grep -c . "$STUB_LOG")" "0:$culprit:0" \
	"run again: the same culprit from the saved search, no boot"

# A commit that does not build is left out, and the search goes on.
search "$T_TMP/toynb" STUB_BOOT_NOISE=0.05 STUB_SEED=2
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culpritnb" "search, commit 20 does not build: the exact culprit"
is "$(cat "$st/search-skip")" 20 "the commit that does not build is recorded as left out"
is "$(awk '$1 == 20' "$st/search" | wc -l)" 0 "no round of the commit that does not build"
like "$(cat "$T_TMP/err")" "[0-9a-f]{12} does not build or boot: the search leaves it out" "and says so (a warning)"

# A stale cached GOOD from a slower host (0.3 times the speed, below BAD)
# is never an end: the ends check and every round boot afresh.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
STUB_DRIFT=0.3 STUB_DRIFT_AFTER=0 "$b/stages/samples.sh" -n 8 "$T_TMP/toy" HEAD~40 -- >"$T_TMP/stale" 2>&1
like "$(sort -n "$T_TMP/stale" | tail -1)" '^[1-3][0-9]{2}(\.[0-9]+)?$' "a slower host's GOOD in the results cache (at most 399 jobs/min)"
run_rc env STUB_BOOT_NOISE=0.05 STUB_SEED=9 "$b/bisect.sh" -S -t "$T_TMP/toy" -g HEAD~40 -b HEAD
st=$(readlink -f "$latest/state")
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "a stale cached GOOD from a slower host: the exact culprit"
is "$(jq '[.good_samples[] | select(. < 500)] | length' "$st/ends.json"):$(awk '$3 < 500' "$st/search" | wc -l):$(awk 'NF == 2 && $1 < 500' "$st/pool" | wc -l)" 0:0:0 \
	"none of its samples among the ends, the rounds or the pool"

# Commits that only change a comment in a C file build their parent's
# kernel (same-kernel.sh): none can be the culprit, and the search boots
# none of them. ctoy DIR N SPEED_OF CHANGES: commit I changes the speed
# file and a log (a new kernel) when it matches the regex CHANGES, else
# only a comment in x.c.
ctoy() {
	local i
	git init -q "$1"
	echo 1000 >"$1/speed"
	printf 'int x; /* 0 */\n' >"$1/x.c"
	git -C "$1" add speed x.c
	git -C "$1" -c user.name=Toy -c user.email=toy@example.invalid commit -qm start
	for i in $(seq 1 "$2"); do
		if [[ $i =~ $4 ]]; then
			"$3" "$i" >"$1/speed"
			echo "$i" >>"$1/log"
			git -C "$1" add log
		else
			printf 'int x; /* %d */\n' "$i" >"$1/x.c"
		fi
		git -C "$1" -c user.name=Toy -c user.email=toy@example.invalid commit -qam "toy: change $i"
	done
}
step11() { if [ "$1" -ge 11 ]; then echo 800; else echo 1000; fi; }
ctoy "$T_TMP/toyc" 16 step11 '[13579]$'
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
run_rc env STUB_BOOT_NOISE=0.05 STUB_SEED=5 "$b/bisect.sh" -S -t "$T_TMP/toyc" -g HEAD~16 -b HEAD
st=$(readlink -f "$latest/state")
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$(git -C "$T_TMP/toyc" rev-parse HEAD~5)" \
	"search, even commits change only a comment: the exact culprit, commit 11"
is "$(paste -sd' ' "$st/search-same")" "2 4 6 8 10 12 14 16" "search-same: the commits that build their parent's kernel"
is "$(awk '$1 % 2 == 0' "$st/search" | wc -l):$(jq .search.culprits "$latest/summary.json")" 0:8 \
	"no round boots one of them; 8 culprits were possible"
like "$(cat "$latest/progress.txt")" 'search: 8 of the 16 commits cannot be the culprit: they build their parent.s kernel' \
	"progress says how many commits were left out as culprits"
# Only commit 3 changes the kernel: it is the culprit without a search
# round, and still confirmed against its parent in paired rounds.
step3() { if [ "$1" -ge 3 ]; then echo 800; else echo 1000; fi; }
ctoy "$T_TMP/toy1" 6 step3 '^3$'
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
run_rc env STUB_BOOT_NOISE=0.05 STUB_SEED=6 "$b/bisect.sh" -S -t "$T_TMP/toy1" -g HEAD~6 -b HEAD
st=$(readlink -f "$latest/state")
is "$rc:$(jq -r .culprit "$latest/summary.json"):$(grep -c . "$st/search")" "0:$(git -C "$T_TMP/toy1" rev-parse HEAD~3):0" \
	"one commit changes the kernel: the culprit without a search round"
like "$(cat "$st/confirm")" 'separated=1' "and confirmed against its parent in paired rounds"
# With the dependency lists of the ends' builds, a commit that builds
# GOOD's kernel (its changes outside GOOD's build) comes before the
# culprit, one that builds BAD's at or after it. Here commits 1-4 and
# 6-12 change only drivers/foo.c, which no build reads, and commit 5
# kernel/sched.c: the only possible culprit, found by bisecting each end
# (same-kernel.sh -d), named without a search round.
e=$T_TMP/etoy
git init -q "$e" && mkdir -p "$e/scripts/kconfig" "$e/arch/x86/boot" "$e/kernel" "$e/drivers"
touch "$e/Makefile" "$e/scripts/kconfig/merge_config.sh" "$e/arch/x86/boot/Makefile"
echo 'int s;' >"$e/kernel/sched.c" && echo 'int f;' >"$e/drivers/foo.c" && echo 1000 >"$e/speed"
git -C "$e" add . && git -C "$e" -c user.name=Toy -c user.email=toy@example.invalid commit -qm start
for i in $(seq 1 12); do
	if [ "$i" = 5 ]; then
		echo 'int s = 1;' >"$e/kernel/sched.c" && echo 800 >"$e/speed"
	else
		echo "int f = $i;" >"$e/drivers/foo.c"
	fi
	git -C "$e" -c user.name=Toy -c user.email=toy@example.invalid commit -qam "toy: change $i"
done
for rev in HEAD~12 HEAD; do
	art=$("$b/build.sh" -n "$e" "$rev") && mkdir -p "$art" && echo kernel/sched.c >"$art/deps" && : >"$art/verbatim" ||
		fail "the image directory of $rev for its dependency lists"
done
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
run_rc env STUB_BOOT_NOISE=0.05 STUB_SEED=8 "$b/bisect.sh" -S -t "$e" -g HEAD~12 -b HEAD
st=$(readlink -f "$latest/state")
is "$rc:$(jq -r .culprit "$latest/summary.json"):$(grep -c . "$st/search")" "0:$(git -C "$e" rev-parse HEAD~7):0" \
	"only commit 5 can be the culprit, by the ends' dependency lists: named without a search round"
is "$(paste -sd' ' "$st/search-same")" "1 2 3 4 6 7 8 9 10 11 12" "search-same: 1-4 (GOOD's kernel) and 6-12 (after BAD's)"
like "$(cat "$latest/progress.txt")" 'come before one that builds GOOD.s or after one that builds BAD.s' "progress says why"
# PB_SAME_KERNEL=0 counts every commit as a change.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
run_rc env PB_SAME_KERNEL=0 STUB_BOOT_NOISE=0.05 STUB_SEED=6 "$b/bisect.sh" -S -t "$T_TMP/toy1" -g HEAD~6 -b HEAD
st=$(readlink -f "$latest/state")
is "$rc:$(grep -c . "$st/search-same"):$(jq -r .culprit "$latest/summary.json")" "0:0:$(git -C "$T_TMP/toy1" rev-parse HEAD~3)" \
	"PB_SAME_KERNEL=0: no commit left out, the same culprit from search rounds"

# Ctrl-C in a round, then the same command: the rounds before it are
# kept and the search ends at the same culprit.
search "$T_TMP/toy" STUB_BOOT_NOISE=0.05 STUB_SEED=3 STUB_INTERRUPT_AT=30
is "$rc" 10 "search: interrupted in a round (exit 10)"
kept=$(grep -c . "$st/search")
[ "$kept" -ge 1 ] && pass "the rounds before the interruption are kept ($kept)" ||
	fail "the rounds before the interruption are kept ($kept)"
run_rc env STUB_BOOT_NOISE=0.05 STUB_SEED=3 "$b/bisect.sh" -S -t "$T_TMP/toy" -g HEAD~40 -b HEAD
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "search, resumed: the exact culprit"
[ "$(grep -c . "$st/search")" -gt "$kept" ] && pass "resumed: the search went on from its kept rounds" ||
	fail "resumed: the search went on from its kept rounds"

# A slowdown spread over 8 commits (each 2.5% slower than the one
# before) has no culprit: the search, at most 3 rounds a halving, ends
# undecided or its culprit is not confirmed; it never names one.
gradual() { echo $((1000 - 25 * $1)); }
toy "$T_TMP/toyg" 8 gradual
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
run_rc env PB_ROUNDS_MAX=3 STUB_BOOT_NOISE=0.05 STUB_SEED=4 "$b/bisect.sh" -S -t "$T_TMP/toyg" -g HEAD~8 -b HEAD
like "$rc" '^1[68]$' "a gradual slowdown: undecided or not confirmed (exit $rc), never a culprit"
if [ "$rc" = 16 ]; then
	like "$(cat "$T_TMP/out")" 'undecided: no culprit reached 99\.5% in [0-9]+ rounds; the most likely, [0-9a-f]{12}, is at 0\.[0-9]+' \
		"undecided: the report names the most likely culprit and its posterior"
fi

# The default in wall-clock mode is the search; -s (--steps) or
# PB_SEARCH=0 asks for git bisect's steps; a threshold keeps the steps.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
run_rc env PB_QUIET=0 STUB_BOOT_NOISE=0.05 STUB_SEED=7 "$b/bisect.sh" -t "$T_TMP/toyc" -g HEAD~16 -b HEAD
is "$rc:$(jq -r '.search.verdict // "none"' "$latest/summary.json"):$(jq .steps "$latest/summary.json")" "0:bad:0" \
	"wall-clock mode without -S: the search (no git bisect step)"
like "$(cat "$T_TMP/err")" 'wall-clock mode: searching the first-parent line in rounds \(-s for git bisect.s steps\)' \
	"and says so, with the way back to the steps"
run_rc env STUB_BOOT_NOISE=0.05 STUB_SEED=7 "$b/perfbisect" bisect --steps -t "$T_TMP/toyc" -g HEAD~16 -b HEAD
is "$rc:$(jq -r '.search // "none"' "$latest/summary.json")" "0:none" "--steps: git bisect's steps"
[ "$(jq .steps "$latest/summary.json")" -ge 1 ] && pass "--steps: steps taken" || fail "--steps: steps taken"
run_rc env PB_QUIET=0 STUB_BOOT_NOISE=0.05 STUB_SEED=7 "$b/bisect.sh" -t "$T_TMP/toyc" -g HEAD~16 -b HEAD -x 900
is "$rc:$(jq -r '.search // "none"' "$latest/summary.json")" "0:none" "a threshold (-x): the steps"
like "$(cat "$T_TMP/err")" "git bisect's steps, not the search: a threshold \(-x\)" "and says why"

# Bad input: one line, before anything is measured.
: >"$STUB_LOG"
for args in "-x 900" "-P 2" "-d det"; do
	# shellcheck disable=SC2086
	run_rc "$b/bisect.sh" -S -t "$T_TMP/toy" -g HEAD~40 -b HEAD $args
	is "$rc:$(wc -l <"$T_TMP/err"):$(grep -c . "$STUB_LOG")" "2:1:0" "-S $args: refused in one line, nothing measured ($(cat "$T_TMP/err"))"
done
PB_SEARCH=2 run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g HEAD~40 -b HEAD
is "$rc:$(wc -l <"$T_TMP/err"):$(grep -c . "$STUB_LOG")" "2:1:0" "PB_SEARCH=2: refused in one line ($(cat "$T_TMP/err"))"
run_rc "$b/bisect.sh" -S -s -t "$T_TMP/toy" -g HEAD~40 -b HEAD
like "$rc:$(cat "$T_TMP/err")" '^2:bisect.sh: error: -S \(--search\) and -s \(--steps\) exclude each other' "-S with -s: refused"
# The long option is the same flag.
run_rc "$b/perfbisect" bisect --search --threshold 900 -t "$T_TMP/toy" -g HEAD~40 -b HEAD
like "$rc:$(cat "$T_TMP/err")" '^2:perfbisect bisect: error: -S searches without a threshold' "perfbisect bisect --search is -S"
# GOOD on a branch merged into BAD, not on BAD's first-parent line.
m=$T_TMP/merged
toy "$m" 4 step20
git -C "$m" checkout -q -b side HEAD~2
echo side >"$m/side"
git -C "$m" add side
git -C "$m" -c user.name=Toy -c user.email=toy@example.invalid commit -qm "toy: side"
git -C "$m" checkout -q -
git -C "$m" -c user.name=Toy -c user.email=toy@example.invalid merge -q --no-edit side
run_rc "$b/bisect.sh" -S -t "$m" -g side -b HEAD
like "$rc:$(cat "$T_TMP/err")" "^2:bisect.sh: error: -S: GOOD \(side\) is not on BAD's first-parent line" \
	"-S with GOOD off BAD's first-parent line: refused, with what to do"
is "$(grep -c . "$STUB_LOG")" 0 "nothing measured for bad input"
# Without -S, GOOD off BAD's first-parent line takes the steps, and says
# why (this toy's four commits run at one speed: no regression, exit 15).
run_rc env PB_QUIET=0 "$b/bisect.sh" -t "$m" -g side -b HEAD
like "$rc:$(tr '\n' ' ' <"$T_TMP/err")" "^15:.*git bisect's steps, not the search: GOOD \(side\) is not on BAD's first-parent line" \
	"GOOD off the first-parent line: the steps, and why"
done_testing
