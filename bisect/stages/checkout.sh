#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkout.sh: check out REV in a source tree that perfbisect owns, and give
# back its old modification time to every C file or header whose new text
# the compiler cannot tell from the old one (comments within their lines:
# the test of same-kernel.sh), so that Kbuild does not rebuild what
# includes it. ccache would return the same objects, but the work Kbuild
# does around each one (objtool, fixdep, a dozen processes) costs about
# 0.15 s per object here: a comment in list.h meant 1100 of them.
# Usage: checkout.sh [-d DIR] SRC REV
#   -d DIR  the lists 'deps' and 'verbatim' that kbuild-deps.sh wrote for
#           the build dir this tree is built into; only a file in deps and
#           not in verbatim keeps its time. Without -d: a plain checkout.
# The tree is forced to REV (local changes and untracked files go). A file
# keeps its time only if it is a regular file both before and after, and
# its text on disk before the checkout, whatever HEAD says, has the same
# tokens as after. Interrupted, files keep git's new times: Kbuild then
# rebuilds more, never less. Prints how many changed files kept their time.
# Exit: 0, 2 usage, 3 not a repository, 4 unknown revision, 9 internal.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n '3,19s/^# \{0,1\}//p' "$0"
}
[ "${1:-}" = --help ] && {
	usage
	exit 0
}
lists=''
while getopts d:h opt; do
	case $opt in
	d) lists=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || pb_die "$PB_USAGE" "expected SRC and REV (see --help)"
[ -z "$lists" ] || { [ -f "$lists/deps" ] && [ -f "$lists/verbatim" ]; } ||
	pb_die "$PB_USAGE" "no dependency lists (deps, verbatim) in '$lists'"
pb_need git gcc
src=$1
[ -d "$src/.git" ] || pb_die "$PB_NOTREPO" "$src is not a git checkout"
rev=$(pb_resolve_rev "$src" "$2") || exit

tmpd=$(mktemp -d) || pb_die "$PB_INTERNAL" "cannot create a temporary directory"
trap 'rm -rf "$tmpd"' EXIT

# The candidates: C files and headers that the build reads, not verbatim,
# modified between HEAD and REV. A tree without HEAD, or whose HEAD is gone
# (a regenerated lab), has none.
declare -A built=() verbatim=()
paths=() mtimes=()
if [ -n "$lists" ] && git -C "$src" cat-file -e "HEAD^{commit}" 2>/dev/null; then
	while IFS= read -r f; do
		built[$f]=1
	done <"$lists/deps"
	while IFS= read -r f; do
		verbatim[$f]=1
	done <"$lists/verbatim"
	git -C "$src" diff --no-renames --name-status -z HEAD "$rev" -- >"$tmpd/list" ||
		pb_die "$PB_INTERNAL" "git diff HEAD ${rev:0:12} failed in $src"
	while IFS= read -r -d '' status && IFS= read -r -d '' path; do
		[ "$status" = M ] || continue
		case $path in
		*.c | *.h) ;;
		*) continue ;;
		esac
		[ -n "${built[$path]:-}" ] && [ -z "${verbatim[$path]:-}" ] || continue
		f=$src/$path
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		i=${#paths[@]}
		m=$(stat -c %.9Y "$f") && pb_tokens "$f" >"$tmpd/$i" || continue
		paths+=("$path")
		mtimes+=("$m")
	done <"$tmpd/list"
fi

# Times set by an earlier run make the index's stat data stale, and a
# forced checkout would rewrite such files (a new time) though git has
# nothing to change in them: refresh it first, and again at the end.
git -C "$src" update-index -q --refresh >/dev/null
git -C "$src" checkout -q -f --detach "$rev" 2>"$tmpd/err" ||
	pb_die "$PB_INTERNAL" "checkout of ${rev:0:12} failed in $src: $(head -1 "$tmpd/err")"
git -C "$src" clean -q -f -f -d -x ||
	pb_die "$PB_INTERNAL" "cannot clean $src"

kept=0
for i in "${!paths[@]}"; do
	f=$src/${paths[$i]}
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	pb_tokens "$f" >"$tmpd/new" || continue
	cmp -s "$tmpd/$i" "$tmpd/new" || continue
	touch -m -d "@${mtimes[$i]}" "$f" ||
		pb_die "$PB_INTERNAL" "cannot set the time of $f"
	kept=$((kept + 1))
done
git -C "$src" update-index -q --refresh >/dev/null
echo "checked out ${rev:0:12}: $kept of ${#paths[@]} changed C files and headers kept their time (comments only)"
