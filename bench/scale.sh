#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scale.sh: how much faster a bisect runs with two workers than with one.
# Makes a history of 26 commits on the lab's good (each changes the kernel
# image, so every commit needs its own build and boot; the 17th carries
# the lab's culprit), builds every image once (the images cache is shared,
# so both bisects boot and neither builds), then bisects it in
# deterministic mode with --workers 1 and --workers 2 (two local slots),
# each with an empty results cache of its own.
# Usage: bench/scale.sh [RESULT_FILE]
#   (default bench/results/scale.txt). PB_SCALE_COMMITS (default 26) and
#   PB_SCALE_CULPRIT (default 17) change the history.
# Last line: "workers=1 wall=A s; workers=2 wall=B s; speedup=X; culprit
# same: yes|no".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_bench_args "$@"
out=${1:-$top/bench/results/scale.txt}
commits=${PB_SCALE_COMMITS:-26} at=${PB_SCALE_CULPRIT:-17}
pb_check_range "PB_SCALE_COMMITS" "$commits" 3 200
pb_check_range "PB_SCALE_CULPRIT" "$at" 1 "$commits"
pb_need git jq
lab=$("$top/bisect/lab.sh") || exit
labculprit=$(jq -r .culprit "$(dirname "$lab")/lab.json") || pb_die "$PB_INTERNAL" "no culprit in the lab's lab.json"
repo=$PERFBISECT_HOME/test-repos/lab-scale-$commits-$at

# commit N MESSAGE: commit the changes of $tmp, N minutes into the history.
commit() {
	pb_commit_all "$tmp" "@$((1700000000 + $1 * 60)) +0000" "$2"
}
if ! git -C "$repo" rev-parse -q --verify refs/tags/scale-bad >/dev/null 2>&1; then
	tmp=$repo.making
	rm -rf "$tmp" "$repo" || pb_die "$PB_INTERNAL" "cannot remove $repo"
	mkdir -p "$(dirname "$repo")" && git clone -q --shared "$lab" "$tmp" &&
		git -C "$tmp" checkout -q good && git -C "$tmp" tag scale-good ||
		pb_die "$PB_INTERNAL" "cannot clone $lab into $tmp"
	for ((i = 1; i <= commits; i++)); do
		if [ "$i" -eq "$at" ]; then
			git -C "$lab" format-patch -1 --stdout "$labculprit" | git -C "$tmp" apply --index ||
				pb_die "$PB_INTERNAL" "cannot apply the lab's culprit ${labculprit:0:12}"
		fi
		# Code, not a comment: every commit builds another kernel.
		sed -i '/^const char perfbisect_scale\[\] = /d' "$tmp/init/version.c" &&
			printf 'const char perfbisect_scale[] = "%d";\n' "$i" >>"$tmp/init/version.c" ||
			pb_die "$PB_INTERNAL" "cannot edit init/version.c"
		if [ "$i" -eq "$at" ]; then
			commit "$i" "semaphore: hand off ownership to the woken waiter (scale $i)"
			git -C "$tmp" tag scale-culprit
		else
			commit "$i" "init/version: scale marker $i"
		fi
	done
	git -C "$tmp" tag scale-bad && mv "$tmp" "$repo" || pb_die "$PB_INTERNAL" "cannot move $tmp to $repo"
fi
culprit=$(git -C "$repo" rev-parse scale-culprit) || exit

# Every image once, so that neither bisect builds.
mapfile -t shas < <(git -C "$repo" rev-list --reverse scale-good^..scale-bad)
n=0
for sha in "${shas[@]}"; do
	n=$((n + 1))
	pb_info "building ${sha:0:12} ($n of ${#shas[@]})"
	"$top/bisect/build.sh" "$repo" "$sha" >/dev/null || pb_die "$PB_INTERNAL" "cannot build ${sha:0:12} of $repo"
done
[ "${PB_SCALE_BUILD_ONLY:-0}" = 1 ] && exit 0

wall_1=0 wall_2=0 found_1='' found_2=''
log=$(mktemp /tmp/perfbisect-scale.XXXXXX) || pb_die "$PB_INTERNAL" "cannot create a log"
# bisect W: bisect the history with W workers and an empty results cache;
# sets wall_W and found_W.
bisect() {
	local w=$1 results start rc
	results=$(mktemp -d /tmp/perfbisect-scale-results.XXXXXX) || pb_die "$PB_INTERNAL" "cannot create a results dir"
	pb_info "bisecting $commits commits with $w worker(s) (log: $log)"
	start=$(pb_now)
	PB_RESULTS=$results "$top/bisect/bisect.sh" -t "$repo" -g scale-good -b scale-bad -d det -R -P "$w" >>"$log" 2>&1
	rc=$?
	printf -v "wall_$w" '%s' "$(pb_elapsed "$start")"
	printf -v "found_$w" '%s' "$(jq -r '.culprit // ""' "$PERFBISECT_HOME/runs/latest/summary.json" 2>/dev/null)"
	rm -rf "$results"
	[ "$rc" -eq 0 ] || pb_warn "the bisect with $w worker(s) exited $rc; see $log"
}
bisect 1
bisect 2
same=no
[ -n "$found_1" ] && [ "$found_1" = "$found_2" ] && [ "$found_1" = "$culprit" ] && same=yes
speedup=$(awk -v a="$wall_1" -v b="$wall_2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
line="workers=1 wall=$wall_1 s; workers=2 wall=$wall_2 s; speedup=$speedup; culprit same: $same"
{
	date -u '+%F %T UTC'
	echo "history: $commits commits of $repo, culprit ${culprit:0:12}"
	grep -h 'step \|round ' "$log" | tail -40
	echo "$line"
} >"$out.tmp" && mv -f "$out.tmp" "$out" || pb_die "$PB_INTERNAL" "cannot write $out"
echo "$line"
[ "$same" = yes ]
