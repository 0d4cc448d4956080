#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# search.sh: the search (bisect.sh -S) against the steps on real kernels.
# Bisects the lab (good..bad) in wall-clock mode RUNS times each way, the
# two alternating so that both see the same stretches of host load, each
# from an empty results cache and no saved state (kernel images stay
# cached after the first build, as in bench/small-regression.sh).
# Usage: bench/search.sh [-r RUNS] [-b BAD] [RESULT_FILE]
#   RUNS (default 2) bisects each way; BAD (default bad) the lab's bad end:
#   small-bad bisects the small-regression scenario instead (its culprit
#   is the lab's .small.culprit). Results are appended to
#   bench/results/search.txt.
# Last line: "search: right A of N, B boots, C s (medians); steps: right
# D of N, E boots, F s (medians)".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_help_first "$@"
runs=2 bad=bad
while getopts r:b:h opt; do
	case $opt in
	r) runs=$OPTARG ;;
	b) bad=$OPTARG ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
pb_bench_args "$@"
pb_check_range "runs (-r)" "$runs" 1 20
case $bad in
bad) want_key=.culprit ;;
small-bad) want_key=.small.culprit ;;
*) pb_die "$PB_USAGE" "-b takes bad or small-bad, not '$bad'" ;;
esac
out=${1:-$top/bench/results/search.txt}
lab=$("$top/bisect/lab.sh") || exit
want=$(jq -r "$want_key // empty" "$(dirname "$lab")/lab.json")
[ -n "$want" ] || pb_die "$PB_INTERNAL" "the lab names no culprit for $bad; run 'make lab'"
mkdir -p "$(dirname "$out")" || exit
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
trap 'exit 10' INT TERM

pb_bench_table "$tmp" "$out" "bench/search.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores; lab good..$bad, -d wall; $(pb_qemu_version)" || exit
: >"$tmp/search.right" && : >"$tmp/steps.right" || exit
# way NAME I: one bisect, -S for the search; adds to NAME's figures.
way() {
	local w b a
	if [ "$1" = search ]; then
		read -r w b a < <(pb_bench_bisect "$tmp" search "$want" "$2" -t "$lab" -g good -b "$bad" -d wall -S)
	else
		read -r w b a < <(pb_bench_bisect "$tmp" steps "$want" "$2" -t "$lab" -g good -b "$bad" -d wall -s)
	fi
	echo "$w" >>"$tmp/$1.wall"
	echo "$b" >>"$tmp/$1.boots"
	if [ "$a" = right ]; then echo >>"$tmp/$1.right"; fi
}
for ((i = 1; i <= runs; i++)); do
	if [ $((i % 2)) = 1 ]; then
		way search "$i"
		way steps "$i"
	else
		way steps "$i"
		way search "$i"
	fi
done
# figures NAME: "right A of N, B boots, C s (medians)".
figures() {
	local -a w b
	mapfile -t w <"$tmp/$1.wall"
	mapfile -t b < <(grep -v '^-$' "$tmp/$1.boots")
	echo "right $(wc -l <"$tmp/$1.right") of $runs, $(pb_median "${b[@]:-0}") boots, $(pb_median "${w[@]}") s (medians)"
}
{
	tail -n +3 "$tmp/table"
	echo "search: $(figures search); steps: $(figures steps)"
} | tee -a "$out" | tail -1
