#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare.sh: the lab bisected the way a developer would without perfbisect
# (bench/naive/step.sh: in-tree build without ccache, one boot, one sample,
# a threshold from one good and one bad run), timed in the same session as
# perfbisect (bench/bisect.sh gives perfbisect's cold and warm figures).
# Holds perfbisect's build lock for the whole run.
# Usage: bench/compare.sh [RESULT_FILE]   (default bench/results/compare.txt, appended)
#   BENCH_NAIVE_DIR=DIR        scratch dir: new or empty (default: a new one
#                              from mktemp, removed at the end)
#   BENCH_NAIVE_KEEP=1         with BENCH_NAIVE_DIR: reuse the clone of an
#                              earlier run there and its build (a developer's
#                              tree is built already): the first build is
#                              incremental, as the others are
#   BENCH_NAIVE_APPEND='...'   more guest parameters, e.g. pb_workfile=few_bkl
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_bench_args "$@"
out=${1:-$top/bench/results/compare.txt}
extra=${BENCH_NAIVE_APPEND:-}
case $extra in
*[!a-z0-9_=\ ]*) pb_die "$PB_USAGE" "BENCH_NAIVE_APPEND='$extra': only pb_name=value words" ;;
esac
lab=$("$top/bisect/lab.sh") || exit
desc=$(dirname "$lab")/lab.json
cpio=$("$top/bisect/initramfs.sh") || exit
cfg=$("$top/bisect/build.sh" "$lab" good)/config || exit
work=${BENCH_NAIVE_DIR:-}
keep=${BENCH_NAIVE_KEEP:-0}
case $keep in
0 | 1) ;;
*) pb_die "$PB_USAGE" "BENCH_NAIVE_KEEP='$keep': 0 or 1" ;;
esac
[ "$keep" = 0 ] || [ -n "$work" ] || pb_die "$PB_USAGE" "BENCH_NAIVE_KEEP=1 needs BENCH_NAIVE_DIR (the directory of an earlier run)"
# Only a clone of this very lab (the same good and bad) is kept.
[ "$keep" = 1 ] && [ "$(git -C "$work/linux" rev-parse good bad 2>/dev/null)" = "$(git -C "$lab" rev-parse good bad)" ] ||
	keep=0
if [ "$keep" = 0 ]; then
	work=$(pb_scratch naive "$work") || exit
	[ -n "${BENCH_NAIVE_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$(dirname "$out")"
pb_lock_wait "$PB_BUILD_LOCK" "the kernel build slot (one build at a time on this machine)"
# No ccache, as in a tree of one's own: drop ccache's wrappers from PATH.
PATH=$(tr : '\n' <<<"$PATH" | grep -v ccache | paste -sd:)
start=$SECONDS
if [ "$keep" = 1 ]; then
	git -C "$work/linux" bisect reset >/dev/null 2>&1
else
	git clone -q "$lab" "$work/linux" || exit
fi
cd "$work/linux" || exit
# naive_jpm REV: build REV in the tree and print one jobs/min sample.
naive_jpm() {
	git checkout -q "$1" && "$top/bench/naive/step.sh" "$cfg" "$cpio" - "$extra"
}
g=$(naive_jpm good) && b=$(naive_jpm bad) || exit
thr=$(awk -v g="$g" -v b="$b" 'BEGIN { printf "%.1f", (g + b) / 2 }')
git bisect start bad good >/dev/null || exit
git bisect run "$top/bench/naive/step.sh" "$cfg" "$cpio" "$thr" "$extra" >"$work/bisect.log" 2>&1
found=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$work/bisect.log")
[ -n "$found" ] || echo "no culprit: see $work/bisect.log" >&2
steps=$(grep -c '^running ' "$work/bisect.log")
git bisect reset >/dev/null 2>&1
{
	echo "# bench/compare.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores, TCG, 2 vCPUs"
	printf '%-34s %7s %6s %7s  %s\n' approach wall_s steps builds culprit
	printf '%-34s %7s %6s %7s  %s\n' "naive git bisect run script" $((SECONDS - start)) "$steps" $((steps + 2)) \
		"$(if [ -z "$found" ]; then echo "no culprit"; elif [ "$found" = "$(jq -r .culprit "$desc")" ]; then echo right; else echo "WRONG (${found:0:12})"; fi)"
	echo "# naive threshold $thr from one good ($g) and one bad ($b) sample"
	echo "# guest parameters: pb_payload=aim pb_samples=1 pb_warmup=0 $extra"
	[ "$keep" = 1 ] && echo "# the clone and build of an earlier run were kept (BENCH_NAIVE_KEEP=1)"
} | tee -a "$out"
