#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t05-lint.sh: shellcheck on every shell script, the kernel's checkpatch.pl
# on every C source and every kernel patch, -Wall -Wextra -Werror builds.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 2

mapfile -t scripts < <(git ls-files -co --exclude-standard | while read -r f; do
	[ -f "$f" ] || continue
	case $f in
	*.sh | .ci/run | bisect/perfbisect | tests/run | initramfs/init) echo "$f" ;;
	esac
done)
for f in "${scripts[@]}"; do
	if out=$(shellcheck -S warning "$f" 2>&1); then
		pass "shellcheck $f"
	else
		fail "shellcheck $f"
		printf '%s\n' "$out" | head -10 | sed 's/^/#   /'
	fi
done

src=$("$T_TOP/bisect/kernel-src.sh" 2>/dev/null) || {
	fail "kernel tree for checkpatch.pl"
	done_testing
	exit
}
cp=$src/scripts/checkpatch.pl
for f in bisect/tools/*.c bisect/tools/*.h reproducer/*.c reproducer/*.h reproducer/tests/*.c reproducer/tests/*.h workloads/*.c; do
	[ -f "$f" ] || continue
	if out=$("$cp" --no-tree -f --terse "$f" 2>&1); then
		pass "checkpatch $f"
	else
		fail "checkpatch $f"
		printf '%s\n' "$out" | head -5 | sed 's/^/#   /'
	fi
done
for f in patches/lab/*.patch patches/fixes/*.patch patches/small/*.patch patches/test/*.patch; do
	[ -f "$f" ] || continue
	if out=$(cd "$src" && "$cp" --terse "$T_TOP/$f" 2>&1); then
		pass "checkpatch $f"
	else
		fail "checkpatch $f"
		printf '%s\n' "$out" | head -5 | sed 's/^/#   /'
	fi
done
if make -s -C bisect/tools O="$T_TMP/tools" all >"$T_TMP/cc" 2>&1; then
	pass "bisect/tools/*.c build with -Wall -Wextra -Werror"
else
	fail "bisect/tools/*.c build with -Wall -Wextra -Werror"
	head -5 "$T_TMP/cc" | sed 's/^/#   /'
fi
done_testing
