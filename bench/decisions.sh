#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# decisions.sh: how often do the decision rules of a bisect in rounds
# decide, and how often do they name a wrong culprit? Simulates whole
# bisects with pbsim (bisect/tools/pbsim.c), which runs perfbisect's own rules
# (bisect/tools/decide.c, the code pbstat runs for step.sh and bisect.sh) over
# regression sizes 2-60% and boot-to-boot noise (sigma, sd of a boot's
# log throughput) 0-0.25, and prints a table per rule, with a column of
# boots per bisect.
# Usage: bench/decisions.sh [-n BISECTS] [-r ROUNDS] [-s SEED] [-R RULE]... [RESULT_FILE]
#   -n: simulated bisects per cell (default 500); -r: at most ROUNDS
#   rounds a step (default PB_ROUNDS_MAX, 10); -R: sprt (the rule steps
#   use), place (the rule before it) and/or level (a threshold given
#   with -x in wall-clock mode), default all three; search: a
#   probabilistic bisection over every round of the bisect (pbsim --rule
#   search; no steps: the step columns count the whole search as one,
#   within 5 rounds a halving of the range); or salted: sprt over
#   salted deterministic boots (bisect.sh -d det with PB_SALT=1; pbsim
#   --salted 1), where sigma is a salt's effect: sizes 1-20%, sigma
#   0.002-0.012, minimum effect 1%; or salted-level: a threshold given
#   with -x over salted deterministic boots (pbsim --rule level --salted
#   1), the same cells.
# Last line: "wrong culprits: N of M (P%), worst cell Q%; steps decided
# within 5 rounds: A% at 20%/sigma 0.10; steps decided: B% at 10%/sigma
# 0.05", of the first rule (issue 18's targets: A 95, B 90); for search:
# "...; searches decided within 5 rounds a halving: A% at 20%/sigma 0.10;
# bisects decided: B% at 10%/sigma 0.05"; for salted
# and salted-level:
# "...; bisects decided: A% at 3%/sigma 0.008; steps decided: B% at
# 2%/sigma 0.006".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../bisect/lib.sh
. "$top/bisect/lib.sh"
bisects=500 rounds=${PB_ROUNDS_MAX:-10} seed=1 rules=()
pb_help_first "$@"
while getopts n:r:s:R:h opt; do
	case $opt in
	n) bisects=$OPTARG ;;
	r) rounds=$OPTARG ;;
	s) seed=$OPTARG ;;
	R) rules+=("$OPTARG") ;;
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || pb_die "$PB_USAGE" "at most one result file (see --help)"
pb_check_range "simulated bisects (-n)" "$bisects" 1 1000000
pb_check_range "rounds a step (-r)" "$rounds" 3 40
pb_check_range "seed (-s)" "$seed" 1 2147483647
[ ${#rules[@]} -gt 0 ] || rules=(sprt place level)
for r in "${rules[@]}"; do
	case $r in
	sprt | place | level | search | salted | salted-level) ;;
	*) pb_die "$PB_USAGE" "-R: the rule is sprt, place, level, search, salted or salted-level, not '$r'" ;;
	esac
done
out=${1:-}
if [ -n "$out" ]; then
	: >"$out.tmp" || pb_die "$PB_USAGE" "cannot write $out"
fi
pbsim=$(pb_tool pbsim) || exit
tmp=$(mktemp -d) || pb_die "$PB_INTERNAL" "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT

first=''
for r in "${rules[@]}"; do
	pb_info "rule $r: $bisects bisects in each of 36 cells"
	if [ "${r%-level}" = salted ]; then
		set -- --rule "$([ "$r" = salted ] && echo sprt || echo level)" --salted 1 --min-effect 1 \
			--sizes 1,2,3,5,10,20 --sigmas 0.002,0.004,0.006,0.008,0.01,0.012
	else
		set -- --rule "$r" --sizes 2,5,10,20,40,60 --sigmas 0,0.05,0.1,0.15,0.2,0.25
	fi
	"$pbsim" "$@" --bisects "$bisects" --max-rounds "$rounds" --seed "$seed" >"$tmp/$r" ||
		pb_die "$PB_INTERNAL" "pbsim failed"
	cat "$tmp/$r"
	echo
	[ -n "$first" ] || first=$r
done
# cell SIZE SIGMA COLUMN: a figure of the first rule's table.
cell() {
	awk -v s="$1" -v g="$2" -v c="$3" '$1 == s && $2 == g { print $c }' "$tmp/$first"
}
worst=$(awk '$1 ~ /^[0-9.]+$/ && NF == 13 && $4 > w { w = $4 } END { print w + 0 }' "$tmp/$first")
if [ "${first%-level}" = salted ]; then
	last="$(tail -1 "$tmp/$first"), worst cell $worst%; bisects decided: $(cell 3 0.008 3)% at 3%/sigma 0.008; steps decided: $(cell 2 0.006 8)% at 2%/sigma 0.006"
elif [ "$first" = search ]; then
	last="$(tail -1 "$tmp/$first"), worst cell $worst%; searches decided within 5 rounds a halving: $(cell 20 0.1 9)% at 20%/sigma 0.10; bisects decided: $(cell 10 0.05 3)% at 10%/sigma 0.05"
else
	last="$(tail -1 "$tmp/$first"), worst cell $worst%; steps decided within 5 rounds: $(cell 20 0.1 9)% at 20%/sigma 0.10; steps decided: $(cell 10 0.05 8)% at 10%/sigma 0.05"
fi
if [ -n "$out" ]; then
	{
		for r in "${rules[@]}"; do
			cat "$tmp/$r"
			echo
		done
		echo "$last"
	} >"$out.tmp" && mv -f "$out.tmp" "$out" || pb_die "$PB_INTERNAL" "cannot write $out"
fi
echo "$last"
