#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t34-deterministic.sh: deterministic mode (-d det) on a toy repository with
# the stub measurement: a 2% regression bisected with one boot per step,
# auto falling back to wall-clock when deterministic mode misses the
# regression, a culprit whose image equals its parent's refused, the
# mode in the cache key and in summary.json, and the bad input that must
# stop before anything is built.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PERFBISECT_HOME=$T_TMP/home PB_QUIET=1
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls
unset PB_MODE PB_ACCEL PB_ICOUNT
b=$T_TOP/bisect
# Unsalted boots (PB_SALT=0) unless a section says otherwise: salted ones,
# the default, are checked where PB_SALT is unset or 1.
export PB_SALT=0

# toy DIR: a history of 30 commits after "start" (1000 jobs/min);
# speed_of I prints the content of "speed" for commit I, and detspeed_of I
# that of "detspeed" (empty: none).
toy_extra() {
	local d
	d=$(detspeed_of "$2")
	[ -n "$d" ] || return 0
	echo "$d" >"$1/detspeed"
	git -C "$1" add detspeed
}
toy() { t_toy "$1" 30; }

# 1. A 2% regression at commit 19 (980 after), bisected deterministically.
speed_of() { if [ "$1" -ge 19 ]; then echo 980; else echo 1000; fi; }
detspeed_of() { :; }
toy "$T_TMP/small"
culprit=$(git -C "$T_TMP/small" rev-parse tip~11)
: >"$STUB_LOG"
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1
is "$rc" 0 "det: a 2% regression is bisected (exit 0)"
s=$PERFBISECT_HOME/runs/latest/summary.json
is "$(jq -r .culprit "$s")" "$culprit" "det: the exact culprit"
is "$(jq -r .mode "$s")" det "det: summary.json says deterministic"
like "$(jq -r .mode_reason "$s")" 'deterministic ends check shows BAD -[12](\.[0-9]+)?%' "det: summary.json says why"
like "$(jq -r .eps_pct "$s")" '^0\.[0-9]+$' "det: summary.json records eps"
like "$(jq -r .confirmation "$s")" 'slower=1' "det: the culprit is confirmed against its parent"
is "$(jq .confirmed "$s")" true "det: summary.json says confirmed: true"
is "$(jq .confirmation_stats.slower "$s")" 1 "det: summary.json has the confirmation's statistics"
r=$PERFBISECT_HOME/runs/latest/results.jsonl
is "$(jq -s '[.[] | select(.role == "good" or .role == "bad") | .decision.rule] | (length > 0) and all(. == "detplace" or . == "same-kernel")' "$r")" true \
	"det: results.jsonl: every step's decision record names its rule"
is "$(jq -s '[.[] | select(.decision.rule == "detplace") | (.decision.verdict == .verdict and (.decision.eps_pct | type) == "number")] | all' "$r")" true \
	"det: a detplace record holds the verdict and eps as a number"
steps=$(jq .steps "$s")
boots=$(wc -l <"$STUB_LOG")
# 2 boots per end, 1 per step, 1 fresh boot of culprit and parent each
# (plus at most one cached boot of the parent not yet measured).
[ "$boots" -le $((4 + steps + 3)) ] && pass "det: one boot per step ($boots boots, $steps steps)" ||
	fail "det: one boot per step ($boots boots, $steps steps)"
like "$(jq -r '.mode' "$PERFBISECT_HOME/runs/latest/state/ends.json")" '^det$' "det: ends.json has the mode"
like "$(grep -c 'deterministic, boots' "$PERFBISECT_HOME/runs/latest/state/measure.log")" '^[1-9]' "det: steps placed by pbstat detplace"

