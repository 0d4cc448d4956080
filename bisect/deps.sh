#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh: make sure the Debian packages perfbisect needs are installed;
# install the missing ones with apt-get when run as root, otherwise print the
# exact command to run.
# Usage: deps.sh [--check]   (--check: only report, never install)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

PACKAGES=(git linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev
	cpio qemu-system-x86 busybox-static ccache shellcheck gnuplot-nox jq
	xz-utils util-linux perl libc6-dev procps binutils)

case ${1:-} in
-h | --help)
	sed -n '3,6s/^# \{0,1\}//p' "$0"
	exit 0
	;;
--check | "") ;;
*) pb_die "$PB_USAGE" "unknown argument '$1' (see --help)" ;;
esac

missing=()
for p in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
	[ "$status" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "${1:-}" = --check ] || [ "$(id -u)" -ne 0 ]; then
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
exit 0
