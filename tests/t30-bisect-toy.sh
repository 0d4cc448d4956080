#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t30-bisect-toy.sh: the bisect driver on a toy git repository with a stub
# measurement (tests/stub-measure.sh) of known good and bad speeds plus
# noise, a commit that does not build and an ambiguous one: the exact
# culprit, resume after Ctrl-C, the results cache, the report files, and the
# user's checkout and index byte-for-byte unchanged (like git's t6030).
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PB_MODE=wall PB_SEARCH=0 PERFBISECT_HOME=$T_TMP/home PB_QUIET=1
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls
# The toys below have 3% noise and no boot-to-boot noise, where one boot
# per step suffices: rounds (for small regressions) only where asked for.
export PB_ROUNDS_BELOW=1.5
b=$T_TOP/bisect

# The toy history: 40 commits after "start"; speed 1000 jobs/min until the
# culprit (commit 23), 600 after; commit 11 does not build, commit 30 is
# ambiguous (800); commit 17 and 18 panic.
toy=$T_TMP/toy
git init -q "$toy"
gc() {
	GIT_AUTHOR_DATE="@$((1600000000 + $1 * 60)) +0000" GIT_COMMITTER_DATE="@$((1600000000 + $1 * 60)) +0000" \
		git -C "$toy" -c user.name=Toy -c user.email=toy@example.invalid commit -qam "$2"
}
echo 1000 >"$toy/speed"
echo base >"$toy/file"
git -C "$toy" add speed file
gc 0 "start"
git -C "$toy" tag start
for i in $(seq 1 40); do
	s=1000
	[ "$i" -ge 23 ] && s=600
	case $i in
	11) s=nobuild ;;
	17 | 18) s=panic ;;
	30) s=800 ;;
	esac
	echo "$s" >"$toy/speed"
	echo "change $i" >>"$toy/file"
	subject="toy: change $i"
	[ "$i" -eq 23 ] && subject="toy: the culprit"
	gc "$i" "$subject"
