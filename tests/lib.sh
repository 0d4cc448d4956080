# SPDX-License-Identifier: GPL-2.0
# tests/lib.sh: TAP helpers for perfbisect's shell tests (sourced).
# Usage: . "$(dirname "$0")/lib.sh"; ok COND_CMD... ; is GOT WANT DESC; done_testing
# shellcheck shell=bash disable=SC2034

T_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${PERFBISECT_HOME:=${XDG_CACHE_HOME:-$HOME/.cache}/perfbisect}"
export PERFBISECT_HOME
T_N=0
T_FAIL=0
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/perfbisect-test.XXXXXX")
[ "${T_KEEP:-0}" = 1 ] || trap 'rm -rf "$T_TMP"' EXIT

# pass DESC: record a passing test.
pass() {
	T_N=$((T_N + 1))
	echo "ok $T_N - $*"
}

# fail DESC: record a failing test.
fail() {
	T_N=$((T_N + 1))
	T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_N - $*"
}

# is GOT WANT DESC: pass when GOT equals WANT.
is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
	fi
}

# like GOT REGEX DESC: pass when GOT matches the extended REGEX.
like() {
	if printf '%s\n' "$1" | grep -qE -- "$2"; then
		pass "$3"
	else
		fail "$3"
		printf '#   got:  %s\n#   want: /%s/\n' "$1" "$2" | head -20
	fi
}

# same_text GOT WANT DESC: pass when the texts are equal; else show the
# lines that differ (< want, > got).
same_text() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3"
		diff <(printf '%s\n' "$2") <(printf '%s\n' "$1") | head -10 | sed 's/^/#   /'
	fi
}

# unlike GOT REGEX DESC: pass when no line of GOT matches the extended REGEX.
unlike() {
	if printf '%s\n' "$1" | grep -qE -- "$2"; then
		fail "$3"
		printf '%s\n' "$1" | grep -E -- "$2" | head -5 | sed 's/^/#   matches: /'
	else
		pass "$3"
	fi
}

# t_build NAME: build the C helper bisect/tools/NAME.c into $T_TMP/NAME with the
# project's flags; a failure fails the test and ends the script.
t_build() {
	if make -s -C "$T_TOP/bisect/tools" O="$T_TMP" "$T_TMP/$1" >"$T_TMP/cc" 2>&1; then
		pass "$1 builds with -Wall -Wextra -Werror"
	else
		fail "$1 builds with -Wall -Wextra -Werror"
		sed 's/^/#   /' "$T_TMP/cc" | head -20
		done_testing
		exit 1
	fi
}

# t_toy DIR N: a toy history for the stub measurement: "start" (a file
# "speed" of 1000), then N commits, commit I with the "speed" that the
# caller's speed_of I prints. A caller's toy_extra DIR I, when defined,
# adds more to commit I (its index is committed too). Fixed dates: the
# same hashes on every run.
t_toy() {
	local dir=$1 n=$2 i
	git init -q "$dir"
	echo 1000 >"$dir/speed"
	git -C "$dir" add speed
	git -C "$dir" -c user.name=Toy -c user.email=toy@example.invalid commit -qm start
	git -C "$dir" tag start
	for i in $(seq 1 "$n"); do
		speed_of "$i" >"$dir/speed"
		echo "$i" >>"$dir/log"
		git -C "$dir" add log
		! declare -F toy_extra >/dev/null || toy_extra "$dir" "$i"
		GIT_AUTHOR_DATE="@$((1600000000 + i * 60)) +0000" GIT_COMMITTER_DATE="@$((1600000000 + i * 60)) +0000" \
			git -C "$dir" -c user.name=Toy -c user.email=toy@example.invalid commit -qam "toy: change $i"
	done
	git -C "$dir" tag tip
}

# run_rc CMD...: run CMD; its exit code goes to $rc, its stdout to
# $T_TMP/out and its stderr to $T_TMP/err.
rc=0
run_rc() {
	"$@" >"$T_TMP/out" 2>"$T_TMP/err"
	rc=$?
}

# done_testing: print the plan and exit non-zero when a test failed.
done_testing() {
	echo "1..$T_N"
	[ "$T_FAIL" -eq 0 ]
}
