#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-6.12.sh: perfbisect on another kernel than the lab's: import
# Debian's linux-source-6.12 (kernel-src.sh -V 6.12), make a short history
# on it with one slower commit (20 us more in every pipe write), and bisect
# it in deterministic mode from scratch (-R) three times: with the
# reproducer (pbaim), with a workload as the user's benchmark (--run
# pipebench), and from a user's .config (--config: GOOD's tinyconfig
# build with HZ=1000 instead of 250).
# The history's commits have fixed dates, so their hashes are the same on
# every run and machine.
# Usage: bench/kernel-6.12.sh [RESULT_FILE]
#   (default bench/results/kernel-6.12.txt; needs linux-source-6.12, which
#   'apt-get install linux-source-6.12' installs)
# Last line: "kernel=VERSION commits=N; pbaim: culprit=right|wrong steps=S
# boots=B wall_s=W delta_pct=D; pipebench: (the same); config: (the same)".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_bench_args "$@"
out=${1:-$top/bench/results/kernel-6.12.txt}
src=$("$top/bisect/kernel-src.sh" -V 6.12) || exit
repo=$PERFBISECT_HOME/test-repos/linux-6.12-pipe

# commit MESSAGE: commit the changes, on day n of January 2025.
commit() {
	pb_commit_all "$tmp" "2025-01-0$n 12:00:00 +0000" "$1"
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
	# The culprit: every pipe write waits 20 us first.
	sed -i -e '0,/^#include <linux\/mm.h>$/s//#include <linux\/mm.h>\n#include <linux\/delay.h>/' \
		-e '/^pipe_write(struct kiocb \*iocb, struct iov_iter \*from)$/,/^\tbool wake_next_writer = false;$/s/^\tbool wake_next_writer = false;$/&\n\n\tudelay(20);/' \
		"$tmp/fs/pipe.c"
	grep -q '^	udelay(20);$' "$tmp/fs/pipe.c" && grep -q '^#include <linux/delay.h>$' "$tmp/fs/pipe.c" ||
		pb_die "$PB_INTERNAL" "cannot place the delay in fs/pipe.c of $src"
	commit "fs/pipe: wait 20 us in pipe_write"
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
version=$(git -C "$src" log -1 --format=%s v6.12-debian | sed -n 's/^Linux \([0-9.]*\).*/\1/p')
# bisect NAME OPTION...: bisect the history from scratch; append NAME's
# figures to $last and the progress to $log; fail when it is wrong.
last="kernel=$version commits=$commits" log='' wrong=0
bisect() {
	local name=$1 start rc wall summary found verdict delta
	shift
	pb_info "$name: bisecting $commits commits on Linux $version (culprit ${culprit:0:12})"
	start=$(pb_now)
	"$top/bisect/bisect.sh" -t "$repo" -g v6.12-debian -b HEAD -d det -R "$@"
	rc=$?
	wall=$(pb_elapsed "$start")
	summary=$PERFBISECT_HOME/runs/latest/summary.json
	found=$(jq -r '.culprit // ""' "$summary" 2>/dev/null)
	verdict=wrong
	[ "$rc" = 0 ] && [ "$found" = "$culprit" ] && verdict=right
	[ "$verdict" = right ] || wrong=1
	delta=$(jq -r '(.bad_jpm / .good_jpm - 1) * 100 | . * 10 | round / 10' "$summary" 2>/dev/null)
	last="$last; $name: culprit=$verdict steps=$(jq -r '.steps // "?"' "$summary" 2>/dev/null) boots=$(jq -r '.boots // "?"' "$summary" 2>/dev/null) wall_s=$wall delta_pct=${delta:-?}"
	log="$log# $name (bisect exit $rc)
$(cat "$PERFBISECT_HOME/runs/latest/progress.txt" 2>/dev/null)
"
}
bisect pbaim
bisect pipebench -A 'pipebench -g 2 -f 10 -l 50'
cfg=$PERFBISECT_HOME/test-repos/linux-6.12-hz1000.config
sed -e 's/^CONFIG_HZ_250=y$/# CONFIG_HZ_250 is not set/' -e 's/^# CONFIG_HZ_1000 is not set$/CONFIG_HZ_1000=y/' \
	"$("$top/bisect/build.sh" -n "$repo" v6.12-debian)/config" >"$cfg" && grep -q '^CONFIG_HZ_1000=y$' "$cfg" ||
	pb_die "$PB_INTERNAL" "cannot derive a HZ=1000 config from GOOD's build"
bisect config -K "$cfg"
mkdir -p "$(dirname "$out")" &&
	{
		echo "# bench/kernel-6.12.sh on $(hostname), $(date -u '+%F %T UTC')"
		printf '%s' "$log"
		echo "$last"
	} >"$out.tmp" && mv -f "$out.tmp" "$out" || pb_die "$PB_INTERNAL" "cannot write $out"
echo "$last"
[ "$wrong" = 0 ]
