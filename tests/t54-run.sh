#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t54-run.sh: your benchmark (--run CMD, --metric REGEX, --lower-is-better):
# the ready workloads (workloads/), the checks before anything is built,
# the initramfs that carries the command, the results-cache key, a toy
# bisect's report that names the metric, and real boots of vanilla 6.1 in
# deterministic mode that run a workload, a dynamically linked program of
# this machine and a failing or silent command (about a minute when the
# vanilla image is cached, as t50 leaves it).
# Needs: a kernel build and boot (tests/run skips it with PB_SKIP_KERNEL=1)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
b=$T_TOP/bisect
PB_QUIET=1
export PB_QUIET

# --- the workloads, on this machine ------------------------------------
make -s -C "$T_TOP/workloads" O="$T_TMP/wl" all >"$T_TMP/make.log" 2>&1
is "$?" 0 "workloads build with -Wall -Wextra -Werror"
like "$("$T_TMP/wl/pipebench" -g 1 -f 4 -l 50)" \
	'^pipebench: groups=1 fds=4 loops=50 messages=800 time_s=[0-9.]+ messages/s=[0-9]+\.[0-9]$' \
	"pipebench: one line, every message counted (1 x 4 x 4 x 50)"
like "$("$T_TMP/wl/faultbench" -t 2 -s 64 -l 3)" \
	'^faultbench: tasks=2 size_kb=64 loops=3 faults=96 time_s=[0-9.]+ faults/s=[0-9]+\.[0-9]$' \
	"faultbench: one line, a fault per page (2 x 3 x 16)"
