#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-6.12.sh: perfbisect on another kernel than the lab's: import
# Debian's linux-source-6.12 (kernel-src.sh -V 6.12), make a short history
# on it with one slower commit (200 us more in every unlink), and bisect it
# in deterministic mode from scratch (-R). The history's commits have fixed
# dates, so their hashes are the same on every run and machine.
# Usage: bench/kernel-6.12.sh [RESULT_FILE]
#   (default bench/results/kernel-6.12.txt; needs linux-source-6.12, which
#   'apt-get install linux-source-6.12' installs)
# Last line: "kernel=VERSION commits=N culprit=right|wrong steps=S boots=B
# wall_s=W delta_pct=D".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_bench_args "$@"
out=${1:-$top/bench/results/kernel-6.12.txt}
src=$("$top/bisect/kernel-src.sh" -V 6.12) || exit
repo=$PERFBISECT_HOME/test-repos/linux-6.12-unlink

# commit MESSAGE: commit the index with fixed identity and dates.
commit() {
	GIT_AUTHOR_NAME=perfbisect GIT_AUTHOR_EMAIL=perfbisect@localhost \
		GIT_COMMITTER_NAME=perfbisect GIT_COMMITTER_EMAIL=perfbisect@localhost \
		GIT_AUTHOR_DATE="2025-01-0$n 12:00:00 +0000" GIT_COMMITTER_DATE="2025-01-0$n 12:00:00 +0000" \
		git -C "$tmp" -c commit.gpgsign=false commit -q -a -m "$1" ||
		pb_die "$PB_INTERNAL" "cannot commit '$1' in $tmp"
	n=$((n + 1))
}

if ! git -C "$repo" rev-parse -q --verify refs/tags/slow >/dev/null 2>&1; then
	tmp=$repo.making
	rm -rf "$tmp" "$repo" || pb_die "$PB_INTERNAL" "cannot remove $repo"
	mkdir -p "$(dirname "$repo")" && git clone -q --shared "$src" "$tmp" ||
		pb_die "$PB_INTERNAL" "cannot clone $src into $tmp"
	n=1
	# An innocent change of code: another kernel, the same speed.
	sed -i 's/^\tpr_info("Run %s as init process\\n", init_filename);$/\tpr_info("Running %s as init process\\n", init_filename);/' "$tmp/init/main.c"
	commit "init: say Running, not Run"
	echo "Bisected by perfbisect's bench/kernel-6.12.sh." >>"$tmp/Documentation/admin-guide/README.rst"
	commit "Documentation: a line about this bench"
	# The culprit: every unlink waits 200 us first.
	sed -i -e '0,/^#include <linux\/init.h>$/s//#include <linux\/init.h>\n#include <linux\/delay.h>/' \
		-e '/^int do_unlinkat(int dfd, struct filename \*name)$/,/^retry:$/s/^retry:$/\tudelay(200);\nretry:/' \
		"$tmp/fs/namei.c"
	grep -q '^	udelay(200);$' "$tmp/fs/namei.c" && grep -q '^#include <linux/delay.h>$' "$tmp/fs/namei.c" ||
		pb_die "$PB_INTERNAL" "cannot place the delay in fs/namei.c of $src"
	commit "fs: wait 200 us in do_unlinkat"
	git -C "$tmp" tag slow || pb_die "$PB_INTERNAL" "cannot tag the culprit"
	sed -i '0,/^ \*  linux\/kernel\/sys.c$/s//&\n * (a comment, no code: the same kernel)/' "$tmp/kernel/sys.c"
	grep -q 'a comment, no code' "$tmp/kernel/sys.c" || pb_die "$PB_INTERNAL" "cannot add the comment to kernel/sys.c"
	commit "kernel/sys.c: a comment"
	sed -i 's/^\tpr_info("Running %s as init process\\n", init_filename);$/\tpr_info("Running %s as the init process\\n", init_filename);/' "$tmp/init/main.c"
	commit "init: say the init process"
	mv "$tmp" "$repo" || pb_die "$PB_INTERNAL" "cannot move $tmp to $repo"
fi
culprit=$(git -C "$repo" rev-parse slow) || exit
commits=$(git -C "$repo" rev-list --count v6.12-debian..HEAD)
pb_info "bisecting $commits commits on $(git -C "$repo" log -1 --format=%s v6.12-debian) (culprit ${culprit:0:12})"
start=$(pb_now)
"$top/bisect/bisect.sh" -t "$repo" -g v6.12-debian -b HEAD -d det -R
rc=$?
wall=$(pb_elapsed "$start")
summary=$PERFBISECT_HOME/runs/latest/summary.json
found=$(jq -r '.culprit // ""' "$summary" 2>/dev/null)
verdict=wrong
[ "$rc" = 0 ] && [ "$found" = "$culprit" ] && verdict=right
version=$(git -C "$src" log -1 --format=%s v6.12-debian | sed -n 's/^Linux \([0-9.]*\).*/\1/p')
delta=$(jq -r '(.bad_jpm / .good_jpm - 1) * 100 | . * 10 | round / 10' "$summary" 2>/dev/null)
last="kernel=$version commits=$commits culprit=$verdict steps=$(jq -r '.steps // "?"' "$summary" 2>/dev/null) boots=$(jq -r '.boots // "?"' "$summary" 2>/dev/null) wall_s=$wall delta_pct=${delta:-?}"
mkdir -p "$(dirname "$out")" &&
	{
		echo "# bench/kernel-6.12.sh on $(hostname), $(date -u '+%F %T UTC'), bisect exit $rc"
		cat "$PERFBISECT_HOME/runs/latest/progress.txt" 2>/dev/null
		echo "$last"
	} >"$out.tmp" && mv -f "$out.tmp" "$out" || pb_die "$PB_INTERNAL" "cannot write $out"
echo "$last"
[ "$verdict" = right ]