done
git -C "$toy" tag tip
culprit=$(git -C "$toy" rev-parse tip~17)
is "$(git -C "$toy" log -1 --format=%s "$culprit")" "toy: the culprit" "toy history has its culprit at commit 23"
# The user is in the middle of their own work and their own bisect.
echo "local edit" >>"$toy/file"
git -C "$toy" stash -q
git -C "$toy" bisect start -q tip start >/dev/null 2>&1
git -C "$toy" bisect good "tip~30" >/dev/null 2>&1
snapshot() {
	(cd "$toy" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
}
# mtimes: every file's modification time in the user's tree and .git
# (the index and loose objects included).
mtimes() {
	(cd "$toy" && find . -type f -printf '%T@ %p\n' | LC_ALL=C sort -k2)
}
before=$(snapshot) before_t=$(mtimes)

run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc" 0 "bisect finds a culprit: exit 0"
latest=$PERFBISECT_HOME/runs/latest
is "$(jq -r .culprit "$latest/summary.json")" "$culprit" "summary.json names the exact culprit"
is "$(jq -r .culprit_subject "$latest/summary.json")" "toy: the culprit" "summary.json has the culprit's subject"
for k in steps builds wall_s threshold good_jpm bad_jpm; do
	like "$(jq ".$k" "$latest/summary.json")" '^[0-9.]+$' "summary.json: $k is a number"
done
[ "$(jq .builds "$latest/summary.json")" -ge 5 ] && pass "first run: builds counted" || fail "first run: builds counted"
thr=$(jq .threshold "$latest/summary.json")
awk -v t="$thr" 'BEGIN { exit !(t > 600 && t < 1000) }' &&
	pass "calibrated threshold $thr lies between the ends" || fail "calibrated threshold $thr lies between the ends"
like "$(cat "$T_TMP/out")" "first bad commit: ${culprit:0:12} toy: the culprit" "culprit printed with its subject"
like "$(cat "$T_TMP/out")" 'speed +\| +2 ' "git show --stat of the culprit printed"
like "$(cat "$latest/progress.txt")" 'step 1 of ~[0-9]+ ' "progress line per step"
is "$(jq -s 'map(select(.samples | length > 0)) | length > 2' "$latest/results.jsonl")" true "results.jsonl: one object per measured kernel"
like "$(head -1 "$latest/results.jsonl")" '"commit":"[0-9a-f]{40}".*"samples":\[' "results.jsonl has commit and samples"
if [ -s "$latest/jobs-per-min.svg" ] && grep -q '<svg' "$latest/jobs-per-min.svg"; then
	pass "SVG plot written"
else
	fail "SVG plot written"
fi
grep -q "culprit ${culprit:0:12}:" "$latest/jobs-per-min.svg" && grep -q 'toy: the culprit' "$latest/jobs-per-min.svg" &&
	pass "the plot marks the culprit with its subject" || fail "the plot marks the culprit with its subject"
like "$(grep -o 'threshold [0-9,]*)' "$latest/jobs-per-min.svg" | head -1)" '^threshold [0-9]{1,3}(,[0-9]{3})*\)$' "the plot's title rounds the threshold for people"
is "$(snapshot)" "$before" "user's checkout, index, stash and .git byte-for-byte unchanged"
same_text "$(mtimes)" "$before_t" "user's files, index and objects keep their modification times"
is "$(git -C "$toy" bisect log | grep -c '^git bisect good')" 1 "user's own bisect is intact"
is "$(git -C "$toy" stash list | wc -l)" 1 "user's stash is intact"

# Skips: the broken and panicking commits are skipped if tested, never bad.
if grep -q "^$(git -C "$toy" rev-parse tip~29) " <(jq -r '"\(.commit) \(.verdict)"' "$latest/results.jsonl"); then
	is "$(jq -r "select(.commit == \"$(git -C "$toy" rev-parse tip~29)\") | .verdict" "$latest/results.jsonl")" skip "the commit that does not build is a skip"
else
	pass "the commit that does not build was not on the path"
fi

# Run again: resumes the finished bisect from its log, measures nothing.
calls=$(wc -l <"$STUB_LOG")
run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "second run: same culprit"
is "$(wc -l <"$STUB_LOG")" "$calls" "second run: every measurement from the cache"
is "$(jq .builds "$latest/summary.json"):$(jq .boots "$latest/summary.json")" "0:0" "second run: no builds, no boots"
is "$(jq -s 'map(select(.median != null)) | length > 2' "$latest/results.jsonl")" true "second run: results.jsonl keeps the medians"
grep -q '<svg' "$latest/jobs-per-min.svg" 2>/dev/null && pass "second run: SVG plot written" || fail "second run: SVG plot written"
# An independent repeat: a fresh results cache (PB_RESULTS) and no state.
rm -rf "$(readlink -f "$latest/state")"
PB_RESULTS=$T_TMP/fresh-results run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "PB_RESULTS, fresh cache: same culprit"
if [ "$(wc -l <"$STUB_LOG")" -gt "$calls" ] && [ -n "$(ls "$T_TMP/fresh-results")" ]; then
	pass "PB_RESULTS, fresh cache: measured again, into PB_RESULTS"
else
	fail "PB_RESULTS, fresh cache: measured again, into PB_RESULTS"
fi

# Interrupted run: a measurement in the middle ends interrupted (a signal
# to the steps' process group, then exit 10), then the same command resumes.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
STUB_INTERRUPT_AT=5 run_rc setsid -w "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc" 10 "measurement interrupted: exit 10 (interrupted)"
like "$(cat "$T_TMP/err")" 'run the same command again to resume' "measurement interrupted: says how to resume"
run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "resumed run finds the culprit"
like "$(cat "$latest/bisect.log")" '^resuming: replaying [0-9]+ recorded verdicts' "resumed run replays the saved bisect log"
like "$(head -1 "$latest/progress.txt")" '^step [2-9]' "resumed run continues the step count"
# GOOD and BAD are booted again at every step against drift; nothing else
# may be measured again from scratch.
dups=$(grep -v -e "^$(git -C "$toy" rev-parse start)\$" -e "^$(git -C "$toy" rev-parse tip)\$" "$STUB_LOG" |
	sort | uniq -c | awk '$1 > 2' | wc -l)
is "$dups" 0 "no commit measured again from scratch after the interruption"
is "$(snapshot)" "$before" "user's tree still unchanged after interrupt and resume"

# A signal sent to bisect.sh alone (kill PID; or a Ctrl-C, which reaches
# bisect.sh's process group, not that of its steps) is passed on at once.
# signal_mid_step SIG: a bisect whose measurements take 100 s from step 1
# on gets SIG once step 1 measures; sets rc ("hung" if it is still running
# 10 s later) and left (processes of the bisect still running).
signal_mid_step() {
	local pid i
	rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
	: >"$STUB_LOG"
	# Started with &, bisect.sh would ignore SIGINT (a shell in a terminal
	# does not): env gives it the default back.
	STUB_SLEEP=100 STUB_SLEEP_FROM=5 env --default-signal=INT "$b/bisect.sh" -t "$toy" -g start -b tip \
		-e 6 -n 4 -i 4 -N 8 >"$T_TMP/out" 2>"$T_TMP/err" &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		[ "$(wc -l <"$STUB_LOG")" -ge 5 ] && break
		sleep 0.1
	done
	sleep 1
	kill -"$1" "$pid"
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		rc=hung
		pkill -KILL -f "$T_TMP/"
		wait "$pid"
	else
		wait "$pid"
		rc=$?
	fi
	left=$(pgrep -c -f "$T_TMP/")
}
signal_mid_step TERM
is "$rc" 10 "SIGTERM to bisect.sh alone, mid-step: exit 10 (interrupted) at once"
is "$left" 0 "SIGTERM to bisect.sh alone: the step's measurement ended too"
run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "after SIGTERM: the same command resumes and finds the culprit"
signal_mid_step INT
is "$rc:$left" 10:0 "SIGINT to bisect.sh alone, mid-step: exit 10 at once, nothing left running"
# bisect.sh killed outright (SIGKILL) cannot pass anything on: the next
# step finds it gone and stops the bisect by itself.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
STUB_SLEEP=2 STUB_SLEEP_FROM=5 "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8 \
	>"$T_TMP/out" 2>"$T_TMP/err" &
pid=$!
for ((i = 0; i < 600; i++)); do
	[ "$(wc -l <"$STUB_LOG")" -ge 5 ] && break
	sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
for ((i = 0; i < 300; i++)); do
	[ "$(pgrep -c -f "$T_TMP/")" = 0 ] && break
	sleep 0.1
done
is "$(pgrep -c -f "$T_TMP/")" 0 "bisect.sh killed with SIGKILL: its steps stop by themselves"
is "$(cat "$PERFBISECT_HOME"/bisect/*/steps)" 1 "bisect.sh killed with SIGKILL: no step after the one under way"
run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "after SIGKILL: the same command resumes and finds the culprit"

# Drift: the machine gets 40% slower right after the ends were measured
# (two boots each: GOOD is less than twice BAD); the fresh ends of every
# step keep the culprit exact.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
STUB_DRIFT=0.6 STUB_DRIFT_AFTER=4 run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "machine 40% slower after calibration: same culprit"
is "$(grep -c '^calibration:' "$latest/bisect.log"):$(jq -c '.good_samples | length' "$(readlink -f "$latest/state")/ends.json")" \
	"2:8" "GOOD 1.7 times BAD: the calibration went on to END_SAMPLES (6, two boots of 4)"
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
STUB_DRIFT=1.4 STUB_DRIFT_AFTER=4 run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "machine 40% faster after calibration: same culprit"

# Reusing the ends: in a toy where GOOD is about 3 times BAD, a step may
# judge a clear candidate against the ends booted by an earlier step.
# one_step_toy DIR NAME GOOD_SPEED BAD_SPEED: a toy history of 41 commits
# (0 to 40) at GOOD_SPEED jobs/min, BAD_SPEED from commit 23, the culprit.
one_step_toy() {
	local dir=$1 name=$2 i s
	git init -q "$dir"
	for i in $(seq 0 40); do
		s=$3
		[ "$i" -ge 23 ] && s=$4
		echo "$s" >"$dir/speed"
		echo "change $i" >>"$dir/file"
		git -C "$dir" add speed file
		GIT_AUTHOR_DATE="@$((1600000000 + i * 60)) +0000" GIT_COMMITTER_DATE="@$((1600000000 + i * 60)) +0000" \
			git -C "$dir" -c user.name=Toy -c user.email=toy@example.invalid commit -qm "$name: change $i"
	done
}
toy2=$T_TMP/toy2
one_step_toy "$toy2" toy2 1000 350
culprit2=$(git -C "$toy2" rev-parse HEAD~17)
ends_re="^($(git -C "$toy2" rev-parse HEAD~40)|$(git -C "$toy2" rev-parse HEAD))\$"
# bisect2 ENV...: bisect toy2 from scratch with ENV set; sets rc, ends, steps
bisect2() {
	rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
	: >"$STUB_LOG"
	run_rc env "$@" "$b/bisect.sh" -t "$toy2" -g HEAD~40 -b HEAD -e 6 -n 4 -i 4 -N 8
	ends=$(grep -cE "$ends_re" "$STUB_LOG")
	steps=$(jq .steps "$latest/summary.json")
}
bisect2 PB_ENDS_MAX_AGE=0
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit2" "PB_ENDS_MAX_AGE=0: exact culprit"
# GOOD about 3 times BAD, every sample apart: one boot of each end (4
# samples) is the calibration, not the 6 samples of -e.
is "$(jq -c '[(.good_samples | length), (.bad_samples | length)]' "$(readlink -f "$latest/state")/ends.json"):$(grep -c '^calibration:' "$latest/bisect.log")" \
	"[4,4]:1" "a large regression: the calibration booted each end once"
if [ "$ends" -ge $((2 * steps)) ]; then
	pass "PB_ENDS_MAX_AGE=0: fresh ends at every step ($ends for $steps steps)"
else
	fail "PB_ENDS_MAX_AGE=0: fresh ends at every step ($ends for $steps steps)"
fi
ends0=$ends
bisect2 PB_ENDS_MAX_AGE=600
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit2" "ends reused: exact culprit"
if [ "$ends" -le $((ends0 - 4)) ]; then
	pass "ends reused: $ends boots of the ends instead of $ends0"
else
	fail "ends reused: $ends boots of the ends instead of $ends0"
fi
like "$(cat "$latest/progress.txt")" '(good|bad) \(ends of [0-9]+s ago\)' "progress says when a step used earlier ends"
like "$(head -1 "$latest/progress.txt")" '^step 1 .* (good|bad) \(ends of [0-9]+s ago\)$' \
	"step 1 judged against the ends the calibration measured just before"
# Cached wall-clock samples are from another time: a new bisect of the
# same range with the same cache boots GOOD and BAD again at the
# calibration (and its first step may then reuse those).
rm -rf "$PERFBISECT_HOME/bisect"
: >"$STUB_LOG"
run_rc env PB_ENDS_MAX_AGE=600 "$b/bisect.sh" -t "$toy2" -g HEAD~40 -b HEAD -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit2" "ends in the results cache: exact culprit"
if [ "$(head -2 "$STUB_LOG" | grep -cE "$ends_re")" = 2 ]; then
	pass "ends in the results cache: the calibration boots GOOD and BAD afresh"
else
	fail "ends in the results cache: the calibration boots GOOD and BAD afresh"
fi
# A stale GOOD in the cache from a slower hour (below BAD's speed today)
# must not hide the regression: the ends are measured together, now.
toy3=$T_TMP/toy3
one_step_toy "$toy3" toy3 1000 350
culprit3=$(git -C "$toy3" rev-parse HEAD~17)
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
STUB_DRIFT=0.3 "$b/stages/samples.sh" -n 8 "$toy3" HEAD~40 -- >/dev/null 2>&1
run_rc "$b/bisect.sh" -t "$toy3" -g HEAD~40 -b HEAD -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit3" "a stale, slow GOOD in the cache: the regression is still found"
like "$(jq -c .good_samples "$(readlink -f "$latest/state")/ends.json")" '^\[(9[7-9][0-9]|10[0-2][0-9])' "the calibration's GOOD samples are today's, not the cached ones"

# The machine gets 45% slower, or 50% faster, after step 1 (the
# calibration's 2 calls and step 1's): candidates that the drift moves
# away from their end are judged against fresh ends.
bisect2 STUB_DRIFT=0.55 STUB_DRIFT_AFTER=3
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit2" "ends reused, 45% slower after step 1: exact culprit"
like "$(cat "$latest/progress.txt")" '^step [2-9].* (good|bad)$' \
	"45% slower: a candidate the drift moved is judged against fresh ends"
bisect2 STUB_DRIFT=1.5 STUB_DRIFT_AFTER=3
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit2" "ends reused, 50% faster after step 1: exact culprit"
bisect2 PB_ENDS_MAX_AGE=soon
like "$rc:$(cat "$T_TMP/err")" "^2:bisect.sh: error: PB_ENDS_MAX_AGE='soon' is not a number" "PB_ENDS_MAX_AGE checked first: usage error"

# A slowdown spread over 40 commits (1000 down to 600, 1.3% each, with
# +-3% noise): no single culprit. The bisect must say it cannot decide:
# undecided (16) or a culprit it cannot confirm against its parent (18).
toy3=$T_TMP/toy3
git init -q "$toy3"
for i in $(seq 0 40); do
	echo $((1000 - i * 10)) >"$toy3/speed"
	git -C "$toy3" add speed
	GIT_AUTHOR_DATE="@$((1600000000 + i * 60)) +0000" GIT_COMMITTER_DATE="@$((1600000000 + i * 60)) +0000" \
		git -C "$toy3" -c user.name=Toy -c user.email=toy@example.invalid commit -qm "toy3: change $i"
done
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
run_rc "$b/bisect.sh" -t "$toy3" -g HEAD~40 -b HEAD -e 6 -n 4 -i 4 -N 8
like "$rc" '^1[68]$' "gradual slowdown: cannot decide (exit $rc), no culprit claimed"
if [ "$rc" = 18 ]; then
	like "$(tail -1 "$T_TMP/err")" 'cannot decide: [0-9a-f]{12} is not measurably slower than its parent' "gradual slowdown: says the culprit is not confirmed"
	is "$(jq .confirmed "$latest/summary.json")" false "gradual slowdown: summary.json says confirmed: false"
else
	pass "gradual slowdown: ended among skipped commits"
fi
# The culprit must be measurably slower than its parent. Run a clean bisect,
# then give its saved confirmation a null effect: reporting it again must
# refuse to name a culprit.
bisect2 PB_ENDS_MAX_AGE=600
is "$rc" 0 "confirmed culprit: exit 0"
is "$(jq .confirmed "$latest/summary.json")" true "confirmed culprit: summary.json says confirmed: true"
st=$(readlink -f "$latest/state")
like "$(cat "$st/confirm")" '^ratio=0\.[0-9]+ .*p=0\.0' "the saved confirmation shows the effect"
echo "ratio=0.998005 delta_pct=-0.2 p=0.971429 ci_low_pct=-1.485 ci_high_pct=2.222" >"$st/confirm"
run_rc "$b/bisect.sh" -t "$toy2" -g HEAD~40 -b HEAD -e 6 -n 4 -i 4 -N 8
is "$rc" 18 "culprit not slower than its parent: exit 18"
like "$(tail -1 "$T_TMP/err")" '^bisect.sh: error: cannot decide: [0-9a-f]{12} is not measurably slower than its parent \(ratio=0\.998005' \
	"the error names the commit and the measured effect"

# A small regression (20%) under boot-to-boot noise of +-10%: each step
# is judged in rounds of the candidate, GOOD, BAD and the candidate booted
# afresh, and the culprit is confirmed against its parent in paired
# rounds. Over runs
# with different noise the answer is the exact culprit or "cannot
# decide", never another commit.
toy4=$T_TMP/toy4
one_step_toy "$toy4" toy4 1000 800
culprit4=$(git -C "$toy4" rev-parse HEAD~17)
# bisect4 ENV...: bisect toy4 from scratch with ENV set and the default
# PB_ROUNDS_BELOW (2); sets rc.
bisect4() {
	rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
	: >"$STUB_LOG"
	run_rc env -u PB_ROUNDS_BELOW STUB_BOOT_NOISE=0.1 "$@" "$b/bisect.sh" -t "$toy4" -g HEAD~40 -b HEAD -e 8 -n 4 -i 4 -N 8
}
exact=0 other=''
for seed in 1 2 3 4; do
	bisect4 STUB_SEED=$seed
	found=$(jq -r .culprit "$latest/summary.json" 2>/dev/null)
	case $rc in
	0) [ "$found" = "$culprit4" ] && exact=$((exact + 1)) || other="$other seed $seed: wrong culprit ${found:0:12};" ;;
	16 | 18) ;;
	*) other="$other seed $seed: exit $rc;" ;;
	esac
	if [ "$seed" = 1 ]; then
		like "$(cat "$latest/progress.txt")" '^step 1 of .* [1-6] rounds median .* (good|bad) \(at [-0-9.]+ of GOOD/BAD\)' \
			"progress line of a step in rounds"
		steps=$(jq .steps "$latest/summary.json")
		ml="$(readlink -f "$latest/state")/measure.log"
		is "$(grep -cE '^step [0-9]+: [0-9a-f]+: verdict=(good|bad|unsure) n=[0-9]+ k=2 pool=[0-9]+ ' "$ml")" "${steps:-no steps}" \
			"rounds: each of the $steps steps ends with a verdict of pbstat sprt"
		is "$(jq -s '[.[] | select(.role == "good" or .role == "bad") | .decision | select(.rule == "sprt") | (.n >= 1 and (.llr | type) == "number")] | (length > 0) and all' "$latest/results.jsonl")" true \
			"rounds: results.jsonl holds each step's sprt record (rounds, llr)"
		is "$(grep -cE '^step [0-9]+: [0-9a-f]+: verdict=more ' "$ml" | awk '{ print ($1 > 0) }')" 1 \
			"rounds: sequential, some step needed more than one round"
		pool="$(readlink -f "$latest/state")/pool"
		is "$(awk 'NF == 2' "$pool" | wc -l)" \
			"$(grep -cE '^step [0-9]+: [0-9a-f]+: round [0-9]+: GOOD ' "$ml" | awk -v e="$(sed -n 's/^GOOD vs BAD in rounds: n=\([0-9]*\) .*/\1/p' "$latest/bisect.log" | tail -1)" '{ print $1 + e }')" \
			"rounds: the pool holds every pair of end boots, the ends check's and the steps'"
		is "$(awk '$1 == "c" && NF == 3' "$pool" | wc -l)" "$(grep -cE '^step [0-9]+: [0-9a-f]+: round [0-9]+: GOOD ' "$ml")" \
			"rounds: and each step round's two candidate boots (a c line)"
		is "$(grep -cE '^step [0-9]+: [0-9a-f]+: verdict=[a-z]+ n=([2-9]|10) k=2 pool=[0-9]+ cand_pairs=[1-9]' "$ml" | awk '{ print ($1 > 0) }')" 1 \
			"rounds: pbstat sprt is given the candidate pairs (-C)"
		like "$(cat "$latest/bisect.log")" 'GOOD vs BAD in rounds: n=([3-9]|10) ratio=0\.[78]' "the ends were first compared in paired rounds"
		is "$(jq -c '[(.good_samples | length), (.bad_samples | length)]' "$(readlink -f "$latest/state")/ends.json"):$(grep -c '^calibration:' "$latest/bisect.log")" \
			"[8,8]:2" "a small regression: the calibration took all 8 samples (-e) of each end"
	fi
	# The first run that names the culprit shows its confirmation.
	if [ "$rc" = 0 ] && [ -z "${confirmed:-}" ]; then
		confirmed=$(cat "$(readlink -f "$latest/state")/confirm")
	fi
