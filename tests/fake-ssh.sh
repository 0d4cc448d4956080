#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fake-ssh.sh: stands in for ssh in tests (PB_SSH): fake-ssh.sh [-p PORT]
# HOST COMMAND runs COMMAND here with sh, as a host would. A host whose
# name starts with "dead" does not answer (exit 255), nor does any host
# while the file $FAKE_SSH_DEAD exists; a host whose name starts with
# "old" runs another QEMU version. Each call is logged to $FAKE_SSH_LOG.
set -u
[ "${1:-}" = -p ] && shift 2
host=$1 cmd=$2
echo "$host $cmd" >>"${FAKE_SSH_LOG:-/dev/null}"
case $host in
dead*) exit 255 ;;
esac
[ -n "${FAKE_SSH_DEAD:-}" ] && [ -e "$FAKE_SSH_DEAD" ] && exit 255
case $host:$cmd in
old*--version*)
	echo "QEMU emulator version 0.1"
	exit 0
	;;
esac
exec sh -c "$cmd"
