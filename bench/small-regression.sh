#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# small-regression.sh: can perfbisect find a 2-3% regression? Bisects the
# lab's small-regression scenario (good..small-bad: the same history as
# the lab, with a culprit that adds a few thousand instructions to every
# unlink: 2.8% in deterministic mode) RUNS times, each
# measuring everything afresh (an empty results cache, no saved state), and
# then the lab itself once the same way, for the wall time to compare with.
# Usage: bench/small-regression.sh [-r RUNS] [-d MODE] [-L] [-W WORKFILE]
#                                  [-J JOBS] [RESULT_FILE]
#   defaults: 3 runs in deterministic mode (-d det), the lab run included
#   (-L leaves it out); results are appended to
#   bench/results/small-regression.txt.
# Last line: "small regression: right N of M, wall A s (median); lab: B s;
# ratio X" (X = A / B; the target is at most 2).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_help_first "$@"
runs=3 mode=det lab_run=1 opts=()
while getopts r:d:LW:J:h opt; do
	case $opt in
	r) runs=$OPTARG ;;
	d) mode=$OPTARG ;;
	L) lab_run=0 ;;
	W) opts+=(-W "$OPTARG") ;;
	J) opts+=(-J "$OPTARG") ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || pb_die "$PB_USAGE" "at most one result file (see --help)"
pb_is_uint "$runs" && [ "$runs" -ge 1 ] || pb_die "$PB_USAGE" "-r takes a count of runs (1 or more)"
pb_check_mode "$mode" 1
out=${1:-$top/bench/results/small-regression.txt}
lab=$("$top/bisect/lab.sh") || exit
desc=$(dirname "$lab")/lab.json
small_bad=$(jq -r '.small.bad // empty' "$desc")
[ -n "$small_bad" ] || pb_die "$PB_INTERNAL" "the lab has no small-regression scenario; run 'make lab'"
mkdir -p "$(dirname "$out")" || exit
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
trap 'exit 10' INT TERM

pb_bench_table "$tmp" "$out" "bench/small-regression.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores; mode $mode; $(pb_det_id)${opts[*]:+; ${opts[*]}}" || exit
right=0 walls=()
for ((i = 1; i <= runs; i++)); do
	read -r w _ a < <(pb_bench_bisect "$tmp" small "$(jq -r .small.culprit "$desc")" "$i" \
		-t "$lab" -g good -b "$small_bad" -d "$mode" "${opts[@]}")
	walls+=("$w")
	[ "$a" = right ] && right=$((right + 1))
done
lab_w=-
if [ "$lab_run" = 1 ]; then
	read -r lab_w _ < <(pb_bench_bisect "$tmp" lab "$(jq -r .culprit "$desc")" 1 \
		-t "$lab" -g good -b bad -d "$mode" "${opts[@]}")
fi
med=$(pb_median "${walls[@]}")
ratio=-
[ "$lab_w" != - ] && ratio=$(awk -v a="$med" -v b="$lab_w" 'BEGIN { printf "%.2f", a / b }')
{
	tail -n +3 "$tmp/table"
	echo "small regression: right $right of $runs, wall $med s (median); lab: $lab_w s; ratio $ratio"
} | tee -a "$out" | tail -1