done
is "${other:-none}" none "20%, +-10% boot noise, 4 runs: the exact culprit or cannot decide, nothing else"
like "${confirmed:-no run named a culprit}" '^in rounds: n=([3-9]|10) ratio=0\.[0-9]+ .*p=0\.0' \
	"culprit confirmed against its parent in paired rounds"
[ "$exact" -ge 2 ] && pass "20%, +-10% boot noise: exact culprit in $exact of 4 runs" ||
	fail "20%, +-10% boot noise: exact culprit in $exact of 4 runs"
bisect4 STUB_DRIFT=0.6 STUB_DRIFT_AFTER=30
like "$rc:$(jq -r .culprit "$latest/summary.json")" "^(0:$culprit4|1[68]:.*)\$" "rounds, machine 40% slower after calibration: exact culprit or cannot decide ($rc)"
# The machine gets 40% faster between the two boots of BAD's calibration:
# the samples no longer separate the ends, paired rounds do.
bisect4 STUB_BOOT_NOISE=0.05 STUB_DRIFT=1.4 STUB_DRIFT_AFTER=3
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit4" "calibration fooled by drift, ends separated in rounds: exact culprit"
# Interrupted in a step of rounds, then resumed: the resumed run confirms
# its culprit in paired rounds too (their helpers were once defined only
# in a run that measured the ends, and a resumed one lost its confirmation).
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
run_rc env -u PB_ROUNDS_BELOW STUB_BOOT_NOISE=0.05 STUB_INTERRUPT_AT=30 \
	setsid -w "$b/bisect.sh" -t "$toy4" -g HEAD~40 -b HEAD -e 8 -n 4 -i 4 -N 8
