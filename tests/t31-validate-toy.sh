#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t31-validate-toy.sh: fix validation on a toy repository with the stub
# measurement: a fix that is back to baseline, one that is not, one that is
# fast but fails the torture, and one that does not apply (nothing changed).
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PB_MODE=wall PERFBISECT_HOME=$T_TMP/home PB_QUIET=1
export PB_MEASURE=$T_TOP/tests/stub-measure.sh STUB_LOG=$T_TMP/calls
v=$T_TOP/bisect/validate.sh

toy=$T_TMP/toy
git init -q "$toy"
cm() {
	git -C "$toy" -c user.name=Toy -c user.email=toy@example.invalid commit -qam "$1"
}
printf '1000\n' >"$toy/speed"
printf '0\n' >"$toy/torture"
git -C "$toy" add speed torture && cm "good"
git -C "$toy" tag good
printf '600\n' >"$toy/speed" && cm "the culprit"
git -C "$toy" tag bad
# mkpatch NAME SPEED TORTURE: a patch on top of bad setting both files.
mkpatch() {
	git -C "$toy" checkout -q bad 2>/dev/null
	printf '%s\n' "$2" >"$toy/speed"
	printf '%s\n' "$3" >"$toy/torture"
	cm "fix: $1"
	git -C "$toy" format-patch -q -1 --stdout >"$T_TMP/$1.patch"
	git -C "$toy" checkout -q - 2>/dev/null
	git -C "$toy" reset -q --hard bad
}
git -C "$toy" checkout -q -b work bad
mkpatch back 1000 0
mkpatch partial 800 0
mkpatch racy 1010 1
# a patch on good, for validating good against itself
git -C "$toy" checkout -q good 2>/dev/null
printf 'x\n' >"$toy/notes" && git -C "$toy" add notes && cm "notes"
git -C "$toy" format-patch -q -1 --stdout >"$T_TMP/notes.patch"
git -C "$toy" checkout -q work 2>/dev/null
git -C "$toy" reset -q --hard bad
printf -- '--- a/nosuch\n+++ b/nosuch\n@@ -1 +1 @@\n-x\n+y\n' >"$T_TMP/broken.patch"
snapshot() {
	(cd "$toy" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
}
# mtimes: every file's modification time in the user's tree and .git
# (the index and loose objects included).
mtimes() {
	(cd "$toy" && find . -type f -printf '%T@ %p\n' | LC_ALL=C sort -k2)
}
before=$(snapshot) before_t=$(mtimes)

# The stub's noise resolves about 2.5% in 3 to 8 rounds: a 5% tolerance.
run_rc "$v" -t "$toy" -B good -O bad -r 3 -x 5 "$T_TMP/back.patch"
is "$rc" 0 "a fix back to baseline: exit 0"
like "$(cat "$T_TMP/out")" 'bad \+ back +[^|]*back to baseline .*torture pass' "table row says back, torture pass"
latest=$PERFBISECT_HOME/runs/latest
is "$(jq -r '.fixes[0].name' "$latest/summary.json")" back "summary.json fixes[0].name"
# The fix commit's hash (its date) draws the stub's noise: a median of
# 4 samples, +-3% each, over 3-8 rounds; back within -x 5 is above 0.95.
like "$(jq -c '.fixes[0]' "$latest/summary.json")" '"jpm":[0-9.]+,"ratio_to_good":(0\.9[5-9]|1[.,])' "summary.json fixes[0] has jpm and ratio_to_good (above 0.95)"
rounds=$(jq -r '.rounds' "$latest/summary.json")
if [ "$rounds" -ge 3 ] && [ "$rounds" -le 8 ]; then
	pass "between -r 3 and the default cap of 8 rounds ($rounds)"
else
	fail "between -r 3 and the default cap of 8 rounds (got '$rounds')"
fi
is "$(($(wc -l <"$latest/samples.tsv") - 1))" $((rounds * 3 * 4)) "samples.tsv keeps every sample: rounds x 3 kernels x 4"
is "$(($(wc -l <"$latest/rounds.tsv") - 1))" $((rounds * 3)) "rounds.tsv: one median per kernel and round"
is "$(awk -F'\t' '$1 == 2 { print $2; exit }' "$latest/rounds.tsv")" unfixed "the order rotates: round 2 starts with the second kernel"
like "$(cat "$T_TMP/out")" 'Tasks +Jobs/Min .*JTI +Real +CPU +Jobs/sec/task +idle% +vs good' "table has the seed's columns"

# Within the noise is no success: boots that differ by up to 20% cannot
# resolve a 2% tolerance in 3 rounds.
run_rc env STUB_BOOT_NOISE=0.2 "$v" -t "$toy" -B good -O bad -r 3 -M 3 -x 2 "$T_TMP/back.patch"
is "$rc" 19 "a fix within the noise of 20% boots: undecided, exit 19"
like "$(grep '^bad + back' "$T_TMP/out")" 'undecided: within the noise \(.*; the noise resolves a tolerance of [0-9.]+% here\)' \
	"the table says which tolerance the noise resolves"
run_rc "$v" -t "$toy" -B good -O bad -r 3 "$T_TMP/back.patch" "$T_TMP/partial.patch"
is "$rc" 1 "one fix not back: exit 1"
like "$(grep '^bad + partial' "$T_TMP/out")" 'not back: -[12][0-9.]*% \([0-9.]+% CI -[0-9.]+%..-[0-9.]+% over [0-9]+ rounds' "partial fix: the measured gap and its interval"
is "$(cut -f1 "$latest/vs-baseline.dat" | tr '\n' ' ')" "unfixed back partial " "the chart against the baseline: ON and each fix"
grep -q '<svg' "$latest/vs-baseline.svg" && grep -q 'the tolerance' "$latest/vs-baseline.svg" &&
	pass "vs-baseline.svg: the bars and the tolerance" || fail "vs-baseline.svg: the bars and the tolerance"

run_rc "$v" -t "$toy" -B good -O bad -r 3 "$T_TMP/racy.patch"
is "$rc" 1 "fast fix that fails the torture: exit 1"
like "$(grep '^bad + racy' "$T_TMP/out")" 'rejected: torture fail' "fast but racy fix rejected by the torture"

# ON no slower than BASE: the validation runs, with a warning.
run_rc "$v" -t "$toy" -B good -O good -r 3 -M 3 -R "$T_TMP/notes.patch"
like "$rc:$(cat "$T_TMP/err")" '^(0|19):.*warning: ON [0-9a-f]{12} is not measurably slower than BASE' "ON no slower than BASE: warned, not refused (exit $rc)"

calls=$(wc -l <"$STUB_LOG")
runs=$(find "$PERFBISECT_HOME/runs" -mindepth 1 -maxdepth 1 -type d | wc -l)
run_rc "$v" -t "$toy" -B good -O bad -r 3 "$T_TMP/back.patch" "$T_TMP/broken.patch"
is "$rc" 17 "a patch that does not apply: exit 17"
is "$(wc -l <"$T_TMP/err")" 1 "one-line error"
like "$(cat "$T_TMP/err")" 'broken.patch does not apply' "the error names the patch"
is "$(wc -l <"$STUB_LOG")" "$calls" "nothing measured when a patch does not apply"
is "$(find "$PERFBISECT_HOME/runs" -mindepth 1 -maxdepth 1 -type d | wc -l)" "$runs" "no run directory made"
run_rc "$v" -t "$toy" -B good -O bad "$T_TMP/missing.patch"
is "$rc" 17 "a missing patch: exit 17"
run_rc "$v" -t "$toy" -B good -O bad -x lots "$T_TMP/back.patch"
is "$rc" 2 "tolerance not a number: exit 2"
run_rc "$v" -t "$toy" -B good -O bad -r 1 "$T_TMP/back.patch"
is "$rc:$(cat "$T_TMP/err")" "2:validate.sh: error: rounds (-r) '1' is not a whole number from 2 to 20" "one round is too few: exit 2"
run_rc "$v" -t "$toy" -B good -O bad -r 5 -M 4 "$T_TMP/back.patch"
is "$rc" 2 "a cap below the minimum rounds: exit 2"
is "$(snapshot)" "$before" "user's tree byte-for-byte unchanged"
same_text "$(mtimes)" "$before_t" "user's files, index and objects keep their modification times"
done_testing
