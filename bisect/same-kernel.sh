#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# same-kernel.sh: tell, without building either, whether two revisions of a
# kernel tree build the same kernel: every file that differs between them
# is outside the build, or differs only in comments and spacing within a
# line (the compiler sees the same tokens on the same lines).
# Usage: same-kernel.sh [-d DEPS] REPO REF REV
#   -d DEPS  the files REF's build read, one path per line relative to the
#            top of the tree (build.sh keeps it next to the image as 'deps');
#            without it every C file and header counts as part of the build.
# Prints one line that says why or why not. Conservative: any change to a
# file that is not C (Makefile, Kconfig, assembly, linker script, script)
# or anything under scripts/ or tools/ counts as a different kernel.
# Exit: 0 the same kernel, 1 not the same, 2 usage, 3 not a repository,
# 4 unknown revision, 5 missing tool.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n '3,15s/^# \{0,1\}//p' "$0"
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
[ -z "$deps" ] || [ -f "$deps" ] || pb_die "$PB_USAGE" "no dependency list '$deps'"
pb_need git gcc
repo=$(pb_resolve_repo "$1") || exit
ref=$(pb_resolve_rev "$repo" "$2") || exit
rev=$(pb_resolve_rev "$repo" "$3") || exit

# differ WHY: the answer when the kernels are not the same.
differ() {
	echo "not the same kernel: $*"
	exit "$PB_BAD"
}
# tokens REV PATH: the file as the compiler's tokenizer sees it, comments
# gone, directives not expanded, line numbers kept.
tokens() {
	git -C "$repo" cat-file blob "$1:$2" | gcc -fpreprocessed -E -x c - 2>/dev/null
}
declare -A built=()
if [ -n "$deps" ]; then
	while IFS= read -r f; do
		built[$f]=1
	done <"$deps"
fi

list=$(mktemp) || pb_die "$PB_INTERNAL" "cannot create a temporary file"
trap 'rm -f "$list"' EXIT
git -C "$repo" diff --no-renames --name-status -z "$ref" "$rev" -- >"$list" ||
	pb_die "$PB_INTERNAL" "git diff ${ref:0:12} ${rev:0:12} failed in $repo"
outside=0 comments=0 n=0
while IFS= read -r -d '' status && IFS= read -r -d '' path; do
	n=$((n + 1))
	case $path in
	Documentation/* | LICENSES/* | MAINTAINERS | CREDITS | .mailmap | .gitignore | */.gitignore)
		outside=$((outside + 1))
		continue
		;;
	scripts/* | tools/*) differ "$path is part of the build tools" ;;
	*.c | *.h) ;;
	*) differ "$path is not C source" ;;
	esac
	if [ -n "$deps" ] && [ -z "${built[$path]:-}" ]; then
		outside=$((outside + 1))
		continue
	fi
	[ "$status" = M ] || [ "$status" = T ] || differ "$path is added or removed and the build reads it"
	t1=$(tokens "$ref" "$path") || differ "cannot read $path at ${ref:0:12}"
	t2=$(tokens "$rev" "$path") || differ "cannot read $path at ${rev:0:12}"
	[ "$t1" = "$t2" ] || differ "$path changes code"
	comments=$((comments + 1))
done <"$list"
echo "the same kernel: $n files differ, $comments in comments only, $outside outside the build"
exit 0
