#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh: build one revision of a kernel git repository into a bzImage,
# out of tree, with ccache, in a checkout that perfbisect owns.
# Usage: build.sh [-n] [-K BASE] [-c FRAGMENT]... [-l LOGDIR] REPO REV
#   -K BASE      the config to start from: tinyconfig (default), defconfig,
#                or a .config file (yours, your distribution's)
#   -c FRAGMENT  extra config fragment (a path, or a name in configs/),
#                merged after configs/qemu.config onto BASE
#   -l LOGDIR    also copy build.log and build.json into LOGDIR
#   -n           only print the artifact directory this build would use
# Prints the directory holding bzImage, config and build.json. A revision
# built before with the same source tree and fragments is not rebuilt.
# PB_KEEP_TIMES=0: files changed only in comments get new times (see
# checkout.sh), and Kbuild rebuilds all that includes them.
# PB_DISTCC="HOST[:PORT][/LIMIT] ..." (perfbisect --distcc) sends the
# compiles that miss ccache to those distcc hosts (CCACHE_PREFIX), with
# make -j the local cores plus their slots; hosts that do not answer are
# left out, none: local compiles, with a message. A compile a host fails
# is retried locally by distcc, so a host's failure never reads as a
# commit that does not build. The image is the same as a local build's.
# configs/qemu.config (serial console, initramfs, no modules, no network)
# always wins over BASE; options of a BASE file that do not survive are
# listed in the build dir (config-dropped.txt), and a large config gets the
# cold build time to expect here. A repository of commits on top of
# another's (validate.sh's fixed commits) that names that other in a file
# perfbisect-origin builds in the other's checkout and build dirs, which
# then change little (REV is fetched into it).
# Exit: 0 built, 125 does not build, 2 usage, 3 not a repository, 4 unknown
# revision, 5 missing tool, 6 busy, 7 not a kernel, 8 option dropped,
# 9 internal, 10 interrupted, 33 BASE is not a kernel config.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n '3,24s/^# \{0,1\}//p' "$0"
}

frags=("$PB_TOP/configs/qemu.config")
logdir='' dry=0 base=tinyconfig
[ "${1:-}" = --help ] && {
	usage
	exit 0
}
while getopts K:c:l:nh opt; do
	case $opt in
	K) base=$OPTARG ;;
	c)
		if [ -f "$OPTARG" ]; then
			frags+=("$(realpath "$OPTARG")")
		elif [ -f "$PB_TOP/configs/$OPTARG" ]; then
			frags+=("$PB_TOP/configs/$OPTARG")
		elif [ -f "$PB_TOP/configs/$OPTARG.config" ]; then
			frags+=("$PB_TOP/configs/$OPTARG.config")
		else
			pb_die "$PB_USAGE" "config fragment '$OPTARG' not found (a path or a name in configs/)"
		fi
		;;
	l) logdir=$OPTARG ;;
	n) dry=1 ;;
	h)
		usage
		exit 0
		;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || pb_die "$PB_USAGE" "expected REPO and REV (see --help)"
base=$(pb_config_base "$base") || exit

pb_need git make gcc flex bison bc ccache flock jq
repo=$(pb_resolve_repo "$1") || exit
sha=$(pb_resolve_rev "$repo" "$2") || exit
for f in Makefile scripts/kconfig/merge_config.sh arch/x86/boot; do
	git -C "$repo" cat-file -e "$sha:$f" 2>/dev/null ||
		pb_die "$PB_NOTKERNEL" "$repo at ${sha:0:12} is not a Linux kernel tree (no $f)"
done

tree=$(git -C "$repo" rev-parse "$sha^{tree}")
cfghash=$(pb_file_sha "${frags[@]}")
# Another base makes another configuration (tinyconfig's hash is as it
# always was, so its images stay valid).
case $base in
tinyconfig) base_id=tinyconfig ;;
defconfig) base_id=defconfig cfghash=$(pb_sha "$cfghash" defconfig) ;;
*) base_id=$(pb_file_sha "$base") cfghash=$(pb_sha "$cfghash" "file $base_id") ;;
esac
gccver=$(gcc -dumpfullversion)
images="$PERFBISECT_HOME/images"
art="$images/${tree:0:16}-$cfghash-gcc$gccver"

# publish ART [cached]: print ART and copy its log and summary into $logdir;
# a cached artifact cost nothing this time, which build.json then says.
publish() {
	if [ -n "$logdir" ]; then
		if ! { mkdir -p "$logdir" && cp "$1/build.log" "$logdir/" &&
			jq --argjson cached "${2:-false}" \
				'if $cached then .build_s = 0 | .ccache_hits = 0 | .ccache_misses = 0 | .cached = true else . end' \
				"$1/build.json" >"$logdir/build.json"; }; then
			pb_die "$PB_INTERNAL" "cannot copy the build log into $logdir"
		fi
	fi
	echo "$1"
}

