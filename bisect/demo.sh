#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: the main job, start to finish on a fresh machine: install what is
# missing, import linux-source-6.1, build it, boot it in QEMU with the
# reproducer and print the guest's measurements as an AIM7 table.
# Usage: demo.sh [-T TASKS] [-n SAMPLES]
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tasks=100 samples=3
[ "${1:-}" = --help ] && {
	sed -n '3,7s/^# \{0,1\}//p' "$0"
	exit 0
}
while getopts T:n:h opt; do
	case $opt in
	T) tasks=$OPTARG ;;
	n) samples=$OPTARG ;;
	h)
		sed -n '3,7s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done

start=$(pb_now)
pb_info "[1/4] checking packages"
"$PB_TOP/bisect/deps.sh" || exit
pb_info "[2/4] kernel source"
src=$("$PB_TOP/bisect/kernel-src.sh") || exit
pb_info "[3/4] build, boot and measure Linux 6.1 (vanilla)"
run=$(pb_new_run demo) || exit
"$PB_TOP/bisect/measure.sh" -T "$tasks" -n "$samples" -o "$run" "$src" v6.1-debian >/dev/null
code=$?
[ "$code" -eq 0 ] || pb_die "$code" "the measurement failed ($(cat "$run/outcome" 2>/dev/null)); see $run"
pb_info "[4/4] results (run dir $run, $(pb_elapsed "$start") s)"
awk '
/ ncpus=/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "guest: %d vCPUs, %d MiB\n\n", v["ncpus"], v["memkb"] / 1024 }
/ sample=/ {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] = kv[2] }
	if (!hdr++) printf "%-8s %6s %10s %6s %8s %8s %14s %6s\n", "sample",
		"Tasks", "Jobs/Min", "JTI", "Real", "CPU", "Jobs/sec/task", "idle%"
	printf "%-8s %6d %10.1f %6.0f %8.2f %8.2f %14.4f %6.1f\n",
		s["sample"] (s["warmup"] == 1 ? "(w)" : ""), s["tasks"], s["jpm"],
		s["jti"], s["real"], s["cpu"], s["jpst"], s["idle"] }
/ summary=/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] }
	printf "\nmedian %.1f jobs/min over %d samples, spread %.1f%%\n",
		m["median_jpm"], m["samples"], m["spread_pct"] }
' "$run/results"
