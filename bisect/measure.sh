#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# measure.sh: build one kernel revision, boot it with the reproducer and
# print the result lines the guest reported (one measurement, one run dir).
# Usage: measure.sh [-K BASE] [-c FRAGMENT]... [-C CPUS] [-m MEM_MB] [-P none|aim]
#                   [-T TASKS] [-J JOBS] [-n SAMPLES] [-w WARMUP] [-W WORKFILE]
#                   [-A CMD [-Y REGEX] [-D higher|lower]]
#                   [-d wall|det] [-S SALT] [-o RUNDIR] REPO REV
# Defaults: 2 vCPUs, 1024 MiB, payload aim, 50 tasks, 40 jobs per task,
# 4 samples after 1 warm-up, workfile high_systime (bench/README.md says
# why); BASE (build.sh -K): tinyconfig, defconfig or a .config file. Without -o a new run directory is made under $PERFBISECT_HOME/runs.
# -d det measures in deterministic mode: guest time is executed
# instructions (QEMU -icount; 2 vCPUs from QEMU 8.1 on, else 1), so the
# host's load does not move the number; -d wall (default, or PB_MODE) is
# real time. -I is -d det.
# -S SALT (an integer) adds pb_salt=SALT to the kernel command line, which
# the guest ignores. A deterministic figure is exact for one set of boot
# inputs, but the command line seeds the kernel's RNG (KASLR among other
# things), so another SALT gives another, equally valid, figure;
# samples.sh boots a kernel with salt 1, 2, ... (unless PB_SALT=0) so that
# its boots' spread measures that.
# -A CMD (--run) runs CMD in the guest instead of the reproducer, warm-up
# + samples times (a path of this machine, a workload of workloads/, or a
# busybox applet, with its arguments); -Y REGEX (--metric) finds the line
# of its output that holds the figure (the first number after the match;
# a workload's own by default), and -D lower (--lower-is-better) makes the
# score 1e6/value, so that a slower kernel still scores lower.
# Exit: the code of build.sh or boot.sh; 34 when REGEX matches no line.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ "${1:-}" = --help ] && {
	pb_usage
	exit 0
}
frag_opts=() cpus=2 mem=1024 payload=aim tasks=50 jobs=40 samples=4 warmup=1
workfile=high_systime rundir='' bootopts=() mode=${PB_MODE:-wall} cpus_given=0
run='' metric='' direction=higher salt=''
[ "$mode" = auto ] && mode=wall
while getopts K:c:C:m:P:T:J:n:w:W:o:d:A:Y:D:S:Ih opt; do
	case $opt in
	A)
		run=$OPTARG
		payload=run
		;;
	Y) metric=$OPTARG ;;
	D) direction=$OPTARG ;;
	K) frag_opts+=(-K "$OPTARG") ;;
	c) frag_opts+=(-c "$OPTARG") ;;
	C)
		cpus=$OPTARG
		cpus_given=1
		;;
	m) mem=$OPTARG ;;
	P) payload=$OPTARG ;;
	T) tasks=$OPTARG ;;
	J) jobs=$OPTARG ;;
	n) samples=$OPTARG ;;
	w) warmup=$OPTARG ;;
	W) workfile=$OPTARG ;;
	o) rundir=$OPTARG ;;
	d) mode=$OPTARG ;;
	I) mode=det ;;
	S) salt=$OPTARG ;;
	h)
		pb_usage
		exit 0
		;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || pb_die "$PB_USAGE" "expected REPO and REV (see --help)"
for v in tasks jobs samples warmup; do
	pb_is_uint "${!v}" || pb_die "$PB_USAGE" "$v must be a non-negative integer, not '${!v}'"
done
[ -z "$salt" ] || pb_is_uint "$salt" || pb_die "$PB_USAGE" "-S: the salt is a non-negative integer, not '$salt'"
case $payload in
none | aim) ;;
run) [ -n "$run" ] || pb_die "$PB_USAGE" "payload run needs -A CMD" ;;
*) pb_die "$PB_USAGE" "payload must be none or aim, not '$payload'" ;;
esac
if [ -n "$run" ]; then
	[ -n "$metric" ] || metric=$(pb_run_metric "$run")
	[ -n "$metric" ] || pb_die "$PB_USAGE" "--run '$run' needs --metric REGEX: which output line holds the figure"
	pb_check_measure_opts -A "$run" -Y "$metric" -D "$direction"
fi
case $mode in
wall | det) ;;
*) pb_die "$PB_USAGE" "-d '$mode': the mode is wall or det" ;;
esac
if [ "$mode" = det ]; then
	[ "$cpus_given" = 1 ] || cpus=$(pb_det_cpus)
	pb_check_mode det "$cpus"
	bootopts+=(-I)
fi
[[ $workfile =~ ^[a-z0-9_]+$ ]] && [ -f "$PB_TOP/reproducer/workfiles/$workfile" ] ||
	pb_die "$PB_USAGE" "no workfile '$workfile' in reproducer/workfiles"

[ -n "$rundir" ] || rundir=$(pb_new_run measure) || exit
mkdir -p "$rundir" || pb_die "$PB_INTERNAL" "cannot create $rundir"
art=$("$PB_TOP/bisect/build.sh" "${frag_opts[@]}" -l "$rundir" "$1" "$2") || exit
cpio=$("$PB_TOP/bisect/initramfs.sh" ${run:+-A "$run" -Y "$metric"}) || exit
# Generous limits: TCG runs the guest several times slower than the host.
limit=$((120 + (samples + warmup) * (tasks * jobs / 20 + 60)))
# A --run command prints only when it ends (its output is captured to
# read the metric), so the console may stay silent for a whole run of it:
# up to 10 minutes each, before the watchdog calls it a hang.
hang=300
if [ -n "$run" ]; then
	limit=$((120 + (samples + warmup) * 600))
	hang=660
fi
"$PB_TOP/bisect/boot.sh" "${bootopts[@]}" -c "$cpus" -m "$mem" -t "$limit" -H "$hang" \
	-k "$art/bzImage" -i "$cpio" -o "$rundir" \
	pb_payload="$payload" pb_tasks="$tasks" pb_jobs="$jobs" \
	pb_samples="$samples" pb_warmup="$warmup" pb_workfile="$workfile" \
	pb_timeout="$limit" ${salt:+pb_salt="$salt"}
code=$?
# Interrupted: boot.sh said so, and there are no results to show.
[ "$code" -eq "$PB_INTERRUPTED" ] && exit "$code"
if [ "$code" -eq 0 ] && [ -n "$run" ]; then
	# The command's figure as the score every rule compares (higher is
	# better); the reproducer's other columns do not exist for it.
	if grep -q ' nomatch=1' "$rundir/results"; then
		pb_die "$PB_NOMETRIC" "--metric '$metric' matched no line of the output of '$run' (see $rundir/console.log, lines 'pb-run: ')"
	fi
	awk -v dir="$direction" '/ value=/ {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["value"] <= 0) { bad = 1; next }
		s = dir == "lower" ? 1e6 / v["value"] : v["value"]
		printf "%s jpm=%.3f idle=0 jti=0 real=0 cpu=0 jpst=0 tasks=1\n", $0, s
		next
	}
	{ print }
	END { exit bad }' "$rundir/results" >"$rundir/results.new" ||
		pb_die "$PB_NOMETRIC" "--metric '$metric' read 0 from '$run': no score (see $rundir/console.log)"
	mv -f "$rundir/results.new" "$rundir/results" || pb_die "$PB_INTERNAL" "cannot write $rundir/results"
fi
cat "$rundir/results"
exit "$code"
