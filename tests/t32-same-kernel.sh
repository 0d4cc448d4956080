#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t32-same-kernel.sh: same-kernel.sh tells a change that cannot alter the
# kernel (comments within a line, files outside the build) from one that
# can, and a bisect gives such commits the verdict of the kernel they
# repeat without measuring them. No kernel is built (stub measure).
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PERFBISECT_HOME=$T_TMP/home
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls
b=$T_TOP/bisect
sk=$b/same-kernel.sh

# commit REPO MESSAGE: commit everything in REPO at a fixed date.
n_commit=0
commit() {
	n_commit=$((n_commit + 1))
	git -C "$1" add -A &&
		GIT_AUTHOR_DATE="@$((1600000000 + n_commit * 60)) +0000" GIT_COMMITTER_DATE="@$((1600000000 + n_commit * 60)) +0000" \
			git -C "$1" -c user.name=Toy -c user.email=toy@example.invalid commit -qm "$2"
}
# same DESC WANT_CODE WANT_REGEX [-d DEPS] REF REV: run same-kernel.sh on the toy.
same() {
	local desc=$1 want=$2 re=$3
	shift 3
	run_rc "$sk" "${@:1:$#-2}" "$k" "${@: -2:1}" "${@: -1}"
	is "$rc" "$want" "$desc: exit $want"
	like "$(cat "$T_TMP/out")" "$re" "$desc: says why"
}

k=$T_TMP/k
mkdir -p "$k/kernel" "$k/include" "$k/drivers" "$k/tools/objtool" "$k/Documentation"
cat >"$k/kernel/sched.c" <<'C'
#include "../include/sched.h"
/* Pick the next task.  Cheap. */
int pick(int a)
{
	const char *s = "not /* a comment */";

	return a + s[0]; // the first byte
}
C
printf '#define NICE 10 /* default  nice */\n' >"$k/include/sched.h"
printf 'int unused(void) { return 1; }\n' >"$k/drivers/unused.c"
printf 'int objtool(void) { return 0; }\n' >"$k/tools/objtool/check.c"
printf 'obj-y += sched.o\n' >"$k/kernel/Makefile"
printf 'Scheduler notes.\n' >"$k/Documentation/sched.rst"
git init -q "$k" && commit "$k" base
printf 'kernel/sched.c\ninclude/sched.h\n' >"$T_TMP/deps"

sed -i 's|next task.  Cheap|next task. Cheap|' "$k/kernel/sched.c"
sed -i 's|// the first byte|// the very first byte|' "$k/kernel/sched.c"
sed -i 's|default  nice|default nice|' "$k/include/sched.h"
commit "$k" "comments only"
same "comments within their lines" 0 '^the same kernel: 2 files differ, 2 in comments only, 0 outside' HEAD~1 HEAD
same "comments, with the dependency list" 0 'the same kernel: 2 files differ, 2 in comments only' -d "$T_TMP/deps" HEAD~1 HEAD
same "a commit against itself" 0 '^the same kernel: 0 files differ' HEAD HEAD

sed -i 's|/\* Pick the next task. Cheap. \*/|/*\n * Pick the next task. Cheap.\n */|' "$k/kernel/sched.c"
commit "$k" "a comment over three lines"
same "a comment that moves the lines below it (__LINE__ changes)" 1 '^not the same kernel: kernel/sched.c changes code$' HEAD~1 HEAD

sed -i 's|not /\* a comment \*/|not /* a remark */|' "$k/kernel/sched.c"
commit "$k" "a string that looks like a comment"
same "a change inside a string literal" 1 'kernel/sched.c changes code' HEAD~1 HEAD

sed -i 's|return a + s\[0\];|return a + s[1];|' "$k/kernel/sched.c"
commit "$k" "code"
same "a code change" 1 'kernel/sched.c changes code' HEAD~1 HEAD

printf 'int unused(void) { return 2; }\n' >"$k/drivers/unused.c"
commit "$k" "a file the build does not read"
same "code outside the dependency list" 0 'the same kernel: 1 files differ, 0 in comments only, 1 outside the build' -d "$T_TMP/deps" HEAD~1 HEAD
same "the same change without a dependency list counts as built" 1 'drivers/unused.c changes code' HEAD~1 HEAD

printf 'Scheduler notes, longer.\n' >"$k/Documentation/sched.rst"
printf 'int new(void) { return 3; }\n' >"$k/drivers/new.c"
commit "$k" "documentation and a new file"
same "documentation and a new file the build does not read" 0 '2 files differ, 0 in comments only, 2 outside the build' -d "$T_TMP/deps" HEAD~1 HEAD
same "a new C file with no dependency list" 1 'drivers/new.c is added or removed' HEAD~1 HEAD

printf 'obj-y += sched.o other.o\n' >"$k/kernel/Makefile"
commit "$k" "Makefile"
same "a Makefile change" 1 'kernel/Makefile is not C source' -d "$T_TMP/deps" HEAD~1 HEAD

