#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t60-lab.sh: the lab: generated deterministically (recorded hashes), quick
# and idempotent to regenerate; every patch applies with git am; the
# semaphore and BKL torture, booted in QEMU, passes on good, bad, bad + fix A
# and bad + fix B, catches the straight port of the seed patch, and catches
# a BKL that counts its depth wrong or keeps the lock in schedule(), with
# the semaphore BKL and with fix B's spinning one; a patched commit builds
# in the lab's own checkout and build dir. Builds kernels.
# Needs: a kernel build and boot (tests/run skips it with PB_SKIP_KERNEL=1)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../bisect/lib.sh
. "$T_TOP/bisect/lib.sh"
b=$T_TOP/bisect
export PB_QUIET=1

# Recorded once; the same on every machine (fixed authors, committers, dates).
GOOD=3225fc82b4e967fa5661f84e01d24ecd750a4b41
BAD=7d909d403e54a654ee3cbdc603caa80f8035aeba
CULPRIT=c0377823fe317a01d8fdbe656fbff1774eaece3b

lab=$("$b/lab.sh") || {
	fail "lab generation"
	done_testing
	exit
}
desc=$(dirname "$lab")/lab.json
is "$(git --git-dir="$lab" rev-parse good)" "$GOOD" "good has the recorded hash"
is "$(git --git-dir="$lab" rev-parse bad)" "$BAD" "bad has the recorded hash"
is "$(jq -r .culprit "$desc")" "$CULPRIT" "lab.json names the recorded culprit"
is "$(jq -r .culprit "$lab/perfbisect-lab.json")" "$CULPRIT" "the description inside the repository agrees"
n=$(git --git-dir="$lab" rev-list --count good..bad)
[ "$n" -ge 64 ] && pass "$n commits between good and bad (>= 64)" || fail "at least 64 commits ($n)"
pos=$(jq .culprit_position "$desc")
[ $((pos & (pos - 1))) -ne 0 ] && pass "culprit position $pos is not a power of two" || fail "culprit position $pos"
is "$(git --git-dir="$lab" log -1 --format=%s "$CULPRIT")" "semaphore: hand off ownership to the woken waiter" "culprit subject"
files=$(git --git-dir="$lab" log --format= --name-only good..bad | sort -u | wc -l)
[ "$files" -ge 60 ] && pass "history touches $files different files" || fail "history spread over files ($files)"
like "$(git --git-dir="$lab" log --format= --name-only good..bad)" 'include/linux/(list|kernel|slab|mm)\.h' "history touches widely included headers"
start=$SECONDS
again=$("$b/lab.sh")
is "$again:$(git --git-dir="$lab" rev-parse bad)" "$lab:$BAD" "regenerating is idempotent"
[ $((SECONDS - start)) -lt 10 ] && pass "regenerating an up-to-date lab is quick" || fail "regenerating is quick"

# Every patch applies with git am, in series and each fix on top of bad.
src=$("$b/kernel-src.sh")
am=$T_TMP/am
git clone -q --shared "$src" "$am" && git -C "$am" checkout -q -b am v6.1-debian
amq() { git -C "$am" -c user.name=t -c user.email=t@t am -q "$@" >"$T_TMP/am.log" 2>&1; }
if amq "$T_TOP"/patches/lab/000[1-4]-*.patch; then pass "patches/lab/0001-0004 apply with git am"; else fail "lab patches apply with git am"; fi
tip=$(git -C "$am" rev-parse HEAD)
for p in "$T_TOP"/patches/fixes/*.patch "$T_TOP"/patches/test/*.patch; do
	git -C "$am" reset -q --hard "$tip"
	if amq "$p"; then pass "${p##*/} applies with git am on good + culprit"; else fail "${p##*/} applies"; fi
	git -C "$am" am --abort >/dev/null 2>&1
done
for p in "$T_TOP"/patches/fixes/*.patch "$T_TOP"/patches/test/*.patch; do
	if GIT_DIR=$lab GIT_INDEX_FILE=$T_TMP/idx git read-tree bad &&
		GIT_DIR=$lab GIT_INDEX_FILE=$T_TMP/idx git apply --cached --check "$p"; then
		pass "${p##*/} applies on the lab's bad"
	else
		fail "${p##*/} applies on the lab's bad"
	fi
done

