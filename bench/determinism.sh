#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# determinism.sh: does the same kernel give the same number on every boot in
# deterministic mode, whatever the host does? Boots GOOD and BAD BOOTS times
# each (alternating), in deterministic mode (measure.sh -d det), while a
# compile loop keeps the host's cores busy, and prints each boot's median.
# Usage: bench/determinism.sh [-b BOOTS] [-C CPUS] [-t REPO] [-g GOOD] [-B BAD]
#                             [-L] [-S] [RESULT_FILE]
#   default: 5 boots of each of the lab's good and bad, the vCPUs of
#   deterministic mode (2 with QEMU 8.1 or later); -L: no host load;
#   -S: boot i of each kernel gets salt i (measure.sh -S), so the spread
#   is that over boot inputs, not only over the host's load.
# Last line: "boot-to-boot spread: X% (GOOD), Y% (BAD); effect Z%", the
# spread being 100 * (max / min - 1) of the boots' medians and the effect
# 100 * (median BAD / median GOOD - 1).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
boots=5 cpus='' repo='' good=good bad=bad load=1 salted=0
pb_help_first "$@"
while getopts b:C:t:g:B:LSh opt; do
	case $opt in
	b) boots=$OPTARG ;;
	C) cpus=$OPTARG ;;
	t) repo=$OPTARG ;;
	g) good=$OPTARG ;;
	B) bad=$OPTARG ;;
	L) load=0 ;;
	S) salted=1 ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || pb_die "$PB_USAGE" "at most one result file (see --help)"
pb_is_uint "$boots" && [ "$boots" -ge 2 ] || pb_die "$PB_USAGE" "-b: at least 2 boots"
[ -n "$cpus" ] || cpus=$(pb_det_cpus)
pb_check_mode det "$cpus"
out=${1:-$top/bench/results/determinism.txt}
[ -n "$repo" ] || repo=$("$top/bisect/lab.sh") || exit
pbstat=$(PB_QUIET=1 pb_tool pbstat) || exit
# Build both first: the timed part is only boots.
for r in "$good" "$bad"; do
	"$top/bisect/build.sh" "$repo" "$r" >/dev/null || pb_die "$PB_NOBUILD" "$r does not build"
done
tmp=$(mktemp -d) || exit
loadpid=''
cleanup() {
	[ -n "$loadpid" ] && kill -- "-$loadpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 10' INT TERM
# The host load: two compiles of pbstat.c at a time, over and over.
if [ "$load" = 1 ]; then
	setsid bash -c 'while :; do for i in 1 2; do gcc -O2 -o "$1/l$i" "$2" -lm & done; wait; done' \
		load "$tmp" "$top/bisect/tools/pbstat.c" >/dev/null 2>&1 &
	loadpid=$!
fi
mkdir -p "$(dirname "$out")" || exit
gm=() bm=()
{
	echo "# bench/determinism.sh on $(hostname), $(date -u '+%F %T UTC'); $(nproc) cores; $(pb_det_id)"
	echo "# $boots boots each of $good and $bad, $cpus vCPU(s), 50 tasks x 40 jobs, 1 warm-up + 4 samples; host load: $([ "$load" = 1 ] && echo '2 compiles at a time' || echo none); boot inputs: $([ "$salted" = 1 ] && echo 'salt i for boot i' || echo 'the same for every boot')"
	printf '%-5s %-5s %12s %8s %8s %8s\n' boot kernel median_jpm spread% wall_s load1
	for i in $(seq 1 "$boots"); do
		for k in good bad; do
			rev=$good
			[ "$k" = bad ] && rev=$bad
			start=$SECONDS
			salt=()
			[ "$salted" = 1 ] && salt=(-S "$i")
			PB_QUIET=1 "$top/bisect/measure.sh" -d det -C "$cpus" "${salt[@]}" -o "$tmp/b" "$repo" "$rev" >/dev/null 2>"$tmp/err" ||
				pb_die "$PB_NORESULT" "boot $i of $rev failed: $(tail -1 "$tmp/err")"
			mapfile -t v < <(pb_sample_rows "$tmp/b/results" | cut -d' ' -f1)
			m=$(pb_median "${v[@]}")
			s=$("$pbstat" summary "${v[@]}" | sed -n 's/.*cv_pct=\([0-9.]*\).*/\1/p')
			if [ "$k" = good ]; then gm+=("$m"); else bm+=("$m"); fi
			printf '%-5s %-5s %12s %8s %8s %8s\n' "$i" "$k" "$m" "$s" $((SECONDS - start)) "$(cut -d' ' -f1 /proc/loadavg)"
		done
	done
	line=$("$pbstat" detcmp -a "${gm[@]}" -b "${bm[@]}")
	sg=$("$pbstat" detcmp -a "${gm[@]}" -b "${gm[0]}" | sed -n 's/.*spread_pct=\([0-9.]*\).*/\1/p')
	sb=$("$pbstat" detcmp -a "${bm[@]}" -b "${bm[0]}" | sed -n 's/.*spread_pct=\([0-9.]*\).*/\1/p')
	echo "# within-boot column: CV% of the boot's 4 samples; pbstat detcmp: $line"
	echo "boot-to-boot spread: $sg% (GOOD), $sb% (BAD); effect $(sed -n 's/.*delta_pct=\([-0-9.]*\).*/\1/p' <<<"$line")%"
} | tee "$out"