# The same range again: the deterministic cache is reused, no new boot
# except the confirmation's fresh ones (already done: none).
before=$(wc -l <"$STUB_LOG")
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1
is "$rc" 0 "det: a second run answers again"
is "$(wc -l <"$STUB_LOG")" "$before" "det: a second run boots nothing (cache and saved state)"
# Without PB_SALT (salted, the default), a bisect begun unsalted goes on
# unsalted: the same answer, nothing booted, and said.
run_rc env -u PB_SALT PB_QUIET=0 "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1
is "$rc:$(wc -l <"$STUB_LOG")" "0:$before" "det: begun unsalted, run again without PB_SALT: answers, boots nothing"
like "$(cat "$T_TMP/err")" 'begun with unsalted boots .*going on with them' "det: begun unsalted: says it goes on unsalted"
# A changed decision setting (-e) is a new bisect, said so; the old one
# keeps its state.
old_state=$(readlink -f "$PERFBISECT_HOME/runs/latest/state")
run_rc env PB_QUIET=0 "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1 -e 9
is "$rc" 0 "a changed setting (-e 9): answers"
like "$(cat "$T_TMP/err")" 'other settings or another measurement .*kept\): starting a new bisect' "a changed setting: says it starts a new bisect"
unlike "$(cat "$PERFBISECT_HOME/runs/latest/bisect.log")" '^resuming' "a changed setting: nothing replayed"
[ -s "$old_state/bisect.log" ] && [ "$old_state" != "$(readlink -f "$PERFBISECT_HOME/runs/latest/state")" ] &&
	pass "a changed setting: the old bisect's state is kept" || fail "a changed setting: the old bisect's state is kept"

# A threshold within eps of an end would leave every commit at that end
# unsure: refused at the ends check, with the range to give.
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1 -x 999.5
like "$rc:$(tail -1 "$T_TMP/err")" "^2:.*threshold 999.5 \(-x\) is within eps \([0-9.]+%\) of an end: give one between 98[0-9.]+ and 99[0-9.]+" \
	"det -x within eps of GOOD: exit 2, the range named"
# A fixed threshold (-x) unsalted: detplace places each step's boot
# against it (991: about 1% from either level), with the same eps band.
# (Another threshold than the salted section's -x 990 below: a bisect
# begun unsalted would go on unsalted there.)
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1 -x 991
is "$rc:$(jq -r .culprit "$PERFBISECT_HOME/runs/latest/summary.json")" "0:$culprit" "det -x 991: the exact culprit"
is "$(jq -s '[.[] | select(.role == "good" or .role == "bad") | .decision] | (length > 0) and
	all(.rule == "same-kernel" or (.rule == "detplace" and .threshold == 991))' "$PERFBISECT_HOME/runs/latest/results.jsonl")" true \
	"det -x: every step placed by pbstat detplace against the threshold"

# Deterministic and wall-clock results never share a cache entry; nor do
# two -icount settings.
kd=$("$b/stages/samples.sh" -d "$T_TMP/small" start -- -d det)
kw=$("$b/stages/samples.sh" -d "$T_TMP/small" start --)
ki=$(PB_ICOUNT=shift=1,sleep=off "$b/stages/samples.sh" -d "$T_TMP/small" start -- -d det)
[ "$kd" != "$kw" ] && pass "cache key: det differs from wall" || fail "cache key: det differs from wall"
[ "$kd" != "$ki" ] && pass "cache key: PB_ICOUNT is part of it" || fail "cache key: PB_ICOUNT is part of it"
is "$("$b/stages/samples.sh" -m "$T_TMP/small" start -- -d det | wc -l)" 2 "samples.sh -m: one median per boot"
# The key does not depend on where perfbisect is checked out: a CI clone
# and the developer's copy share the cache.
mkdir -p "$T_TMP/elsewhere"
tar -C "$T_TOP" --exclude=./.git --exclude=./reproducer/build -cf - . | tar -C "$T_TMP/elsewhere" -xf -
k1=$(env -u PB_MEASURE "$b/stages/samples.sh" -d "$T_TMP/small" start -- -d det)
k2=$(env -u PB_MEASURE "$T_TMP/elsewhere/bisect/stages/samples.sh" -d "$T_TMP/small" start -- -d det)
is "${k2##*/}" "${k1##*/}" "cache key: the same wherever perfbisect is checked out"
echo "/* changed */" >>"$T_TMP/elsewhere/reproducer/$(cd "$T_TOP/reproducer" && ls ./*.c | head -1)"
k3=$(env -u PB_MEASURE "$T_TMP/elsewhere/bisect/stages/samples.sh" -d "$T_TMP/small" start -- -d det)
[ "${k3##*/}" != "${k1##*/}" ] && pass "cache key: a changed reproducer source is part of it" ||
	fail "cache key: a changed reproducer source is part of it"

