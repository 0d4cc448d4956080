#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stub-measure.sh: stands in for bisect/measure.sh in tests that need no
# kernel. Same contract: stub-measure.sh [MEASURE_OPTION...] -o RUNDIR REPO REV.
# The commit's file "speed" says what to report: a number (the jobs/min
# around which samples are drawn, with +-3% deterministic noise), "nobuild"
# (exit 125) or "panic" (exit 20); a file "torture" holds the verdict of
# the semaphore torture (0 pass, 1 fail) the guest reports. Each call is logged to $STUB_LOG; with
# STUB_INTERRUPT_AT=N the Nth call ends interrupted (SIGINT to its process
# group, then exit 10); STUB_DRIFT=F multiplies
# every speed by F after STUB_DRIFT_AFTER calls; STUB_BOOT_NOISE=F scales
# all the samples of one call by a factor in [1 - F, 1 + F], as one boot
# of a real machine runs faster or slower than the next; STUB_SEED=S
# draws other noise (of the same kind) for repeated runs; STUB_SLEEP=S
# makes calls from STUB_SLEEP_FROM on take S seconds longer; -Y nomatch
# fails as a --metric that matches nothing does (exit 34).
# With -d det (deterministic mode) there is neither drift nor boot noise,
# and the samples vary by +-0.05% only; a file "detspeed" in the commit
# replaces "speed" there (a regression that deterministic mode misses).
# STUB_TRACE=FILE gets "start SHA NS" and "end SHA NS" lines around each
# call that measures (for calls that overlap); STUB_FAIL_ONCE=DIR makes the
# first call for a commit holding a file "flaky" fail as the kit would
# (exit 9, a worker that died), once per commit. With PB_REMOTE_HOST set
# (a step on a remote worker, bisect -H), the call is logged to
# STUB_TRACE as "remote HOST SHA", and STUB_REMOTE_DIES=FILE makes the
# first such call create FILE and fail as QEMU does when its host dies
# (exit 27). -S SALT (a boot's salt, deterministic mode) moves the figure
# by up to +-STUB_SALT_EFFECT (a fraction; default 0; a uniform draw of
# its own for each commit and salt), as the kernel's RNG seed does, and
# is logged as "SHA SALT" to STUB_SALTS.
set -u
rundir='' samples=4 mode=${PB_MODE:-wall} salt=''
[ "$mode" = auto ] && mode=wall
while getopts c:C:m:P:T:J:n:w:W:o:d:K:A:Y:D:S:I opt; do
	case $opt in
	o) rundir=$OPTARG ;;
	n) samples=$OPTARG ;;
	d) mode=$OPTARG ;;
	I) mode=det ;;
	Y) metric=$OPTARG ;;
	S) salt=$OPTARG ;;
	*) ;;
	esac
done
shift $((OPTIND - 1))
repo=$1 rev=$2
mkdir -p "$rundir" || exit 9
sha=$(git -C "$repo" rev-parse "$rev") || exit 4
# The call's number: its line in STUB_LOG, under a lock, as calls may
# run side by side (bisect -P).
calls=0
if [ -n "${STUB_LOG:-}" ]; then
	exec 8>>"$STUB_LOG.lock" && flock 8 || exit 9
	echo "$sha" >>"$STUB_LOG"
	calls=$(wc -l <"$STUB_LOG")
	exec 8>&-
fi
# --metric nomatch: the metric matches no line of the command's output.
if [ "${metric:-}" = nomatch ]; then
	echo "stub-measure.sh: error: --metric 'nomatch' matched no line of the output" >&2
	exit 34
fi
[ -z "${STUB_TRACE:-}" ] || echo "start $sha $(date +%s%N)" >>"$STUB_TRACE"
if [ -n "${PB_REMOTE_HOST:-}" ]; then
	[ -z "${STUB_TRACE:-}" ] || echo "remote $PB_REMOTE_HOST $sha" >>"$STUB_TRACE"
	if [ -n "${STUB_REMOTE_DIES:-}" ] && [ ! -e "$STUB_REMOTE_DIES" ]; then
		: >"$STUB_REMOTE_DIES"
		echo noboot >"$rundir/outcome"
		exit 27
	fi
fi
if [ -n "${STUB_FAIL_ONCE:-}" ] && git -C "$repo" cat-file -e "$sha:flaky" 2>/dev/null &&
	[ ! -e "$STUB_FAIL_ONCE/$sha" ]; then
	mkdir -p "$STUB_FAIL_ONCE" && : >"$STUB_FAIL_ONCE/$sha"
	echo "stub-measure.sh: error: the worker died" >&2
	exit 9
