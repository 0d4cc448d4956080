#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab.sh: generate the lab, a deterministic kernel git history over
# linux-source-6.1 in which exactly one commit brings back the 2.6.26-rc1
# semaphore/BKL regression. Bare repository: $PERFBISECT_HOME/lab/linux.git
#   good = v6.1 + patches/lab/0001..0003 (BKL, torture tests, stealing semaphore)
#   then patches/lab-history.tsv (harmless commits), with the culprit
#   (patches/lab/0004) and a commit that does not build (fixed by the next
#   one) at fixed positions; bad = the tip. small-bad: the same history
#   from good with patches/small/0001 (a 2-3% regression) as the culprit.
# Writes lab.json (good, bad, culprit, ...) next to the repository and inside
# it. Regenerating is idempotent: same inputs, same hashes, nothing redone.
# Usage: lab.sh [--print]    (prints the repository path)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# Positions, counted in history lines applied after "good": the culprit goes
# after line CULPRIT_AFTER, the build break after line BREAK_AFTER. With 41
# and 41 the culprit is commit 44 of 69, and a bisect meets the build break
# (commit 42) on its third step, so it must skip.
CULPRIT_AFTER=${PB_LAB_CULPRIT_AFTER:-41}
BREAK_AFTER=${PB_LAB_BREAK_AFTER:-41}
PATCHDIR=${PB_LAB_PATCHDIR:-$PB_TOP/patches/lab}
HISTORY=$PB_TOP/patches/lab-history.tsv
BASE_DATE=1671000000	# 2022-12-14, after the import's date

case ${1:-} in
-h | --help)
	sed -n '3,13s/^# \{0,1\}//p' "$0"
	exit 0
	;;
--print | "") ;;
*) pb_die "$PB_USAGE" "unknown argument '$1' (see --help)" ;;
esac

labdir="$PERFBISECT_HOME/lab"
repo="$labdir/linux.git"
base_patches=("$PATCHDIR"/0001-*.patch "$PATCHDIR"/0002-*.patch "$PATCHDIR"/0003-*.patch)
culprit_patch=("$PATCHDIR"/0004-*.patch)
small_patch=("$PB_TOP"/patches/small/0001-*.patch)
for p in "${base_patches[@]}" "${culprit_patch[@]}" "${small_patch[@]}" "$HISTORY"; do
	[ -f "$p" ] || pb_die "$PB_INTERNAL" "lab input missing: $p"
done
recipe=$(pb_file_sha "$0" "${base_patches[@]}" "${culprit_patch[@]}" "${small_patch[@]}" "$HISTORY")$CULPRIT_AFTER.$BREAK_AFTER

if [ "${1:-}" = --print ]; then
	[ -f "$labdir/lab.json" ] || pb_die "$PB_NOTOOL" "no lab yet: run 'make lab'"
	echo "$repo"
	exit 0
fi
if [ -f "$labdir/lab.json" ] && [ -d "$repo" ] && [ "$(jq -r .recipe "$labdir/lab.json" 2>/dev/null)" = "$recipe" ]; then
	echo "$repo"
	exit 0
fi

pb_need git jq flock
src=$("$PB_TOP/bisect/kernel-src.sh") || exit
mkdir -p "$labdir" || pb_die "$PB_INTERNAL" "cannot create $labdir"
pb_lock "$labdir/lock" "the lab generator"
start=$(pb_now)

tmp="$labdir/linux.git.new"
rm -rf "$tmp" "$labdir/work"
mkdir -p "$labdir/work" || pb_die "$PB_INTERNAL" "cannot create $labdir/work"
trap 'rm -rf "$tmp" "$labdir/work"' EXIT
trap 'exit $PB_INTERRUPTED' INT TERM
git clone -q --bare --shared "$src" "$tmp" || pb_die "$PB_INTERNAL" "cannot clone $src"
export GIT_DIR="$tmp"
export GIT_INDEX_FILE="$labdir/work/index"
git config gc.auto 0
git read-tree v6.1-debian || pb_die "$PB_INTERNAL" "cannot read the base tree"
head=$(git rev-parse "v6.1-debian^{commit}")
n=0

# commit_index SUBJECT BODY_FILE [AUTHOR EMAIL DATE]: commit the index on top
# of $head with a fixed committer and date; sets $head.
commit_index() {
	local tree when=$((BASE_DATE + n * 3600))
	n=$((n + 1))
	tree=$(git write-tree) || pb_die "$PB_INTERNAL" "git write-tree failed"
	head=$(GIT_AUTHOR_NAME=${3:-perfbisect lab} GIT_AUTHOR_EMAIL=${4:-lab@perfbisect.invalid} \
		GIT_AUTHOR_DATE=${5:-"@$when +0000"} \
		GIT_COMMITTER_NAME="perfbisect lab" GIT_COMMITTER_EMAIL=lab@perfbisect.invalid \
		GIT_COMMITTER_DATE="@$when +0000" \
		git commit-tree "$tree" -p "$head" -F <(printf '%s\n\n' "$1"; cat "$2")) ||
		pb_die "$PB_INTERNAL" "git commit-tree failed"
}

# apply_patch FILE: apply a mail-formatted patch to the index and commit it
# with the author, date and message it carries.
apply_patch() {
	local w="$labdir/work" author email date subject
	git mailinfo "$w/msg" "$w/diff" <"$1" >"$w/info" ||
		pb_die "$PB_INTERNAL" "$1 is not a mail-formatted patch"
	author=$(sed -n 's/^Author: //p' "$w/info")
	email=$(sed -n 's/^Email: //p' "$w/info")
	date=$(sed -n 's/^Date: //p' "$w/info")
	subject=$(sed -n 's/^Subject: //p' "$w/info")
	git apply --cached "$w/diff" 2>"$w/err" ||
		pb_die "$PB_INTERNAL" "${1##*/} does not apply: $(head -1 "$w/err")"
	commit_index "$subject" "$w/msg" "$author" "$email" "$date"
}

