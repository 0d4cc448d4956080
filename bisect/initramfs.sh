#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh: build the guest's initramfs (busybox-static, initramfs/init,
# the static reproducer and its workfiles) with the kernel's gen_init_cpio
# from initramfs/initramfs.list. Rebuilt only when an input changes.
# Usage: initramfs.sh [-A CMD -Y REGEX]   (prints the path of the .cpio)
#   -A CMD    also the user's command (--run) as /pb/cmd, with its program
#             (a file of this machine and the libraries ldd finds for it,
#             or a workload of workloads/, built static) under /pb
#   -Y REGEX  the metric (--metric) the guest's init looks for, /pb/metric
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

pb_help_first "$@"
run='' metric=''
while getopts A:Y:h opt; do
	case $opt in
	A) run=$OPTARG ;;
	Y) metric=$OPTARG ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || pb_die "$PB_USAGE" "unknown argument '$1' (see --help)"
[ -z "$run" ] || [ -n "$metric" ] || pb_die "$PB_USAGE" "-A CMD needs -Y REGEX, the metric to read"

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
# The user's command: its program, and what that needs, go to /pb.
extra=() prog_src='' guest_prog=''
if [ -n "$run" ]; then
	read -r kind what <<<"$(pb_run_program "$run")" || exit
	case $kind in
	host)
		prog_src=$what guest_prog=/pb/bin/${what##*/}
		if readelf -l "$what" 2>/dev/null | grep -q 'program interpreter'; then
			mapfile -t extra < <(ldd "$what" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u)
		fi
		;;
	workload)
		make -s -C "$PB_TOP/workloads" O="$PERFBISECT_HOME/workloads" static >&2 ||
			pb_die "$PB_INTERNAL" "cannot build the workloads (make -C workloads static)"
		prog_src=$PERFBISECT_HOME/workloads/$what.static guest_prog=/pb/bin/$what
		;;
	guest) guest_prog=$what ;;
	esac
	inputs+=(${prog_src:+"$prog_src"} "${extra[@]}")
fi
hash=$(pb_file_sha "${inputs[@]}") || pb_die "$PB_INTERNAL" "cannot read the initramfs inputs"
# The command and the metric are inputs too (without --run the name stays).
[ -z "$run" ] || hash=$(pb_sha "$hash" "run $guest_prog ${run#* }" "metric $metric")
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
if [ -n "$run" ]; then
	# /pb/cmd runs the program with the user's arguments, as given.
	args=''
	[ "$run" = "${run%% *}" ] || args=" ${run#* }"
	if ! { mkdir -p "$stage/pb" && printf '#!/bin/sh\nexec %s%s\n' "$guest_prog" "$args" >"$stage/pb/cmd" &&
		printf '%s\n' "$metric" >"$stage/pb/metric" &&
		printf 'dir /pb 0755 0 0\ndir /pb/bin 0755 0 0\nfile /pb/cmd pb/cmd 0755 0 0\nfile /pb/metric pb/metric 0644 0 0\n' >>"$stage/list"; }; then
		pb_die "$PB_INTERNAL" "cannot stage the --run command"
	fi
	if [ -n "$prog_src" ]; then
		cp "$prog_src" "$stage/pb/prog" && echo "file $guest_prog pb/prog 0755 0 0" >>"$stage/list" ||
			pb_die "$PB_INTERNAL" "cannot stage $prog_src"
	fi
	# The libraries at their own paths, with their directories.
	i=0
	for l in "${extra[@]}"; do
		d=${l%/*} p=''
		for c in ${d//\// }; do
			p=$p/$c
			grep -qxF "dir $p 0755 0 0" "$stage/list" || [ "$p" = /bin ] || [ "$p" = /sbin ] ||
				echo "dir $p 0755 0 0" >>"$stage/list"
		done
		cp -L "$l" "$stage/pb/lib$i" && echo "file $l pb/lib$i 0755 0 0" >>"$stage/list" ||
			pb_die "$PB_INTERNAL" "cannot stage $l"
		i=$((i + 1))
	done
fi
(cd "$stage" && "$gen" -t 0 list >initramfs.cpio) ||
	pb_die "$PB_INTERNAL" "gen_init_cpio failed on initramfs/initramfs.list"
mv "$stage/initramfs.cpio" "$cpio" || pb_die "$PB_INTERNAL" "cannot write $cpio"
# Keep only the newest few images.
find "$out" -maxdepth 1 -name 'initramfs-*.cpio' -printf '%T@ %p\n' |
	sort -rn | tail -n +6 | cut -d' ' -f2- | xargs -r rm -f
pb_info "initramfs $cpio ($(du -k "$cpio" | cut -f1) KiB)"
echo "$cpio"
