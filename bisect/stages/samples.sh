#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# samples.sh: make sure the results cache holds at least MIN throughput
# samples of one kernel revision, measuring (build + boot) only what is
# missing, and print them. The cache key is what determines a measurement:
# the commit's tree, the config fragments, the reproducer and initramfs
# sources, the workfile and the QEMU settings, so another bisect over the
# same range, or a fix validation, reuses them.
# Usage: samples.sh [-d] [-m] [-n MIN] [-B MIN_BOOTS] [-N MAX_BOOTS] [-l RUNLOG]
#                   REPO REV [-- MEASURE_OPTION...]
#   -d  only print the cache directory (samples, boots, meta.json) of REV
#   -B  at least MIN_BOOTS boots, whatever the samples (deterministic mode)
#   -m  print one median per boot (the file boots holds the sample count
#       of each boot, in order) instead of the samples
#   -F  fresh: MIN samples (and MIN_BOOTS boots) measured by this call, and
#       only those printed. Wall-clock numbers are comparable only within
#       one stretch of time, so cached ones are history (boots.log keeps
#       the time and the host's load average of every boot), not ends.
#   MEASURE_OPTIONs go to measure.sh (-c, -C, -m, -T, -J, -n, -w, -W);
#   the Nth deterministic boot of a revision also gets -S N (its salt),
#   unless PB_SALT=0: one set of boot inputs gives one exact figure, so
#   the boots of a revision differ in their inputs, and their spread is
#   the noise (doc/deterministic.md).
#   Boot N gives the same figure whether the cache is new or old.
#   PB_MEASURE replaces measure.sh (tests use a stub with the same contract);
#   with PB_RUN_DIR set, every build or boot done is logged to builds.jsonl;
#   PB_RESULTS moves the cache (default $PERFBISECT_HOME/results), e.g. to
#   an empty directory for a run that must measure everything afresh.
# Prints "jpm" values one per line; meta.json next to them holds build and
# boot seconds, ccache hits and the image hash. Exit: 0, or the measure
# code of the failing build or boot (cached: a broken build is not retried;
# PB_RETRY_FAILED=1 measures a revision with a cached failure again).
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

pb_help_first "$@"
min=3 max_boots=4 runlog='' print_dir=0 min_boots=0 medians=0 fresh=0
while getopts n:N:B:l:dmFh opt; do
	case $opt in
	n) min=$OPTARG ;;
	B) min_boots=$OPTARG ;;
	m) medians=1 ;;
	F) fresh=1 ;;
	N) max_boots=$OPTARG ;;
	l) runlog=$OPTARG ;;
	d) print_dir=1 ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || pb_die "$PB_USAGE" "expected REPO and REV (see --help)"
repo=$(pb_resolve_repo "$1") || exit
sha=$(pb_resolve_rev "$repo" "$2") || exit
shift 2
[ "${1:-}" = -- ] && shift
mopts=("$@")
pb_is_uint "$min" && pb_is_uint "$max_boots" && pb_is_uint "$min_boots" ||
	pb_die "$PB_USAGE" "-n, -B and -N take integers"

measure=${PB_MEASURE:-$PB_TOP/bisect/measure.sh}
key=$(pb_measure_key "$repo" "$sha" "$measure" "${mopts[@]}") || exit
salted=0
pb_check_salt
[ "$(pb_opt_mode "${mopts[@]}")" = det ] && pb_salted && salted=1
dir="${PB_RESULTS:-$PERFBISECT_HOME/results}/$key"
if [ "$print_dir" = 1 ]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$dir" || pb_die "$PB_INTERNAL" "cannot create $dir"
pb_lock_wait "$dir/lock" "the results of ${sha:0:12}"

# A failure is a property of the revision: do not redo it, unless
# PB_RETRY_FAILED=1 asks to (a hang or a QEMU failure may have been the
# host's).
if [ -f "$dir/failed" ]; then
	code=$(cat "$dir/failed")
	if [ "${PB_RETRY_FAILED:-0}" = 1 ]; then
		pb_info "${sha:0:12}: measuring again despite a cached failure (code $code; PB_RETRY_FAILED=1)"
		rm -rf "$dir/failed" "$dir/failed-run" || pb_die "$PB_INTERNAL" "cannot remove the cached failure in $dir"
	else
		pb_info "${sha:0:12}: cached failure ($(jq -r '.outcome // "?"' "$dir/meta.json" 2>/dev/null), code $code, from $(date -r "$dir/failed" '+%F %T')); PB_RETRY_FAILED=1 (perfbisect --retry-failed) measures it again"
		exit "$code"
	fi
