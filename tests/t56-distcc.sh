#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t56-distcc.sh: distributed builds (perfbisect --distcc, PB_DISTCC): a
# real distccd on 127.0.0.1 (a port of its own, localhost only) compiles
# for build.sh the objects of vanilla 6.1's kernel/ that the test removed
# from the build dir, ccache told not to answer (CCACHE_RECACHE); its log
# shows the compiles, and the bzImage is byte for byte the local build's.
# Hosts that do not answer are left out, with a message; none: local.
# About two minutes when t50 left the build dir (a whole cold build
# through distcc, 8-10 minutes here, adds nothing the partial one does not
# test).
# Needs: a kernel build and boot (tests/run skips it with PB_SKIP_KERNEL=1)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
. "$T_TOP/bisect/lib.sh"
b=$T_TOP/bisect
PB_QUIET=1
export PB_QUIET

# --- hosts that do not answer (kernel-free) ----------------------------
is "$(pb_distcc_hosts "127.0.0.1:1/4 127.0.0.1:x" 2>"$T_TMP/err")" "" "no host answers: none is used"
like "$(cat "$T_TMP/err")" 'distcc host 127\.0\.0\.1:1/4 does not answer: left out' "a silent host is named"
like "$(cat "$T_TMP/err")" "distcc host '127\\.0\\.0\\.1:x' is not HOST\\[:PORT\\]\\[/LIMIT\\]" "a malformed host is named"
is "$(pb_distcc_slots "a/4 b c:1/8")" 14 "slots: the limits, 2 where none is given"
run_rc "$b/perfbisect" bisect --distcc
is "$rc" 2 "perfbisect --distcc without HOSTS: usage error"

src=$("$b/kernel-src.sh") || {
	fail "kernel source import"
	done_testing
	exit
}
command -v distccd >/dev/null || {
	fail "distccd is installed (make deps)"
	done_testing
	exit
}
# The local build to compare with (cached after t50).
run_rc "$b/build.sh" "$src" v6.1-debian
is "$rc" 0 "vanilla 6.1 builds locally"
art0=$(cat "$T_TMP/out")
want=$(jq -r .bzimage_sha256 "$art0/build.json")

# A distccd of this test's own, stopped at the end whatever happens: in
# the foreground of a session of its own, so that killing its process
# group stops the workers it forks too.
port=$((36000 + $$ % 2000))
# distccd writes its log as its own user (distccd, when started by root).
chmod 711 "$T_TMP" && touch "$T_TMP/distccd.log" && chmod 666 "$T_TMP/distccd.log"
setsid distccd --no-detach --daemon --allow 127.0.0.1 --listen 127.0.0.1 --port "$port" --jobs 2 \
	--log-file "$T_TMP/distccd.log" --log-level info &
dpid=$!
# shellcheck disable=SC2064
trap "kill -- -$dpid 2>/dev/null; rm -rf '$T_TMP'" EXIT
for _ in 1 2 3 4 5 6 7 8 9 10; do
	[ -n "$(pb_distcc_hosts "127.0.0.1:$port" 2>/dev/null)" ] && break
	sleep 0.5
done
is "$(pb_distcc_hosts "127.0.0.1:$port/2" 2>/dev/null)" "127.0.0.1:$port/2" "the test's distccd answers"

# The local build again, with its objects of kernel/ removed and its
# image put aside (and back, if this build fails): make recompiles just
# those, and CCACHE_RECACHE=1 keeps ccache from answering, so each goes
# to distcc. The same PERFBISECT_HOME: ccache rewrites the paths under it
# (CCACHE_BASEDIR), which the objects' file names keep.
bdir=$PERFBISECT_HOME/trees/$(pb_sha "$(jq -r .repo "$art0/build.json")")/build-$(jq -r .config_hash "$art0/build.json")
mv "$art0" "$T_TMP/art0" || fail "the local image can be put aside"
# shellcheck disable=SC2064
trap "kill -- -$dpid 2>/dev/null; [ -d '$art0' ] || mv '$T_TMP/art0' '$art0'; rm -rf '$T_TMP'" EXIT
# (Without t50's build dir, the build is a whole cold one: slower, as good.)
gone=0
for o in "$bdir"/kernel/*.o; do
	[ -f "$o" ] || continue
	c=${o##*/}
	[ -f "${bdir%/*}/src/kernel/${c%.o}.c" ] && rm -f "$o" && gone=$((gone + 1))
done
run_rc env CCACHE_RECACHE=1 PB_QUIET=0 PB_DISTCC="127.0.0.1:1 127.0.0.1:$port/2" \
	"$b/build.sh" "$src" v6.1-debian
is "$rc" 0 "build.sh with PB_DISTCC: builds"
like "$(cat "$T_TMP/err")" "distcc host 127\\.0\\.0\\.1:1 does not answer: left out" "the silent host is left out"
like "$(cat "$T_TMP/err")" "compiles that miss ccache go to distcc: 127\\.0\\.0\\.1:$port/2" "the build says where compiles go"
art=$(cat "$T_TMP/out")
ok=$(grep -c 'COMPILE_OK' "$T_TMP/distccd.log")
misses=$(jq -r .ccache_misses "$art/build.json" 2>/dev/null)
[ "$ok" -ge "$gone" ] && [ "$ok" -ge 20 ] && pass "distccd compiled $ok files (ccache missed ${misses:-?}, $gone removed)" ||
	fail "distccd compiled $ok files, not the $gone removed (and 20) or more"
is "$(jq -r .bzimage_sha256 "$art/build.json" 2>/dev/null)" "$want" "the bzImage is byte-identical to the local build's"
# The daemon stops with the test (here, to check it; the trap is for a
# failure before this point).
kill -- -"$dpid" 2>/dev/null
sleep 1
is "$(pgrep -f -- "--port $port " | wc -l)" 0 "the test's distccd is stopped"
done_testing
