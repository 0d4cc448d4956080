#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ktest.sh: the lab bisected with the kernel's own tools/testing/ktest/ktest.pl
# (TEST_TYPE = bisect, BISECT_TYPE = test), with ktest's default build (make
# mrproper + config + olddefconfig + make, out of tree, no ccache) and a QEMU
# guest as the target machine: bench/ktest/bisect.conf.in, qemu.sh, judge.sh.
# The test is the naive one (bench/naive/step.sh): one boot, one sample,
# good when jobs/min >= a threshold, by default the midpoint of one good and
# one bad sample that ktest measures first, like bench/compare.sh.
# Holds perfbisect's build lock for the whole run.
# Usage: bench/ktest.sh [RESULT_FILE]   (default bench/results/ktest.txt, appended)
#   BENCH_KTEST_DIR=DIR          scratch dir: new or empty, kept (default: a
#                                new one from mktemp, removed after a run
#                                that succeeds; its path is printed otherwise)
#   BENCH_KTEST_THRESHOLD=JPM    fixed threshold: no calibration boots
#   BENCH_KTEST_TIMEOUT=SECONDS  stop ktest.pl after this long (default 21600)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_bench_args "$@"
out=${1:-$top/bench/results/ktest.txt}
lab=$("$top/bisect/lab.sh") || exit
desc=$(dirname "$lab")/lab.json
cpio=$("$top/bisect/initramfs.sh") || exit
cfg=$("$top/bisect/build.sh" "$lab" good)/config || exit
ktest=$PERFBISECT_HOME/linux-6.1/tools/testing/ktest/ktest.pl
work=$(pb_scratch ktest "${BENCH_KTEST_DIR:-}") || exit
thr=${BENCH_KTEST_THRESHOLD:-}
pb_need perl git make gcc qemu-system-x86_64 flock jq
[ -f "$ktest" ] || pb_die "$PB_NOTOOL" "$ktest not found: run bisect/kernel-src.sh"
[ -z "$thr" ] || pb_is_number "$thr" || pb_die "$PB_USAGE" "BENCH_KTEST_THRESHOLD='$thr' is not a number"
# ktest.pl hands its values to sh unquoted and drops lines with a hash sign.
case "$work$top$cfg$cpio" in
*[[:space:]\#]*) pb_die "$PB_USAGE" "paths must not contain blanks or '#': $work $top $cfg $cpio" ;;
esac

mkdir -p "$work/state" "$(dirname "$out")" || exit
state=$work/state
mkfifo "$state/console" "$work/stdin" || exit
touch "$state/builds" "$state/boots" || exit
# cleanup: stop the guest if ktest left one, and let a console reader that
# still waits on the FIFO see end of file.
# A scratch dir made here goes too (its builds are gigabytes); one given
# with BENCH_KTEST_DIR stays, and so does any on failure, with its path.
cleanup() {
	local rc=$?
	"$top/bench/ktest/qemu.sh" "$state"
	: <>"$state/console"
	if [ -z "${BENCH_KTEST_DIR:-}" ] && [ "$rc" -eq 0 ]; then
		rm -rf "$work"
	else
		pb_info "scratch dir kept: $work"
	fi
}
trap cleanup EXIT
pb_lock_wait "$PB_BUILD_LOCK" "the kernel build slot (one build at a time on this machine)"

start=$SECONDS
git clone -q "$lab" "$work/linux" || exit
if [ -n "$thr" ]; then
	echo "$thr" >"$state/threshold"
fi
esc() {
	printf '%s' "$1" | sed 's/[\\&|]/\\&/g'
}
sed -e "s|@WORK@|$(esc "$work")|g" -e "s|@HELPERS@|$(esc "$top/bench/ktest")|g" \
	-e "s|@KCONFIG@|$(esc "$cfg")|g" -e "s|@INITRD@|$(esc "$cpio")|g" \
	-e "s|@JOBS@|$(nproc)|g" -e "s|@CALIBRATE@|$([ -n "$thr" ] && echo 0 || echo 1)|g" \
	"$top/bench/ktest/bisect.conf.in" >"$work/ktest.conf" || exit

# ktest.pl copies its stdin to the console and polls it: give it one that
# never has data nor ends (a FIFO we hold open), or it spins on EOF.
exec 3<>"$work/stdin"
# No ccache: drop ccache's compiler wrappers from PATH, should it have them.
PATH=$(tr : '\n' <<<"$PATH" | grep -v ccache | paste -sd:)
pb_info "running ktest.pl on $work/ktest.conf (log: $work/ktest.log)"
timeout --foreground -s INT "${BENCH_KTEST_TIMEOUT:-21600}" \
	perl "$ktest" "$work/ktest.conf" <&3 3<&- >"$work/ktest.out" 2>&1
rc=$?
exec 3>&-

# ktest prints "Bad commit was [SHA]" at the end of a bisect; PRE_BUILD
# logs every build (named after its test), qemu.sh every boot.
found=$(sed -n 's/^Bad commit was \[\([0-9a-f]\{40\}\)\]$/\1/p' "$work/ktest.log" 2>/dev/null | tail -1)
if [ -n "$found" ] && [ "$found" = "$(jq -r .culprit "$desc")" ]; then
	verdict=right
else
	verdict="WRONG (${found:0:12}${found:+; }ktest exit $rc)"
fi
builds=$(wc -l <"$state/builds")
steps=$(grep -c '^bisect$' "$state/builds")
boots=$(wc -l <"$state/boots")
{
	echo "# bench/ktest.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores, TCG, 2 vCPUs"
	printf '%-34s %7s %6s %7s  %s\n' approach wall_s steps builds culprit
	printf '%-34s %7s %6s %7s  %s\n' "ktest.pl bisect, QEMU target" $((SECONDS - start)) "$steps" "$builds" "$verdict"
	if [ -n "$thr" ]; then
		echo "# ktest threshold $thr (given); $boots boots; ktest exit $rc"
	else
		echo "# ktest threshold $(cat "$state/threshold" 2>/dev/null) from one good ($(cat "$state/good" 2>/dev/null))" \
			"and one bad ($(cat "$state/bad" 2>/dev/null)) sample; $boots boots; ktest exit $rc"
	fi
} | tee -a "$out"
