#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t06-runner.sh: tests/run on a suite of stand-in tests: every test runs
# once and is counted, a failure makes the exit non-zero and is named, the
# tests that boot nothing wait for the first "# Beside:" test and run
# beside it (where tests/run can: 2 CPUs, QEMU 8.1 or later), and
# once the kernel tests are done both lanes take them; PB_TEST_BESIDE=0
# and PB_SKIP_KERNEL=1 do what they say.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
s=$T_TMP/suite
mkdir -p "$s" || exit 2
order=$T_TMP/order

# stand NAME SLEEP HEADER BODY: a stand-in test that logs its start and end
# (nanoseconds) to $order around SLEEP seconds and BODY.
stand() {
	{
		echo '#!/bin/bash'
		[ -z "$3" ] || printf '%s\n' "$3"
		echo "echo \"$1 start \$(date +%s%N)\" >>'$order'"
		echo "sleep $2"
		printf '%s\n' "$4"
		echo "echo \"$1 end \$(date +%s%N)\" >>'$order'"
	} >"$s/$1.sh"
}
kernel='# Needs: a kernel build and boot (stand-in)'
stand f1 0.3 '' 'echo "ok 1 - f1"'
stand k1 0.5 "$kernel" 'echo "ok 1 - k1"; echo "ok 2 - k1 again"'
stand f2 0 '' 'echo "not ok 1 - f2 fails"; exit 1'
stand bz 3 "$kernel"$'\n# Beside: stand-in' 'echo "ok 1 - bz"'
stand f3 0.3 '' 'echo "ok 1 - f3"; echo "ok 2 - f3"; echo "ok 3 - f3"'
suite=("$s/f1.sh" "$s/k1.sh" "$s/f2.sh" "$s/bz.sh" "$s/f3.sh")

# at NAME WHAT: the time NAME logged WHAT (start or end).
at() {
	awk -v n="$1" -v w="$2" '$1 == n && $2 == w { print $3 }' "$order"
}
# runner ENV...: tests/run on the suite with ENV (and none of the
# settings this test itself may run under); sets rc and out.
runner() {
	: >"$order"
	out=$(env -u PB_SKIP_KERNEL -u PB_TEST_BESIDE -u PB_MODE TMPDIR="$T_TMP" "$@" "$T_TOP/tests/run" "${suite[@]}" 2>&1)
	rc=$?
}

runner
is "$rc" 1 "a failing test: tests/run exits 1"
is "$(tail -1 <<<"$out")" "7 passed, 1 failed" "every test counted: 7 passed, 1 failed"
like "$out" "failed: $s/f2.sh" "the failing test is named"
is "$(awk '$2 == "start" { print $1 }' "$order" | sort | tr '\n' ' ')" "bz f1 f2 f3 k1 " "each test ran once"
if grep -q '^# from here on' <<<"$out"; then
	# The lane starts right before bz does: it waited for the kernel
	# test before bz (k1), though its first test may log before bz.
	for f in f1 f2 f3; do
		[ "$(at "$f" start)" -ge "$(at k1 end)" ] &&
			pass "$f (boots nothing) waited for the kernel tests before the one marked Beside" ||
			fail "$f (boots nothing) waited for the kernel tests before the one marked Beside"
	done
	[ "$(at f1 start)" -lt "$(at bz end)" ] && pass "f1 ran beside bz, not after it" ||
		fail "f1 ran beside bz, not after it"
else
	is "$(awk '$2 == "start" { print $1 }' "$order" | tr '\n' ' ')" "f1 k1 f2 bz f3 " \
		"no lane here ($(nproc) CPUs or QEMU before 8.1): the tests ran in order"
fi

runner PB_TEST_BESIDE=0
is "$(awk '$2 == "start" { print $1 }' "$order" | tr '\n' ' ')" "f1 k1 f2 bz f3 " "PB_TEST_BESIDE=0: the tests in order"
unlike "$out" '^# from here on' "PB_TEST_BESIDE=0: no lane"
is "$rc:$(tail -1 <<<"$out")" "1:7 passed, 1 failed" "PB_TEST_BESIDE=0: the same count"

runner PB_SKIP_KERNEL=1
is "$(awk '$2 == "start" { print $1 }' "$order" | tr '\n' ' ')" "f1 f2 f3 " "PB_SKIP_KERNEL=1: only the tests that boot nothing"
like "$out" '2 test scripts skipped' "PB_SKIP_KERNEL=1: says how many it skipped"
is "$rc:$(tail -1 <<<"$out")" "1:4 passed, 1 failed" "PB_SKIP_KERNEL=1: counted"

# Once the last kernel test is done, its lane takes held tests too: with
# the lane beside busy on a long f4, f3 starts before f4 ends.
stand f4 3 '' 'echo "ok 1 - f4"'
stand bq 0.2 "$kernel"$'\n# Beside: stand-in' 'echo "ok 1 - bq"'
suite=("$s/f4.sh" "$s/bq.sh" "$s/f3.sh")
runner
is "$rc:$(tail -1 <<<"$out")" "0:5 passed, 0 failed" "all passing: exit 0"
if grep -q '^# from here on' <<<"$out"; then
	[ "$(at f3 start)" -lt "$(at f4 end)" ] && pass "after the kernel tests, two held tests at a time" ||
		fail "after the kernel tests, two held tests at a time"
	# A lane that dies mid-test: that test is a failure, not left out,
	# and the main lane runs what the lane had not taken.
	stand fz 0 '' 'kill -KILL $PPID; echo "ok 1 - fz"'
	suite=("$s/fz.sh" "$s/bz.sh" "$s/f3.sh")
	runner
	like "$out" "fz.sh: did not finish" "a test whose lane died: did not finish"
	is "$rc:$(tail -1 <<<"$out")" "1:4 passed, 1 failed" "a test whose lane died: counted as failed; the others ran"
else
	pass "# skip no lane here ($(nproc) CPUs or QEMU before 8.1): nothing runs beside"
fi
done_testing
