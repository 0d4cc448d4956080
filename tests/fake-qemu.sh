#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fake-qemu.sh: stands in for QEMU in tests: prints a guest console on
# stdout (-serial stdio) with the SHA-256 of its -kernel and -initrd files
# and four reproducer samples, then exits 0. --version prints the real
# QEMU's version. FAKE_QEMU_SLEEP=S waits S seconds before the samples
# (and writes its pid to $FAKE_QEMU_PID); FAKE_QEMU_DIE=FILE creates FILE
# halfway and exits 255, as a host that dies.
set -u
if [ "${1:-}" = --version ]; then
	exec qemu-system-x86_64 --version
fi
kernel='' initrd='' serial=''
while [ $# -gt 0 ]; do
	case $1 in
	-kernel) kernel=$2 && shift ;;
	-initrd) initrd=$2 && shift ;;
	-serial) serial=$2 && shift ;;
	esac
	shift
done
[ "$serial" = stdio ] || exit 1
echo "Linux version 6.1.0 (fake)"
echo "fake-qemu: kernel sha256=$(sha256sum <"$kernel" | cut -c1-64) initrd sha256=$(sha256sum <"$initrd" | cut -c1-64)"
echo "PERFBISECT ncpus=2 memkb=1000000"
if [ -n "${FAKE_QEMU_DIE:-}" ]; then
	: >"$FAKE_QEMU_DIE"
	exit 255
fi
if [ -n "${FAKE_QEMU_SLEEP:-}" ]; then
	echo $$ >"${FAKE_QEMU_PID:-/dev/null}"
	# In the background, so that SIGTERM ends this at once, as QEMU.
	sleep "$FAKE_QEMU_SLEEP" &
	trap 'kill $!; exit 143' TERM
	wait $!
fi
for i in 1 2 3 4; do
	echo "PERFBISECT sample=$i warmup=0 tasks=10 jobs=5 jpm=1000.$i jti=90.0 real=1.0 cpu=1.0 jpst=1.0 idle=5.0 csw_per_job=2.0"
done
echo "PERFBISECT exit=0"
exit 0
