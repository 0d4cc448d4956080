#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t38-remote.sh: workers on other hosts (bisect -H, stages/qemu-remote.sh),
# with a stand-in for ssh that runs the "remote" commands here
# (tests/fake-ssh.sh) and one for QEMU (tests/fake-qemu.sh): boot.sh
# through qemu-remote.sh copies the image, brings the console back and
# cleans up, also when the watchdog stops it; a bisect with hosts sends
# steps to them, leaves out a host that does not answer or runs another
# QEMU, and measures again, elsewhere, a step whose host died mid-boot;
# bad host specs are refused before anything is made.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PERFBISECT_HOME=$T_TMP/home PB_QUIET=1
export PB_SSH=$T_TOP/tests/fake-ssh.sh PB_REMOTE_QEMU=$T_TOP/tests/fake-qemu.sh FAKE_SSH_LOG=$T_TMP/ssh.log
unset PB_MODE PB_ACCEL PB_ICOUNT STUB_TRACE STUB_FAIL_ONCE STUB_SLEEP STUB_INTERRUPT_AT STUB_REMOTE_DIES FAKE_SSH_DEAD
b=$T_TOP/bisect
qr=$b/stages/qemu-remote.sh

# 1. boot.sh with QEMU on a "remote" host.
head -c 4096 /dev/urandom >"$T_TMP/bzImage"
head -c 2048 /dev/urandom >"$T_TMP/initrd"
remote_dirs() { find /tmp -maxdepth 1 -name 'perfbisect-remote.*' 2>/dev/null | wc -l; }
before=$(remote_dirs)
PB_QEMU=$qr PB_REMOTE_HOST=host1:2222 run_rc "$b/boot.sh" -k "$T_TMP/bzImage" -i "$T_TMP/initrd" -o "$T_TMP/r1" -t 60
is "$rc" 0 "boot.sh through qemu-remote.sh: exit 0"
is "$(cat "$T_TMP/r1/outcome")" ok "the console came back: outcome ok"
is "$(grep -c 'sample=' "$T_TMP/r1/results")" 4 "the console came back: 4 samples parsed"
like "$(cat "$T_TMP/r1/console.log")" "kernel sha256=$(sha256sum <"$T_TMP/bzImage" | cut -c1-64) initrd sha256=$(sha256sum <"$T_TMP/initrd" | cut -c1-64)" \
	"the host booted copies of this image and initramfs, byte for byte"
like "$(cat "$T_TMP/ssh.log")" '^host1 ' "the commands went to the host (port given apart)"
is "$(remote_dirs)" "$before" "the host's scratch copies are removed"
is "$(PB_REMOTE_HOST=host1 "$qr" --version | head -1)" "$(qemu-system-x86_64 --version | head -1)" "--version asks the host's QEMU"

# The watchdog stops a boot: the remote QEMU is killed and cleaned up.
FAKE_QEMU_SLEEP=60 FAKE_QEMU_PID=$T_TMP/qpid PB_QEMU=$qr PB_REMOTE_HOST=host1 \
	run_rc "$b/boot.sh" -k "$T_TMP/bzImage" -i "$T_TMP/initrd" -o "$T_TMP/r2" -t 3
