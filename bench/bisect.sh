#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh: time to culprit on the lab: from a cold ccache, from a warm
# ccache (no kernel images, no results, no build dir), from a warm ccache
# and build dir (no images, no results), and a second run over the same
# range (everything cached). Steps (and how many of them took the verdict
# of a kernel judged before: "same"), builds, boots, ccache hit rate,
# samples per measured kernel, and whether the culprit is right. Uses its own PERFBISECT_HOME;
# reuses the imported kernel tree.
# Usage: bench/bisect.sh [-w|-c] [RESULT_FILE]   (default bench/results/bisect.txt, appended)
#   -w  skip the cold run: the warm runs use the ccache of $PERFBISECT_HOME
#   -c  the cold run only
#   BENCH_HOME=DIR   a new or empty directory for its PERFBISECT_HOME, kept
#                    (default: a new one from mktemp, removed at the end)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
warm_only=0 cold_only=0
case ${1:-} in
-w) warm_only=1 && shift ;;
-c) cold_only=1 && shift ;;
esac
pb_bench_args "$@"
out=${1:-$top/bench/results/bisect.txt}
main_home=$PERFBISECT_HOME
"$top/bisect/kernel-src.sh" >/dev/null || exit
PERFBISECT_HOME=$(pb_scratch bench-bisect "${BENCH_HOME:-}") || exit
export PERFBISECT_HOME
[ -n "${BENCH_HOME:-}" ] || trap 'rm -rf "$PERFBISECT_HOME"' EXIT
mkdir -p "$(dirname "$out")" || exit
ln -s "$main_home/linux-6.1" "$PERFBISECT_HOME/linux-6.1"
[ "$warm_only" = 1 ] && ln -s "$main_home/ccache" "$PERFBISECT_HOME/ccache"
# The lab exists before the clock starts, as for bench/compare.sh and
# bench/ktest.sh.
"$top/bisect/lab.sh" >/dev/null || exit

# one LABEL: run the lab bisect and print one line of figures.
one() {
	local start=$SECONDS rc run
	"$top/bisect/bisect.sh" >"$PERFBISECT_HOME/$1.out" 2>"$PERFBISECT_HOME/$1.err"
	rc=$?
	run=$(readlink -f "$PERFBISECT_HOME/runs/latest")
	jq -r --arg name "$1" --argjson wall $((SECONDS - start)) --arg rc "$rc" \
		--arg expected "$(jq -r .culprit "$PERFBISECT_HOME/lab/lab.json")" \
		--slurpfile r <(cat "$run/results.jsonl") \
		'[$name, $wall, .steps, (.same_kernel_steps // 0), .builds, (.boots // 0),
		  # ccache figures only for kernels built in this run: a replay
		  # lists the cached results, with the hits of their old builds.
		  (if .builds > 0 then [$r[] | .ccache_hits // 0] | add else 0 end),
		  (if .builds > 0 then [$r[] | .ccache_misses // 0] | add else 0 end),
		  ([$r[] | .samples | length | select(. > 0)] | if length > 0 then add / length * 10 | round / 10 else 0 end),
		  (if .culprit == $expected then "right" else "WRONG (exit " + $rc + ")" end)] | @tsv' \
		"$run/summary.json" | awk -F'\t' '{ printf "%-28s %7s %6s %5s %7s %6s %8s %8s %8s  %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
}
{
	echo "# bench/bisect.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores, TCG, 2 vCPUs"
	printf '%-28s %7s %6s %5s %7s %6s %8s %8s %8s  %s\n' run wall_s steps same builds boots hits misses samples/kernel culprit
	[ "$warm_only" = 1 ] || one "cold ccache"
	[ "$cold_only" = 1 ] && exit 0
	rm -rf "$PERFBISECT_HOME"/{images,results,bisect,trees,validate,torture}
	one "warm ccache"
	# As a user's next bisect of the same tree finds it: the ccache and the
	# O= build dir (left at the last kernel built) kept, nothing else.
	rm -rf "$PERFBISECT_HOME"/{images,results,bisect,validate,torture}
	one "warm ccache and build dir"
	one "second run (all cached)"
} | tee -a "$out"