# Salted deterministic boots (the default; PB_SALT=1): the Nth boot gets
# -S N, so boots of one kernel differ in their inputs (as two commits'
# layouts do); boot N gives the same figure whatever the cache held before.
kd0=$("$b/stages/samples.sh" -d "$T_TMP/small" start -- -d det)
kd1=$(PB_SALT=1 "$b/stages/samples.sh" -d "$T_TMP/small" start -- -d det)
[ "$kd0" != "$kd1" ] && pass "cache key: salted boots have their own" || fail "cache key: salted boots have their own"
is "$(env -u PB_SALT "$b/stages/samples.sh" -d "$T_TMP/small" start -- -d det)" "$kd1" \
	"cache key: boots are salted when PB_SALT is unset"
n=$(wc -l <"$STUB_LOG")
PB_SALT=yes run_rc "$b/stages/samples.sh" -n 1 "$T_TMP/small" start -- -d det
is "$rc:$(wc -l <"$STUB_LOG")" "2:$n" "PB_SALT neither 0 nor 1: exit 2, nothing measured"
like "$(cat "$T_TMP/err")" "PB_SALT='yes'" "PB_SALT neither 0 nor 1: named in the error"
# Salted (the default: PB_SALT unset), the boot is the unit: the ends in
# paired rounds of boots with salt i, each step in rounds of one candidate
# boot with the ends' cached boot i (pbstat sprt), the culprit confirmed
# in paired rounds of salts no step used.
export STUB_SALTS=$T_TMP/salts STUB_SALT_EFFECT=0.002
unset PB_SALT
: >"$STUB_SALTS"
: >"$STUB_LOG"
PB_RESULTS=$T_TMP/salted run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1 -R
is "$rc" 0 "salted: a 2% regression with a +-0.2% salt effect is bisected (exit 0)"
s=$PERFBISECT_HOME/runs/latest/summary.json
st=$PERFBISECT_HOME/runs/latest/state
is "$(jq -r .culprit "$s")" "$culprit" "salted: the exact culprit"
is "$(jq -r .salted "$st/ends.json")" true "salted: ends.json says so"
like "$(jq -r .mode_reason "$s")" 'shows BAD -[12](\.[0-9]+)?% \(salted boots, [0-9]+ paired rounds, 98% CI -[0-9.]+\.\.-[0-9.]+%\)' \
	"salted: the mode's reason gives the paired rounds' interval"
gsha=$(git -C "$T_TMP/small" rev-parse "start^{commit}")
gs=$(grep "^$gsha " "$STUB_SALTS" | cut -d' ' -f2 | tr '\n' ' ')
like "$gs" '^1 2 3 ' "salted: GOOD's boots have salts 1, 2, 3, ... ($gs)"
is "$(jq '.good_boots | length' "$st/ends.json")" "$(grep -c "^$gsha " "$STUB_SALTS")" "salted: ends.json has every boot of GOOD"
is "$(grep -c ' -$' "$STUB_SALTS")" 0 "salted: every boot is salted, the confirmation's too"
is "$(sort "$STUB_SALTS" | uniq -d | wc -l)" 0 "salted: no revision boots twice with one salt"
r=$PERFBISECT_HOME/runs/latest/results.jsonl
is "$(jq -s '[.[] | select(.role == "good" or .role == "bad") | .decision.rule] | (length > 0) and all(. == "sprt" or . == "same-kernel")' "$r")" true \
	"salted: every step is decided by pbstat sprt (or the same kernel)"
like "$(grep -c 'salted round 1: GOOD' "$st/measure.log")" '^[1-9]' "salted: the steps' rounds are logged"
like "$(jq -r .confirmation "$s")" '^in rounds: n=[0-9]+ .*separated=1' "salted: the culprit is confirmed in paired rounds"
is "$(jq .confirmed "$s")" true "salted: summary.json says confirmed: true"
# The confirmation's boots of the culprit come after every step's.
csalts=$(grep "^$culprit " "$STUB_SALTS" | cut -d' ' -f2 | tr '\n' ' ')
steps_c=$(grep -c "^step [0-9]*: ${culprit:0:12}: salted round" "$st/measure.log")
is "$(wc -w <<<"$csalts")" $((steps_c + $(jq -r .confirmation "$s" | sed -n 's/.* n=\([0-9]*\).*/\1/p'))) \
	"salted: the culprit's confirmation boots it anew, with salts after the step's ($csalts)"
