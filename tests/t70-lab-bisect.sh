#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t70-lab-bisect.sh: end to end: bisecting the lab in QEMU finds the
# recorded culprit, skips the commit that does not build, and writes
# summary.json, results.jsonl and the plot. Builds and boots kernels.
# Needs: a kernel build and boot (tests/run skips it with PB_SKIP_KERNEL=1)
# Beside: its boots are deterministic where QEMU runs -icount at 2 vCPUs
# (one host thread a guest): tests/run runs the tests that boot nothing beside it.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
b=$T_TOP/bisect
# shellcheck source=../bisect/lib.sh
. "$b/lib.sh"

lab=$("$b/lab.sh" 2>/dev/null) || {
	fail "lab generation"
	done_testing
	exit
}
desc=$(dirname "$lab")/lab.json
# -R: a bisect of the lab saved by an earlier run (this machine's
# PERFBISECT_HOME) is started over, so the steps are taken again; kernels
# and boots in the caches are still used.
"$b/bisect.sh" -R >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
is "$rc" 0 "make bisect on the lab: exit 0"
grep -q '^resuming' "$(readlink -f "$PERFBISECT_HOME/runs/latest")/bisect.log" &&
	fail "-R: the bisect was taken again, not replayed" || pass "-R: the bisect was taken again, not replayed"
sed 's/^/# /' "$T_TMP/err" | grep '# step ' | head -20
run=$(readlink -f "$PERFBISECT_HOME/runs/latest")
is "$(jq -r .culprit "$run/summary.json")" "$(jq -r .culprit "$desc")" "the culprit in summary.json is the lab's recorded culprit"
is "$(jq -r .culprit_subject "$run/summary.json")" "semaphore: hand off ownership to the woken waiter" "culprit subject"
broken=$(jq -r .broken "$desc")
v=$(jq -r "select(.commit == \"$broken\") | .verdict" "$run/results.jsonl")
if [ -n "$v" ]; then
	is "$v" skip "the commit that does not build was tested and skipped, not bad"
else
	pass "the commit that does not build was not on this bisect's path"
fi
g=$(jq .good_jpm "$run/summary.json")
bd=$(jq .bad_jpm "$run/summary.json")
awk -v g="$g" -v b="$bd" 'BEGIN { exit !(b < g) }' && pass "bad ($bd jobs/min) slower than good ($g)" || fail "bad slower than good"
# With QEMU 8.1 or later (make deps installs it) the default, auto, finds
# the lab's regression in deterministic mode at 2 vCPUs.
if [ "$(pb_det_max_cpus)" -ge 2 ]; then
	is "$(jq -r .mode "$run/summary.json")" det "auto chose deterministic mode for the lab"
	# Salted boots (the default): paired rounds of salts no step used.
	like "$(jq -r .confirmation "$run/summary.json")" '^in rounds: n=[0-9]+ .*delta_pct=-[0-9.]+ .*separated=1' \
		"culprit confirmed slower than its parent (paired rounds of fresh salted boots)"
	is "$(jq -r .salted "$run/state/ends.json")" true "the boots are salted (the default)"
else
	like "$(jq -r .confirmation "$run/summary.json")" '(ratio=0\.[0-9]+ delta_pct=-|slower=1)' "culprit confirmed slower than its parent"
fi
like "$(jq -r .mode_reason "$run/summary.json")" '.' "summary.json says why this mode"
is "$(jq .confirmed "$run/summary.json")" true "summary.json: confirmed"
is "$(jq .culprit_image_identical_to_parent "$run/summary.json")" false "culprit's image differs from its parent's"
if grep -q '<svg' "$run/jobs-per-min.svg" 2>/dev/null; then pass "plot written"; else fail "plot written"; fi
# The same command again reports the finished bisect with its measurements.
"$b/bisect.sh" >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
again=$(readlink -f "$PERFBISECT_HOME/runs/latest")
is "$rc:$(jq -r .culprit "$again/summary.json")" "0:$(jq -r .culprit "$desc")" "the same command again: the same culprit"
like "$(cat "$T_TMP/err")" 'already finished' "the same command again: says the bisect had finished"
is "$(jq -s 'map(select(.median != null)) | length' "$again/results.jsonl")" \
	"$(jq -s 'map(select(.median != null)) | length' "$run/results.jsonl")" "the same command again: every measured kernel keeps its median"
if grep -q '<svg' "$again/jobs-per-min.svg" 2>/dev/null; then pass "the same command again: plot written"; else fail "the same command again: plot written"; fi
done_testing
