#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t13-bad-input.sh: bad input to build.sh, boot.sh and measure.sh gets a
# one-line error and a distinct exit code, and leaves nothing behind.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PERFBISECT_HOME=$T_TMP/home
b=$T_TOP/bisect

# expect CODE DESC CMD...: run CMD; pass when it exits CODE with one line
# on stderr that says "error".
expect() {
	local want=$1 desc=$2
	shift 2
	run_rc "$@"
	if [ "$rc" = "$want" ] && [ "$(wc -l <"$T_TMP/err")" -eq 1 ] &&
		grep -q 'error: ' "$T_TMP/err"; then
		pass "$desc: exit $want, $(cut -c1-70 "$T_TMP/err")"
	else
		fail "$desc: want exit $want and one error line"
		printf '#   got exit %s, stderr:\n' "$rc"
		sed 's/^/#   /' "$T_TMP/err" | head -5
	fi
}

toy=$T_TMP/toy
git init -q "$toy" && echo hello >"$toy/README" &&
	git -C "$toy" add README && git -C "$toy" -c user.name=t -c user.email=t@t commit -qm one
before=$(cd "$toy" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)

expect 2 "build: no arguments" "$b/build.sh"
expect 3 "build: missing path" "$b/build.sh" "$T_TMP/nowhere" HEAD
mkdir -p "$T_TMP/plain"
expect 3 "build: not a git repository" "$b/build.sh" "$T_TMP/plain" HEAD
expect 4 "build: unknown revision" "$b/build.sh" "$toy" no-such-rev
expect 4 "build: option-like revision" "$b/build.sh" "$toy" --all
expect 7 "build: not a kernel tree" "$b/build.sh" "$toy" HEAD
expect 2 "build: unknown fragment" "$b/build.sh" -c nosuch "$toy" HEAD
after=$(cd "$toy" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
is "$after" "$before" "the repository (work tree and .git) is byte-for-byte unchanged"
is "$(find "$PERFBISECT_HOME" -path '*/images/*' 2>/dev/null | wc -l)" 0 "no artifact left behind"

touch "$T_TMP/bz" "$T_TMP/cpio"
expect 2 "boot: no kernel" "$b/boot.sh" -i "$T_TMP/cpio" -o "$T_TMP/run"
expect 2 "boot: bad vCPU count" "$b/boot.sh" -c two -k "$T_TMP/bz" -i "$T_TMP/cpio" -o "$T_TMP/run"
expect 2 "boot: zero memory" "$b/boot.sh" -m 0 -k "$T_TMP/bz" -i "$T_TMP/cpio" -o "$T_TMP/run"
expect 2 "boot: guest parameter with shell syntax" "$b/boot.sh" -k "$T_TMP/bz" \
	-i "$T_TMP/cpio" -o "$T_TMP/run" 'pb_x=$(reboot)'
expect 2 "boot: guest parameter outside pb_" "$b/boot.sh" -k "$T_TMP/bz" \
	-i "$T_TMP/cpio" -o "$T_TMP/run" init=/bin/sh
PB_QEMU=qemu-system-nonesuch expect 5 "boot: QEMU not installed" "$b/boot.sh" \
	-k "$T_TMP/bz" -i "$T_TMP/cpio" -o "$T_TMP/run"
like "$(cat "$T_TMP/err")" 'apt-get install qemu-system-x86' "missing QEMU names the package"
PB_ACCEL=hvf expect 2 "boot: unknown accelerator" "$b/boot.sh" \
	-k "$T_TMP/bz" -i "$T_TMP/cpio" -o "$T_TMP/run"

expect 2 "measure: unknown workfile" "$b/measure.sh" -W nosuch "$toy" HEAD
expect 2 "measure: bad task count" "$b/measure.sh" -T many "$toy" HEAD
expect 2 "measure: bad payload" "$b/measure.sh" -P rm "$toy" HEAD
expect 2 "measure: a salt that is not an integer" "$b/measure.sh" -S 'x;y' "$toy" HEAD
expect 2 "front door: unknown command" "$b/perfbisect" frobnicate
# PB_SALT is 0 or 1: anything else stops a command before it builds or
# boots, in every mode (a typo must not silently mean "unsalted").
PB_SALT=2 expect 2 "bisect: PB_SALT neither 0 nor 1" "$b/bisect.sh" -t "$toy" -g HEAD -b HEAD -d wall
like "$(cat "$T_TMP/err")" "PB_SALT='2'" "bisect: the error names PB_SALT's value"
# A step's samples that no rank test against the ends could ever find
# significant (pbstat ends: enough) are refused before anything is built.
expect 2 "bisect: 2 samples a step against 3 an end can never be significant" \
	"$b/bisect.sh" -t "$toy" -g HEAD -b HEAD -d wall -n 2 -N 2 -e 3
like "$(cat "$T_TMP/err")" "can never be significant" "bisect: the error says why -n 2 -e 3 is refused"
expect 2 "bisect: 1 sample a step against 19 an end can never be significant" \
	"$b/bisect.sh" -t "$toy" -g HEAD -b HEAD -d wall -n 1 -N 1 -e 19
expect 12 "bisect: 1 sample a step against 20 an end can be (p 1/21): on to the ends" \
	"$b/bisect.sh" -t "$toy" -g HEAD -b HEAD -d wall -n 1 -N 1 -e 20
PB_SALT=yes expect 2 "validate: PB_SALT neither 0 nor 1" "$b/validate.sh" -t "$toy" "$T_TMP/bz"
PB_SALT=' 1' expect 2 "reproduce: PB_SALT neither 0 nor 1" "$b/reproduce.sh" -t "$toy" -d det HEAD HEAD
PB_SALT=1x expect 2 "samples: PB_SALT neither 0 nor 1" "$b/stages/samples.sh" -n 1 "$toy" HEAD
like "$("$b/perfbisect" help | grep -A1 '^  PB_SALT=')" 'PB_SALT=1\|0 +1 \(default\)' "perfbisect help: PB_SALT, salted by default"

# A missing tool is named with the package that provides it.
run_rc bash -c '. "$1/bisect/lib.sh"; pb_need busybox-nonesuch-cmd' _ "$T_TOP"
is "$rc" 5 "missing tool: exit 5"
like "$(cat "$T_TMP/err")" "apt-get install busybox-nonesuch-cmd" "missing tool: says what to install"

# A repository git refuses (another owner): git's reason and its fix are
# passed on, not "not a git repository". Needs root to give it away.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	cp -a "$toy" "$T_TMP/theirs" && chown -R nobody "$T_TMP/theirs"
	expect 3 "a repository owned by another user" env HOME="$T_TMP" "$b/bisect.sh" -t "$T_TMP/theirs" -g HEAD -b HEAD
	like "$(cat "$T_TMP/err")" "dubious ownership.*safe.directory" "another owner: git's reason and the fix"
	rm -rf "$T_TMP/theirs"
fi

# The front door: bare, it prints the usage and exits 2; --version;
# help COMMAND and --help anywhere give the command's usage; messages
# name the command as git's do.
p=$b/perfbisect
run_rc "$p"
is "$rc:$(grep -c '^Usage: perfbisect COMMAND' "$T_TMP/err")" "2:1" "bare perfbisect: the usage on stderr, exit 2"
run_rc "$p" --version
like "$rc:$(cat "$T_TMP/out")" '^0:perfbisect [0-9a-f]{7,}' "perfbisect --version: the commit"
run_rc "$p" help validate
like "$rc:$(head -1 "$T_TMP/out")" '^0:validate.sh: prove whether fix patches' "perfbisect help validate: validate's usage"
run_rc "$p" bisect -t "$toy" -x 5 --help
like "$rc:$(head -1 "$T_TMP/out")" '^0:bisect.sh: find the commit' "perfbisect bisect ... --help: bisect's usage, nothing run"
expect 2 "perfbisect help nosuch" "$p" help nosuch
expect 2 "perfbisect nosuch" "$p" nosuch
run_rc "$p" bisect -t "$T_TMP/nowhere" -g a -b b
like "$(cat "$T_TMP/err")" '^perfbisect bisect: error: ' "perfbisect bisect: messages say 'perfbisect bisect:'"
# Long options: one name for what each command's letter does.
while IFS='|' read -r args want; do
	eval "set -- $args"
	run_rc "$p" "$@"
	like "$rc:$(cat "$T_TMP/err")" "^2:$want" "perfbisect $args: usage error"
done <<'EOF'
bisect --frobnicate|perfbisect bisect: error: unknown option --frobnicate
bisect --good|perfbisect bisect: error: --good needs a value
bisect --restart=1|perfbisect bisect: error: --restart takes no value
bisect --threshold 0|perfbisect bisect: error: threshold '0' is not a positive number of jobs/min \(-x\)
bisect --min-effect=500|perfbisect bisect: error: minimum effect '500' is not a percentage
validate --tolerance=abc x.patch|perfbisect validate: error: tolerance 'abc' is not a number
reproduce --min-effect abc|perfbisect reproduce: error: tolerance 'abc' is not a number
validate --tolerance=100 x.patch|perfbisect validate: error: tolerance '100' is not a number from 0 to below 100
validate --min-rounds 1 x.patch|perfbisect validate: error: .*rounds \(-r\)
bisect --cpus 0|perfbisect bisect: error: vCPUs \(-C\)
measure --samples-per-boot x r v|perfbisect measure: error: samples must be a non-negative integer, not 'x'
bisect --tolerance 2|perfbisect bisect: error: unknown option --tolerance
EOF

# The bench scripts: --help prints the usage (exit 0); an unknown option
# or a second argument exits 2; none of the three makes or removes
# anything first.
mkdir -p "$T_TMP/bh"
for s in "$T_TOP"/bench/*.sh; do
	n=${s##*/} ok=1
	PERFBISECT_HOME=$T_TMP/bh run_rc "$s" --help
	[ "$rc" = 0 ] && grep -qi usage "$T_TMP/out" || ok=0
	PERFBISECT_HOME=$T_TMP/bh run_rc "$s" --frobnicate
	[ "$rc" = 2 ] || ok=0
	PERFBISECT_HOME=$T_TMP/bh run_rc "$s" "$T_TMP/r1" "$T_TMP/r2"
	[ "$rc" = 2 ] || ok=0
	[ -z "$(ls -A "$T_TMP/bh")" ] && [ ! -e "$T_TMP/r1" ] || ok=0
	[ "$ok" = 1 ] && pass "bench/$n: --help 0, unknown option 2, two result files 2, nothing made" ||
		fail "bench/$n: --help 0, unknown option 2, two result files 2, nothing made"
done

# --help is true: every script prints its usage and exits 0.
for s in build.sh boot.sh measure.sh initramfs.sh kernel-src.sh deps.sh demo.sh stages/config-check.sh stages/kary.sh perfbisect; do
	run_rc "$b/$s" --help
	if [ "$rc" = 0 ] && grep -qi usage "$T_TMP/out"; then
		pass "$s --help"
	else
		fail "$s --help (exit $rc)"
	fi
done
done_testing
