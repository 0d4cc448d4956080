#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh: make sure the Debian packages perfbisect needs are installed;
# install the missing ones with apt-get when run as root, otherwise print the
# exact command to run.
# Deterministic mode with more than one vCPU needs QEMU 8.1 or later
# (doc/deterministic.md); on Debian 12, whose QEMU is 7.2, it comes from
# bookworm-backports (added as /etc/apt/sources.list.d/perfbisect-backports.sources;
# PB_NO_BACKPORTS=1 keeps QEMU 7.2 and deterministic mode at 1 vCPU).
# Usage: deps.sh [--check] [--test]   (--check: only report, never install;
#   --test: also the test suite's packages, for make check)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

PACKAGES=(git linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev
	cpio qemu-system-x86 busybox-static ccache shellcheck gnuplot-nox jq
	xz-utils util-linux perl libc6-dev procps binutils distcc parallel
	openssh-client)
# The test suite's own: tests/t58 starts an sshd of its own (a worker on
# 127.0.0.1). Not installed for users: on most systems the package starts
# a daemon on port 22.
TEST_PACKAGES=(openssh-server)

case ${1:-} in
-h | --help)
	sed -n '3,11s/^# \{0,1\}//p' "$0"
	exit 0
	;;
esac
check=''
for a in "$@"; do
	case $a in
	--check) check=--check ;;
	--test) PACKAGES+=("${TEST_PACKAGES[@]}") ;;
	*) pb_die "$PB_USAGE" "unknown argument '$a' (see --help)" ;;
	esac
done

missing=()
for p in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
	[ "$status" = installed ] || missing+=("$p")
done

# qemu_old: succeed when the installed QEMU is older than 8.1.
qemu_old() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || return 0
	PB_QEMU='' pb_det_max_cpus | grep -qx 1
}
# backports_qemu: install QEMU from bookworm-backports (Debian 12 only);
# a failure only leaves deterministic mode at 1 vCPU.
backports_qemu() {
	local src=/etc/apt/sources.list.d/perfbisect-backports.sources
	[ "${PB_NO_BACKPORTS:-0}" = 1 ] && return 0
	grep -qs '^VERSION_CODENAME=bookworm$' /etc/os-release || return 0
	qemu_old || return 0
	if [ "${1:-}" = --check ] || [ "$(id -u)" -ne 0 ]; then
		pb_warn "QEMU is older than 8.1: deterministic mode runs 1 vCPU; as root: apt-get install -t bookworm-backports qemu-system-x86"
		return 0
	fi
	pb_info "installing QEMU from bookworm-backports (8.1 or later runs 2 vCPUs in deterministic mode)"
	if [ ! -f "$src" ]; then
		printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' \
			'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$src" ||
			{ pb_warn "cannot write $src"; return 0; }
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2 &&
		apt-get install -y -q --no-install-recommends -t bookworm-backports qemu-system-x86 >&2 ||
		pb_warn "could not install QEMU from bookworm-backports: deterministic mode stays at 1 vCPU"
}
if [ ${#missing[@]} -eq 0 ]; then
	backports_qemu "$check"
	exit 0
fi

if [ "$check" = --check ] || [ "$(id -u)" -ne 0 ]; then
	pb_die "$PB_NOTOOL" "missing packages: ${missing[*]}; run: sudo apt-get install -y ${missing[*]}"
fi
pb_info "installing ${missing[*]} (apt-get, a few minutes)"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
	pb_info "apt-get install failed; refreshing the package lists and retrying"
	apt-get update -q >&2 &&
		apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		pb_die "$PB_NOTOOL" "apt-get could not install: ${missing[*]}"
fi
backports_qemu
exit 0
