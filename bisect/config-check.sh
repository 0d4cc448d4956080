#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# config-check.sh: verify that every option requested by config fragments
# survived olddefconfig in a final .config; name each one that did not.
# Usage: config-check.sh FINAL_CONFIG FRAGMENT...
# Exit: 0 all survived, 8 (PB_CONFIG) some were dropped, 2 usage.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,6s/^# \{0,1\}//p' "$0"
	exit 0
	;;
esac
[ $# -ge 2 ] || pb_die "$PB_USAGE" "usage: config-check.sh FINAL_CONFIG FRAGMENT..."
final=$1
shift
[ -r "$final" ] || pb_die "$PB_USAGE" "cannot read config '$final'"

dropped=()
for frag in "$@"; do
	[ -r "$frag" ] || pb_die "$PB_USAGE" "cannot read fragment '$frag'"
	while IFS= read -r line || [ -n "$line" ]; do
		name='' want=''
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			name=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			name=${BASH_REMATCH[1]} want=n
		else
			continue
		fi
		got=$(grep -m1 -E "^$name=|^# $name is not set\$" "$final")
		case $got in
		"$name="*) got=${got#"$name="} ;;
		*) got=n ;;
		esac
		[ "$got" = "$want" ] || dropped+=("$name (wanted $want, got $got)")
	done <"$frag"
done

if [ ${#dropped[@]} -gt 0 ]; then
	printf '%s: error: %d requested option(s) did not survive olddefconfig: %s\n' \
		"$PB_PROG" "${#dropped[@]}" "$(printf '%s, ' "${dropped[@]}" | sed 's/, $//')" >&2
	exit "$PB_CONFIG"
fi
exit 0