if [ "$dry" = 1 ]; then
	echo "$art"
	exit 0
fi
if [ -f "$art/bzImage" ] && [ -f "$art/build.json" ]; then
	pb_info "${sha:0:12}: already built ($art)"
	publish "$art" true
	exit 0
fi

# The checkout to build in: the origin's, for a repository that names one.
home=$repo
if [ -s "$repo/perfbisect-origin" ]; then
	home=$(cat "$repo/perfbisect-origin")
	git -C "$home" rev-parse --git-dir >/dev/null 2>&1 || home=$repo
fi
key=$(pb_sha "$home")
top="$PERFBISECT_HOME/trees/$key"
src="$top/src"
bdir="$top/build-$cfghash"
mkdir -p "$top" "$images" "$PERFBISECT_HOME/ccache" ||
	pb_die "$PB_INTERNAL" "cannot create $top"
echo "$home" >"$top/origin"
pb_lock_wait "$top/lock" "perfbisect's checkout of $home"
pb_lock_wait "$PB_BUILD_LOCK" "the kernel build slot (one build at a time on this machine)"

work=$(mktemp -d "$top/work.XXXXXX") || pb_die "$PB_INTERNAL" "cannot create a work dir in $top"
makepid=
cleanup() {
	rm -rf "$work"
}
interrupted() {
	[ -n "$makepid" ] && kill -TERM "$makepid" 2>/dev/null
	wait 2>/dev/null
	pb_die "$PB_INTERRUPTED" "interrupted; the build dir $bdir is kept and the next build resumes it"
}
trap cleanup EXIT
trap interrupted INT TERM

# A clone sharing the user's object store: their checkout, index, refs and
# bisect state are never written.
if [ ! -d "$src/.git" ]; then
	pb_info "cloning $home into $src (shared objects, first time only)"
	rm -rf "$src"
	git clone -q --shared --no-checkout "$home" "$src" ||
		pb_die "$PB_INTERNAL" "cannot clone $home into $src"
	git -C "$src" config gc.auto 0
fi
# A commit of a repository on top of the origin: its own objects (the
# patch's) are copied into the checkout, which then does not depend on
# that repository.
if [ "$home" != "$repo" ] && ! git -C "$src" cat-file -e "$sha^{commit}" 2>/dev/null; then
	git -C "$src" fetch -q "$repo" "$sha" 2>"$work/fetch.err" ||
		pb_die "$PB_INTERNAL" "cannot fetch ${sha:0:12} from $repo into $src: $(head -1 "$work/fetch.err")"
fi
# A checkout that leaves the time of a file changed only in comments, so
# Kbuild does not rebuild its includers: with the lists of what this
# tree's build dirs read, the verbatim ones of all of them, since they share
# the checkout. Not with IKHEADERS (see below), nor with PB_KEEP_TIMES=0.
#
# has_objects DIR: succeed when DIR holds objects of a build (.cmd files).
has_objects() {
	[ -n "$(find "$1" -maxdepth 2 -name '.*.o.cmd' -print -quit 2>/dev/null)" ]
}
lists=$work/lists
if [ "${PB_KEEP_TIMES:-1}" = 0 ] || ! has_objects "$bdir" || grep -qs '^CONFIG_IKHEADERS=y' "$top"/build-*/.config; then
	lists=''
elif ! { mkdir -p "$lists" "$work/l" && : >"$lists/verbatim"; }; then
	pb_die "$PB_INTERNAL" "cannot write in $work"
fi
for d in "$top"/build-*; do
	[ -n "$lists" ] || break
	has_objects "$d" || continue
	if [ -f "$d/.perfbisect-lists/deps" ] && [ -f "$d/.perfbisect-lists/verbatim" ]; then
		# Saved by the last build there, which succeeded.
		cp "$d/.perfbisect-lists/deps" "$d/.perfbisect-lists/verbatim" "$work/l/" ||
			pb_die "$PB_INTERNAL" "cannot write in $work"
	elif ! "$PB_TOP/bisect/stages/kbuild-deps.sh" -o "$work/l" "$d" "$src" 2>"$work/deps.err"; then
		pb_warn "no dependency lists of $d ($(head -1 "$work/deps.err")): a plain checkout"
		lists=''
		break
	fi
	cat "$work/l/verbatim" >>"$lists/verbatim" || pb_die "$PB_INTERNAL" "cannot write in $work"
	if [ "$d" = "$bdir" ]; then
		mv "$work/l/deps" "$lists/deps" || pb_die "$PB_INTERNAL" "cannot write in $work"
	fi