# Salts move the figure: GOOD's boots are not all alike.
gb=$(jq -r '.good_boots | map(tostring) | join(" ")' "$st/ends.json")
[ "$(tr ' ' '\n' <<<"$gb" | sort -u | wc -l)" -ge 2 ] && pass "salted: GOOD's boots differ ($gb)" ||
	fail "salted: GOOD's boots differ ($gb)"
n=$(wc -l <"$STUB_LOG")
PB_RESULTS=$T_TMP/salted run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1
is "$rc:$(wc -l <"$STUB_LOG")" "0:$n" "salted: a second run answers again and boots nothing"
# Salted boots cannot show 2% to be more than 5%: no regression, with the
# interval in the message; the cached boots are used again.
PB_RESULTS=$T_TMP/salted run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 5
like "$rc:$(cat "$T_TMP/err")" '^15:.*no regression between GOOD and BAD in deterministic mode: BAD is -[0-9.]+% \(salted boots, [0-9]+ paired rounds, 98% CI' \
	"salted: -E 5 on a 2% regression: no regression (exit 15), the interval said"
is "$(wc -l <"$STUB_LOG")" "$n" "salted: the ends check reuses the cached boots"
# A fixed threshold (-x) with salted boots: each step tests its boots'
# level against it (pbstat level), boot r being the one with salt r.
PB_RESULTS=$T_TMP/salted run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1 -x 990
is "$rc:$(jq -r .culprit "$PERFBISECT_HOME/runs/latest/summary.json")" "0:$culprit" "salted -x 990: the exact culprit"
is "$(jq -s '[.[] | select(.role == "good" or .role == "bad") | .decision.rule] | (length > 0) and all(. == "level" or . == "same-kernel")' \
	"$PERFBISECT_HOME/runs/latest/results.jsonl")" true "salted -x: every step is decided by pbstat level over its boots"
like "$(grep -cE '^step [0-9]+: [0-9a-f]{12}: boots [0-9.]+ [0-9.]+( [0-9.]+)*: ' "$PERFBISECT_HOME/runs/latest/state/measure.log")" '^[1-9]' \
	"salted -x: a step takes more than one boot"
m1=$(PB_RESULTS=$T_TMP/salt-a "$b/stages/samples.sh" -B 2 -m "$T_TMP/small" start -- -d det | tr '\n' ' ')
PB_RESULTS=$T_TMP/salt-b "$b/stages/samples.sh" -B 1 -m "$T_TMP/small" start -- -d det >/dev/null
m2=$(PB_RESULTS=$T_TMP/salt-b "$b/stages/samples.sh" -B 2 -m "$T_TMP/small" start -- -d det | tr '\n' ' ')
is "$m2" "$m1" "salted: boot 2 gives the same figure after a cached boot 1 as in one call"
unset STUB_SALTS STUB_SALT_EFFECT
export PB_SALT=0

# A cached failure is not measured again, and says how to retry;
# PB_RETRY_FAILED=1 does.
git init -q "$T_TMP/panics" && echo panic >"$T_TMP/panics/speed" && git -C "$T_TMP/panics" add speed &&
	git -C "$T_TMP/panics" -c user.name=t -c user.email=t@t commit -qm panics
run_rc "$b/stages/samples.sh" -n 1 "$T_TMP/panics" HEAD --
is "$rc" 20 "a kernel that panics: exit 20"
n=$(wc -l <"$STUB_LOG")
run_rc env PB_QUIET=0 "$b/stages/samples.sh" -n 1 "$T_TMP/panics" HEAD --
is "$rc:$(wc -l <"$STUB_LOG")" "20:$n" "a cached failure: the same code, nothing measured"
like "$(cat "$T_TMP/err")" 'cached failure .*PB_RETRY_FAILED=1 \(perfbisect --retry-failed\) measures it again' "a cached failure says how to retry"
PB_RETRY_FAILED=1 run_rc "$b/stages/samples.sh" -n 1 "$T_TMP/panics" HEAD --
is "$rc:$(wc -l <"$STUB_LOG")" "20:$((n + 1))" "PB_RETRY_FAILED=1: measured again"

