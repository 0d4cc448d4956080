#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# noise.sh: how noisy is Jobs/Min under TCG here? For each setting, boots
# the same kernel BOOTS times with SAMPLES samples each (after one warm-up)
# and reports the coefficient of variation within each boot and across the
# boots' medians.
# Usage: bench/noise.sh [-b BOOTS] [-n SAMPLES] [-t REPO] [-r REV] [RESULT_FILE]
#   default: 3 boots x 6 samples of the vanilla 6.1 import; the settings
#   tried are in SETTINGS below (tasks, jobs per task, workfile, extra flags).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
boots=3 samples=6 repo='' rev=v6.1-debian
while getopts b:n:t:r: opt; do
	case $opt in
	b) boots=$OPTARG ;;
	n) samples=$OPTARG ;;
	t) repo=$OPTARG ;;
	r) rev=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
out=${1:-$top/bench/results/noise.txt}
[ -n "$repo" ] || repo=$("$top/bisect/kernel-src.sh") || exit
pbstat=$(PB_QUIET=1 bash -c '. "$1/bisect/lib.sh"; pb_tool pbstat' _ "$top") || exit
SETTINGS=(
	"-T 20 -J 20 -W bkl"
	"-T 100 -J 20 -W bkl"
	"-T 100 -J 60 -W bkl"
	"-T 100 -J 60 -W bkl -I"
	"-T 100 -J 60 -W high_systime"
)
mkdir -p "$(dirname "$out")" || exit
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
{
	echo "# bench/noise.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores; kernel $rev of $repo"
	echo "# $boots boots x $samples samples (after 1 warm-up) per setting, 2 vCPUs, TCG"
	printf '%-32s %10s %9s %22s %10s %8s\n' setting median_jpm sample_s "within-boot CV% (each)" across_CV% wall_s
	for s in "${SETTINGS[@]}"; do
		read -ra opts <<<"$s"
		meds=() cvs=() start=$SECONDS real=''
		for i in $(seq 1 "$boots"); do
			PB_QUIET=1 "$top/bisect/measure.sh" "${opts[@]}" -n "$samples" -w 1 -o "$tmp/b$i" "$repo" "$rev" >/dev/null 2>&1 || {
				echo "measure failed for '$s' (boot $i)"
				continue 2
			}
			mapfile -t v < <(awk '/ sample=/ && / warmup=0 / { for (i = 2; i <= NF; i++) if ($i ~ /^jpm=/) print substr($i, 5) }' "$tmp/b$i/results")
			sum=$("$pbstat" summary "${v[@]}")
			meds+=("$(sed -n 's/.*median=\([0-9.]*\).*/\1/p' <<<"$sum")")
			cvs+=("$(sed -n 's/.*cv_pct=\([0-9.]*\).*/\1/p' <<<"$sum")")
			real=$(awk '/ sample=/ && / warmup=0 / { for (i = 2; i <= NF; i++) if ($i ~ /^real=/) print substr($i, 6) }' "$tmp/b$i/results" | head -1)
			rm -rf "$tmp/b$i"
		done
		all=$("$pbstat" summary "${meds[@]}")
		printf '%-32s %10s %9s %22s %10s %8s\n' "$s" "$(sed -n 's/.*median=\([0-9.]*\).*/\1/p' <<<"$all")" \
			"$real" "$(
				IFS=/
				echo "${cvs[*]}"
			)" "$(sed -n 's/.*cv_pct=\([0-9.]*\).*/\1/p' <<<"$all")" $((SECONDS - start))
	done
} | tee "$out"
