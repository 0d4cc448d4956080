#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t56-distcc.sh: distributed builds (perfbisect --distcc, PB_DISTCC): a
# real distccd on 127.0.0.1 (a port of its own, localhost only) compiles
# vanilla 6.1 for build.sh from an empty ccache, its log shows the
# compiles, and the bzImage is byte for byte the one a local build makes.
# Hosts that do not answer are left out, with a message; none: local.
# A cold build through distcc: about 8-10 minutes here.
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
want=$(jq -r .bzimage_sha256 "$(cat "$T_TMP/out")/build.json")

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

# An empty ccache and build dir of its own, the same kernel tree.
th=$T_TMP/home
mkdir -p "$th" && ln -s "$src" "$th/linux-6.1"
run_rc env PERFBISECT_HOME="$th" PB_QUIET=0 PB_DISTCC="127.0.0.1:1 127.0.0.1:$port/2" \
	"$b/build.sh" "$src" v6.1-debian
is "$rc" 0 "build.sh with PB_DISTCC: builds"
like "$(cat "$T_TMP/err")" "distcc host 127\\.0\\.0\\.1:1 does not answer: left out" "the silent host is left out"
like "$(cat "$T_TMP/err")" "compiles that miss ccache go to distcc: 127\\.0\\.0\\.1:$port/2" "the build says where compiles go"
art=$(cat "$T_TMP/out")
ok=$(grep -c 'COMPILE_OK' "$T_TMP/distccd.log")
misses=$(jq -r .ccache_misses "$art/build.json" 2>/dev/null)
[ "$ok" -ge 500 ] && pass "distccd compiled $ok files (ccache missed ${misses:-?})" ||
	fail "distccd compiled $ok files, not the build's 500 or more"
is "$(jq -r .bzimage_sha256 "$art/build.json" 2>/dev/null)" "$want" "the bzImage is byte-identical to the local build's"
# The daemon stops with the test (here, to check it; the trap is for a
# failure before this point).
kill -- -"$dpid" 2>/dev/null
sleep 1
is "$(pgrep -f -- "--port $port " | wc -l)" 0 "the test's distccd is stopped"
done_testing
