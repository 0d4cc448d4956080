#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-src.sh: import Debian's linux-source-VERSION tarball once into
# $PERFBISECT_HOME/linux-VERSION as a git repository with one commit, tagged
# vVERSION-debian, whose hash is the same on every machine (fixed author,
# committer and dates). The tarball's own .gitignore files are ignored:
# every file of it is committed.
# Usage: kernel-src.sh [-V VERSION] [--print]
#   -V VERSION  6.1 (default; the lab's) or 6.12
#   --print     only print the path and commit of an existing import
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ver=6.1 print=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		pb_usage
		exit 0
		;;
	--print) print=1 ;;
	-V)
		[ $# -ge 2 ] || pb_die "$PB_USAGE" "-V needs a version: 6.1 or 6.12"
		ver=$2
		shift
		;;
	*) pb_die "$PB_USAGE" "unknown argument '$1' (see --help)" ;;
	esac
	shift
done
case $ver in
6.1 | 6.12) ;;
*) pb_die "$PB_USAGE" "-V $ver: the versions are 6.1 and 6.12 (Debian's linux-source packages)" ;;
esac
TARBALL=${PB_KERNEL_TARBALL:-/usr/src/linux-source-$ver.tar.xz}
[ "$ver" = 6.1 ] || TARBALL=/usr/src/linux-source-$ver.tar.xz
dst=$(pb_kernel_src "$ver")
tag=v$ver-debian

if [ "$print" = 1 ]; then
	git -C "$dst" rev-parse -q --verify "refs/tags/$tag" >/dev/null 2>&1 ||
		pb_die "$PB_NOTOOL" "no kernel source in $dst: run '$PB_TOP/bisect/perfbisect kernel -V $ver'"
	echo "$dst $(git -C "$dst" rev-parse "$tag^{commit}")"
	exit 0
fi

# A finished import carries the tag; anything else is a leftover to redo.
if git -C "$dst" rev-parse -q --verify "refs/tags/$tag" >/dev/null 2>&1; then
	echo "$dst"
	exit 0
fi

pb_need git tar xz flock
[ -r "$TARBALL" ] ||
	pb_die "$PB_NOTOOL" "$TARBALL not found: run 'make deps' (as root) or 'sudo apt-get install linux-source-$ver'"

pb_lock "$PERFBISECT_HOME/locks/kernel-src-$ver.lock" "the kernel source import"
# Another process may have finished the import while we waited.
if git -C "$dst" rev-parse -q --verify "refs/tags/$tag" >/dev/null 2>&1; then
	echo "$dst"
	exit 0
fi

tmp="$dst.importing"
rm -rf "$tmp" || pb_die "$PB_INTERNAL" "cannot remove $tmp"
mkdir -p "$tmp" || pb_die "$PB_INTERNAL" "cannot create $tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit $PB_INTERRUPTED' INT TERM

start=$(pb_now)
pb_info "unpacking $TARBALL (about a minute)"
tar -xJf "$TARBALL" -C "$tmp" --strip-components=1 ||
	pb_die "$PB_INTERNAL" "cannot unpack $TARBALL into $tmp (disk full?)"
if [ ! -f "$tmp/Makefile" ] || [ ! -d "$tmp/kernel" ]; then
	pb_die "$PB_NOTKERNEL" "$TARBALL does not hold a kernel tree"
fi
version=$(make -s -C "$tmp" kernelversion 2>/dev/null) || version=$ver

pb_info "creating the git repository (about a minute)"
export GIT_AUTHOR_NAME="perfbisect" GIT_AUTHOR_EMAIL="perfbisect@localhost"
export GIT_COMMITTER_NAME="perfbisect" GIT_COMMITTER_EMAIL="perfbisect@localhost"
export GIT_AUTHOR_DATE="2022-12-11 14:15:00 -0800"
export GIT_COMMITTER_DATE="2022-12-11 14:15:00 -0800"
if ! { git -C "$tmp" init -q -b master &&
	git -C "$tmp" config core.autocrlf false &&
	git -C "$tmp" config gc.auto 0 &&
	git -C "$tmp" add -A -f &&
	git -C "$tmp" -c commit.gpgsign=false commit -q --no-verify \
		-m "Linux $version (Debian linux-source-$ver)" \
		-m "Imported from $(basename "$TARBALL") by perfbisect." &&
	git -C "$tmp" tag "$tag"; }; then
	pb_die "$PB_INTERNAL" "git import of the kernel tree failed (disk full?)"
fi

rm -rf "$dst" || pb_die "$PB_INTERNAL" "cannot remove old $dst"
mv "$tmp" "$dst" || pb_die "$PB_INTERNAL" "cannot move $tmp to $dst"
trap - EXIT
pb_info "imported Linux $version as $(git -C "$dst" rev-parse --short "$tag") in $(pb_elapsed "$start") s"
echo "$dst"