done
pb_info "${sha:0:12}: checking out $(git -C "$repo" log -1 --format='%h %s' "$sha" | cut -c1-60)"
"$PB_TOP/bisect/stages/checkout.sh" ${lists:+-d "$lists"} "$src" "$sha" >"$work/checkout.out" ||
	pb_die "$PB_INTERNAL" "${sha:0:12}: the checkout in $src failed"
pb_info "$(cat "$work/checkout.out")"

export ARCH=x86_64
export CCACHE_DIR="$PERFBISECT_HOME/ccache"
export CCACHE_BASEDIR="$PERFBISECT_HOME"
export CCACHE_NOHASHDIR=1
export CCACHE_COMPILERCHECK=content
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP="Sun Dec 11 14:15:00 UTC 2022"
export KBUILD_BUILD_USER=perfbisect
export KBUILD_BUILD_HOST=perfbisect
export KBUILD_BUILD_VERSION=1
mkdir -p "$bdir" || pb_die "$PB_INTERNAL" "cannot create $bdir"
# The log of the build in progress (and of the last failure) stays here.
log="$bdir/last-build.log"
start=$(pb_now)

# Configure into a side file; replace .config only when it changed, so an
# unchanged configuration does not make Kbuild redo anything. Skipped (it
# takes about 17 s here) when what it reads is as it was for the .config in
# place: the Kconfig files, Makefiles, scripts/ and */configs/ of the tree,
# the fragments, the toolchain Kconfig probes, and this script.
git -C "$src" ls-tree -r "$sha" >"$work/tree" || pb_die "$PB_INTERNAL" "git ls-tree ${sha:0:12} failed in $src"
cfgkey=$( {
	awk -F '\t' '$2 ~ /(^|\/)(Kconfig|Makefile)[^\/]*$|^scripts\/|\/configs\// { print }' "$work/tree"
	cat "${frags[@]}" "$0"
	echo "base $base_id"
	for t in gcc ld as pahole rustc bindgen; do
		command -v "$t" && "$t" --version 2>&1 | head -1
	done
} | sha256sum | cut -c1-32)
if [ -f "$bdir/.config" ] && [ "$(cat "$bdir/.perfbisect-config-key" 2>/dev/null)" = "$cfgkey" ]; then
	pb_info "${sha:0:12}: configuration inputs unchanged, keeping $bdir/.config"
	: >"$log"
else
	pb_info "${sha:0:12}: configuring (${base##*/} + ${frags[*]##*/})"
	newcfg="$bdir/.config.perfbisect"
	rm -f "$newcfg" "$bdir/.perfbisect-config-key"
	if ! {
		case $base in
		tinyconfig | defconfig) KCONFIG_CONFIG=$newcfg make -C "$src" O="$bdir" "$base" ;;
		*) cp "$base" "$newcfg" ;;
		esac &&
			KCONFIG_CONFIG=$newcfg "$src/scripts/kconfig/merge_config.sh" -m -O "$bdir" "$newcfg" "${frags[@]}" &&
			KCONFIG_CONFIG=$newcfg make -C "$src" O="$bdir" olddefconfig
	} >"$log" 2>&1; then
		pb_die "$PB_NOBUILD" "${sha:0:12}: configuration failed; see $log"
	fi
	"$PB_TOP/bisect/stages/config-check.sh" "$newcfg" "${frags[@]}" || exit
	if [ -f "$base" ]; then
		# A base from another kernel or machine loses options: say how
		# many, and keep the list.
		"$PB_TOP/bisect/stages/config-check.sh" -l "$bdir/config-dropped.txt" "$newcfg" "$base" || exit
		ndrop=$(wc -l <"$bdir/config-dropped.txt")
		[ "$ndrop" -eq 0 ] ||
			pb_warn "${sha:0:12}: $ndrop option(s) of ${base##*/} did not survive (qemu.config has no modules and no network; others are unknown to this tree): $bdir/config-dropped.txt"
	fi
	if ! cmp -s "$newcfg" "$bdir/.config"; then
		mv -f "$newcfg" "$bdir/.config" || pb_die "$PB_INTERNAL" "cannot write $bdir/.config"
	fi
	rm -f "$newcfg"
	echo "$cfgkey" >"$bdir/.perfbisect-config-key" ||
		pb_die "$PB_INTERNAL" "cannot write $bdir/.perfbisect-config-key"
fi

# A cold build of a large config takes long here: say how long.
est=$(pb_cold_build_min "$(grep -c '=y$' "$bdir/.config")")
if ! has_objects "$bdir" && [ "$est" -ge 15 ]; then
	pb_warn "${sha:0:12}: a large config ($(grep -c '=y$' "$bdir/.config") options =y): a cold build takes about $est min on this machine (bench/README.md); later ones reuse ccache"
