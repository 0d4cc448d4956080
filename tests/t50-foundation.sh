#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t50-foundation.sh: the real loop on the vanilla 6.1 tree: import it
# deterministically, build it with ccache, boot it in QEMU and read back a
# result line and the vCPU count; a revision that does not build, a dropped
# config option and a guest that never finishes map to their exit codes.
# Builds a kernel (about 6 minutes cold, seconds when cached).
# Needs: a kernel build and boot (tests/run skips it with PB_SKIP_KERNEL=1)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
. "$T_TOP/bisect/lib.sh"
b=$T_TOP/bisect
PB_QUIET=1
export PB_QUIET

src=$("$b/kernel-src.sh") || {
	fail "kernel source import"
	done_testing
	exit
}
is "$(git -C "$src" rev-parse v6.1-debian)" 4e053675fa7119895b89649daa5f0f6f847cc126 \
	"imported linux-source-6.1 has the recorded commit hash (deterministic import)"
is "$(git -C "$src" status --porcelain | wc -l)" 0 "imported tree is clean"

run_rc "$b/build.sh" -l "$T_TMP/buildlog" "$src" v6.1-debian
is "$rc" 0 "vanilla 6.1 builds"
art=$(cat "$T_TMP/out")
if [ -f "$art/bzImage" ]; then pass "bzImage published in $art"; else fail "bzImage published"; fi
like "$(jq -c '{build_s, ccache_hits, ccache_misses}' "$art/build.json")" \
	'"build_s":[0-9.]+,"ccache_hits":[0-9]+,"ccache_misses":[0-9]+' "build.json records seconds and ccache hits/misses"
if [ -f "$T_TMP/buildlog/build.log" ]; then pass "build log copied to the run dir"; else fail "build log copied"; fi
grep -q '^CONFIG_SMP=y' "$art/config" && grep -q '^CONFIG_ACPI=y' "$art/config" &&
	pass "merged config has SMP and ACPI" || fail "merged config has SMP and ACPI"

start=$SECONDS
run_rc "$b/build.sh" "$src" v6.1-debian
is "$rc:$(cat "$T_TMP/out")" "0:$art" "same revision again: the cached artifact"
[ $((SECONDS - start)) -lt 30 ] && pass "cached build is not redone" || fail "cached build is not redone"

cpio=$("$b/initramfs.sh") || fail "initramfs builds"
cpio2=$("$b/initramfs.sh")
is "$cpio2" "$cpio" "initramfs is not rebuilt when nothing changed"

for cpus in 2 1; do
	run_rc "$b/boot.sh" -c "$cpus" -t 120 -H 60 -k "$art/bzImage" -i "$cpio" -o "$T_TMP/boot$cpus" pb_payload=none
	is "$rc" 0 "boot with $cpus vCPU(s): outcome ok"
	like "$(cat "$T_TMP/boot$cpus/results")" "^PERFBISECT ncpus=$cpus memkb=[0-9]+" "guest saw $cpus vCPU(s)"
	for f in qemu.cmd console.log outcome boot.json; do
		[ -s "$T_TMP/boot$cpus/$f" ] || fail "run dir has $f"
	done
	like "$(cat "$T_TMP/boot$cpus/qemu.cmd")" "-no-reboot .*-nic none" "exact QEMU command saved"
	like "$(jq -r .accel "$T_TMP/boot$cpus/boot.json")" '^(tcg|kvm)' "accelerator recorded"
done
if grep -qwE 'vmx|svm' /proc/cpuinfo; then
	pass "CPU has vmx/svm: KVM may be used"
else
	like "$(jq -r .accel "$T_TMP/boot2/boot.json")" '^tcg \(' "no vmx/svm: TCG chosen without trying KVM, reason given"
fi

# The reproducer runs in the guest and reports samples.
run_rc "$b/measure.sh" -T 20 -J 5 -n 2 -w 0 -o "$T_TMP/measure" "$src" v6.1-debian
is "$rc" 0 "measure: reproducer ran in the guest"
is "$(grep -c ' sample=' "$T_TMP/measure/results")" 2 "measure: two samples read back"
like "$(grep ' summary=' "$T_TMP/measure/results")" 'median_jpm=[1-9][0-9]*' "measure: median jobs/min > 0"

# A guest that never prints a result is killed at the limit.
run_rc "$b/boot.sh" -c 2 -t 6 -H 60 -k "$art/bzImage" -i "$cpio" -o "$T_TMP/slow" \
	pb_payload=aim pb_tasks=2000 pb_jobs=100000 pb_samples=5
is "$rc" 24 "guest still running at the limit: exit 24 (timeout)"
is "$(cat "$T_TMP/slow/outcome")" timeout "outcome file says timeout"
run_rc "$b/boot.sh" -c 2 -t 60 -H 4 -k "$art/bzImage" -i "$cpio" -o "$T_TMP/silent" \
	pb_payload=aim pb_tasks=2000 pb_jobs=100000 pb_samples=5
is "$rc" 23 "guest silent past the hang limit: exit 23 (hang)"
is "$(pb_bisect_code "$rc")" 125 "a hang maps to bisect skip"

# A requested option that olddefconfig drops: exit 8, named.
printf 'CONFIG_SERIAL_8250_CONSOLE=y\n# CONFIG_SERIAL_8250 is not set\n' >"$T_TMP/drop.config"
run_rc "$b/build.sh" -c "$T_TMP/drop.config" "$src" v6.1-debian
is "$rc" 8 "dropped option: exit 8"
like "$(cat "$T_TMP/err")" 'CONFIG_SERIAL_8250_CONSOLE \(wanted y, got n\)' "dropped option named"

# A revision that does not build: exit 125, compiler error in the log. The
# broken repository lives at a fixed place so its checkout is reused.
broken="$PERFBISECT_HOME/test-repos/broken"
if [ ! -d "$broken/.git" ]; then
	git clone -q --shared "$src" "$broken" &&
		printf '#error perfbisect test: this revision does not build\n' >>"$broken/init/main.c" &&
		GIT_COMMITTER_DATE="@1671000000 +0000" GIT_AUTHOR_DATE="@1671000000 +0000" \
			git -C "$broken" -c user.name=perfbisect -c user.email=t@perfbisect.invalid \
			commit -qam "init: break the build on purpose"
fi
run_rc "$b/build.sh" -l "$T_TMP/brokenlog" "$broken" HEAD
is "$rc" 125 "revision that does not build: exit 125 (skip)"
like "$(cat "$T_TMP/brokenlog/build.log" 2>/dev/null)" 'error: #error perfbisect test' "compiler error kept in the log"
like "$(cat "$T_TMP/err")" 'does not build' "one-line error says it does not build"
done_testing
