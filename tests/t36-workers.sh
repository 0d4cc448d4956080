#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t36-workers.sh: parallel steps (bisect -P W, kary.sh) on a toy repository
# with the stub measurement: W commits judged at once through GNU
# parallel, each round splitting the range into W+1 parts, the verdicts
# entered into git bisect (its log names the culprit), the same culprit as
# one worker, a commit that does not build skipped, a step whose worker
# dies measured again, Ctrl-C and resume, wall-clock mode one step at a
# time, salted ends and confirmation booted two at a time, and bad -P
# values refused before anything is made.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PERFBISECT_HOME=$T_TMP/home PB_QUIET=1
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls
unset PB_MODE PB_ACCEL PB_ICOUNT STUB_TRACE STUB_FAIL_ONCE STUB_SLEEP STUB_INTERRUPT_AT
b=$T_TOP/bisect
# Sections 1-5 count the boots of unsalted deterministic steps (one boot
# a step); section 6 boots salted ones, the default.
export PB_SALT=0

# toy DIR: 40 commits after "start" (1000 jobs/min); commit 27 and after
# run at 700. speed_of I may say otherwise; flaky_at I puts a file
# "flaky" in commit I (and in no other).
speed_of() { if [ "$1" -ge 27 ]; then echo 700; else echo 1000; fi; }
flaky_at=0
toy_extra() {
	if [ "$2" -eq "$flaky_at" ]; then
		: >"$1/flaky"
		git -C "$1" add flaky
	elif [ -e "$1/flaky" ]; then
		git -C "$1" rm -q flaky
	fi
}
toy() { t_toy "$1" 40; }
toy "$T_TMP/toy"
culprit=$(git -C "$T_TMP/toy" rev-parse tip~13)
s=$PERFBISECT_HOME/runs/latest/summary.json

# 1. Two workers, deterministic mode.
: >"$STUB_LOG"
STUB_TRACE=$T_TMP/trace STUB_SLEEP=1 run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g start -b tip -d det -P 2
is "$rc" 0 "-P 2: the bisect names a culprit (exit 0)"
is "$(jq -r .culprit "$s")" "$culprit" "-P 2: the right culprit"
state=$(readlink -f "$PERFBISECT_HOME/runs/latest/state")
rounds=$(find "$state" -name 'round-*.joblog' | wc -l)
# 39 commits to test: 2 at a time in thirds, 4 rounds (one worker: 6 steps).
[ "$rounds" -ge 3 ] && [ "$rounds" -le 4 ] && pass "-P 2: $rounds rounds for 40 commits (log3)" ||
	fail "-P 2: $rounds rounds for 40 commits, expected 3-4"