is "$rc" 10 "rounds: interrupted in a step (exit 10)"
run_rc env -u PB_ROUNDS_BELOW STUB_BOOT_NOISE=0.05 "$b/bisect.sh" -t "$toy4" -g HEAD~40 -b HEAD -e 8 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit4" "rounds, resumed: exact culprit"
like "$(cat "$(readlink -f "$latest/state")/confirm")" '^in rounds: n=' "rounds, resumed: the culprit confirmed in paired rounds"
# Two ends of the same speed, and the machine 10% slower from the second
# boot of BAD on, which fakes an 8% regression in the samples: the paired
# rounds show none, before any step.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
run_rc env -u PB_ROUNDS_BELOW STUB_BOOT_NOISE=0.05 STUB_DRIFT=0.9 STUB_DRIFT_AFTER=3 \
	"$b/bisect.sh" -t "$toy4" -g HEAD~40 -b HEAD~20 -e 8 -n 4 -i 4 -N 8
like "$rc:$(tail -1 "$T_TMP/err")" '^15:bisect.sh: error: no regression between GOOD and BAD: .*; in paired rounds BAD is -?[0-9.]+% \(98% CI' \
	"drift fakes a regression: refused after the paired rounds, with their interval"
# 4 calibration boots, then 2 a round, at most PB_ROUNDS_MAX (10) rounds.
[ "$(wc -l <"$STUB_LOG")" -le $((4 + 2 * 10)) ] && pass "refused before any step" || fail "refused before any step"
# A threshold given by the user (-x) in wall-clock mode: the boot is the
# unit, each step tests the candidate's boots against it (pbstat level,
# 3 boots at least, no ends booted), and the culprit is confirmed against
# its parent in paired rounds.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
run_rc env -u PB_ROUNDS_BELOW STUB_BOOT_NOISE=0.03 STUB_SEED=1 \
	"$b/bisect.sh" -t "$toy4" -g HEAD~40 -b HEAD -x 900 -e 8 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit4" "threshold (-x 900), +-3% boot noise: exact culprit"