printf 'int objtool(void) { return 1; }\n' >"$k/tools/objtool/check.c"
commit "$k" "objtool"
same "a change to the build tools" 1 'tools/objtool/check.c is part of the build tools' -d "$T_TMP/deps" HEAD~1 HEAD

git -C "$k" rm -q include/sched.h && commit "$k" "remove a header"
same "a header the build reads is removed" 1 'include/sched.h is added or removed and the build reads it' -d "$T_TMP/deps" HEAD~1 HEAD

run_rc "$sk" -d "$T_TMP/nowhere" "$k" HEAD~1 HEAD
is "$rc:$(wc -l <"$T_TMP/err")" "2:1" "a missing dependency list: exit 2, one line"
run_rc "$sk" "$k" HEAD no-such-rev
is "$rc:$(wc -l <"$T_TMP/err")" "4:1" "an unknown revision: exit 4, one line"
run_rc "$sk" "$T_TMP/nowhere" HEAD HEAD
is "$rc:$(wc -l <"$T_TMP/err")" "3:1" "not a repository: exit 3, one line"
run_rc "$sk" "$k" HEAD
is "$rc:$(wc -l <"$T_TMP/err")" "2:1" "too few arguments: exit 2, one line"

# A toy history: 31 commits that each change a comment in a C file; commit
# 10 changes code but not the speed, commit 19 (the culprit) the speed.
toy=$T_TMP/toy
mkdir -p "$toy"
git init -q "$toy"
echo 1000 >"$toy/speed"
for i in $(seq 0 30); do
	[ "$i" -eq 19 ] && echo 400 >"$toy/speed"
	{
		echo "/* Change  $i. */"
		[ "$i" -ge 10 ] && echo 'int x = 1;'
		echo 'int main(void) { return 0; }'
	} >"$toy/main.c"
	commit "$toy" "toy: change $i"
done
culprit=$(git -C "$toy" rev-parse HEAD~11)
parent=$(git -C "$toy" rev-parse HEAD~12)
latest=$PERFBISECT_HOME/runs/latest
# bisect_toy ENV...: bisect the toy from scratch with ENV set.
bisect_toy() {
	rm -rf "$PERFBISECT_HOME/bisect" "$PERFBISECT_HOME/results"
	: >"$STUB_LOG"
	run_rc env "$@" "$b/bisect.sh" -t "$toy" -g HEAD~30 -b HEAD -e 6 -n 4 -i 4 -N 8
}
bisect_toy
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "same kernel on: exact culprit"
same_steps=$(jq .same_kernel_steps "$latest/summary.json")
steps=$(jq .steps "$latest/summary.json")
like "$same_steps of $steps" '^[1-9][0-9]* of [0-9]+$' "same kernel on: some steps took a known kernel's verdict"
# Only the ends, the culprit and its parent (the confirmation), and the
# commits of the code change (9..18) can ever be booted.
booted=$(sort -u "$STUB_LOG" | wc -l)
unexpected=$(sort -u "$STUB_LOG" | while read -r c; do
	n=$(git -C "$toy" rev-list --count "$c..HEAD")
	case $n in 0 | 11 | 12 | 30 | 1[3-9] | 2[01]) ;; *) echo "HEAD~$n" ;; esac
done)
is "$unexpected" "" "same kernel on: no commit that repeats a known kernel was booted ($booted kernels booted)"
like "$(cat "$latest/progress.txt")" 'same kernel as [0-9a-f]{12} \(1 files differ, 1 in comments only, 0 outside the build\): (good|bad)' \
	"same kernel on: the progress line names the known kernel and why"
is "$(jq -r --arg c "$culprit" --arg p "$parent" 'select(.same_kernel_as != null and .commit != $c and .commit != $p) | .samples | length' \
	"$latest/results.jsonl" | sort -u)" 0 "same kernel on: those steps have no samples in results.jsonl (but the confirmation's)"
like "$(cat "$latest/table.txt")" '(good|bad)= ' "same kernel on: table.txt marks them"
booted_on=$(sort -u "$STUB_LOG" | wc -l)

bisect_toy PB_SAME_KERNEL=0
is "$rc:$(jq -r .culprit "$latest/summary.json")" "0:$culprit" "same kernel off: exact culprit"
is "$(jq .same_kernel_steps "$latest/summary.json")" 0 "same kernel off: no step took a known kernel's verdict"
booted_off=$(sort -u "$STUB_LOG" | wc -l)
if [ "$booted_off" -gt "$booted_on" ]; then
	pass "same kernel off: more kernels booted ($booted_off against $booted_on)"
else
	fail "same kernel off: more kernels booted ($booted_off against $booted_on)"
fi
run_rc env PB_SAME_KERNEL=2 "$b/bisect.sh" -t "$toy" -g HEAD~30 -b HEAD
is "$rc:$(wc -l <"$T_TMP/err")" "2:1" "PB_SAME_KERNEL=2: exit 2, one line"
done_testing