# A saved bisect is resumed only while its measurement is the same: a
# changed measuring program starts afresh instead of mixing verdicts.
cp "$PB_MEASURE" "$T_TMP/m.sh"
PB_MEASURE=$T_TMP/m.sh run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1
is "$rc" 0 "state: a bisect with a copy of the measuring program"
echo "# changed" >>"$T_TMP/m.sh"
before=$(wc -l <"$STUB_LOG")
PB_MEASURE=$T_TMP/m.sh run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1
is "$rc" 0 "state: the same bisect after the measuring program changed"
unlike "$(cat "$PERFBISECT_HOME/runs/latest/bisect.log")" '^resuming' "state: a changed measuring program is not resumed"
[ "$(wc -l <"$STUB_LOG")" -gt "$before" ] && pass "state: a changed measuring program measures again" ||
	fail "state: a changed measuring program measures again"
# -R starts a finished bisect over; the results cache still serves it.
before=$(wc -l <"$STUB_LOG")
PB_MEASURE=$T_TMP/m.sh run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1 -R
is "$rc" 0 "-R: the bisect runs again"
like "$(cat "$PERFBISECT_HOME/runs/latest/bisect.log")" 'Bisecting: ' "-R: git bisect ran again, not a replay"
unlike "$(cat "$PERFBISECT_HOME/runs/latest/bisect.log")" '^resuming' "-R: nothing resumed"
[ "$(wc -l <"$STUB_LOG")" -le $((before + 2)) ] && pass "-R: cached boots reused (only the confirmation boots afresh)" ||
	fail "-R: cached boots reused (only the confirmation boots afresh)"

# 2. auto: deterministic mode misses the regression (detspeed equal at
# both ends): wall-clock mode is used, and the reason is given.
speed_of() { if [ "$1" -ge 12 ]; then echo 500; else echo 1000; fi; }
detspeed_of() { echo 1000; }
toy "$T_TMP/miss"
culprit=$(git -C "$T_TMP/miss" rev-parse tip~18)
run_rc env PB_MODE=auto "$b/bisect.sh" -t "$T_TMP/miss" -g start -b tip
is "$rc" 0 "auto: falls back to wall-clock and finds the culprit"
s=$PERFBISECT_HOME/runs/latest/summary.json
is "$(jq -r .culprit "$s")" "$culprit" "auto: the exact culprit in wall-clock mode"
is "$(jq -r .mode "$s")" wall "auto: summary.json says wall"
like "$(jq -r .mode_reason "$s")" 'deterministic ends check does not show the regression' "auto: summary.json says why"
like "$(cat "$PERFBISECT_HOME/runs/latest/bisect.log")" 'measuring in wall mode: the deterministic ends check does not' "auto: the log says which mode and why"
rm -rf "$PERFBISECT_HOME/bisect"
run_rc env PB_ACCEL=kvm "$b/bisect.sh" -t "$T_TMP/miss" -g start -b tip
is "$rc:$(jq -r .mode "$PERFBISECT_HOME/runs/latest/summary.json")" 0:wall "auto with PB_ACCEL=kvm: wall-clock mode, not an error"
like "$(jq -r .mode_reason "$PERFBISECT_HOME/runs/latest/summary.json")" 'PB_ACCEL=kvm' "auto with PB_ACCEL=kvm: says why"
run_rc "$b/bisect.sh" -t "$T_TMP/miss" -g start -b tip -d det
is "$rc" 15 "det: no regression in deterministic mode is exit 15"
like "$(cat "$T_TMP/err")" 'no regression between GOOD and BAD in deterministic mode.*try -d wall' "det: exit 15 says what to try"