ml="$(readlink -f "$latest/state")/measure.log"
like "$(grep -E '^step [0-9]+: [0-9a-f]+: boots [0-9. ]+: verdict=(good|bad) ' "$ml" | head -1)" ' n=([3-9]|10) .*threshold=900 ' \
	"threshold: a step decides with pbstat level, on 3 boots or more"
is "$(grep -cE 'verdict=(good|bad) n=[12] .*threshold=' "$ml")" 0 "threshold: no step decides on fewer than 3 boots"
is "$(grep -cE '^step [0-9]+: [0-9a-f]+: round [0-9]+: GOOD ' "$ml")" 0 "threshold: the steps boot no ends"
like "$(cat "$latest/progress.txt")" '^step [0-9]+ of .* ([3-9]|10) boots median .* (good|bad) \(threshold 900\)' \
	"threshold: the progress line of a step gives its boots and the threshold"
like "$(cat "$(readlink -f "$latest/state")/confirm")" '^in rounds: n=' "threshold: the culprit confirmed in paired rounds"
is "$(jq -s '[.[] | select(.role == "good" or .role == "bad") | .decision | select(.rule == "level")] | length > 0' "$latest/results.jsonl")" true \
	"threshold: results.jsonl holds the level records"
# Without PB_ROUNDS_BELOW a large regression (GOOD 2.9 times BAD) is
# bisected in rounds too, the boot being the unit: one round a step.
bisect2 -u PB_ROUNDS_BELOW
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit2" "default, large regression: in rounds, the exact culprit"
is "$(jq .rounds "$(readlink -f "$latest/state")/ends.json")" true "default, large regression: measured in rounds"
ml="$(readlink -f "$latest/state")/measure.log"
is "$(grep -cE '^step [0-9]+: [0-9a-f]+: verdict=(good|bad) n=1 ' "$ml")" \
	"$(grep -cE '^step [0-9]+: [0-9a-f]+: verdict=' "$ml")" "default, large regression: every step decided in its first round"
