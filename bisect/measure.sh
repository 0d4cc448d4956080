#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# measure.sh: build one kernel revision, boot it with the reproducer and
# print the result lines the guest reported (one measurement, one run dir).
# Usage: measure.sh [-c FRAGMENT]... [-C CPUS] [-m MEM_MB] [-P none|aim]
#                   [-T TASKS] [-J JOBS] [-n SAMPLES] [-w WARMUP] [-W WORKFILE]
#                   [-d wall|det] [-o RUNDIR] REPO REV
# Defaults: 2 vCPUs, 1024 MiB, payload aim, 50 tasks, 40 jobs per task,
# 4 samples after 1 warm-up, workfile high_systime (bench/README.md says
# why). Without -o a new run directory is made under $PERFBISECT_HOME/runs.
# -d det measures in deterministic mode: guest time is executed
# instructions (QEMU -icount; 2 vCPUs from QEMU 8.1 on, else 1), so the
# host's load does not move the number; -d wall (default, or PB_MODE) is
# real time. -I is -d det.
# Exit: the code of build.sh or boot.sh.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ "${1:-}" = --help ] && {
	pb_usage
	exit 0
}
frag_opts=() cpus=2 mem=1024 payload=aim tasks=50 jobs=40 samples=4 warmup=1
workfile=high_systime rundir='' bootopts=() mode=${PB_MODE:-wall} cpus_given=0
[ "$mode" = auto ] && mode=wall
while getopts c:C:m:P:T:J:n:w:W:o:d:Ih opt; do
	case $opt in
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
case $payload in
none | aim) ;;
*) pb_die "$PB_USAGE" "payload must be none or aim, not '$payload'" ;;
esac
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
cpio=$("$PB_TOP/bisect/initramfs.sh") || exit
# Generous limits: TCG runs the guest several times slower than the host.
limit=$((120 + (samples + warmup) * (tasks * jobs / 20 + 60)))
"$PB_TOP/bisect/boot.sh" "${bootopts[@]}" -c "$cpus" -m "$mem" -t "$limit" -H 300 \
	-k "$art/bzImage" -i "$cpio" -o "$rundir" \
	pb_payload="$payload" pb_tasks="$tasks" pb_jobs="$jobs" \
	pb_samples="$samples" pb_warmup="$warmup" pb_workfile="$workfile" \
	pb_timeout="$limit"
code=$?
cat "$rundir/results"
exit "$code"
