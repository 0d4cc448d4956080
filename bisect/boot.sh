#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh: boot a bzImage with perfbisect's initramfs in QEMU, watch the
# serial console, and record the outcome and the result lines.
# Usage: boot.sh [-c CPUS] [-m MEM_MB] [-t LIMIT_S] [-H HANG_S] [-I] -k BZIMAGE
#                -i INITRAMFS -o RUNDIR [pb_key=value]...
#   -c CPUS     vCPUs (default 2)          -m MEM_MB  memory (default 1024)
#   -t LIMIT_S  hard wall-clock limit (default 600)
#   -H HANG_S   kill when the console is silent this long (default 180)
#   -I          deterministic: TCG with -icount shift=0,sleep=off,align=off
#               (guest clock = instructions; PB_ICOUNT=OPTIONS gives others)
#   pb_key=value  guest parameters (see initramfs/init), e.g. pb_payload=aim
# RUNDIR receives qemu.cmd, console.log, results, outcome and boot.json.
# KVM is used only when it works (PB_ACCEL=tcg|kvm forces one); otherwise TCG.
# PB_QEMU names another QEMU binary.
# Exit: 0 ok, 20 panic, 21 oops, 22 BUG/WARNING, 23 hang, 24 time limit,
# 25 no result, 26 payload failed, 27 QEMU failed, 2 usage, 5 missing tool,
# 10 interrupted.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n '3,19s/^# \{0,1\}//p' "$0"
}

cpus=2 mem=1024 limit=600 hang=180 kernel='' initrd='' rundir='' icount=0
[ "${1:-}" = --help ] && {
	usage
	exit 0
}
while getopts c:m:t:H:k:i:o:Ih opt; do
	case $opt in
	c) cpus=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) limit=$OPTARG ;;
	H) hang=$OPTARG ;;
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	o) rundir=$OPTARG ;;
	I) icount=1 ;;
	h)
		usage
		exit 0
		;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
for v in cpus mem limit hang; do
	pb_is_uint "${!v}" && [ "${!v}" -gt 0 ] ||
		pb_die "$PB_USAGE" "-$v must be a positive integer, not '${!v}'"
done
[ "$cpus" -le 64 ] || pb_die "$PB_USAGE" "at most 64 vCPUs"
[ -f "$kernel" ] || pb_die "$PB_USAGE" "kernel image '$kernel' not found (-k)"
[ -f "$initrd" ] || pb_die "$PB_USAGE" "initramfs '$initrd' not found (-i)"
[ -n "$rundir" ] || pb_die "$PB_USAGE" "no run directory (-o)"
params=()
for p in "$@"; do
	[[ $p =~ ^pb_[a-z_]{1,24}=[A-Za-z0-9_.]{1,32}$ ]] ||
		pb_die "$PB_USAGE" "guest parameter '$p' is not pb_key=value"
	params+=("$p")
done
QEMU=${PB_QEMU:-qemu-system-x86_64}
pb_need "$QEMU" timeout
case ${PB_ACCEL:-} in
kvm | tcg | "") ;;
*) pb_die "$PB_USAGE" "PB_ACCEL must be kvm or tcg, not '$PB_ACCEL'" ;;
esac

# accel: print the accelerator to use and, on stderr, why.
accel() {
	if [ -n "${PB_ACCEL:-}" ]; then
		echo "$PB_ACCEL (forced by PB_ACCEL)"
	elif [ ! -w /dev/kvm ]; then
		echo "tcg (no usable /dev/kvm)"
	elif ! grep -qwE 'vmx|svm' /proc/cpuinfo; then
		echo "tcg (/dev/kvm exists but the CPU has no vmx/svm flag)"
	elif echo quit | timeout 10 "$QEMU" -accel kvm -machine pc \
		-nodefaults -display none -S -monitor stdio >/dev/null 2>&1; then
		echo "kvm"
	else
		echo "tcg (KVM probe failed or hung for 10 s)"
	fi
}

mkdir -p "$rundir" || pb_die "$PB_INTERNAL" "cannot create $rundir"
acc=$(accel)
case $acc in
kvm*) accel_opt=(-accel kvm -cpu host) ;;
*) accel_opt=(-accel "tcg,thread=multi") ;;
esac
# -icount ties the guest clock to executed instructions (TCG only, and it
# runs all vCPUs on one host thread).
icount_opt=${PB_ICOUNT:-$PB_ICOUNT_DEFAULT}
det_opt=()
if [ "$icount" = 1 ]; then
	# Nothing of the host's time may reach the guest either: its
	# real-time clock starts at a fixed date and runs on guest time. With
	# the host's date, boots differed by up to 2% (the kernel seeds its
	# randomness from it); with this, they are identical.
	det_opt=(-rtc "base=2022-12-14T00:00:00,clock=vm")
	pb_check_mode det "$cpus"
	acc="tcg -icount $icount_opt (deterministic)"
	accel_opt=(-accel tcg -icount "$icount_opt")
