#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# config-check.sh: verify that every option requested by config fragments
# survived olddefconfig in a final .config; name each one that did not.
# Usage: config-check.sh [-l LIST] FINAL_CONFIG FRAGMENT...
#   -l LIST  write the dropped options to LIST, one a line, and exit 0
#            (for a base config, which is expected to lose some)
# Exit: 0 all survived, 8 (PB_CONFIG) some were dropped, 2 usage.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,8s/^# \{0,1\}//p' "$0"
	exit 0
	;;
esac
list=''
if [ "${1:-}" = -l ]; then
	[ $# -ge 2 ] || pb_die "$PB_USAGE" "-l needs a file"
	list=$2
	shift 2
fi
[ $# -ge 2 ] || pb_die "$PB_USAGE" "usage: config-check.sh FINAL_CONFIG FRAGMENT..."
final=$1
shift
[ -r "$final" ] || pb_die "$PB_USAGE" "cannot read config '$final'"

for frag in "$@"; do
	[ -r "$frag" ] || pb_die "$PB_USAGE" "cannot read fragment '$frag'"
done
# One pass (a distribution's config has thousands of lines): the final
# values first, then each request against them.
mapfile -t dropped < <(awk '
	function val(line, m) {
		if (match(line, /^CONFIG_[A-Za-z0-9_]+=/)) {
			m = substr(line, 1, RLENGTH - 1)
			name = m
			return substr(line, RLENGTH + 1)
		}
		if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) {
			split(line, w, " ")
			name = w[2]
			return "n"
		}
		name = ""
		return ""
	}
	FNR == NR { v = val($0); if (name != "") final[name] = v; next }
	{
		want = val($0)
		if (name == "")
			next
		got = (name in final) ? final[name] : "n"
		if (got != want)
			printf "%s (wanted %s, got %s)\n", name, want, got
	}' "$final" "$@")

if [ -n "$list" ]; then
	{ [ ${#dropped[@]} -eq 0 ] || printf '%s\n' "${dropped[@]}"; } >"$list.tmp" && mv -f "$list.tmp" "$list" ||
		pb_die "$PB_INTERNAL" "cannot write $list"
	exit 0
fi
if [ ${#dropped[@]} -gt 0 ]; then
	printf '%s: error: %d requested option(s) did not survive olddefconfig: %s\n' \
		"$PB_PROG" "${#dropped[@]}" "$(printf '%s, ' "${dropped[@]}" | sed 's/, $//')" >&2
	exit "$PB_CONFIG"
fi
exit 0
