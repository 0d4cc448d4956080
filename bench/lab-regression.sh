#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab-regression.sh: how big is the lab's regression? Jobs/Min and idle% of
# the lab's good and bad kernels, and of bad + fix A / fix B, with 2 vCPUs
# and with 1 vCPU, under TCG, with repeated samples over several boots.
# Usage: bench/lab-regression.sh [-b BOOTS] [-n SAMPLES] [RESULT_FILE]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
boots=2 samples=5
pb_help_first "$@"
while getopts b:n:h opt; do
	case $opt in
	b) boots=$OPTARG ;;
	n) samples=$OPTARG ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
pb_bench_args "$@"
pb_check_range "boots (-b)" "$boots" 1 50
pb_check_range "samples (-n)" "$samples" 1 100
out=${1:-$top/bench/results/lab-regression.txt}
lab=$("$top/bisect/lab.sh") || exit
pbstat=$(PB_QUIET=1 pb_tool pbstat) || exit
mkdir -p "$(dirname "$out")" || exit
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT

# The fixes applied on bad, in a scratch bare clone.
v=$tmp/v.git
pb_patch_repo "$lab" "$v" || exit
fa=$(pb_commit_patch "$v" bad "$top/patches/fixes/fix-a-semaphore-lock-stealing.patch")
fb=$(pb_commit_patch "$v" bad "$top/patches/fixes/fix-b-spinlock-bkl.patch")
{
	echo "# bench/lab-regression.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores, TCG"
	echo "# $boots boots x $samples samples (1 warm-up thrown away per boot); measure.sh defaults otherwise"
	printf '%-6s %-14s %10s %8s %8s %7s %10s\n' vCPUs kernel median_jpm min max idle% vs_good
	for cpus in 2 1; do
		gmed=''
		for k in "good $lab good" "bad $lab bad" "bad+fixA $v $fa" "bad+fixB $v $fb"; do
			read -r name repo rev <<<"$k"
			: >"$tmp/all"
			for _ in $(seq 1 "$boots"); do
				PB_QUIET=1 "$top/bisect/measure.sh" -C "$cpus" -n "$samples" -w 1 -o "$tmp/r" "$repo" "$rev" >/dev/null 2>&1 || {
					echo "measure failed: $name, $cpus vCPUs"
					continue 2
				}
				awk '/ sample=/ && / warmup=0 / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
					print v["jpm"], v["idle"] }' "$tmp/r/results" >>"$tmp/all"
				rm -rf "$tmp/r"
			done
			mapfile -t j < <(cut -d' ' -f1 "$tmp/all")
			mapfile -t id < <(cut -d' ' -f2 "$tmp/all")
			s=$("$pbstat" summary "${j[@]}")
			med=$(sed -n 's/.*median=\([0-9.]*\).*/\1/p' <<<"$s")
			[ -n "$gmed" ] || gmed=$med
			printf '%-6s %-14s %10s %8s %8s %7s %10s\n' "$cpus" "$name" "$med" \
				"$(sed -n 's/.*min=\([0-9.]*\).*/\1/p' <<<"$s")" "$(sed -n 's/.*max=\([0-9.]*\).*/\1/p' <<<"$s")" \
				"$("$pbstat" summary "${id[@]}" | sed -n 's/.*median=\([0-9.]*\).*/\1/p')" \
				"$(awk -v a="$med" -v g="$gmed" 'BEGIN { printf "%.2f", a / g }')"
		done
	done
} | tee "$out"