fi
# A slow measurement: STUB_SLEEP seconds from call STUB_SLEEP_FROM (1) on.
if [ -n "${STUB_SLEEP:-}" ] && [ "$calls" -ge "${STUB_SLEEP_FROM:-1}" ]; then
	sleep "$STUB_SLEEP"
fi
if [ -n "${STUB_INTERRUPT_AT:-}" ] && [ "$calls" -eq "$STUB_INTERRUPT_AT" ]; then
	kill -INT 0
	sleep 5
	exit 10
fi
speed=$(git -C "$repo" show "$sha:speed" 2>/dev/null) || speed=1000
printf '{"build_s": 1.5, "ccache_hits": 10, "ccache_misses": 1, "bzimage_sha256": "%s"}\n' \
	"$(printf '%s' "$speed" | sha256sum | cut -c1-64)" >"$rundir/build.json"
# A build's log, as measure.sh leaves one: it belongs in a run's measure.log.
echo "  CC      stub/${sha:0:12}.o" >"$rundir/build.log"
case $speed in
nobuild) exit 125 ;;
panic)
	echo panic >"$rundir/outcome"
	exit 20
	;;
esac
if [ "$mode" = det ]; then
	d=$(git -C "$repo" show "$sha:detspeed" 2>/dev/null) && speed=$d
	unset STUB_DRIFT STUB_BOOT_NOISE
	[ -z "${STUB_SALTS:-}" ] || echo "$sha ${salt:--}" >>"$STUB_SALTS"
	if [ -n "$salt" ] && [ -n "${STUB_SALT_EFFECT:-}" ]; then
		# Independent draws: the decision rules assume them.
		h=$(printf 'salt %s %s' "$sha" "$salt" | sha256sum | cut -c1-4)
		speed=$(awk -v s="$speed" -v f="$STUB_SALT_EFFECT" -v h=$((16#$h)) \
			'BEGIN { print s * (1 - f + 2 * f * h / 65535) }')
	fi
fi
# A machine that slows down (or speeds up) by STUB_DRIFT after
# STUB_DRIFT_AFTER calls, as this kind of machine does over minutes.
if [ -n "${STUB_DRIFT:-}" ] && [ "$calls" -gt "${STUB_DRIFT_AFTER:-0}" ]; then
	speed=$(awk -v s="$speed" -v f="$STUB_DRIFT" 'BEGIN { print s * f }')
fi
if [ -n "${STUB_BOOT_NOISE:-}" ]; then
	h=$(printf 'boot %s %s' "$calls" "${STUB_SEED:-}" | sha256sum | cut -c1-4)
	speed=$(awk -v s="$speed" -v f="$STUB_BOOT_NOISE" -v h=$((16#$h)) 'BEGIN { print s * (1 - f + 2 * f * h / 65535) }')
fi
# Deterministic noise: a hash of the commit and of the call number.
{
	echo "PERFBISECT ncpus=2 memkb=1000000"
	t=$(git -C "$repo" show "$sha:torture" 2>/dev/null) && echo "PERFBISECT torture=$t"
	for i in $(seq 1 "$samples"); do
		# A salted deterministic boot is exact for its inputs: its
		# samples vary as every boot's do; the salt scales them.
		n=$calls
		[ "$mode" = det ] && [ -n "$salt" ] && n=salted
		h=$(printf '%s %s %s%s' "$sha" "$n" "$i" "${STUB_SEED:+ $STUB_SEED}" | sha256sum | cut -c1-4)
		w=0.03
		[ "$mode" = det ] && w=0.0005
		jpm=$(awk -v s="$speed" -v w="$w" -v h=$((16#$h)) 'BEGIN { printf "%.1f", s * (1 - w + 2 * w * h / 65535) }')
		echo "PERFBISECT sample=$i warmup=0 tasks=10 jobs=5 jpm=$jpm jti=90.0 real=1.0 cpu=1.0 jpst=1.0 idle=5.0 csw_per_job=2.0"
	done
	echo "PERFBISECT exit=0"
} >"$rundir/results"
echo ok >"$rundir/outcome"
printf '{"outcome": "ok", "boot_s": 0.5, "accel": "stub", "mode": "%s"}\n' "$mode" >"$rundir/boot.json"
[ -z "${STUB_TRACE:-}" ] || echo "end $sha $(date +%s%N)" >>"$STUB_TRACE"
exit 0
