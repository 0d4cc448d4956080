#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu.sh: the power switch of ktest's "target machine", which is a QEMU
# guest here (ktest's REBOOT and POWER_CYCLE). It stops the running guest,
# if any; then, when INITRAMFS is given and STATE_DIR/vmlinuz-test exists
# (ktest's TARGET_IMAGE, copied there by SWITCH_TO_TEST), it starts a fresh
# guest from it in the background, with the QEMU command of
# bench/naive/step.sh. The guest's serial console goes into the FIFO
# STATE_DIR/console, which ktest's CONSOLE (cat) reads. Without the image
# (SWITCH_TO_GOOD removed it) the machine stays off: a VM has no known-good
# kernel to go back to.
# Usage: qemu.sh STATE_DIR [INITRAMFS]
# Writes STATE_DIR/qemu.pid and STATE_DIR/qemu.log, and adds a line to
# STATE_DIR/boots for every guest started.
set -u
state=$1 initrd=${2:-}

pidfile=$state/qemu.pid
if [ -s "$pidfile" ]; then
	pid=$(cat "$pidfile")
	# Only our own guest: the pid is that of the `timeout` wrapping QEMU.
	if [ "$(ps -o comm= -p "$pid" 2>/dev/null)" = timeout ]; then
		kill "$pid" 2>/dev/null
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	fi
	rm -f "$pidfile"
fi
[ -n "$initrd" ] && [ -f "$state/vmlinuz-test" ] || exit 0

date '+%F %T' >>"$state/boots"
timeout 600 qemu-system-x86_64 -accel tcg,thread=multi -smp 2 -m 1024 -nodefaults \
	-display none -no-reboot -nic none -serial "file:$state/console" \
	-kernel "$state/vmlinuz-test" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 pb_payload=aim pb_samples=1 pb_warmup=0" \
	</dev/null >"$state/qemu.log" 2>&1 &
echo $! >"$pidfile"
