#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# smoke.sh - run pbaim on the host briefly and check its output and exit codes.
# Usage: tests/smoke.sh [BUILD_DIR]   (TAP on stdout; exit 1 if a check fails)
#
# Checked: the table and the PERFBISECT lines are there, well formed and not
# duplicated; jpm, real, cpu and jpst are > 0 (idle and csw_per_job may be 0);
# jti is within 0..100; FAIL exits 1, usage errors 2, workfile errors 3 and
# setup failures 4, each with one line on stderr.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
case $build in
/*) ;;
*) build=$here/$build ;;
esac
pbaim=$build/pbaim
wf=$here/workfiles
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0

# ok STATUS DESCRIPTION - one TAP line; STATUS 0 is a pass.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# check DESCRIPTION CMD... - pass if CMD succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok 0 "$desc"; else ok 1 "$desc"; fi
}

# run_pbaim ARG... - run pbaim, stdout/stderr to $tmp/out and $tmp/err.
run_pbaim() {
	"$pbaim" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# one_stderr_line - stderr is exactly one line and stdout has no results.
one_stderr_line() {
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && ! grep -q '^PERFBISECT' "$tmp/out"
}

# expect_exit CODE DESCRIPTION ARG... - pbaim ARG... exits CODE, one line.
expect_exit() {
	local code=$1 desc=$2
	shift 2
	run_pbaim "$@"
	check "$desc: exit $code ($(head -n 1 "$tmp/err"))" \
		test "$rc" -eq "$code"
	check "$desc: one line on stderr, no result line" one_stderr_line
}

# no_run_dirs - pbaim left no pbaim.<pid> work directory in $tmp.
no_run_dirs() {
	local d
	for d in "$tmp"/pbaim.*; do
		[ -e "$d" ] && return 1
	done
	return 0
}

# fields_ok - every sample line has sane values (awk over $tmp/out).
fields_ok() {
	awk '
	/^PERFBISECT sample=/ {
		delete v
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			v[kv[1]] = kv[2] + 0
		}
		if (!(v["jpm"] > 0 && v["real"] > 0 && v["cpu"] > 0 &&
		      v["jpst"] > 0 && v["idle"] >= 0 &&
		      v["csw_per_job"] >= 0 && v["jti"] >= 0 &&
		      v["jti"] <= 100 && v["tasks"] == 50 && v["jobs"] == 4))
			bad++
		seen++
	}
	END { exit !(seen == 3 && !bad) }' "$tmp/out"
}

# 50 tasks, 4 jobs each, one warm-up and two measured samples.
run_pbaim -t 50 -j 4 -n 2 -w 1 -s 7 -f "$wf/high_systime" -d "$tmp"
check "50 tasks on high_systime: exit 0" test "$rc" -eq 0
check "nothing on stderr" test ! -s "$tmp/err"
check "table header printed once" \
	test "$(grep -c "^Tasks	Jobs/Min	JTI	Real	CPU	Jobs/sec/task$" \
		"$tmp/out")" -eq 1
check "three table rows, one marked warm-up" \
	test "$(grep -c '^50	' "$tmp/out")" -eq 3 -a \
	"$(grep -c '^50	.*(warm-up)$' "$tmp/out")" -eq 1
check "every PERFBISECT line is 'key=decimal' pairs only" \
	test "$(grep '^PERFBISECT' "$tmp/out" |
		grep -cvE '^PERFBISECT( [a-z][a-z0-9_]*=-?[0-9]+(\.[0-9]+)?)+$')" \
	-eq 0
check "three sample lines (no duplicates), keys in order" \
	test "$(grep -cE '^PERFBISECT sample=[0-9]+ warmup=[01] tasks=[0-9]+ jobs=[0-9]+ jpm=[0-9.]+ jti=[0-9.]+ real=[0-9.]+ cpu=[0-9.]+ jpst=[0-9.]+ idle=[0-9.]+ csw_per_job=[0-9.]+$' \
		"$tmp/out")" -eq 3
check "samples 0 1 2, only sample 0 is a warm-up" \
	test "$(grep -o '^PERFBISECT sample=[0-9]* warmup=[01]' "$tmp/out" |
		tr '\n' ' ')" = \
	"PERFBISECT sample=0 warmup=1 PERFBISECT sample=1 warmup=0 PERFBISECT sample=2 warmup=0 "
check "jpm, real, cpu, jpst > 0; idle, csw >= 0; 0 <= jti <= 100" fields_ok
check "summary line counts 2 measured samples, no threshold" \
	grep -qE '^PERFBISECT summary=1 samples=2 median_jpm=[0-9.]+ min_jpm=[0-9.]+ max_jpm=[0-9.]+ spread_pct=[0-9.]+ cv_pct=[0-9.]+$' \
	"$tmp/out"
check "work dir cleaned up" no_run_dirs

run_pbaim -t 50 -j 4 -n 1 -f "$wf/bkl" -d "$tmp"
check "50 tasks on bkl: exit 0" test "$rc" -eq 0

run_pbaim -t 50 -j 2 -n 1 -f "$wf/bkl" -d "$tmp" --threshold 1000000000
check "unreachable --threshold: exit 1" test "$rc" -eq 1
check "unreachable --threshold: FAIL line" grep -q '^FAIL: median' "$tmp/out"
check "unreachable --threshold: summary has threshold and pass=0" \
	grep -qE '^PERFBISECT summary=1 .* threshold=1000000000\.0 pass=0$' \
	"$tmp/out"

run_pbaim -t 2 -j 2 -n 1 -f "$wf/bkl" -d "$tmp" --threshold 1
check "reachable --threshold: exit 0 and PASS" \
	test "$rc" -eq 0 -a "$(grep -c '^PASS: median' "$tmp/out")" -eq 1

expect_exit 2 "-t 0" -t 0 -f "$wf/bkl"
expect_exit 2 "-t abc" -t abc -f "$wf/bkl"
expect_exit 2 "-t 10001" -t 10001 -f "$wf/bkl"
expect_exit 2 "-j 100001" -j 100001 -f "$wf/bkl"
expect_exit 2 "--threshold 1e9" --threshold 1e9 -f "$wf/bkl"
expect_exit 2 "unknown option" --bogus -f "$wf/bkl"
expect_exit 2 "missing -f" -t 5

printf '5 no_such_test\n' >"$tmp/unknown.wf"
expect_exit 3 "unknown test in workfile" -f "$tmp/unknown.wf" -d "$tmp"
printf '# x\n-3 add_int\n' >"$tmp/negative.wf"
expect_exit 3 "negative weight in workfile" -f "$tmp/negative.wf" -d "$tmp"
expect_exit 3 "missing workfile" -f "$tmp/does-not-exist" -d "$tmp"

expect_exit 4 "unwritable work dir" -t 2 -j 2 -n 1 -f "$wf/bkl" \
	-d "$tmp/no/such/dir"
printf '1 exec_test\n' >"$tmp/exec.wf"
expect_exit 4 "missing --exec binary" -t 2 -j 2 -n 1 -f "$tmp/exec.wf" \
	-d "$tmp" --exec "$tmp/no-such-binary"

# A task that fails mid-run: its exec binary disappears after preflight.
cp "$build/pbtrue" "$tmp/pbtrue"
(sleep 0.5 && rm -f "$tmp/pbtrue") &
expect_exit 4 "task failing mid-run" -t 4 -j 100000 -n 1 -f "$tmp/exec.wf" \
	-d "$tmp" --exec "$tmp/pbtrue"
wait
check "task failing mid-run: message names the task and the test" \
	grep -q '^pbaim: setup failure: task [0-9]*: exec_test: ' "$tmp/err"
check "task failing mid-run: work dir cleaned up" no_run_dirs

expect_exit 4 "--timeout 1 on a long run" -t 4 -j 100000 -n 1 \
	-f "$wf/bkl" -d "$tmp" --timeout 1
check "--timeout: work dir cleaned up" no_run_dirs

run_pbaim --list
check "--list names 15 sub-tests" test "$rc" -eq 0 -a \
	"$(wc -l <"$tmp/out")" -eq 15

echo "1..$n"
[ "$failed" -eq 0 ]