is "$(jq .confirmed "$latest/summary.json")" true "default, large regression: confirmed in paired rounds"
# A stale cached GOOD from a slower host (0.3 times the speed, below BAD)
# is never an end in wall-clock mode: the ends are measured afresh.
rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
: >"$STUB_LOG"
STUB_DRIFT=0.3 STUB_DRIFT_AFTER=0 "$b/stages/samples.sh" -n 8 "$toy2" HEAD~40 -- >"$T_TMP/stale" 2>&1
like "$(sort -n "$T_TMP/stale" | tail -1)" '^[1-3][0-9]{2}(\.[0-9]+)?$' "a slower host's GOOD in the results cache (at most 399 jobs/min)"
run_rc "$b/bisect.sh" -t "$toy2" -g HEAD~40 -b HEAD -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit2" "a stale cached GOOD from a slower host: the exact culprit"
is "$(jq '[.good_samples[] | select(. < 500)] | length' "$(readlink -f "$latest/state")/ends.json")" 0 \
	"a stale cached GOOD from a slower host: none of its samples among the ends"
bisect4 PB_ROUNDS_MAX=2
like "$rc:$(cat "$T_TMP/err")" "^2:bisect.sh: error: PB_ROUNDS_MAX='2' is not a number of rounds" "PB_ROUNDS_MAX below 3: usage error"