for c in "pipebench -g 0" "pipebench -f 65" "pipebench x" "faultbench -s 2" "faultbench -t abc"; do
	# shellcheck disable=SC2086
	run_rc "$T_TMP/wl/${c%% *}" ${c#* }
	is "$rc:$(head -1 "$T_TMP/err" | grep -c "^${c%% *}: ")" 2:1 "$c: exit 2 with the reason"
done

# --- bad input, before anything is built --------------------------------
# The bisects below keep their state and runs in a home of their own.
th=$T_TMP/home
toy=$T_TMP/toy
git init -q "$toy"
echo 1000 >"$toy/speed"
git -C "$toy" add speed
git -C "$toy" -c user.name=Toy -c user.email=toy@example.invalid commit -qm start
printf '#!/bin/bash\necho 1\n' >"$T_TMP/bash.sh"
printf 'not a program\n' >"$T_TMP/text"
chmod +x "$T_TMP/bash.sh" "$T_TMP/text"
printf 'int f(void) { return 1; }\n' >"$T_TMP/l.c"
printf 'int f(void);\nint main(void) { return f(); }\n' >"$T_TMP/m.c"
gcc -shared -fPIC -o "$T_TMP/libgone.so" "$T_TMP/l.c" &&
	gcc -o "$T_TMP/needsgone" "$T_TMP/m.c" -L"$T_TMP" -lgone && rm -f "$T_TMP/libgone.so"
while IFS='|' read -r args want why; do
	eval "set -- $args"
	run_rc env PERFBISECT_HOME="$th" "$b/perfbisect" bisect -t "$toy" -g HEAD -b HEAD "$@"
	is "$rc:$(wc -l <"$T_TMP/err")" 2:1 "bisect $args: usage error, one line"
	like "$(cat "$T_TMP/err")" "$want" "bisect $args: $why"
done <<EOF
--run $T_TMP/nosuch|nosuch not found|a missing program
--run $T_TMP/l.c|l\\.c is not executable|a file that is not executable
--run $T_TMP/text|text is not an x86-64 executable or a script|not x86-64
--run $T_TMP/bash.sh|runs with bash, which the guest lacks|a script for bash
--run '$T_TMP/needsgone' --metric x|needs libgone\\.so, which ldd cannot find|a library ldd cannot find
--run nosuchname|'nosuchname' is not a path, a workload in workloads/ \\(faultbench,pipebench\\)|an unknown name
--run 'echo 1'|needs --metric REGEX|a command without a metric
--run pipebench --metric '('|is not an extended regular expression|a bad regular expression
--metric x|--metric is for a --run command|a metric without a command
--run pipebench -D sideways|higher or lower, not 'sideways'|a bad direction
EOF
[ -z "$(ls "$th/runs" 2>/dev/null)" ] && pass "bad input made no run" || fail "bad input made no run"

# --- the initramfs and the results-cache key -------------------------
cpio_list() { cpio -it --quiet <"$1" 2>/dev/null | sort; }
c1=$("$b/initramfs.sh" -A 'pipebench -g 1' -Y 'messages/s=') || fail "initramfs.sh -A pipebench"
like "$(cpio_list "$c1")" '^pb/bin/pipebench$' "initramfs: the workload as /pb/bin/pipebench"
like "$(cpio_list "$c1")" '^pb/cmd$' "initramfs: /pb/cmd"
c2=$("$b/initramfs.sh" -A '/usr/bin/printf x' -Y x)
like "$(cpio_list "$c2")" '^lib/x86_64-linux-gnu/libc\.so\.6$' "initramfs: a dynamic program brings its libc"
like "$(cpio_list "$c2")" '^lib64/ld-linux-x86-64\.so\.2$' "initramfs: and its program interpreter"
unlike "$c2" "^$c1\$" "another command, another initramfs"
c0=$("$b/initramfs.sh")
unlike "$(cpio_list "$c0")" '^pb/' "without --run, no /pb"
printf '#!/bin/sh\necho "score: 1"\n' >"$T_TMP/bench.sh"
chmod +x "$T_TMP/bench.sh"
export PB_MEASURE=$T_TOP/tests/stub-measure.sh
k0=$("$b/stages/samples.sh" -d "$toy" HEAD --)
k1=$("$b/stages/samples.sh" -d "$toy" HEAD -- -A "$T_TMP/bench.sh" -Y score)
echo 'echo "score: 2"' >>"$T_TMP/bench.sh"
k2=$("$b/stages/samples.sh" -d "$toy" HEAD -- -A "$T_TMP/bench.sh" -Y score)
unlike "$k1" "^$k0\$" "results cache: a --run measurement has its own key"
unlike "$k2" "^$k1\$" "results cache: the program's bytes are in the key"

# --- a toy bisect names its metric (stub measurement) -------------------
toy2=$T_TMP/toy2
git init -q "$toy2"
for i in $(seq 0 8); do
	s=1000
	[ "$i" -ge 5 ] && s=400
	echo "$s" >"$toy2/speed"
	git -C "$toy2" add speed
	GIT_AUTHOR_DATE="@$((1600000000 + i * 60)) +0000" GIT_COMMITTER_DATE="@$((1600000000 + i * 60)) +0000" \
		git -C "$toy2" -c user.name=Toy -c user.email=toy@example.invalid commit -qm "toy2: change $i" --allow-empty
done
run_rc env PERFBISECT_HOME="$th" PB_MODE=wall PB_ROUNDS_BELOW=1.5 STUB_LOG="$T_TMP/calls" "$b/perfbisect" bisect -t "$toy2" -g HEAD~8 -b HEAD \
	--run "$T_TMP/bench.sh" --metric 'score:' --lower-is-better -e 6 -n 4 -i 4 -N 8
is "$rc:$(jq -r .culprit "$th/runs/latest/summary.json")" "0:$(git -C "$toy2" rev-parse HEAD~3)" \
	"a bisect with --run: the culprit"
is "$(jq -c .metric "$th/runs/latest/summary.json")" \
	"{\"command\":\"$T_TMP/bench.sh\",\"regex\":\"score:\",\"direction\":\"lower\",\"score\":\"1e6/value\"}" \
	"summary.json names the command, the metric, its direction and the score"
like "$(head -1 "$th/runs/latest/table.txt")" ' 1e6/value ' "the table's column is the score"
# validate names the score too.
git clone -q "$toy2" "$T_TMP/fixc" && echo 1000 >"$T_TMP/fixc/speed" &&
	git -C "$T_TMP/fixc" -c user.name=Toy -c user.email=toy@example.invalid commit -qam "toy2: back to 1000" &&
	git -C "$T_TMP/fixc" format-patch -q -1 -o "$T_TMP/fix" >/dev/null
run_rc env PERFBISECT_HOME="$th" PB_MODE=wall STUB_LOG="$T_TMP/calls" "$b/perfbisect" validate -t "$toy2" -B HEAD~8 -O HEAD \
	--no-torture --run "$T_TMP/bench.sh" --metric 'score:' "$T_TMP"/fix/*.patch
like "$rc:$(head -1 "$T_TMP/out")" '^(0|19):kernel +Tasks +value ' "validate --run: a verdict, the table's column is the score"
# A metric that matches nothing stops the bisect at its first measurement,
# with the measurement's words, not as a skip at every step.
: >"$T_TMP/calls"
for mode in wall det; do
	run_rc env PERFBISECT_HOME="$th" PB_MODE=$mode STUB_LOG="$T_TMP/calls" "$b/perfbisect" bisect -t "$toy2" -g HEAD~8 -b HEAD \
		--run "$T_TMP/bench.sh" --metric nomatch -R -e 6
	is "$rc" 34 "$mode: a metric that matches nothing: exit 34"
	like "$(cat "$T_TMP/err")" "matched no line of the output" "$mode: the error shows why"
done
is "$(wc -l <"$T_TMP/calls")" 2 "one measurement each time, then the bisect stops"
unset PB_MEASURE

# --- real boots: vanilla 6.1, deterministic --------------------------
src=$("$b/kernel-src.sh") || {
	fail "kernel source import"
	done_testing
	exit
}
m() { run_rc "$b/measure.sh" -n 2 -w 0 -d det -o "$T_TMP/m$1" "${@:2}" "$src" v6.1-debian; }
m 1 -A 'pipebench -g 1 -f 4 -l 100'
is "$rc" 0 "measure.sh --run pipebench: boots and measures"
is "$(grep -cE ' sample=[01] warmup=0 value=[0-9.]+ jpm=[0-9.]+ ' "$T_TMP/m1/results")" 2 \
	"two samples, each with the value and the score"
like "$(cat "$T_TMP/m1/console.log")" '^pb-run: pipebench: groups=1 ' "the command's output is on the console, marked"
m 2 -A "/usr/bin/printf 'took %s ms\\n' 250" -Y took -D lower
is "$rc" 0 "measure.sh --run a dynamically linked program of this machine"
is "$(grep -c ' value=250 jpm=4000.000 ' "$T_TMP/m2/results")" 2 "--lower-is-better: the score is 1e6/value (250 -> 4000)"
m 3 -A 'echo nothing to see' -Y 'score:'
is "$rc" 34 "a metric that matches no line: exit 34"
like "$(tail -1 "$T_TMP/err")" "--metric 'score:' matched no line of the output of 'echo nothing to see'" "the error says so"
m 4 -A 'sh -c "exit 3"' -Y x
is "$rc" 26 "a command that fails: the payload failed (26, a skip in a bisect)"
done_testing