# 3. A culprit that builds its parent's image (the stub's image hash is
# that of "speed"), though it measures slower: no answer (exit 18).
speed_of() { echo 1000; }
detspeed_of() { if [ "$1" -ge 7 ]; then echo 900; else echo 1000; fi; }
toy "$T_TMP/same"
run_rc "$b/bisect.sh" -t "$T_TMP/same" -g start -b tip -d det
is "$rc" 18 "an image byte-identical to its parent's is no culprit (exit 18)"
like "$(cat "$T_TMP/err")" 'byte-identical to its parent' "exit 18 says why"
is "$(jq .confirmed "$PERFBISECT_HOME/runs/latest/summary.json")" false "an identical image: summary.json says confirmed: false"

# 4. validate -d det: 2 boots each; a fix back, one 2.5% slower, one right
# at the tolerance (undecided: exit 19), each against -x 1.
vt=$T_TMP/vtoy
git init -q "$vt"
vc() { git -C "$vt" -c user.name=Toy -c user.email=toy@example.invalid commit -qam "$1"; }
echo 1000 >"$vt/speed" && git -C "$vt" add speed && vc good && git -C "$vt" tag good
echo 950 >"$vt/speed" && vc "the culprit" && git -C "$vt" tag bad
for f in back:1000 slow:975 edge:990; do
	git -C "$vt" checkout -q -b "${f%%:*}" bad 2>/dev/null
	echo "${f#*:}" >"$vt/speed" && vc "fix: ${f%%:*}"
	git -C "$vt" format-patch -q -1 --stdout >"$T_TMP/${f%%:*}.patch"
done
git -C "$vt" checkout -q bad 2>/dev/null
: >"$STUB_LOG"
export PB_RESULTS=$T_TMP/vres
run_rc "$b/validate.sh" -t "$vt" -B good -O bad -R -x 1 -d det "$T_TMP/back.patch" "$T_TMP/slow.patch"
is "$rc" 1 "validate det: a fix 2.5% slower is not back (exit 1)"
like "$(grep 'bad + back' "$T_TMP/out")" 'back to baseline .*deterministic, 2 boots' "validate det: the good fix is back to baseline after 2 boots"
like "$(grep 'bad + slow' "$T_TMP/out")" 'not back: -2\.[0-9]+% .*resolvable' "validate det: the slow fix is not back, and the table says what eps resolves"
# The good fix's tree is good's: one kernel, booted for both.
is "$(git -C "$vt" rev-parse "good^{tree}")" "$(git -C "$vt" rev-parse "back^{tree}")" "validate det: the good fix makes good's tree"
is "$(wc -l <"$STUB_LOG")" 6 "validate det: 3 kernels (4 rows) x 2 boots"
is "$(jq -r .mode "$PERFBISECT_HOME/runs/latest/summary.json")" det "validate det: summary.json has the mode"
vlog=$PERFBISECT_HOME/runs/latest
like "$(grep -c '^  CC ' "$vlog/measure.log")" '^[1-9]' "validate det: the boots' build logs go to measure.log"
is "$(grep -c '^  CC ' "$vlog/validate.log")" 0 "validate det: validate.log has no build output"
# Boot r of a kernel is the same on any day: the results cache has it.
cp "$PERFBISECT_HOME/runs/latest/rounds.tsv" "$T_TMP/rounds.1"
run_rc "$b/validate.sh" -t "$vt" -B good -O bad -R -x 1 -d det "$T_TMP/back.patch" "$T_TMP/slow.patch"
is "$rc:$(wc -l <"$STUB_LOG")" 1:6 "validate det again: the same answer, every boot from the results cache"
same_text "$(cat "$PERFBISECT_HOME/runs/latest/rounds.tsv")" "$(cat "$T_TMP/rounds.1")" \
	"validate det again: the same boot medians, round by round"
run_rc "$b/validate.sh" -t "$vt" -B good -O bad -R -x 1 -d det "$T_TMP/edge.patch"
is "$rc" 19 "validate det: a fix at the tolerance stays undecided (exit 19), not success"
like "$(grep 'bad + edge' "$T_TMP/out")" 'undecided' "validate det: the row says undecided"
unset PB_RESULTS

