#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# torture.sh: build one revision with configs/torture.config (the in-kernel
# semaphore and BKL torture tests, lockdep, list debugging, the hung-task and
# soft-lockup detectors), boot it and report whether the torture passed.
# Verdicts are cached by tree.
# Usage: torture.sh [-C CPUS] REPO REV
# Prints "pass", or "fail: <reason>". Exit: 0 pass, 1 fail, 125 does not
# build, other codes as build.sh and boot.sh.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ "${1:-}" = --help ] && {
	sed -n '3,9s/^# \{0,1\}//p' "$0"
	exit 0
}
cpus=2
while getopts C:h opt; do
	case $opt in
	C) cpus=$OPTARG ;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || pb_die "$PB_USAGE" "expected REPO and REV (see --help)"
repo=$(pb_resolve_repo "$1") || exit
sha=$(pb_resolve_rev "$repo" "$2") || exit
pb_is_uint "$cpus" || pb_die "$PB_USAGE" "-C takes a number of vCPUs"

measure=${PB_MEASURE:-$PB_TOP/bisect/measure.sh}
key=$(pb_measure_key "$repo" "$sha" "$measure" torture "$cpus")
dir="$PERFBISECT_HOME/torture/$key"
if [ -f "$dir/verdict" ]; then
	cat "$dir/verdict"
	[ "$(cat "$dir/verdict")" = pass ]
	exit
fi
mkdir -p "$dir" || pb_die "$PB_INTERNAL" "cannot create $dir"
run=$(mktemp -d "$dir/run.XXXXXX") || pb_die "$PB_INTERNAL" "cannot create a run dir"
"$measure" -c torture -C "$cpus" -P none -o "$run" "$repo" "$sha" >/dev/null
code=$?
case $code in
0 | 20 | 21 | 22 | 23 | 24 | 25) ;;
*) exit "$code" ;;
esac
result=$(sed -n 's/^PERFBISECT torture=\([0-9]\)$/\1/p' "$run/results" | tail -1)
reason=$(grep -a -m1 -o 'BUG: .*\|list_add corruption.*\|list_del corruption.*\|blocked for more than.*' \
	"$run/console.log" 2>/dev/null | tr -cd '[:print:]' | cut -c1-100)
if [ "$code" -eq 0 ] && [ "$result" = 0 ]; then
	verdict=pass
elif [ -z "$result" ] && [ "$code" -eq 0 ]; then
	pb_die "$PB_NORESULT" "${sha:0:12}: the kernel has no semaphore torture test (not a lab tree?)"
else
	verdict="fail: ${reason:-$(cat "$run/outcome"), torture result ${result:-none}}"
fi
rm -rf "$dir/last-run"
mv "$run" "$dir/last-run"
echo "$verdict" | pb_atomic_write "$dir/verdict"
echo "$verdict"
[ "$verdict" = pass ]
