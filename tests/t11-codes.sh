#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t11-codes.sh: the exit-code contract: every component code maps onto
# git bisect run's 0 good, 1 bad, 125 skip, 255 abort.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
. "$T_TOP/bisect/lib.sh"

while read -r name want; do
	is "$(pb_bisect_code "${!name}")" "$want" "$name (${!name}) -> $want"
done <<'TABLE'
PB_OK 0
PB_BAD 1
PB_USAGE 255
PB_NOTREPO 255
PB_BADREV 255
PB_NOTOOL 255
PB_BUSY 255
PB_NOTKERNEL 255
PB_CONFIG 125
PB_INTERNAL 255
PB_INTERRUPTED 255
PB_DIRTY 255
PB_SAMEENDS 255
PB_REVERSED 255
PB_UNRELATED 255
PB_NOREGRESSION 255
PB_UNDECIDED 255
PB_NOPATCH 255
PB_UNCONFIRMED 255
PB_NOTCONFIG 255
PB_NOMETRIC 255
PB_PANIC 125
PB_OOPS 125
PB_BUG 125
PB_HANG 125
PB_TIMEOUT 125
PB_NORESULT 125
PB_PAYLOAD 125
PB_NOBOOT 125
PB_NOBUILD 125
TABLE
is "$(pb_bisect_code 4)" 255 "a raw 4 from a helper aborts, never reads as bad"
is "$(pb_bisect_code 126)" 255 "126 (not executable) aborts"
is "$(pb_bisect_code 127)" 255 "127 (command not found) aborts"

# Every code in the table is distinct.
codes=$(grep -E '^PB_[A-Z]+=[0-9]+' "$T_TOP/bisect/lib.sh" | sed 's/[^=]*=\([0-9]*\).*/\1/' | sort)
is "$(uniq -d <<<"$codes")" "" "component exit codes are distinct"
done_testing