# Bad input: a one-line error each, nothing changed.
expect() {
	local want=$1 desc=$2
	shift 2
	run_rc "$@"
	if [ "$rc" = "$want" ] && [ "$(wc -l <"$T_TMP/err")" -eq 1 ]; then
		pass "$desc: exit $want: $(cut -c1-60 "$T_TMP/err")"
	else
		fail "$desc: want exit $want, one line; got $rc"
		sed 's/^/#   /' "$T_TMP/err" | head -3
	fi
}
expect 4 "unknown revision" "$b/bisect.sh" -t "$toy" -g nosuch -b tip
expect 12 "GOOD == BAD" "$b/bisect.sh" -t "$toy" -g tip -b tip
expect 13 "reversed ends" "$b/bisect.sh" -t "$toy" -g tip -b start
expect 3 "missing tree" "$b/bisect.sh" -t "$T_TMP/nowhere" -g start -b tip
expect 2 "threshold not a number" "$b/bisect.sh" -t "$toy" -g start -b tip -x fast
expect 2 "threshold of 0 jobs/min" "$b/bisect.sh" -t "$toy" -g start -b tip -x 0
expect 2 "missing ends" "$b/bisect.sh" -t "$toy" -g start
git -C "$toy" stash pop -q
expect 11 "dirty tree" "$b/bisect.sh" -t "$toy" -g start -b tip
git -C "$toy" stash -q
PB_MEASURE='' expect 7 "not a kernel tree" "$b/bisect.sh" -t "$toy" -g start -b tip
git -C "$toy" branch -q side start
git -C "$toy" --work-tree="$toy" checkout -q side 2>/dev/null
echo side >"$toy/side"
git -C "$toy" add side && gc 50 "side"
git -C "$toy" checkout -q - 2>/dev/null
expect 14 "GOOD not an ancestor of BAD" "$b/bisect.sh" -t "$toy" -g side -b tip

# No regression between the ends: a clear message with the medians.
expect 15 "no regression" "$b/bisect.sh" -t "$toy" -g start -b tip~20 -e 6
like "$(cat "$T_TMP/err")" 'no regression between GOOD and BAD: medians [0-9.]+ vs [0-9.]+ jobs/min, noise [0-9.]+%' "no regression: medians and noise named"

# A second bisect of the same tree is refused while one runs.
mkdir -p "$PERFBISECT_HOME/locks"
key=$(bash -c '. "$1/bisect/lib.sh"; pb_sha "$2"' _ "$T_TOP" "$toy")
(
	exec 9>>"$PERFBISECT_HOME/locks/bisect-$key.lock"
	flock 9
	sleep 5
) &
sleep 0.5
expect 6 "second bisect of the same tree" "$b/bisect.sh" -t "$toy" -g start -b tip
wait
done_testing
