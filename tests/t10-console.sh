#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t10-console.sh: the console parser (bisect/pbconsole) on fixture logs:
# clean, panic, oops, warning, cut off mid-line, NUL and binary bytes,
# forged result lines, two result lines, no result, failed payload.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
. "$T_TOP/bisect/lib.sh"
PERFBISECT_HOME=$T_TMP/home
pbc=$(pb_tool pbconsole)
fx=$T_TOP/tests/fixtures/console

outcome() { "$pbc" outcome "$fx/$1"; }
results() { "$pbc" results "$fx/$1" 2>/dev/null; }

is "$(outcome clean.log)" ok "clean log: outcome ok"
is "$(results clean.log | wc -l)" 3 "clean log: three result lines"
is "$(results clean.log | sed -n 2p)" \
	"PERFBISECT sample=1 warmup=0 tasks=100 jobs=20 jpm=5123.4 jti=91.0 real=23.420 cpu=40.100 jpst=0.8539 idle=3.2 csw_per_job=41.5" \
	"clean log: sample line passed through unchanged"
is "$(results clean.log | grep -c 'Jobs/Min')" 0 "human table lines are not results"

is "$(outcome panic.log)" panic "panic log: outcome panic"
is "$(results panic.log | wc -l)" 0 "panic log: no results"
is "$(outcome oops.log)" oops "oops log: oops wins over the exit line"
is "$(outcome warning.log)" bug "WARNING: counts as bug"
is "$(outcome noresult.log)" noresult "no exit line: noresult"
is "$(outcome payload.log)" payload "exit=4: payload failed"

is "$(results two.log | grep -c ' sample=')" 2 "two sample lines both read"
is "$(results two.log | awk '/ sample=2 /{print $6}')" jpm=5200.0 "second sample keeps its own value"

is "$(results cut.log | grep -c 'sample=')" 1 "line cut off at EOF is dropped"
"$pbc" results "$fx/cut.log" 2>"$T_TMP/err" >/dev/null
like "$(cat "$T_TMP/err")" 'line 4: ignored result line: cut off' "cut line is reported with its line number"
is "$(outcome cut.log)" ok "cut log still has its exit line"

is "$(results binary.log | grep -c 'sample=')" 1 "binary log: only the clean sample survives"
is "$(results binary.log | grep -c 'jpm=4321.0$')" 1 "binary log: CRLF stripped"
"$pbc" results "$fx/binary.log" 2>"$T_TMP/err" >/dev/null
like "$(cat "$T_TMP/err")" 'NUL byte' "binary log: NUL inside a result line rejected"
is "$(outcome binary.log)" ok "binary log: outcome ok"

is "$(results forged.log | grep -c 'sample=')" 0 "forged values are all rejected"
"$pbc" results "$fx/forged.log" 2>"$T_TMP/err" >/dev/null
is "$(grep -c 'ignored result line' "$T_TMP/err")" 8 "each forged line reported"
like "$(cat "$T_TMP/err")" 'repeated key' "repeated key named"
like "$(cat "$T_TMP/err")" 'not a plain decimal' "non-numeric value named"
is "$(outcome forged.log)" ok "forged lines do not change the outcome"

printf 'PERFBISECT exit=0\n' | "$pbc" outcome >"$T_TMP/o"
is "$(cat "$T_TMP/o")" ok "reads stdin"
run_rc "$pbc" bogus
is "$rc" 2 "unknown mode: usage error"
run_rc "$pbc" results "$T_TMP/nonexistent"
is "$rc" 3 "missing log: distinct error"

# A 100 KiB line of garbage neither crashes the parser nor becomes a result.
{
	printf 'PERFBISECT jpm='
	head -c 100000 /dev/zero | tr '\0' 9
	printf '\nPERFBISECT exit=0\n'
} >"$T_TMP/long.log"
is "$("$pbc" results "$T_TMP/long.log" 2>/dev/null)" "PERFBISECT exit=0" "overlong line rejected"
done_testing