is "$(awk -F'\t' 'NR > 1' "$state"/round-1.joblog | wc -l)" 2 "-P 2: a round runs two steps"
like "$(cat "$state/round-1.joblog")" 'PB_STEP_COMMIT=' "-P 2: the steps ran through GNU parallel's job log"
# The two steps of a round overlap in time.
overlap=$(awk '$1 == "start" { s[$2] = $3 } $1 == "end" { e[$2] = $3 }
	END { for (a in s) for (c in s) if (a != c && s[c] >= s[a] && s[c] < e[a]) n++; print n + 0 }' "$T_TMP/trace")
[ "$overlap" -ge 1 ] && pass "-P 2: boots of two steps ran at the same time ($overlap overlaps)" ||
	fail "-P 2: no two boots overlapped in time"
# git bisect stays the record.
log=$(GIT_DIR=$state/repo.git git bisect log)
like "$log" "# first bad commit: \\[$culprit\\]" "-P 2: git bisect log names the culprit"
like "$log" "git bisect good [0-9a-f]{40}" "-P 2: git bisect log holds the good verdicts"
is "$(grep -c '^git bisect bad' <<<"$log")" "$(grep -h -c '=bad' "$state/kary.log")" \
	"-P 2: one bad entry per round whose oldest bad pick bounds the range"
cp "$state/bisect.log" "$T_TMP/bisect.log.2"
like "$(cat "$PERFBISECT_HOME/runs/latest/progress.txt")" 'round 1: 39 commits left, testing 2 at once' \
	"-P 2: progress says what each round tests"
is "$(jq .confirmed "$s")" true "-P 2: the culprit is confirmed (parent and culprit side by side)"
is "$(jq -r '.mode' "$s")" det "-P 2: deterministic mode"

# 2. One worker finds the same culprit in more steps.
export PERFBISECT_HOME=$T_TMP/home1
run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g start -b tip -d det -P 1
is "$rc" 0 "-P 1: exit 0"
is "$(jq -r .culprit "$PERFBISECT_HOME/runs/latest/summary.json")" "$culprit" "-P 1: the same culprit"
is "$(find "$PERFBISECT_HOME/runs/latest/state/" -name 'round-*.joblog' | wc -l)" 0 "-P 1: git bisect run, no rounds"

# 3. A commit that does not build, right where the first round looks, and
# a worker that dies on another: skipped, and measured again.
speed_of() {
	if [ "$1" -eq 13 ]; then echo nobuild; elif [ "$1" -ge 27 ]; then echo 700; else echo 1000; fi
}
flaky_at=27
toy "$T_TMP/toy2"
culprit2=$(git -C "$T_TMP/toy2" rev-parse tip~13)
export PERFBISECT_HOME=$T_TMP/home2
: >"$STUB_LOG"
STUB_FAIL_ONCE=$T_TMP/died run_rc "$b/bisect.sh" -t "$T_TMP/toy2" -g start -b tip -d det -P 2
is "$rc" 0 "skip and a dead worker: exit 0"
is "$(jq -r .culprit "$PERFBISECT_HOME/runs/latest/summary.json")" "$culprit2" "skip and a dead worker: the right culprit"
state=$(readlink -f "$PERFBISECT_HOME/runs/latest/state")
like "$(GIT_DIR=$state/repo.git git bisect log)" "git bisect skip $(git -C "$T_TMP/toy2" rev-parse tip~27)" \
	"the commit that does not build is a skip in git bisect log"
like "$(cat "$T_TMP/err")" 'failed without a verdict; its commit is measured again' "a dead worker's step is said and redone"
is "$(grep -c "^$culprit2\$" "$STUB_LOG")" 3 "the dead worker's commit was measured again (failed, step, confirmation)"

# 4. Ctrl-C in a round (the stub's 7th call interrupts), then resume.
export PERFBISECT_HOME=$T_TMP/home3
: >"$STUB_LOG"
STUB_INTERRUPT_AT=7 run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g start -b tip -d det -P 2
is "$rc" 10 "Ctrl-C in a round: exit 10"
like "$(cat "$T_TMP/err")" 'run the same command again to resume' "Ctrl-C: says how to resume"
run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g start -b tip -d det -P 2
is "$rc" 0 "resumed: exit 0"
is "$(jq -r .culprit "$PERFBISECT_HOME/runs/latest/summary.json")" "$culprit" "resumed: the right culprit"
like "$(cat "$PERFBISECT_HOME/runs/latest/bisect.log")" 'resuming: replaying [1-9]' "resumed: the verdicts of the rounds before were replayed"

# 5. Wall-clock mode: one step at a time, and said.
export PERFBISECT_HOME=$T_TMP/home4
run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g start -b tip -d wall -P 2
is "$rc" 0 "wall -P 2: exit 0"
like "$(cat "$T_TMP/err")" 'wall-clock mode: one boot at a time' "wall -P 2: says the boots go one at a time"
is "$(find "$PERFBISECT_HOME/runs/latest/state/" -name 'round-*.joblog' | wc -l)" 0 "wall -P 2: no parallel rounds"
is "$(jq -r .culprit "$PERFBISECT_HOME/runs/latest/summary.json")" "$culprit" "wall -P 2: the right culprit"

# 6. Salted boots (the default, PB_SALT unset): the ends check's GOOD and
# BAD boot side by side in each paired round, and so do the
# confirmation's parent and culprit (no drift to share).
export PERFBISECT_HOME=$T_TMP/home6
unset PB_SALT
STUB_SALT_EFFECT=0.002 STUB_TRACE=$T_TMP/trace6 STUB_SLEEP=1 \
	run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g start -b tip -d det -P 2
export PB_SALT=0
s=$PERFBISECT_HOME/runs/latest/summary.json
is "$rc:$(jq -r .culprit "$s")" "0:$culprit" "salted -P 2: the right culprit (exit 0)"
is "$(jq .confirmed "$s")" true "salted -P 2: confirmed in paired rounds"
# overlaps A B: how many boots of A ran while one of B did (trace6).
overlaps() {
	awk -v a="$1" -v b="$2" '$1 == "start" { s[$2, ++ns[$2]] = $3 } $1 == "end" { e[$2, ++ne[$2]] = $3 }
		END { for (i = 1; i <= ns[a]; i++) for (j = 1; j <= ns[b]; j++)
			if (s[a, i] < e[b, j] && s[b, j] < e[a, i]) n++
			print n + 0 }' "$T_TMP/trace6"
}
o=$(overlaps "$(git -C "$T_TMP/toy" rev-parse start)" "$(git -C "$T_TMP/toy" rev-parse tip)")
[ "$o" -ge 3 ] && pass "salted -P 2: GOOD and BAD boot side by side ($o overlaps)" ||
	fail "salted -P 2: GOOD and BAD boot side by side ($o overlaps, not 3 or more)"
o=$(overlaps "$(git -C "$T_TMP/toy" rev-parse "$culprit^")" "$culprit")
[ "$o" -ge 3 ] && pass "salted -P 2: parent and culprit boot side by side ($o overlaps)" ||
	fail "salted -P 2: parent and culprit boot side by side ($o overlaps, not 3 or more)"

# 7. Bad values, refused before anything is made.
export PERFBISECT_HOME=$T_TMP/home5
for v in 0 9 -1 two ''; do
	run_rc "$b/bisect.sh" -t "$T_TMP/toy" -g start -b tip -P "$v"
	is "$rc" 2 "-P '$v': exit 2"
	like "$(cat "$T_TMP/err")" 'workers \(-P\)' "-P '$v': the error names the option"
done
[ ! -e "$PERFBISECT_HOME/runs" ] && pass "bad -P: no run directory made" || fail "bad -P: a run directory was made"
run_rc "$T_TOP/bisect/perfbisect" bisect --tree "$T_TMP/toy" --good start --bad tip --workers 99
is "$rc" 2 "perfbisect bisect --workers 99: exit 2"
run_rc "$b/stages/kary.sh" --help
is "$rc" 0 "kary.sh --help: exit 0"
like "$(cat "$T_TMP/out")" 'W at a time' "kary.sh --help says what it does"
done_testing