# Salted (PB_SALT=1): round r boots every kernel with salt r, and the
# paired rule of wall-clock mode decides.
: >"$STUB_LOG"
: >"$T_TMP/vsalts"
PB_RESULTS=$T_TMP/vres-salted PB_SALT=1 STUB_SALTS=$T_TMP/vsalts STUB_SALT_EFFECT=0.002 run_rc "$b/validate.sh" -t "$vt" -B good -O bad -R -x 1 -d det \
	"$T_TMP/back.patch" "$T_TMP/slow.patch"
is "$rc" 1 "validate det, salted: a fix 2.5% slower is not back (exit 1)"
like "$(grep 'bad + back' "$T_TMP/out")" 'back to baseline .*% CI .* over [0-9]+ rounds of salted deterministic boots' \
	"validate det, salted: the good fix is back, by the paired interval"
like "$(grep 'bad + slow' "$T_TMP/out")" 'not back: -2\.[0-9]+% .*salted' "validate det, salted: the slow fix is not back"
vr=$(jq .rounds "$PERFBISECT_HOME/runs/latest/summary.json")
is "$(cut -d' ' -f2 "$T_TMP/vsalts" | sort -n | uniq -c | awk '{ print $1 }' | sort -u | tr '\n' ' ')" "3 " \
	"validate det, salted: in each round all 3 kernels boot with that round's salt"
is "$(cut -d' ' -f2 "$T_TMP/vsalts" | sort -un | tail -1):$vr" "$vr:$vr" "validate det, salted: salts 1 to the number of rounds ($vr)"
is "$(jq .salted "$PERFBISECT_HOME/runs/latest/summary.json")" true "validate det, salted: summary.json says so"
# -M alone below the default 3 rounds: that many rounds, not a usage error.
run_rc env -u PB_SALT PB_RESULTS="$T_TMP/vres-salted" STUB_SALT_EFFECT=0.002 "$b/validate.sh" -t "$vt" -B good -O bad -R -x 1 -d det \
	-M 2 "$T_TMP/back.patch"
is "$rc:$(jq .rounds "$PERFBISECT_HOME/runs/latest/summary.json"):$(jq .salted "$PERFBISECT_HOME/runs/latest/summary.json")" \
	"$(grep -q 'back to baseline' "$T_TMP/out" && echo 0 || echo 19):2:true" "validate det -M 2 (salted, PB_SALT unset): 2 rounds"
PB_SALT=1 STUB_SALT_EFFECT=0.002 run_rc "$b/reproduce.sh" -t "$vt" -d det -x 1 good bad
like "$rc:$(grep '^reproduced' "$T_TMP/out")" '^0:reproduced: BAD is -[45](\.[0-9]+)?% against GOOD \(.*salted deterministic boots\)' \
	"reproduce det, salted: reproduced, by the paired interval"

# A threshold outside the ends' medians is refused at the ends check.
rm -rf "$PERFBISECT_HOME/bisect"
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 1 -x 5000
is "$rc" 2 "-x above GOOD's median: exit 2 at the ends check"
like "$(tail -1 "$T_TMP/err")" 'threshold 5000 \(-x\) is not between BAD.s median (979|980)[.0-9]* and GOOD.s median (999|1000)' "-x outside the ends: the error names both medians"

# reproduce (validate -P): GOOD and BAD alike, reproduced or not.
run_rc "$b/reproduce.sh" -t "$vt" -d det -x 1 good bad
is "$rc" 0 "reproduce det: a 5% regression is reproduced (exit 0)"
like "$(cat "$T_TMP/out")" 'reproduced: BAD is -[45](\.[0-9]+)?% against GOOD \(deterministic' "reproduce det: says so, with the effect"
like "$(cat "$T_TMP/out")" '^bad \(.* +10 +9[0-9][0-9]\.[0-9]' "reproduce det: the seed-style table row for bad"
is "$(jq -r .reproduced "$PERFBISECT_HOME/runs/latest/summary.json")" true "reproduce det: summary.json"
run_rc "$b/reproduce.sh" -t "$vt" -d det -x 6 good bad
is "$rc" 15 "reproduce det: 5% is not a 6% regression (exit 15)"
like "$(cat "$T_TMP/out")" 'not reproduced: BAD is -[45](\.[0-9]+)?% against GOOD, not shown slower than -6%' "reproduce det: not reproduced, with the reason"
run_rc "$b/reproduce.sh" -t "$vt" -d wall -x 1 -r 3 good bad
is "$rc" 0 "reproduce wall: reproduced in paired rounds"
like "$(cat "$T_TMP/out")" 'reproduced: BAD is -[0-9.]+% against GOOD \([0-9.]+% CI' "reproduce wall: with its interval"
run_rc "$b/reproduce.sh" -t "$vt" good
is "$rc" 2 "reproduce: GOOD without BAD is a usage error"
run_rc "$b/reproduce.sh" -t "$vt" -x 1 good bad "$T_TMP/back.patch"
is "$rc" 2 "reproduce: no patches"

