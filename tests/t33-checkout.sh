#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t33-checkout.sh: checkout.sh gives back their old times to the C files and
# headers whose change the compiler cannot see, and to no other file, so
# make rebuilds exactly what a change in code reaches. A toy tree with a
# Makefile stands in for Kbuild; no kernel is built.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
co=$T_TOP/bisect/stages/checkout.sh

n_commit=0
commit() {
	n_commit=$((n_commit + 1))
	git -C "$repo" add -A &&
		GIT_AUTHOR_DATE="@$((1600000000 + n_commit * 60)) +0000" GIT_COMMITTER_DATE="@$((1600000000 + n_commit * 60)) +0000" \
			git -C "$repo" -c user.name=Toy -c user.email=toy@example.invalid commit -qm "$1" &&
		git -C "$repo" tag "c$n_commit"
}
mtime() {
	stat -c %.9Y "$src/$1"
}
# build: run make in the checkout, objects out of tree as with O=;
# $T_TMP/out lists what it recompiled.
build() {
	mkdir -p "$T_TMP/obj" && make -s -C "$src" O="$T_TMP/obj" >"$T_TMP/out" 2>&1
	rc=$?
}

repo=$T_TMP/repo
mkdir -p "$repo/include" "$repo/kernel"
printf '/* list  helpers */\n#define LEN 3\n' >"$repo/include/list.h"
printf '#define NICE 10 /* default */\n' >"$repo/include/sched.h"
printf '#include "../include/list.h"\nint a = LEN; /* a  */\n' >"$repo/kernel/a.c"
printf '#include "../include/sched.h"\nint b = NICE;\n' >"$repo/kernel/b.c"
printf '#include "../include/list.h"\n' >"$repo/kernel/c.c"
printf 'an  old note\n' >"$repo/kernel/notes.txt"
cat >"$repo/Makefile" <<'MK'
all: $(O)/a.o $(O)/b.o $(O)/c.o
$(O)/a.o: kernel/a.c include/list.h
	@echo a; touch $@
$(O)/b.o: kernel/b.c include/sched.h
	@echo b; touch $@
$(O)/c.o: kernel/c.c include/list.h
	@echo c; touch $@
MK
git init -q "$repo" && commit base
# c2: comments only in list.h and a.c, code in sched.h, a line moved down
# in c.c (__LINE__ changes) and a change to a file that is not C.
sed -i 's|list  helpers|list helpers|' "$repo/include/list.h"
sed -i 's|/\* a  \*/|/* a */|' "$repo/kernel/a.c"
sed -i 's|NICE 10|NICE 11|' "$repo/include/sched.h"
printf '\n#include "../include/list.h"\n' >"$repo/kernel/c.c"
printf 'a new note\n' >"$repo/kernel/notes.txt"
commit change
# c3: code in b.c only.
printf '#include "../include/sched.h"\nint b = NICE + 1;\n' >"$repo/kernel/b.c"
commit "b.c only"
lists=$T_TMP/lists
mkdir -p "$lists"
printf '%s\n' include/list.h include/sched.h kernel/a.c kernel/b.c kernel/c.c >"$lists/deps"
: >"$lists/verbatim"

src=$T_TMP/src
git clone -q --shared --no-checkout "$repo" "$src"
run_rc "$co" -d "$lists" "$src" c1
is "$rc" 0 "first checkout: exit 0"
like "$(cat "$T_TMP/out")" '^checked out [0-9a-f]{12}: 0 of 0 changed' "first checkout: nothing to keep"
build
is "$(sort "$T_TMP/out" | tr '\n' ' ')" "a b c " "first build compiles everything"
# Out of git's racy window (same second as the index): then only the stat
# data tells it whether a file is as checked out.
sleep 1.1
before_list=$(mtime include/list.h) before_a=$(mtime kernel/a.c) before_notes=$(mtime kernel/notes.txt)

run_rc "$co" -d "$lists" "$src" c2
is "$rc" 0 "checkout of a change: exit 0"
like "$(cat "$T_TMP/out")" ': 2 of 4 changed C files and headers kept their time' "says how many files kept their time"
is "$(git -C "$src" rev-parse HEAD)" "$(git -C "$repo" rev-parse c2)" "HEAD is the revision asked for"
is "$(cat "$src/include/list.h")" "$(git -C "$repo" show c2:include/list.h)" "the new text is in place"
is "$(mtime include/list.h)" "$before_list" "a header changed in comments keeps its time"
is "$(mtime kernel/a.c)" "$before_a" "a C file changed in comments keeps its time"
[ "$(mtime kernel/notes.txt)" != "$before_notes" ] && pass "a file that is not C gets a new time" || fail "a file that is not C gets a new time"
build
is "$(sort "$T_TMP/out" | tr '\n' ' ')" "b c " "make rebuilds what the code change and the moved line reach, not the comment changes"
is "$(git -C "$src" status --porcelain)" "" "git sees a clean tree"

# The kept times stay kept: the index does not make a forced checkout
# rewrite files it has nothing to change in.
sleep 1.1
run_rc "$co" -d "$lists" "$src" c3
build
is "$(cat "$T_TMP/out")" "b" "then a change to b.c rebuilds b only"
is "$(mtime include/list.h)" "$before_list" "list.h, the same in both, keeps the time it kept"
run_rc "$co" -d "$lists" "$src" c1
build
is "$(sort "$T_TMP/out" | tr '\n' ' ')" "b c " "back to the base: only b and c again"
is "$(mtime include/list.h)" "$before_list" "list.h still has its first time"

# Without lists, or with the header read verbatim, nothing keeps its time.
sleep 0.01
run_rc "$co" "$src" c2
like "$(cat "$T_TMP/out")" ': 0 of 0 changed' "without -d: a plain checkout"
[ "$(mtime include/list.h)" != "$before_list" ] && pass "without -d a comment change gets a new time" || fail "without -d a comment change gets a new time"
build
is "$(sort "$T_TMP/out" | tr '\n' ' ')" "a b c " "and make rebuilds everything"
echo include/list.h >"$lists/verbatim"
t=$(mtime include/list.h)
sleep 0.01
run_rc "$co" -d "$lists" "$src" c1
like "$(cat "$T_TMP/out")" ': 1 of 3 changed' "a verbatim header is not a candidate"
[ "$(mtime include/list.h)" != "$t" ] && pass "a verbatim header gets a new time" || fail "a verbatim header gets a new time"
: >"$lists/verbatim"

# A local edit on disk is what the objects were built from: the comparison
# is with the file as it was, not with HEAD.
build
t=$(mtime include/list.h)
printf '/* list  helpers */\n#define LEN 4\n' >"$src/include/list.h"
build
sleep 0.01
run_rc "$co" -d "$lists" "$src" c2
[ "$(mtime include/list.h)" != "$t" ] && pass "a header edited on disk gets a new time" || fail "a header edited on disk gets a new time"
build
is "$(sort "$T_TMP/out" | tr '\n' ' ')" "a b c " "and what includes it is rebuilt"

run_rc "$co" -d "$lists" "$src" no-such-rev
is "$rc" 4 "an unknown revision: exit 4"
run_rc "$co" -d "$T_TMP/nowhere" "$src" c1
is "$rc" 2 "missing lists: exit 2"
run_rc "$co" -d "$lists" "$T_TMP/nowhere" c1
is "$rc" 3 "not a checkout: exit 3"
done_testing
