#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# incremental.sh: what the kept times of bisect/stages/checkout.sh save, and that
# they change no image. Builds GOOD, BAD, the build fix and the culprit of
# the lab, in that order, into one O= dir, first as plain checkouts
# (PB_KEEP_TIMES=0), then with the kept times, each from a fresh
# PERFBISECT_HOME sharing the main ccache: the first build of each fills
# the O= dir, the next ones show the difference. Prints per build the
# seconds of make, of the whole build.sh, the ccache hits and the bzImage
# sha256, then whether both ways gave the same images.
# Usage: bench/incremental.sh [RESULT_FILE]   (default bench/results/incremental.txt, appended)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_bench_args "$@"
out=${1:-$top/bench/results/incremental.txt}
main_home=$PERFBISECT_HOME
homes=()
trap 'rm -rf "${homes[@]}"' EXIT
"$top/bisect/kernel-src.sh" >/dev/null || exit
lab=$("$top/bisect/lab.sh") || exit
labjson=$(dirname "$lab")/lab.json
revs=()
for k in good bad broken_fix culprit; do
	revs+=("$(jq -r ".$k" "$labjson")") || exit
done
mkdir -p "$(dirname "$out")" || exit

{
	echo "# bench/incremental.sh on $(hostname), $(date -u '+%F %T') UTC; $(nproc) cores"
	printf '%-12s %-14s %8s %8s %6s  %s\n' mode commit make_s wall_s hits bzImage
} | tee -a "$out"
declare -A sha=()
for keep in 0 1; do
	mode=plain
	[ "$keep" = 1 ] && mode=kept-times
	home=$(pb_scratch "bench-incremental-$mode") || exit
	homes+=("$home")
	ln -s "$main_home/linux-6.1" "$home/linux-6.1" &&
		ln -s "$main_home/ccache" "$home/ccache" || exit
	for rev in "${revs[@]}"; do
		start=$SECONDS
		art=$(PERFBISECT_HOME=$home PB_KEEP_TIMES=$keep "$top/bisect/build.sh" "$lab" "$rev" 2>>"$home/build.err") || {
			pb_warn "build of ${rev:0:12} failed:"
			tail -5 "$home/build.err" >&2
			exit 1
		}
		s=$(jq -r .bzimage_sha256 "$art/build.json")
		sha[$mode.$rev]=$s
		printf '%-12s %-14s %8s %8s %6s  %s\n' "$mode" "${rev:0:12}" \
			"$(jq -r .build_s "$art/build.json")" $((SECONDS - start)) \
			"$(jq -r .ccache_hits "$art/build.json")" "${s:0:16}" | tee -a "$out"
	done
done
same=yes
for rev in "${revs[@]}"; do
	[ "${sha[plain.$rev]}" = "${sha[kept-times.$rev]}" ] || same=no
done
echo "# same bzImage both ways for all ${#revs[@]} commits: $same" | tee -a "$out"
[ "$same" = yes ]