# 5. Bad input: one line, a distinct code, nothing measured.
: >"$STUB_LOG"
run_rc env PB_ACCEL=kvm "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det
is "$rc" 30 "det with PB_ACCEL=kvm: exit 30"
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -C 9
is "$rc" 31 "det with more vCPUs than this QEMU supports: exit 31"
is "$(wc -l <"$T_TMP/err")" 1 "det with too many vCPUs: a one-line error"
run_rc env PB_ICOUNT=shift=99 "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det
is "$rc" 32 "a PB_ICOUNT that QEMU rejects: exit 32"
like "$(cat "$T_TMP/err")" 'QEMU rejects PB_ICOUNT' "exit 32 names the problem"
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d fast
is "$rc" 2 "an unknown mode: exit 2"
run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip -d det -E 0
is "$rc" 2 "a minimum effect of 0: exit 2"
runs_before=$(find "$PERFBISECT_HOME/runs" -mindepth 1 -maxdepth 1 | wc -l)
for bad_opt in "-k 0" "-T abc" "-C 0" "-J -5" "-w 999" "-W nosuch" "-c nosuch" "-e 999999999" "-n 0"; do
	read -ra o <<<"$bad_opt"
	run_rc "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip "${o[@]}"
	is "$rc:$(wc -l <"$T_TMP/err")" 2:1 "bisect $bad_opt: exit 2 with one line, before anything"
done
run_rc "$b/bisect.sh" -t "" -g start -b tip
is "$rc" 2 "bisect -t '': exit 2, not the lab"
run_rc "$b/bisect.sh" -g start -b tip
is "$rc" 2 "bisect -g/-b without -t: exit 2, not the lab"
run_rc "$b/validate.sh" -t "$vt" -B good -O bad -R -r 50 "$T_TMP/back.patch"
is "$rc" 2 "validate -r 50: exit 2"
run_rc "$b/validate.sh" -t "$vt" -B good -O bad -R -T 0 "$T_TMP/back.patch"
is "$rc" 2 "validate -T 0: exit 2"
is "$(find "$PERFBISECT_HOME/runs" -mindepth 1 -maxdepth 1 | wc -l)" "$runs_before" "bad options: no run directory made"
run_rc env PB_ROUNDS_MAX=21 "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip
is "$rc" 2 "more than 20 rounds: exit 2"
run_rc env PB_ROUNDS_BELOW=0 "$b/bisect.sh" -t "$T_TMP/small" -g start -b tip
like "$rc:$(cat "$T_TMP/err")" "^2:.*PB_ROUNDS_BELOW='0' is not a ratio above 0" "PB_ROUNDS_BELOW=0: exit 2, named"
run_rc "$b/measure.sh" -d det -C 9 "$T_TMP/small" start
is "$rc" 31 "measure -d det -C 9: exit 31"
run_rc env PB_ACCEL=kvm "$b/measure.sh" -I "$T_TMP/small" start
is "$rc" 30 "measure -I with PB_ACCEL=kvm: exit 30"
is "$(wc -l <"$STUB_LOG")" 0 "bad input: nothing was measured"
auto_runs=$(find "$PERFBISECT_HOME/runs" -maxdepth 1 -name '*-measure-*' | wc -l)
is "$auto_runs" 0 "bad input: measure made no run directory"

done_testing
