#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# same-kernel.sh: tell, without building either, whether two revisions of a
# kernel tree build the same kernel: every file that differs between them
# is outside the build, or a C file or header that differs only in
# comments within its lines (the compiler sees the same tokens, macro
# definitions and pragmas on the same lines).
# Usage: same-kernel.sh [-d DIR] REPO REF REV
#   -d DIR  the image directory of REF's build, with the lists 'deps' (the
#           files the build read) and 'verbatim' (those whose comments
#           matter too) that kbuild-deps.sh wrote. Without it, every C file
#           counts as built and any header change as a change.
# Prints one line that says why or why not. Conservative: a change to a
# file that is not C (Makefile, Kconfig, assembly, linker script, script),
# under scripts/ or tools/, read verbatim, or added or removed where the
# build looks for headers, counts as a different kernel.
# Exit: 0 the same kernel, 1 not the same, 2 usage, 3 not a repository,
# 4 unknown revision, 5 missing tool, 9 internal.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n '3,18s/^# \{0,1\}//p' "$0"
}
[ "${1:-}" = --help ] && {
	usage
	exit 0
}
deps=''
while getopts d:h opt; do
	case $opt in
	d) deps=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || pb_die "$PB_USAGE" "expected REPO, REF and REV (see --help)"
[ -z "$deps" ] || { [ -f "$deps/deps" ] && [ -f "$deps/verbatim" ]; } ||
	pb_die "$PB_USAGE" "no dependency lists (deps, verbatim) in '$deps'"
pb_need git gcc
repo=$(pb_resolve_repo "$1") || exit
ref=$(pb_resolve_rev "$repo" "$2") || exit
rev=$(pb_resolve_rev "$repo" "$3") || exit

# differ WHY: the answer when the kernels are not the same.
differ() {
	echo "not the same kernel: $*"
	exit "$PB_BAD"
}
# tokens REV PATH: PATH at REV as the compiler sees it (pb_tokens).
tokens() {
	git -C "$repo" cat-file blob "$1:$2" >"$tmpd/blob" && pb_tokens "$tmpd/blob"
}
declare -A built=() verbatim=() dirs=() bases=()
if [ -n "$deps" ]; then
	while IFS= read -r f; do
		built[$f]=1
		dirs[${f%/*}]=1
		bases[${f##*/}]=1
	done <"$deps/deps"
	while IFS= read -r f; do
		verbatim[$f]=1
	done <"$deps/verbatim"
fi

tmpd=$(mktemp -d) || pb_die "$PB_INTERNAL" "cannot create a temporary directory"
trap 'rm -rf "$tmpd"' EXIT
list=$tmpd/list
git -C "$repo" diff --no-renames --name-status -z "$ref" "$rev" -- >"$list" ||
	pb_die "$PB_INTERNAL" "git diff ${ref:0:12} ${rev:0:12} failed in $repo"
outside=0 comments=0 n=0
while IFS= read -r -d '' status && IFS= read -r -d '' path; do
	n=$((n + 1))
	case $path in
	Documentation/*/Kconfig* | Documentation/Kconfig* | Documentation/*Makefile* | Documentation/*Kbuild*)
		differ "$path is a build file"
		;;
	Documentation/* | LICENSES/* | MAINTAINERS | CREDITS | .mailmap | .gitignore | */.gitignore)
		outside=$((outside + 1))
		continue
		;;
	scripts/* | tools/*) differ "$path is part of the build tools" ;;
	*.c | *.h) ;;
	*) differ "$path is not C source" ;;
	esac
	if [ -z "$deps" ]; then
		[[ $path == *.h ]] && differ "$path is a header, and without the build's dependency lists its comments may matter"
	elif [ -n "${verbatim[$path]:-}" ]; then
		differ "$path is read verbatim by the build (by a script, or kept in a preprocessor output)"
	elif [ -z "${built[$path]:-}" ]; then
		if [ "$status" = M ]; then
			outside=$((outside + 1))
			continue
		fi
		# A file that appears or disappears can be found by an include
		# path, a wildcard or __has_include: only far from the build is
		# it outside.
		case $path in
		include/* | arch/*/include/*) differ "$path is added or removed under an include directory" ;;
		esac
		[ -z "${dirs[${path%/*}]:-}" ] && [ -z "${bases[${path##*/}]:-}" ] ||
			differ "$path is added or removed next to, or under the name of, a file the build reads"
		outside=$((outside + 1))
		continue
	fi
	[ "$status" = M ] || differ "$path is added, removed or changed in type, and the build reads it"
	t1=$(tokens "$ref" "$path") || differ "cannot read $path at ${ref:0:12}"
	t2=$(tokens "$rev" "$path") || differ "cannot read $path at ${rev:0:12}"
	[ "$t1" = "$t2" ] || differ "$path changes code"
	comments=$((comments + 1))
done <"$list"
echo "the same kernel: $n files differ, $comments in comments only, $outside outside the build"
exit 0
