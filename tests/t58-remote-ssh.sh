#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t58-remote-ssh.sh: a boot on a worker over real ssh (bisect -H,
# stages/qemu-remote.sh): the test starts an sshd of its own on
# 127.0.0.1 (a port of its own, a key of its own, stopped at the end
# whatever happens), measures vanilla 6.1 in deterministic mode through
# it and here, and asks for the same samples to the last digit; a worker
# whose sshd is gone fails the boot, and kary.sh leaves it out.
# Needs: a kernel build and boot (tests/run skips it with PB_SKIP_KERNEL=1)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
. "$T_TOP/bisect/lib.sh"
b=$T_TOP/bisect
export PB_QUIET=1

sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || {
	fail "sshd is installed (make deps: openssh-server)"
	done_testing
	exit
}
src=$("$b/kernel-src.sh") || {
	fail "kernel source import"
	done_testing
	exit
}

# An sshd of this test's own, on 127.0.0.1 only, with keys made here.
ssh-keygen -q -t ed25519 -N '' -f "$T_TMP/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$T_TMP/id" &&
	cp "$T_TMP/id.pub" "$T_TMP/authorized_keys" || fail "ssh keys"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$T_TMP/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $T_TMP/hostkey
AuthorizedKeysFile $T_TMP/authorized_keys
PidFile $T_TMP/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
EOF
mkdir -p /run/sshd
setsid "$sshd" -D -e -f "$T_TMP/sshd_config" 2>"$T_TMP/sshd.log" &
spid=$!
trap 'kill -- -$spid 2>/dev/null; kill $spid 2>/dev/null' EXIT
export PB_SSH="ssh -o BatchMode=yes -o ConnectTimeout=10 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -i $T_TMP/id"
host=127.0.0.1:$port
for _ in $(seq 1 50); do
	PB_REMOTE_HOST=$host "$b/stages/qemu-remote.sh" --version >/dev/null 2>&1 && break
	sleep 0.2
done
is "$(PB_REMOTE_HOST=$host "$b/stages/qemu-remote.sh" --version 2>&1 | head -1)" "$(qemu-system-x86_64 --version | head -1)" \
	"the test's sshd answers, with this QEMU"

# The same deterministic measurement here and on the worker.
opts=(-d det -n 2 -w 0 -T 10 -J 10)
run_rc "$b/measure.sh" "${opts[@]}" -o "$T_TMP/here" "$src" v6.1-debian
is "$rc" 0 "measured here (deterministic)"
PB_QEMU=$b/stages/qemu-remote.sh PB_REMOTE_HOST=$host run_rc "$b/measure.sh" "${opts[@]}" -o "$T_TMP/there" "$src" v6.1-debian
is "$rc" 0 "measured on the worker over ssh"
jpm() { sed -n 's/.* jpm=\([0-9.]*\).*/\1/p' "$1/results" | tr '\n' ' '; }
like "$(jpm "$T_TMP/here")" '^[0-9.]+ [0-9.]+ $' "here: two samples"
is "$(jpm "$T_TMP/there")" "$(jpm "$T_TMP/here")" "the worker's samples equal this machine's, to the last digit"
is "$(ssh -p "$port" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
	-i "$T_TMP/id" 127.0.0.1 'ls -d /tmp/perfbisect-remote.* 2>/dev/null | wc -l')" 0 "the worker keeps no copies"

# The worker's sshd is gone: the boot fails, and kary.sh's check leaves it
# out.
kill -- -"$spid" 2>/dev/null || kill "$spid"
wait "$spid" 2>/dev/null
PB_QEMU=$b/stages/qemu-remote.sh PB_REMOTE_HOST=$host run_rc "$b/boot.sh" -k "$T_TMP/id.pub" -i "$T_TMP/id.pub" \
	-o "$T_TMP/gone" -t 60
is "$rc:$(jq .qemu_exit "$T_TMP/gone/boot.json")" "$PB_NOBOOT:255" "a worker that is gone: the boot fails (QEMU failed: ssh's 255)"
PB_REMOTE_HOST=$host run_rc "$b/stages/qemu-remote.sh" --version
is "$rc" 255 "a worker that is gone: ssh's 255, which kary.sh takes for 'left out'"
done_testing
