#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# step.sh: the `git bisect run` script a kernel developer writes in ten
# minutes, kept as the baseline perfbisect is compared with: build in the
# tree itself without ccache, boot once in QEMU, run the reproducer once,
# compare with a fixed threshold.
# Usage: (in the kernel checkout) git bisect run step.sh CONFIG INITRAMFS THRESHOLD [GUEST_PARAMS]
#   THRESHOLD "-" only prints the one jobs/min sample (bench/compare.sh
#   measures the two ends with it).
set -u
config=$1 initrd=$2 threshold=$3 extra=${4:-}
cp "$config" .config && make olddefconfig >/dev/null 2>&1 || exit 125
make -j"$(nproc)" bzImage >build.log 2>&1 || exit 125
timeout 600 qemu-system-x86_64 -accel tcg,thread=multi -smp 2 -m 1024 -nodefaults \
	-display none -no-reboot -nic none -serial file:console.log \
	-kernel arch/x86/boot/bzImage -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 pb_payload=aim pb_samples=1 pb_warmup=0 $extra" || exit 125
jpm=$(grep -a '^PERFBISECT sample=' console.log | sed 's/.* jpm=\([0-9.]*\).*/\1/' | head -1)
[ -n "$jpm" ] || exit 125
[ "$threshold" = - ] && {
	echo "$jpm"
	exit 0
}
echo "jpm=$jpm threshold=$threshold" >&2
# 0 (good) at or above the threshold, 1 (bad) below it.
awk -v j="$jpm" -v t="$threshold" 'BEGIN { exit j < t }'