fi
log="$rundir/console.log"
rm -f "$log" "$rundir/outcome" "$rundir/results" "$rundir/boot.json"
cmd=("$QEMU" "${accel_opt[@]}" "${det_opt[@]}" -smp "$cpus" -m "$mem"
	-nodefaults -display none -no-reboot -nic none -monitor none
	-serial "file:$log"
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 loglevel=5 ${params[*]}")
printf '%q ' "${cmd[@]}" | sed 's/ $/\n/' >"$rundir/qemu.cmd"
pb_info "booting with ${acc} ($cpus vCPUs, $mem MiB, limit $limit s)"

start=$(date +%s.%N)
"${cmd[@]}" </dev/null >"$rundir/qemu.stderr" 2>&1 &
qpid=$!
stop_qemu() {
	kill -TERM "$qpid" 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$qpid" 2>/dev/null || return 0
		sleep 0.2
	done
	kill -KILL "$qpid" 2>/dev/null
}
trap 'stop_qemu; echo interrupted >"$rundir/outcome"; pb_die "$PB_INTERRUPTED" "interrupted; QEMU stopped"' INT TERM

killed=''
last_size=0
last_change=$SECONDS
begin=$SECONDS
while kill -0 "$qpid" 2>/dev/null; do
	sleep 0.2
	size=$(stat -c %s "$log" 2>/dev/null || echo 0)
	if [ "$size" != "$last_size" ]; then
		last_size=$size
		last_change=$SECONDS
	fi
	if [ $((SECONDS - begin)) -ge "$limit" ]; then
		killed=timeout
	elif [ $((SECONDS - last_change)) -ge "$hang" ]; then
		killed=hang
	else
		continue
	fi
	stop_qemu
	break
done
wait "$qpid" 2>/dev/null
qrc=$?
boot_s=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
trap - INT TERM

pbconsole=$(pb_tool pbconsole) || exit
touch "$log"
"$pbconsole" results "$log" >"$rundir/results" 2>"$rundir/parse.log"
outcome=$("$pbconsole" outcome "$log")
# Console evidence of a crash outranks how QEMU ended; a kill by the
# watchdog outranks a missing result.
case $outcome in
ok | noresult | payload)
	if [ -n "$killed" ]; then
		outcome=$killed
	elif [ "$outcome" = noresult ] && [ "$qrc" -ne 0 ] && [ "$size" = 0 ]; then
		outcome=noboot
	fi
	;;
esac
case $outcome in
ok) code=$PB_OK ;;
panic) code=$PB_PANIC ;;
oops) code=$PB_OOPS ;;
bug) code=$PB_BUG ;;
hang) code=$PB_HANG ;;
timeout) code=$PB_TIMEOUT ;;
noresult) code=$PB_NORESULT ;;
payload) code=$PB_PAYLOAD ;;
*) code=$PB_NOBOOT ;;
esac
echo "$outcome" >"$rundir/outcome"
jq -n --arg outcome "$outcome" --arg accel "$acc" --argjson boot_s "$boot_s" \
	--argjson cpus "$cpus" --argjson mem_mb "$mem" --argjson qemu_exit "$qrc" \
	--argjson code "$code" --arg mode "$([ "$icount" = 1 ] && echo det || echo wall)" \
	'{outcome: $outcome, mode: $mode, accel: $accel, boot_s: $boot_s, cpus: $cpus,
	  mem_mb: $mem_mb, qemu_exit: $qemu_exit, code: $code}' >"$rundir/boot.json"
case $outcome in
ok) pb_info "guest finished in $boot_s s" ;;
hang) pb_warn "guest silent for $hang s: killed (console: $log)" ;;
timeout) pb_warn "guest still running after $limit s: killed (console: $log)" ;;
noboot) pb_warn "QEMU failed (exit $qrc): $(head -c 300 "$rundir/qemu.stderr")" ;;
*) pb_warn "guest outcome: $outcome after $boot_s s (console: $log)" ;;
esac
exit "$code"