is "$rc" 24 "remote boot over its time limit: exit 24 (timeout)"
qpid=$(cat "$T_TMP/qpid" 2>/dev/null)
for _ in $(seq 1 50); do
	[ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null || break
	sleep 0.1
done
[ -n "$qpid" ] && ! kill -0 "$qpid" 2>/dev/null && pass "the remote QEMU is stopped with the boot" ||
	fail "the remote QEMU (pid ${qpid:-?}) is still running"
is "$(remote_dirs)" "$before" "a stopped boot's scratch copies are removed"

# A host that dies mid-boot: ssh fails (255), the boot has no result.
FAKE_QEMU_DIE=$T_TMP/died PB_QEMU=$qr PB_REMOTE_HOST=host1 \
	run_rc "$b/boot.sh" -k "$T_TMP/bzImage" -i "$T_TMP/initrd" -o "$T_TMP/r3" -t 60
is "$(jq .qemu_exit "$T_TMP/r3/boot.json")" 255 "a host that dies: QEMU's exit is ssh's 255"
like "$rc" '^2[57]$' "a host that dies: no result (exit $rc)"
PB_REMOTE_HOST=dead1 run_rc "$qr" --version
is "$rc" 255 "a host that does not answer: exit 255"
PB_REMOTE_HOST='bad host' run_rc "$qr" --version
is "$rc" 2 "PB_REMOTE_HOST with a space: exit 2"

# 2. A bisect with remote workers (the stub measurement: it logs where
# each step's boots would run).
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls STUB_TRACE=$T_TMP/trace
toy=$T_TMP/toy
speed_of() { if [ "$1" -ge 27 ]; then echo 700; else echo 1000; fi; }
t_toy "$toy" 40
culprit=$(git -C "$toy" rev-parse tip~13)
s=$PERFBISECT_HOME/runs/latest/summary.json

: >"$T_TMP/trace"
run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -d det -H 'host1/2 dead1 old1'
is "$rc" 0 "-H: exit 0"
is "$(jq -r .culprit "$s")" "$culprit" "-H: the right culprit"
state=$(readlink -f "$PERFBISECT_HOME/runs/latest/state")
like "$(cat "$T_TMP/err")" 'worker dead1 does not answer over ssh: left out' "-H: a host that does not answer is left out, said"
like "$(cat "$T_TMP/err")" "worker old1 runs 'QEMU emulator version 0.1'.*left out" "-H: a host with another QEMU is left out, said"
is "$(sort -u "$state/slots" | tr '\n' ' ')" "host1 local " "-H: slots: one here, two on host1"
is "$(awk -F'\t' 'NR > 1' "$state/round-1.joblog" | wc -l)" 3 "-H: a round runs three steps (one here, two on host1)"
like "$(grep -c '^remote host1 ' "$T_TMP/trace")" '^[1-9]' "-H: steps booted on host1"
grep -q '^remote \(dead1\|old1\) ' "$T_TMP/trace" && fail "-H: a step ran on a host left out" ||
	pass "-H: no step ran on a host left out"
like "$(cat "$PERFBISECT_HOME/runs/latest/progress.txt")" 'on host1$' "-H: the progress line says where a step booted"

# A host that dies during a step's boot: the step has no verdict, the
# host is left out and the commit is measured again here.
export PERFBISECT_HOME=$T_TMP/home2
: >"$T_TMP/trace"
FAKE_SSH_DEAD=$T_TMP/host-dead STUB_REMOTE_DIES=$T_TMP/host-dead \
	run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -d det -H host1
is "$rc" 0 "host dies mid-boot: exit 0"
is "$(jq -r .culprit "$PERFBISECT_HOME/runs/latest/summary.json")" "$culprit" "host dies mid-boot: the right culprit"
like "$(cat "$T_TMP/err")" 'worker host1 died while booting' "host dies mid-boot: said"
like "$(cat "$T_TMP/err")" 'worker host1 does not answer over ssh: left out' "host dies mid-boot: left out afterwards"
died=$(awk '$1 == "remote" { print $3; exit }' "$T_TMP/trace")
state=$(readlink -f "$PERFBISECT_HOME/runs/latest/state")
like "$(GIT_DIR=$state/repo.git git bisect log)" "git bisect (good|bad) $died" "the dead host's commit got a verdict from a boot elsewhere"
unlike "$(GIT_DIR=$state/repo.git git bisect log)" "git bisect skip $died" "the dead host's commit is not a skip"

# 3. Bad host specs: refused before anything is made.
export PERFBISECT_HOME=$T_TMP/home3
for h in 'host/0' 'host/9' 'user@host:port' 'a;b'; do
	run_rc "$b/bisect.sh" -t "$toy" -g start -b tip -H "$h"
	is "$rc" 2 "-H '$h': exit 2"
done
like "$(cat "$T_TMP/err")" "worker host 'a;b' \\(-H\\) is not" "-H: the error names the host"
[ ! -e "$PERFBISECT_HOME/runs" ] && pass "bad -H: no run directory made" || fail "bad -H: a run directory was made"
run_rc "$qr" --help
is "$rc" 0 "qemu-remote.sh --help: exit 0"
done_testing
