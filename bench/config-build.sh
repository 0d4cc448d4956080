#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# config-build.sh: how long a cold build of a larger config takes on this
# machine, for the estimate build.sh prints (pb_cold_build_min in
# bisect/lib.sh): build.sh -K BASE of the imported 6.1 tree, with an empty
# ccache and O= dir in a scratch PERFBISECT_HOME.
# Usage: bench/config-build.sh [-K BASE] [RESULT_FILE]
#   BASE: defconfig (default), tinyconfig or a .config file.
#   BENCH_HOME=DIR   a new or empty directory for its PERFBISECT_HOME, kept
#                    (default: a new one from mktemp, removed at the end)
# Last line: "base=BASE options_y=N cold_build_s=S ccache_misses=M".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
base=defconfig
pb_help_first "$@"
while getopts K:h opt; do
	case $opt in
	K) base=$OPTARG ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
pb_bench_args "$@"
base=$(pb_config_base "$base") || exit
out=${1:-$top/bench/results/config-build-${base##*/}.txt}
main_home=$PERFBISECT_HOME
src=$("$top/bisect/kernel-src.sh") || exit
scratch=$(pb_scratch config-build "${BENCH_HOME:-}") || exit
[ -n "${BENCH_HOME:-}" ] || trap 'rm -rf "$scratch"' EXIT
PERFBISECT_HOME=$scratch
export PERFBISECT_HOME
mkdir -p "$(dirname "$out")" || exit
ln -s "$main_home/linux-6.1" "$PERFBISECT_HOME/linux-6.1" || exit
pb_info "cold build of $base in $scratch (a defconfig takes most of an hour here)"
art=$("$top/bisect/build.sh" -K "$base" "$src" v6.1-debian) || exit
last="base=${base##*/} options_y=$(grep -c '=y$' "$art/config") cold_build_s=$(jq -r .build_s "$art/build.json") ccache_misses=$(jq -r .ccache_misses "$art/build.json")"
{
	echo "# bench/config-build.sh on $(hostname), $(date -u '+%F %T UTC'), $(nproc) cores, gcc $(gcc -dumpfullversion)"
	echo "$last"
} >"$out.tmp" && mv -f "$out.tmp" "$out" || pb_die "$PB_INTERNAL" "cannot write $out"
echo "$last"
