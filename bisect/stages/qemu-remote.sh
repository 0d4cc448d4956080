#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-remote.sh: QEMU on another machine, for boot.sh (as PB_QEMU): copies
# the kernel and the initramfs to PB_REMOTE_HOST over ssh, runs QEMU there
# with the same options, brings its serial console (-serial file:LOG) back
# into the local console log as it comes, and removes its copies
# afterwards; without -serial file:, stdin and stdout pass through. The host
# needs only QEMU (the same version as here, for deterministic mode) and
# an ssh login that needs no password.
# Usage: PB_REMOTE_HOST=[USER@]HOST[:PORT] qemu-remote.sh QEMU_OPTION...
#   PB_REMOTE_QEMU  QEMU on that host (default qemu-system-x86_64)
#   PB_SSH          the ssh command (default: ssh -o BatchMode=yes
#                   -o ConnectTimeout=10)
# Exit: QEMU's own code; 255 when ssh fails (the host is gone or died).
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ "${1:-}" = --help ] && {
	sed -n '3,14s/^# \{0,1\}//p' "$0"
	exit 0
}
host=${PB_REMOTE_HOST:-}
[[ $host =~ ^[A-Za-z0-9._@-]+(:[0-9]{1,5})?$ ]] ||
	pb_die "$PB_USAGE" "PB_REMOTE_HOST='$host' is not [USER@]HOST[:PORT]"
qemu=${PB_REMOTE_QEMU:-qemu-system-x86_64}
read -r -a ssh <<<"${PB_SSH:-ssh -o BatchMode=yes -o ConnectTimeout=10}"
port=()
[[ $host == *:* ]] && port=(-p "${host##*:}") && host=${host%:*}
# on CMD: run the shell command CMD on the host (ssh reads stdin: give
# it /dev/null unless the command is to have it).
on() {
	"${ssh[@]}" "${port[@]}" "$host" "$1"
}
if [ "${1:-}" = --version ]; then
	on "$(printf '%q ' "$qemu" --version)" </dev/null
	exit
fi

# The options, with the kernel and initramfs at their copies and the
# console on stdout.
dir=$(on 'mktemp -d /tmp/perfbisect-remote.XXXXXX' </dev/null) || exit 255
[[ $dir =~ ^/tmp/perfbisect-remote\.[A-Za-z0-9]{6}$ ]] || pb_die "$PB_INTERNAL" "$host gave no scratch dir ('$dir')"
args=() log=''
while [ $# -gt 0 ]; do
	case $1 in
	-kernel | -initrd)
		[ $# -ge 2 ] || pb_die "$PB_USAGE" "$1 needs a file"
		name=${1#-}
		on "cat >$dir/$name" <"$2" || exit 255
		args+=("$1" "$dir/$name")
		shift
		;;
	-serial)
		[ $# -ge 2 ] || pb_die "$PB_USAGE" "-serial needs a device"
		case $2 in
		file:*) log=${2#file:} ;;
		*) pb_die "$PB_USAGE" "-serial $2: only file:LOG is carried over" ;;
		esac
		args+=(-serial stdio)
		shift
		;;
	*) args+=("$1") ;;
	esac
	shift
done
# boot.sh stops QEMU with SIGTERM: stop the remote one and clean up.
cleanup() {
	on "kill \$(cat $dir/pid 2>/dev/null) 2>/dev/null; rm -rf $dir" </dev/null >/dev/null 2>&1
}
stopped() {
	trap - TERM INT
	[ -n "${spid:-}" ] && kill -TERM "$spid" 2>/dev/null
	cleanup
	exit 143
}
trap stopped TERM INT
# The console goes to the local log; without one (a probe of QEMU's
# options, its monitor on stdio), stdin and stdout pass through.
run="cd $dir && echo \$\$ >pid && exec $(printf '%q ' "$qemu" "${args[@]}")"
if [ -n "$log" ]; then
	on "$run" </dev/null >"$log" &
else
	on "$run" <&0 &
fi
spid=$!
wait "$spid"
rc=$?
spid=''
cleanup
exit "$rc"
