#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# small-regression.sh: how do the approaches cope when the regression is of
# the order of the noise? The lab bisected with the few_bkl workfile, which
# leaves almost none of the BKL sites in the mix, RUNS times over, each run
# measuring everything afresh (an empty results cache, no saved state), and
# optionally NAIVE_RUNS times with bench/compare.sh (the naive script, same
# workfile). Counts right culprits, wrong ones and "cannot decide".
# Usage: bench/small-regression.sh [-r RUNS] [-n NAIVE_RUNS] [-W WORKFILE] [-J JOBS] [RESULT_FILE]
#   defaults: 3 perfbisect runs, 0 naive runs (measured on mid_bkl: 32 min
#   for the first, whose clone is built from scratch without ccache; 24-25
#   min for the next ones, which keep that clone and build incrementally),
#   workfile few_bkl; results are appended
#   to bench/results/small-regression.txt. -J sets perfbisect's jobs per
#   task (longer samples; default that of bisect.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
runs=3 naive=0 workfile=few_bkl jopt=()
while getopts r:n:W:J: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	n) naive=$OPTARG ;;
	W) workfile=$OPTARG ;;
	J) jopt=(-J "$OPTARG") ;;
	*) pb_die "$PB_USAGE" "usage: bench/small-regression.sh [-r RUNS] [-n NAIVE_RUNS] [-W WORKFILE] [-J JOBS] [RESULT_FILE]" ;;
	esac
done
shift $((OPTIND - 1))
{ pb_is_uint "$runs" && pb_is_uint "$naive"; } || pb_die "$PB_USAGE" "-r and -n take counts"
out=${1:-$top/bench/results/small-regression.txt}
lab=$("$top/bisect/lab.sh") || exit
want=$(jq -r .culprit "$(dirname "$lab")/lab.json") || exit
mkdir -p "$(dirname "$out")" || exit
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT

{
	echo "# bench/small-regression.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores, TCG; workfile $workfile${jopt[*]:+, ${jopt[*]}}"
	printf '%-22s %4s %7s %5s  %s\n' approach run wall_s exit answer
} | tee -a "$out"
right=0 wrong=0 unsure=0
for ((i = 1; i <= runs; i++)); do
	start=$SECONDS
	before=$(readlink -f "$PERFBISECT_HOME/runs/latest" 2>/dev/null)
	PB_RESULTS=$tmp/results-$i "$top/bisect/bisect.sh" -W "$workfile" "${jopt[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	run=$(readlink -f "$PERFBISECT_HOME/runs/latest" 2>/dev/null)
	# A bisect that stopped before making a run directory left latest alone.
	[ "$run" != "$before" ] || run=''
	found=$(jq -r '.culprit // empty' "${run:-/nonexistent}/summary.json" 2>/dev/null)
	case $rc in
	0)
		if [ "$found" = "$want" ]; then
			answer=right right=$((right + 1))
		else
			answer="WRONG (${found:0:12})" wrong=$((wrong + 1))
		fi
		;;
	"$PB_NOREGRESSION" | "$PB_UNDECIDED" | "$PB_UNCONFIRMED")
		answer="cannot decide: $(tail -1 "$tmp/err" | cut -c1-110)" unsure=$((unsure + 1))
		;;
	*)
		answer="failed: $(tail -1 "$tmp/err" | cut -c1-110)"
		;;
	esac
	printf '%-22s %4s %7s %5s  %s\n' perfbisect "$i" $((SECONDS - start)) "$rc" "$answer" | tee -a "$out"
	# The next run must not resume this one.
	[ -n "$run" ] && [ -L "$run/state" ] && rm -rf "$(readlink -f "$run/state")"
done
echo "# perfbisect: $right right, $wrong wrong, $unsure cannot decide, of $runs runs" | tee -a "$out"
# The naive runs share one clone: from the second run on, its first build
# is incremental, as in a developer's tree.
right=0 wrong=0 none=0
for ((i = 1; i <= naive; i++)); do
	BENCH_NAIVE_KEEP=$((i > 1)) BENCH_NAIVE_APPEND="pb_workfile=$workfile" \
		"$top/bench/compare.sh" "$tmp/naive-$i.txt" >/dev/null 2>&1
	line=$(grep '^naive' "$tmp/naive-$i.txt")
	case $line in
	*right) right=$((right + 1)) ;;
	*WRONG*) wrong=$((wrong + 1)) ;;
	*) none=$((none + 1)) ;;
	esac
	printf '%-22s %4s %s\n' naive "$i" "${line#naive git bisect run script}" | tee -a "$out"
	grep '^# naive threshold' "$tmp/naive-$i.txt" | tee -a "$out"
done
if [ "$naive" -gt 0 ]; then
	echo "# naive: $right right, $wrong wrong, $none no culprit, of $naive runs" | tee -a "$out"
fi