# The torture tests, booted: pass on good, bad, bad + fix A, bad + fix B;
# the straight port of the seed patch and the broken BKLs must be caught.
vrepo=$T_TMP/v
pb_patch_repo "$lab" "$vrepo"
fixa=$(pb_commit_patch "$vrepo" bad "$T_TOP/patches/fixes/fix-a-semaphore-lock-stealing.patch")
fixb=$(pb_commit_patch "$vrepo" bad "$T_TOP/patches/fixes/fix-b-spinlock-bkl.patch")
straight=$(pb_commit_patch "$vrepo" bad "$T_TOP/patches/test/straight-port-of-seed-patch.patch")
for k in "good $lab good" "bad $lab bad" "fix-A $vrepo $fixa" "fix-B $vrepo $fixb"; do
	read -r name repo rev <<<"$k"
	run_rc "$b/torture.sh" "$repo" "$rev"
	is "$rc:$(cat "$T_TMP/out")" "0:pass" "semaphore and BKL torture pass on $name"
done
run_rc "$b/torture.sh" "$vrepo" "$straight"
is "$rc" 1 "semaphore torture fails on the straight port of the seed patch"
like "$(cat "$T_TMP/out")" '^fail: ' "and says why: $(cut -c1-80 "$T_TMP/out")"
# Each broken BKL, on the semaphore BKL (bad) and on fix B's spinlock.
for p in bkl-depth-off-by-one bkl-no-release-in-schedule; do
	for base in "bad bad" "fix-B $fixb"; do
		read -r name rev <<<"$base"
		broken=$(pb_commit_patch "$vrepo" "$rev" "$T_TOP/patches/test/$p.patch")
		run_rc "$b/torture.sh" "$vrepo" "$broken"
		is "$rc" 1 "BKL torture fails on $p over $name"
		like "$(cat "$T_TMP/out")" '^fail: .*(bkl-torture|soft lockup)' "$p over $name: $(cut -c1-90 "$T_TMP/out")"
	done
done

# A patched commit (here one of this run's own, so that it is built)
# builds in the lab's checkout and build dir, which pb_patch_repo names,
# not in a checkout of its own. (How much it compiles there depends on
# what that build dir and checkout built last: from 10 files to some
# 1150 through ccache, so the count is not a check.)
blob=$( (git --git-dir="$vrepo" show bad:init/version.c && echo "int perfbisect_t60_$$_$(date +%s);") |
	git --git-dir="$vrepo" hash-object -w --stdin)
GIT_DIR=$vrepo GIT_INDEX_FILE=$T_TMP/mk.idx git read-tree bad &&
	GIT_DIR=$vrepo GIT_INDEX_FILE=$T_TMP/mk.idx git update-index --cacheinfo "100644,$blob,init/version.c"
mk=$(GIT_DIR=$vrepo GIT_INDEX_FILE=$T_TMP/mk.idx git -c user.name=t -c user.email=t@t \
	commit-tree "$(GIT_DIR=$vrepo GIT_INDEX_FILE=$T_TMP/mk.idx git write-tree)" -p bad -m "t60: a marker")
touch "$T_TMP/mk.stamp"
sleep 1
run_rc "$b/build.sh" -c torture -l "$T_TMP/mk" "$vrepo" "$mk"
is "$rc" 0 "a commit of the patch repository builds"
[ ! -e "$PERFBISECT_HOME/trees/$(pb_sha "$vrepo")" ] && pass "it has no checkout of its own" ||
	fail "it has a checkout of its own"
labtop=$PERFBISECT_HOME/trees/$(pb_sha "$lab")
is "$(git -C "$labtop/src" rev-parse HEAD 2>/dev/null)" "$mk" "it is checked out in the lab's checkout"
mkbdir=$labtop/build-$(jq -r .config_hash "$T_TMP/mk/build.json" 2>/dev/null)
if [ "$mkbdir/last-build.log" -nt "$T_TMP/mk.stamp" ] && grep -q ' init/version\.o$' "$mkbdir/last-build.log"; then
	pass "it builds in the lab's build dir (${mkbdir##*/})"
else
	fail "it builds in the lab's build dir: $mkbdir/last-build.log is older than the build or has no init/version.o"
fi
# The marker's image is of no use to anyone after this run.
mkart=$("$b/build.sh" -n -c torture "$vrepo" "$mk") && [ -f "$mkart/bzImage" ] && rm -rf "$mkart" &&
	pass "the marker's image is removed ($mkart)" || fail "the marker's image is removed (${mkart:-no artifact dir})"
done_testing
