#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# noise.sh: how noisy is Jobs/Min under TCG here? For each setting, boots
# the same kernel BOOTS times with SAMPLES samples each (after one warm-up)
# and reports the coefficient of variation within each boot and across the
# boots' medians.
# Usage: bench/noise.sh [-b BOOTS] [-n SAMPLES] [-t REPO] [-r REV] [RESULT_FILE]
#   default: 3 boots x 6 samples of the lab's good kernel; the settings
#   tried are in SETTINGS below (tasks, jobs per task, workfile, vCPUs).
#   -icount (measure.sh -I) is left out: 18% CV and several times slower
#   when it was tried (bench/README.md).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
boots=3 samples=6 repo='' rev=good
pb_help_first "$@"
while getopts b:n:t:r:h opt; do
	case $opt in
	b) boots=$OPTARG ;;
	n) samples=$OPTARG ;;
	t) repo=$OPTARG ;;
	r) rev=$OPTARG ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
pb_bench_args "$@"
pb_check_range "boots (-b)" "$boots" 1 50
pb_check_range "samples (-n)" "$samples" 1 100
out=${1:-$top/bench/results/noise.txt}
[ -n "$repo" ] || repo=$("$top/bisect/lab.sh") || exit
pbstat=$(PB_QUIET=1 pb_tool pbstat) || exit
SETTINGS=(
	"-T 50 -J 10 -W high_systime"
	"-T 50 -J 40 -W high_systime"
	"-T 50 -J 160 -W high_systime"
	"-T 50 -J 40 -W high_systime -C 1"
	"-T 50 -J 160 -W high_systime -C 1"
	"-T 100 -J 20 -W bkl"
)
# host_steal: print the host's steal and total CPU time (USER_HZ ticks):
# the time the hypervisor under this machine gave to someone else.
host_steal() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print $9, t }' /proc/stat
}
mkdir -p "$(dirname "$out")" || exit
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
{
	echo "# bench/noise.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores; kernel $rev of $repo"
	echo "# $boots boots x $samples samples (after 1 warm-up) per setting, 2 vCPUs unless -C, TCG"
	printf '%-32s %10s %9s %22s %10s %8s %7s\n' setting median_jpm sample_s "within-boot CV% (each)" across_CV% wall_s steal%
	for s in "${SETTINGS[@]}"; do
		read -ra opts <<<"$s"
		meds=() cvs=() start=$SECONDS real=''
		read -r st0 tot0 < <(host_steal)
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
		read -r st1 tot1 < <(host_steal)
		printf '%-32s %10s %9s %22s %10s %8s %7s\n' "$s" "$(sed -n 's/.*median=\([0-9.]*\).*/\1/p' <<<"$all")" \
			"$real" "$(
				IFS=/
				echo "${cvs[*]}"
			)" "$(sed -n 's/.*cv_pct=\([0-9.]*\).*/\1/p' <<<"$all")" $((SECONDS - start)) \
			"$(awk -v a=$((st1 - st0)) -v b=$((tot1 - tot0)) 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')"
	done
} | tee "$out"