# edit PATH COUNT OLD NEW SUBJECT: replace the line OLD by NEW in PATH (COUNT
# 1: exactly one occurrence, g: all, at least one) and commit.
edit() {
	local w="$labdir/work" mode blob
	mode=$(git ls-files -s -- "$1" | cut -d' ' -f1)
	[ -n "$mode" ] || pb_die "$PB_INTERNAL" "lab history: no file $1"
	git cat-file blob ":$1" >"$w/old" || pb_die "$PB_INTERNAL" "cannot read $1"
	if ! awk -v old="$3" -v new="$4" -v count="$2" '
		$0 == old { $0 = new; hits++ }
		{ print }
		END { exit !(hits == 1 || (count == "g" && hits > 0)) }' "$w/old" >"$w/new"; then
		pb_die "$PB_INTERNAL" "lab history: '$3' not found (or not unique) in $1"
	fi
	blob=$(git hash-object -w "$w/new") &&
		git update-index --cacheinfo "$mode,$blob,$1" ||
		pb_die "$PB_INTERNAL" "cannot update $1"
	printf '%s\n' "${6:-No functional change.}" >"$w/body"
	commit_index "$5" "$w/body"
}

# history CULPRIT_PATCH: on top of $head, the harmless history with the
# build break after line BREAK_AFTER and CULPRIT_PATCH after line
# CULPRIT_AFTER; sets head, culprit, broken and fixed.
history() {
	local line=0 path count old new subject
	culprit='' broken='' fixed=''
	while IFS=$'\t' read -r path count old new subject; do
		case $path in
		'#'* | '') continue ;;
		esac
		edit "$path" "$count" "$old" "$new" "$subject"
		line=$((line + 1))
		if [ "$line" -eq "$BREAK_AFTER" ]; then
			edit kernel/panic.c 1 'static void do_oops_enter_exit(void)' \
				'static void oops_pause(void)' \
				'panic: rename do_oops_enter_exit() to oops_pause()' \
				'The helper only spins or pauses between oopses; name it for that.'
			broken=$head
			edit kernel/panic.c g '	do_oops_enter_exit();' '	oops_pause();' \
				'panic: fix build after the oops_pause() rename' \
				'The previous commit renamed the function but not its two callers.'
			fixed=$head
		fi
		if [ "$line" -eq "$CULPRIT_AFTER" ]; then
			apply_patch "$1"
			culprit=$head
		fi
	done <"$HISTORY"
	[ -n "$culprit" ] && [ -n "$broken" ] ||
		pb_die "$PB_INTERNAL" "lab history shorter than its insertion points"
}

pb_info "generating the lab history (about a minute)"
for p in "${base_patches[@]}"; do
	apply_patch "$p"
done
good=$head
history "${culprit_patch[0]}"
bad=$head lab_culprit=$culprit lab_broken=$broken lab_fixed=$fixed
# The small-regression scenario: the same history from good, with a
# culprit that costs 2-3% (patches/small) instead of the hand-off.
git read-tree "$good" || pb_die "$PB_INTERNAL" "cannot read the good tree"
head=$good
history "${small_patch[0]}"
small_bad=$head small_culprit=$culprit
culprit=$lab_culprit broken=$lab_broken fixed=$lab_fixed

git tag -f good "$good" >/dev/null && git tag -f bad "$bad" >/dev/null &&
	git tag -f small-bad "$small_bad" >/dev/null &&
	git update-ref refs/heads/master "$bad" && git symbolic-ref HEAD refs/heads/master ||
	pb_die "$PB_INTERNAL" "cannot tag the lab"
count=$(git rev-list --count "$good..$bad")
jq -n --arg recipe "$recipe" --arg repo "$repo" --arg good "$good" --arg bad "$bad" \
	--arg culprit "$culprit" --arg culprit_subject "$(git log -1 --format=%s "$culprit")" \
	--arg broken "$broken" --arg broken_fix "$fixed" --argjson commits "$count" \
	--argjson culprit_position "$(git rev-list --count "$good..$culprit")" \
	--arg small_bad "$small_bad" --arg small_culprit "$small_culprit" \
	--arg small_subject "$(git log -1 --format=%s "$small_culprit")" \
	'{recipe: $recipe, repo: $repo, good: $good, bad: $bad, culprit: $culprit,
	  culprit_subject: $culprit_subject, culprit_position: $culprit_position,
	  broken: $broken, broken_fix: $broken_fix, commits: $commits,
	  small: {good: $good, bad: $small_bad, culprit: $small_culprit, culprit_subject: $small_subject}}' >"$tmp/perfbisect-lab.json" ||
	pb_die "$PB_INTERNAL" "cannot write the lab description"
unset GIT_DIR GIT_INDEX_FILE

rm -rf "$repo.old"
[ -d "$repo" ] && mv "$repo" "$repo.old"
mv "$tmp" "$repo" || pb_die "$PB_INTERNAL" "cannot move the lab into place"
rm -rf "$repo.old"
pb_atomic_write "$labdir/lab.json" <"$repo/perfbisect-lab.json"
pb_info "lab: $count commits good..bad, culprit ${culprit:0:12} at $(jq .culprit_position "$labdir/lab.json"), in $(pb_elapsed "$start") s"
echo "$repo"