fi
touch "$dir/samples"
# Samples cached before the file boots existed count as one boot.
[ -f "$dir/boots" ] || if [ -s "$dir/samples" ]; then wc -l <"$dir/samples"; fi >"$dir/boots"

# With -F, what the cache held before this call does not count.
base=0 bbase=0
if [ "$fresh" = 1 ]; then
	base=$(wc -l <"$dir/samples") bbase=$(wc -l <"$dir/boots")
fi
boots=0
while [ $(($(wc -l <"$dir/samples") - base)) -lt "$min" ] || [ $(($(wc -l <"$dir/boots") - bbase)) -lt "$min_boots" ]; do
	[ "$boots" -lt "$max_boots" ] ||
		pb_die "$PB_NORESULT" "${sha:0:12}: still fewer than $min samples or $min_boots boots after $boots boots"
	boots=$((boots + 1))
	run=$(mktemp -d "$dir/boot.XXXXXX") || pb_die "$PB_INTERNAL" "cannot create a run dir in $dir"
	salt=()
	[ "$salted" = 1 ] && salt=(-S $(($(wc -l <"$dir/boots") + 1)))
	"$measure" "${mopts[@]}" "${salt[@]}" -o "$run" "$repo" "$sha" >/dev/null
	code=$?
	[ -n "$runlog" ] && cat "$run"/*.log >>"$runlog" 2>/dev/null
	# Record what the build and boot cost (a cached artifact costs 0 s).
	boot_s=$(jq -r '.boot_s // 0' "$run/boot.json" 2>/dev/null || echo 0)
	pb_log_boot "$run" "$sha"
	if [ ! -f "$dir/meta.json" ]; then
		jq -n --arg commit "$sha" --arg outcome "$(cat "$run/outcome" 2>/dev/null || echo nobuild)" \
			--slurpfile b <(cat "$run/build.json" 2>/dev/null || echo '{}') \
			--argjson boot_s "$boot_s" --arg accel "$(jq -r '.accel // ""' "$run/boot.json" 2>/dev/null)" \
			'($b[0] // {}) as $b | {commit: $commit, outcome: $outcome,
			  build_s: ($b.build_s // 0), build_cached: ($b.cached // false),
			  ccache_hits: ($b.ccache_hits // 0), ccache_misses: ($b.ccache_misses // 0),
			  bzimage_sha256: ($b.bzimage_sha256 // ""), boot_s: $boot_s, boots: 1,
			  accel: $accel}'
	else
		jq --argjson boot_s "$boot_s" --arg outcome "$(cat "$run/outcome" 2>/dev/null || echo nobuild)" \
			'.boot_s += $boot_s | .boots += 1 | .outcome = $outcome' "$dir/meta.json"
	fi | pb_atomic_write "$dir/meta.json"
	if [ "$code" -ne 0 ]; then
		case $(pb_bisect_code "$code") in
		125)
			echo "$code" >"$dir/failed"
			cp -r "$run" "$dir/failed-run" 2>/dev/null
			;;
		esac
		rm -rf "$run"
		exit "$code"
	fi
	pb_sample_rows "$run/results" >"$run/new"
	if [ ! -s "$run/new" ]; then
		rm -rf "$run"
		pb_die "$PB_NORESULT" "${sha:0:12}: the guest reported no samples"
	fi
	cat "$run/new" >>"$dir/samples"
	wc -l <"$run/new" >>"$dir/boots"
	echo "$(date +%s) $(cut -d' ' -f1 /proc/loadavg) $(wc -l <"$run/new")" >>"$dir/boots.log"
	rm -rf "$run"
done
if [ "$medians" = 0 ]; then
	tail -n +$((base + 1)) "$dir/samples" | cut -d' ' -f1
	exit 0
fi
# One median per boot: the boots file gives the sample count of each.
pbstat=$(pb_tool pbstat) || exit
mapfile -t all < <(cut -d' ' -f1 "$dir/samples")
at=0 nb=0
while read -r k; do
	pb_is_uint "$k" && [ "$k" -gt 0 ] || continue
	nb=$((nb + 1))
	[ "$nb" -gt "$bbase" ] &&
		"$pbstat" summary "${all[@]:at:k}" | sed -n 's/.*median=\([0-9.]*\).*/\1/p'
	at=$((at + k))
done <"$dir/boots"
