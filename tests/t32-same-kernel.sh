#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t32-same-kernel.sh: same-kernel.sh tells a change that cannot alter the
# kernel (comments within a line, files outside the build) from one that
# can, and a bisect gives such commits the verdict of the kernel they
# repeat without measuring them. No kernel is built (stub measure).
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PB_MODE=wall PB_SEARCH=0 PERFBISECT_HOME=$T_TMP/home
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls
b=$T_TOP/bisect
sk=$b/stages/same-kernel.sh

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
# The lists kbuild-deps.sh would write for a build of the toy.
mkdir -p "$T_TMP/img"
printf 'include/sched.h\nkernel/sched.c\n' >"$T_TMP/img/deps"
: >"$T_TMP/img/verbatim"

sed -i 's|next task.  Cheap|next task. Cheap|' "$k/kernel/sched.c"
sed -i 's|// the first byte|// the very first byte|' "$k/kernel/sched.c"
sed -i 's|default  nice|default nice|' "$k/include/sched.h"
commit "$k" "comments only"
same "comments within their lines" 0 '^the same kernel: 2 files differ, 2 in comments only, 0 outside' -d "$T_TMP/img" HEAD~1 HEAD
same "a header's comments, without the dependency lists" 1 'include/sched.h is a header, and without the build.s dependency lists' HEAD~1 HEAD
echo 'include/sched.h' >"$T_TMP/img/verbatim"
same "the comments of a header a script reads" 1 'include/sched.h is read verbatim by the build' -d "$T_TMP/img" HEAD~1 HEAD
: >"$T_TMP/img/verbatim"
same "a commit against itself" 0 '^the same kernel: 0 files differ' HEAD HEAD

sed -i 's|/\* Pick the next task. Cheap. \*/|/*\n * Pick the next task. Cheap.\n */|' "$k/kernel/sched.c"
commit "$k" "a comment over three lines"
same "a comment that moves the lines below it (__LINE__ changes)" 1 '^not the same kernel: kernel/sched.c changes code$' HEAD~1 HEAD

# What the tokenizer alone would miss.
printf '#define NICE 11 /* default nice */\n' >"$k/include/sched.h"
commit "$k" "a macro's value"
same "a macro definition" 1 'include/sched.h changes code' -d "$T_TMP/img" HEAD~1 HEAD
printf '#define NICE 11 /* default nice */\n#pragma pack(1)\n' >"$k/include/sched.h"
commit "$k" "a pragma"
same "a pragma" 1 'include/sched.h changes code' -d "$T_TMP/img" HEAD~1 HEAD
printf 'int a; // note\nint x;\n' >"$k/kernel/splice.c"
printf 'kernel/splice.c\n' >>"$T_TMP/img/deps"
commit "$k" "a file with a comment"
printf 'int a; // note \\\nint x;\n' >"$k/kernel/splice.c"
commit "$k" "a backslash that makes the next line a comment"
same "a backslash at the end of a // comment" 1 'kernel/splice.c changes code' -d "$T_TMP/img" HEAD~1 HEAD
printf 'char *s = "abc \\\n/* def */ ghi";\n' >"$k/kernel/splice.c"
commit "$k" "a string over two lines"
printf 'char *s = "abc \\\n/* xyz */ ghi";\n' >"$k/kernel/splice.c"
commit "$k" "a change inside a spliced string"
same "a change inside a string spliced over two lines" 1 'kernel/splice.c changes code' -d "$T_TMP/img" HEAD~1 HEAD
printf 'char *s = "abc \\\n/* xyz */ ghi"; /* end  */\n' >"$k/kernel/splice.c"
commit "$k" "a comment after a spliced string"
same "a real comment after a spliced string" 0 '1 in comments only' -d "$T_TMP/img" HEAD~1 HEAD

sed -i 's|not /\* a comment \*/|not /* a remark */|' "$k/kernel/sched.c"
commit "$k" "a string that looks like a comment"
same "a change inside a string literal" 1 'kernel/sched.c changes code' HEAD~1 HEAD

sed -i 's|return a + s\[0\];|return a + s[1];|' "$k/kernel/sched.c"
commit "$k" "code"
same "a code change" 1 'kernel/sched.c changes code' HEAD~1 HEAD

printf 'int unused(void) { return 2; }\n' >"$k/drivers/unused.c"
commit "$k" "a file the build does not read"
same "code outside the dependency list" 0 'the same kernel: 1 files differ, 0 in comments only, 1 outside the build' -d "$T_TMP/img" HEAD~1 HEAD
same "the same change without a dependency list counts as built" 1 'drivers/unused.c changes code' HEAD~1 HEAD

printf 'Scheduler notes, longer.\n' >"$k/Documentation/sched.rst"
printf 'int new(void) { return 3; }\n' >"$k/drivers/new.c"
commit "$k" "documentation and a new file"
same "documentation and a new file the build does not read" 0 '2 files differ, 0 in comments only, 2 outside the build' -d "$T_TMP/img" HEAD~1 HEAD
same "a new C file with no dependency list" 1 'drivers/new.c is added, removed' HEAD~1 HEAD
printf 'int n;\n' >"$k/kernel/new.c"
commit "$k" "a new file next to a built one"
same "a new file in a directory the build reads" 1 'kernel/new.c is added or removed next to' -d "$T_TMP/img" HEAD~1 HEAD
mkdir -p "$k/include/linux"
printf 'int n;\n' >"$k/include/linux/shadow.h"
commit "$k" "a new header"
same "a new header under include/" 1 'include/linux/shadow.h is added or removed under an include directory' -d "$T_TMP/img" HEAD~1 HEAD
printf 'config FOO\n\tbool\n' >"$k/Documentation/Kconfig"
commit "$k" "Documentation/Kconfig"
same "Documentation/Kconfig, which the top Kconfig sources" 1 'Documentation/Kconfig is a build file' -d "$T_TMP/img" HEAD~1 HEAD

