#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh: build the guest's initramfs (busybox-static, initramfs/init,
# the static reproducer and its workfiles) with the kernel's gen_init_cpio
# from initramfs/initramfs.list. Rebuilt only when an input changes.
# Usage: initramfs.sh      (prints the path of the .cpio)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,6s/^# \{0,1\}//p' "$0"
	exit 0
	;;
"") ;;
*) pb_die "$PB_USAGE" "unknown argument '$1' (see --help)" ;;
esac

pb_need gcc make flock
BUSYBOX=${PB_BUSYBOX:-/bin/busybox}
if [ ! -x "$BUSYBOX" ] || readelf -l "$BUSYBOX" 2>/dev/null | grep -q 'program interpreter'; then
	pb_die "$PB_NOTOOL" "no static busybox at $BUSYBOX: run 'make deps' (as root) or 'sudo apt-get install busybox-static'"
fi
ksrc=$(pb_kernel_src)
[ -f "$ksrc/usr/gen_init_cpio.c" ] ||
	pb_die "$PB_NOTOOL" "no kernel source in $ksrc: run '$PB_TOP/bisect/perfbisect kernel'"

out="$PERFBISECT_HOME/initramfs"
mkdir -p "$out" || pb_die "$PB_INTERNAL" "cannot create $out"
pb_lock_wait "$out/lock" "the initramfs builder"

gen="$PERFBISECT_HOME/tools/gen_init_cpio"
if [ ! -x "$gen" ]; then
	if ! { mkdir -p "$PERFBISECT_HOME/tools" &&
		gcc -O2 -o "$gen.tmp" "$ksrc/usr/gen_init_cpio.c" && mv "$gen.tmp" "$gen"; }; then
		pb_die "$PB_INTERNAL" "cannot build gen_init_cpio from $ksrc/usr"
	fi
fi

repro="$PERFBISECT_HOME/reproducer"
make -s -C "$PB_TOP/reproducer" O="$repro" static >&2 ||
	pb_die "$PB_INTERNAL" "cannot build the static reproducer (make -C reproducer static)"

workfiles=()
for w in "$PB_TOP"/reproducer/workfiles/*; do
	name=${w##*/}
	[[ $name =~ ^[a-z0-9_]+$ ]] || continue
	workfiles+=("$w")
done

inputs=("$PB_TOP/initramfs/initramfs.list" "$PB_TOP/initramfs/init" "$BUSYBOX"
	"$repro/pbaim.static" "$repro/pbtrue.static" "$gen" "${workfiles[@]}")
hash=$(pb_file_sha "${inputs[@]}") || pb_die "$PB_INTERNAL" "cannot read the initramfs inputs"
cpio="$out/initramfs-$hash.cpio"
if [ -f "$cpio" ]; then
	echo "$cpio"
	exit 0
fi

stage=$(mktemp -d "$out/stage.XXXXXX") || pb_die "$PB_INTERNAL" "cannot create a staging dir"
trap 'rm -rf "$stage"' EXIT
if ! { mkdir -p "$stage/workfiles" &&
	cp "$PB_TOP/initramfs/init" "$stage/init" &&
	cp "$BUSYBOX" "$stage/busybox" &&
	cp "$repro/pbaim.static" "$repro/pbtrue.static" "$stage/"; }; then
	pb_die "$PB_INTERNAL" "cannot stage the initramfs files (disk full?)"
fi
cp "$PB_TOP/initramfs/initramfs.list" "$stage/list"
for w in "${workfiles[@]}"; do
	cp "$w" "$stage/workfiles/" || pb_die "$PB_INTERNAL" "cannot stage $w"
	printf 'file /workfiles/%s workfiles/%s 0644 0 0\n' "${w##*/}" "${w##*/}" >>"$stage/list"
done
(cd "$stage" && "$gen" -t 0 list >initramfs.cpio) ||
	pb_die "$PB_INTERNAL" "gen_init_cpio failed on initramfs/initramfs.list"
mv "$stage/initramfs.cpio" "$cpio" || pb_die "$PB_INTERNAL" "cannot write $cpio"
# Keep only the newest few images.
find "$out" -maxdepth 1 -name 'initramfs-*.cpio' -printf '%T@ %p\n' |
	sort -rn | tail -n +6 | cut -d' ' -f2- | xargs -r rm -f
pb_info "initramfs $cpio ($(du -k "$cpio" | cut -f1) KiB)"
echo "$cpio"
