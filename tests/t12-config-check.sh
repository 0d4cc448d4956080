#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t12-config-check.sh: bisect/stages/config-check.sh names every requested option
# that did not survive olddefconfig, and only those.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
fx=$T_TOP/tests/fixtures/config
cc=$T_TOP/bisect/stages/config-check.sh

run_rc "$cc" "$fx/final.config" "$fx/survives.config"
is "$rc" 0 "all options survived: exit 0"
is "$(cat "$T_TMP/err")" "" "all options survived: no message"

run_rc "$cc" "$fx/final.config" "$fx/survives.config" "$fx/dropped.config"
is "$rc" 8 "dropped options: exit 8"
err=$(cat "$T_TMP/err")
is "$(wc -l <"$T_TMP/err")" 1 "one-line error"
like "$err" '3 requested option' "counts the dropped options"
like "$err" 'CONFIG_SERIAL_8250_CONSOLE \(wanted y, got n\)' "names a dropped option"
like "$err" 'CONFIG_NR_CPUS \(wanted 64, got 8\)' "names a changed value"
like "$err" 'CONFIG_TTY \(wanted n, got y\)' "names an option that should be off"
if grep -q 'CONFIG_SMP' "$T_TMP/err"; then fail "surviving option not named"; else pass "surviving option not named"; fi

run_rc "$cc" "$fx/final.config"
is "$rc" 2 "no fragment: usage error"
run_rc "$cc" "$fx/final.config" "$T_TMP/missing.config"
is "$rc" 2 "missing fragment: usage error"

# The real fragment must be well-formed: every line a comment or an option.
bad=$(grep -vE '^(#.*|CONFIG_[A-Z0-9_]+=.+|)$' "$T_TOP"/configs/*.config)
is "$bad" "" "configs/*.config hold only options and comments"
done_testing
