#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-boot.sh: the foundation's anchors on this machine: cold build,
# rebuild of the same commit from an empty O= dir with a warm ccache (and
# from another checkout path), a one-file incremental rebuild, and
# boot-to-result seconds under TCG. Uses its own PERFBISECT_HOME so the
# ccache really starts cold; reuses the imported kernel tree.
# Usage: bench/build-boot.sh [RESULT_FILE]   (default bench/results/build-boot.txt)
#   BENCH_HOME=DIR   a new or empty directory for its PERFBISECT_HOME, kept
#                    (default: a new one from mktemp, removed at the end)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
pb_bench_args "$@"
out=${1:-$top/bench/results/build-boot.txt}
main_home=$PERFBISECT_HOME
src=$("$top/bisect/kernel-src.sh") || exit
PERFBISECT_HOME=$(pb_scratch bench-build "${BENCH_HOME:-}") || exit
export PERFBISECT_HOME
mkdir -p "$(dirname "$out")" || exit
ln -s "$main_home/linux-6.1" "$PERFBISECT_HOME/linux-6.1"
b=$top/bisect

field() { jq -r ".$1" "$2/build.json"; }
row() { printf '%-44s %8s s  ccache %5s hits %5s misses\n' "$1" "$2" "$3" "$4"; }
{
	echo "# bench/build-boot.sh on $(hostname), $(date -u '+%F %T UTC')"
	echo "# $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(gcc -dumpfullversion | sed 's/^/gcc /'), $(ccache --version | head -1)"
	art=$("$b/build.sh" "$src" v6.1-debian) || exit
	row "cold build (empty ccache, empty O= dir)" "$(field build_s "$art")" "$(field ccache_hits "$art")" "$(field ccache_misses "$art")"

	# The same commit again from an empty O= dir, warm ccache.
	rm -rf "$PERFBISECT_HOME/images" "$PERFBISECT_HOME"/trees/*/build-*
	art=$("$b/build.sh" "$src" v6.1-debian) || exit
	row "same commit, empty O= dir, warm ccache" "$(field build_s "$art")" "$(field ccache_hits "$art")" "$(field ccache_misses "$art")"

	# The same sources from another checkout path: CCACHE_BASEDIR at work.
	other="$PERFBISECT_HOME/other-clone"
	git clone -q --shared "$src" "$other"
	echo "# a documentation change" >>"$other/Documentation/Changes"
	git -C "$other" -c user.name=bench -c user.email=bench@invalid commit -qam "doc: touch"
	art=$("$b/build.sh" "$other" HEAD) || exit
	row "another checkout path, empty O=, warm ccache" "$(field build_s "$art")" "$(field ccache_hits "$art")" "$(field ccache_misses "$art")"

	# One changed .c file.
	sed -i 's/pr_emerg("Kernel panic - not syncing: %s\\n", buf);/pr_emerg("Kernel panic - not syncing: %s\\n", buf); \/* bench *\//' "$other/kernel/panic.c"
	sed -i 's/^\tpanic_smp_self_stop();$/\tpanic_smp_self_stop(); barrier();/' "$other/kernel/panic.c"
	git -C "$other" -c user.name=bench -c user.email=bench@invalid commit -qam "panic: touch"
	art=$("$b/build.sh" "$other" HEAD) || exit
	row "one changed .c file (kernel/panic.c)" "$(field build_s "$art")" "$(field ccache_hits "$art")" "$(field ccache_misses "$art")"

	# Boot to result under TCG, 2 vCPUs, payload none: 5 boots.
	cpio=$("$b/initramfs.sh") || exit
	times=()
	for i in 1 2 3 4 5; do
		"$b/boot.sh" -c 2 -k "$art/bzImage" -i "$cpio" -o "$PERFBISECT_HOME/boot$i" pb_payload=none 2>/dev/null || exit
		times+=("$(jq -r .boot_s "$PERFBISECT_HOME/boot$i/boot.json")")
	done
	echo "boot to result and power-off, TCG, 2 vCPUs (5 boots): ${times[*]} s; accel: $(jq -r .accel "$PERFBISECT_HOME/boot1/boot.json")"
} | tee "$out"
[ -n "${BENCH_HOME:-}" ] || rm -rf "$PERFBISECT_HOME"