fi
ccache -z >/dev/null 2>&1
jobs=$(nproc)
if [ -n "${PB_DISTCC:-}" ]; then
	pb_need distcc
	hosts=$(pb_distcc_hosts "$PB_DISTCC")
	if [ -z "$hosts" ]; then
		pb_warn "${sha:0:12}: no distcc host answers: compiling locally"
	else
		# distcc falls back to a local compile when a host fails.
		export CCACHE_PREFIX=distcc DISTCC_HOSTS=$hosts DISTCC_FALLBACK=1
		unset DISTCC_SKIP_LOCAL_RETRY
		jobs=$((jobs + $(pb_distcc_slots "$hosts")))
		pb_info "${sha:0:12}: compiles that miss ccache go to distcc: $hosts"
	fi
fi
pb_info "${sha:0:12}: make -j$jobs bzImage (cold: about $est min here, less with a warm ccache; log: $log)"
# The build dir's saved lists (below) stop being true as make starts.
rm -rf "$bdir/.perfbisect-lists" "$bdir/.perfbisect-lists.new" ||
	pb_die "$PB_INTERNAL" "cannot remove $bdir/.perfbisect-lists"
# HOSTCC too: a new build dir builds objtool, fixdep and kconfig first.
make -C "$src" O="$bdir" CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" bzImage >>"$log" 2>&1 &
makepid=$!
wait "$makepid"
rc=$?
makepid=
build_s=$(pb_elapsed "$start")
stats=$(ccache --print-stats 2>/dev/null)
stat() {
	awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' <<<"$stats"
}
hits=$(($(stat direct_cache_hit) + $(stat preprocessed_cache_hit)))
misses=$(stat cache_miss)

if [ "$rc" -ne 0 ] || [ ! -f "$bdir/arch/x86/boot/bzImage" ]; then
	[ -n "$logdir" ] && mkdir -p "$logdir" && cp "$log" "$logdir/build.log"
	grep -m3 -E 'error:|Error [0-9]' "$log" | sed 's/^/  /' >&2
	pb_die "$PB_NOBUILD" "${sha:0:12} does not build (make exit $rc after $build_s s); log: $log"
fi

# Publish the artifact atomically: a directory renamed into place.
stage="$work/artifact"
mkdir -p "$stage" &&
	cp "$bdir/arch/x86/boot/bzImage" "$stage/bzImage" &&
	cp "$bdir/.config" "$stage/config" &&
	cp "$log" "$stage/build.log" ||
	pb_die "$PB_INTERNAL" "cannot stage the build artifact (disk full?)"
# The files this build read, and those whose comments matter too, for
# same-kernel.sh. Not with IKHEADERS, which packs every header, comments
# and all, into the kernel: without the lists no header change passes.
if grep -q '^CONFIG_IKHEADERS=y' "$bdir/.config"; then
	pb_info "${sha:0:12}: CONFIG_IKHEADERS=y: no dependency lists, every header change makes another kernel"
elif ! "$PB_TOP/bisect/stages/kbuild-deps.sh" -o "$stage" "$bdir" "$src"; then
	pb_warn "${sha:0:12}: no dependency lists; later revisions are compared by their C files only"
	rm -f "$stage/deps" "$stage/verbatim"
else
	# Also the lists of the build dir as it now is, for the next checkout.
	mkdir -p "$bdir/.perfbisect-lists.new" &&
		cp "$stage/deps" "$stage/verbatim" "$bdir/.perfbisect-lists.new/" &&
		mv "$bdir/.perfbisect-lists.new" "$bdir/.perfbisect-lists" ||
		pb_die "$PB_INTERNAL" "cannot write $bdir/.perfbisect-lists"
fi
jq -n --arg commit "$sha" --arg tree "$tree" --arg repo "$repo" \
	--arg config_hash "$cfghash" --arg gcc "$gccver" \
	--arg bzimage_sha256 "$(sha256sum "$stage/bzImage" | cut -d' ' -f1)" \
	--argjson build_s "$build_s" --argjson ccache_hits "$hits" \
	--argjson ccache_misses "$misses" \
	--arg fragments "${frags[*]##*/}" --arg base "${base##*/}" --arg base_id "$base_id" \
	'{commit: $commit, tree: $tree, repo: $repo, config_hash: $config_hash,
	  base: $base, base_id: $base_id, fragments: $fragments, gcc: $gcc, build_s: $build_s,
	  ccache_hits: $ccache_hits, ccache_misses: $ccache_misses,
	  bzimage_sha256: $bzimage_sha256}' >"$stage/build.json" ||
	pb_die "$PB_INTERNAL" "cannot write build.json"
rm -rf "$art.old"
[ -d "$art" ] && mv "$art" "$art.old"
mv "$stage" "$art" || pb_die "$PB_INTERNAL" "cannot publish $art"
rm -rf "$art.old"
pb_info "${sha:0:12}: built in $build_s s, ccache $hits hits / $misses misses"
publish "$art"