printf 'obj-y += sched.o other.o\n' >"$k/kernel/Makefile"
commit "$k" "Makefile"
same "a Makefile change" 1 'kernel/Makefile is not C source' -d "$T_TMP/img" HEAD~1 HEAD

printf 'int objtool(void) { return 1; }\n' >"$k/tools/objtool/check.c"
commit "$k" "objtool"
same "a change to the build tools" 1 'tools/objtool/check.c is part of the build tools' -d "$T_TMP/img" HEAD~1 HEAD

git -C "$k" rm -q include/sched.h && commit "$k" "remove a header"
same "a header the build reads is removed" 1 'include/sched.h is added, removed or changed in type, and the build reads it' -d "$T_TMP/img" HEAD~1 HEAD

run_rc "$sk" -d "$T_TMP/nowhere" "$k" HEAD~1 HEAD
is "$rc:$(wc -l <"$T_TMP/err")" "2:1" "missing dependency lists: exit 2, one line"
run_rc "$sk" "$k" HEAD no-such-rev
is "$rc:$(wc -l <"$T_TMP/err")" "4:1" "an unknown revision: exit 4, one line"
run_rc "$sk" "$T_TMP/nowhere" HEAD HEAD
is "$rc:$(wc -l <"$T_TMP/err")" "3:1" "not a repository: exit 3, one line"
run_rc "$sk" "$k" HEAD
is "$rc:$(wc -l <"$T_TMP/err")" "2:1" "too few arguments: exit 2, one line"

# kbuild-deps.sh on a made-up O= directory: a compile, a script that reads
# a header, a linker script preprocessed with -C, a symlinked header.
kb=$T_TMP/kb
mkdir -p "$kb/src/kernel" "$kb/src/include/linux" "$kb/src/arch/x86/include/asm" "$kb/src/scripts" "$kb/o/kernel"
touch "$kb/src/kernel/fork.c" "$kb/src/include/linux/list.h" "$kb/src/include/linux/real.h" \
	"$kb/src/arch/x86/include/asm/cpufeatures.h" "$kb/src/scripts/mkcap.sh" "$kb/src/kernel/vm.lds.S" \
	"$kb/src/include/linux/lds.h"
ln -s real.h "$kb/src/include/linux/link.h"
cat >"$kb/o/kernel/.fork.o.cmd" <<CMD
cmd_kernel/fork.o := ccache gcc -Wp,-MMD,kernel/.fork.o.d -I$kb/src/include -include $kb/src/include/linux/list.h -c -o kernel/fork.o ../src/kernel/fork.c

source_kernel/fork.o := ../src/kernel/fork.c

deps_kernel/fork.o := \\
    \$(wildcard include/config/MMU) \\
  ../src/include/linux/list.h \\
  $kb/src/arch/x86/include/asm/../../../../include/linux/link.h \\

kernel/fork.o: \$(deps_kernel/fork.o)
CMD
printf 'cmd_kernel/capflags.c := sh %s/src/scripts/mkcap.sh kernel/capflags.c %s/src/arch/x86/include/asm/cpufeatures.h FORCE\n' \
	"$kb" "$kb" >"$kb/o/kernel/.capflags.c.cmd"
cat >"$kb/o/kernel/.vm.lds.cmd" <<CMD
cmd_kernel/vm.lds := gcc -E -P -C -Ux86_64 -o kernel/vm.lds ../src/kernel/vm.lds.S

source_kernel/vm.lds := ../src/kernel/vm.lds.S

deps_kernel/vm.lds := \\
  ../src/include/linux/lds.h \\

CMD
run_rc "$b/stages/kbuild-deps.sh" -o "$kb" "$kb/o" "$kb/src"
is "$rc" 0 "kbuild-deps: exit 0"
is "$(tr '\n' ' ' <"$kb/deps")" "arch/x86/include/asm/cpufeatures.h include/linux/lds.h include/linux/link.h include/linux/list.h include/linux/real.h kernel/fork.c kernel/vm.lds.S scripts/mkcap.sh " \
	"kbuild-deps: every file named, absolute or relative to O=, dir/../ folded, a symlink and its target"
is "$(tr '\n' ' ' <"$kb/verbatim")" "arch/x86/include/asm/cpufeatures.h include/linux/lds.h include/linux/list.h kernel/vm.lds.S scripts/mkcap.sh " \
	"kbuild-deps: verbatim: a script's inputs, what cpp -C read, a forced include; not the compiled source"
run_rc "$b/stages/kbuild-deps.sh" -o "$kb" "$kb/src" "$kb/src"
is "$rc:$(wc -l <"$T_TMP/err")" "9:1" "kbuild-deps: no .cmd files: exit 9, one line"

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
