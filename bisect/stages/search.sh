#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# search.sh: a bisect without steps (bisect.sh -S): a probabilistic
# bisection of the first-parent line from GOOD to BAD in wall-clock rounds.
# Every round boots the commit that pbstat search names (even odds on the
# culprit before or after it), GOOD, BAD and the commit again, and every
# round of the search stays evidence, whichever commit it booted.
# Usage: search.sh STATE_DIR [-- MEASURE_OPTION...]
# STATE_DIR is made by bisect.sh: repo, ends (GOOD and BAD), line (the
# commits after GOOD up to BAD, oldest first: commit i is line i), pool
# (the end pairs so far and "c C1 C2" candidate pairs). Kept there:
# search (a line a round: INDEX SHA GOOD BAD C1 C2), search-skip (commits
# that did not build or boot), search-result (pbstat search's last line),
# search-verdicts (SHA good|bad|searched, for the report), decisions, and
# search-same: the commits (by index) that cannot be the culprit: they
# build their parent's kernel (same-kernel.sh: comments, files outside
# the build), or, from either end, GOOD's or BAD's (by the dependency
# lists of the ends' builds); PB_SAME_KERNEL=0 counts every commit.
# Exit 0: a culprit holds 99.5% (search-result: culprit=INDEX); 1: no
# answer within PB_ROUNDS_MAX rounds a halving (undecided); 10:
# interrupted; another code: a failure, said on stderr.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

pb_help_first "$@"
state=${1:-}
[ -d "$state" ] || pb_die "$PB_USAGE" "usage: search.sh STATE_DIR [-- MEASURE_OPTION...]"
shift
[ "${1:-}" = -- ] && shift
repo=$(cat "$state/repo") || pb_die "$PB_INTERNAL" "no repo recorded in $state"
read -r gsha bsha <"$state/ends" || pb_die "$PB_INTERNAL" "no ends recorded in $state"
mapfile -t line <"$state/line" || pb_die "$PB_INTERNAL" "no line of commits in $state"
n=${#line[@]}
[ "$n" -ge 2 ] || pb_die "$PB_INTERNAL" "$state/line holds $n commits; a search needs 2 or more"
pbstat=$(pb_tool pbstat) || exit
rounds_max=${PB_ROUNDS_MAX:-10}
log="$state/measure.log"
unit=$(pb_score_unit "$@")
touch "$state/search" "$state/search-skip" "$state/pool" || pb_die "$PB_INTERNAL" "cannot write in $state"

# say LINE: a progress line, on stderr and in the run's progress.txt.
progress="$(cat "$state/run" 2>/dev/null || echo "$state")/progress.txt"
say() {
	pb_info "$1"
	echo "$1" >>"$progress"
}
# sha_of INDEX: commit INDEX of the line (0: GOOD).
sha_of() {
	if [ "$1" -eq 0 ]; then echo "$gsha"; else echo "${line[$1 - 1]}"; fi
}
# look: pbstat search over every round so far into result (its line) and
# verdict; fields into query, culprit, p.
look() {
	local at=() g=() b=() c=() pg=() pb=() pc=() skip=() rc
	mapfile -t at < <(awk 'NF == 6 { print $1 }' "$state/search")
	mapfile -t g < <(awk 'NF == 6 { print $3 }' "$state/search")
	mapfile -t b < <(awk 'NF == 6 { print $4 }' "$state/search")
	mapfile -t c < <(awk 'NF == 6 { print $5; print $6 }' "$state/search")
	mapfile -t pg < <(awk 'NF == 2 { print $1 }' "$state/pool")
	mapfile -t pb < <(awk 'NF == 2 { print $2 }' "$state/pool")
	mapfile -t pc < <(awk '$1 == "c" && NF == 3 { print $2; print $3 }' "$state/pool")
	mapfile -t skip < <(grep . "$state/search-skip")
	result=$("$pbstat" search --commits "$n" --cand-boots 2 --max-rounds "$rounds_max" \
		-a "${at[@]}" -g "${g[@]}" -b "${b[@]}" -c "${c[@]}" \
		-G "${pg[@]}" -B "${pb[@]}" -C "${pc[@]}" -s "${skip[@]}" -z "${same[@]}" 2>&1)
	rc=$?
	verdict=$(pb_verdict "$rc") || pb_die "$PB_INTERNAL" "pbstat search failed: $result"
	query=$(pb_field query "$result") culprit=$(pb_field culprit "$result") p=$(pb_field p_culprit "$result")
	rounds=${#at[@]}
}
# find_same: the commits of the line that cannot be the culprit, into
# search-same (kept for a resumed search; nothing is built).
find_same() {
	local i why gd bd lo hi ends=0
	[ -f "$state/search-same" ] && return 0
	if [ "${PB_SAME_KERNEL:-1}" = 0 ]; then
		: >"$state/search-same" || pb_die "$PB_INTERNAL" "cannot write $state/search-same"
		return 0
	fi
	say "search: which of the $n commits build their parent's kernel (comments, files outside the build)?"
	: >"$state/search-same.part" || pb_die "$PB_INTERNAL" "cannot write in $state"
	for ((i = 1; i <= n; i++)); do
		why=$("$PB_TOP/bisect/stages/same-kernel.sh" "$repo" "$(sha_of $((i - 1)))" "$(sha_of "$i")" 2>>"$log") &&
			{ echo "$i" >>"$state/search-same.part" || pb_die "$PB_INTERNAL" "cannot write in $state"; }
		echo "search: commit $i against its parent: $why" >>"$log"
		[ $((i % 500)) -ne 0 ] || say "search: $i of $n commits compared with their parents"
	done
	# A commit that builds GOOD's kernel runs at GOOD's level: the culprit
	# comes after it. One that builds BAD's runs at BAD's: the culprit is
	# at or before it. Told by the dependency lists of the ends' builds
	# (as a step tells a known kernel), found by bisection: the last
	# commit known to build GOOD's kernel, the first known to build BAD's
	# (each is checked itself, so a revert on the way cannot mislead).
	if gd=$(pb_deps_dir "$repo" "$gsha" "${mopts[@]}") && bd=$(pb_deps_dir "$repo" "$bsha" "${mopts[@]}"); then
		lo=$(edge "$gsha" "$gd" GOOD) && hi=$(edge "$bsha" "$bd" BAD) || exit
		for ((i = 1; i <= n; i++)); do
			if [ "$i" -le "$lo" ] || [ "$i" -gt "$hi" ]; then echo "$i"; fi
		done >>"$state/search-same.part" || pb_die "$PB_INTERNAL" "cannot write in $state"
		ends=$((lo + n - hi))
	fi
	# Only a finished list counts: an interrupted one is made again.
	sort -nu "$state/search-same.part" >"$state/search-same.tmp" &&
		mv -f "$state/search-same.tmp" "$state/search-same" && rm -f "$state/search-same.part" ||
		pb_die "$PB_INTERNAL" "cannot write $state/search-same"
	say "search: $(grep -c . "$state/search-same") of the $n commits cannot be the culprit: they build their parent's kernel$([ "$ends" -gt 0 ] && echo ", or come before one that builds GOOD's or after one that builds BAD's")"
}
# edge SHA DEPS NAME: where the line stops building GOOD's kernel (SHA,
# NAME GOOD: the last commit known to build it, 0 for none) or starts
# building BAD's (the first known to, N for none), by bisection with
# same-kernel.sh -d DEPS (the dependency lists of SHA's build).
edge() {
	local lo=0 hi=$n i why same
	while [ $((hi - lo)) -gt 1 ]; do
		i=$(((lo + hi) / 2))
		why=$("$PB_TOP/bisect/stages/same-kernel.sh" -d "$2" "$repo" "$1" "$(sha_of "$i")" 2>>"$log")
		same=$?
		echo "search: commit $i against $3: $why" >>"$log"
		# GOOD's kernel holds from commit 0 on, BAD's up to commit N.
		if { [ "$same" -eq 0 ] && [ "$3" = GOOD ]; } || { [ "$same" -ne 0 ] && [ "$3" = BAD ]; }; then
			lo=$i
		else
			hi=$i
		fi
	done
	if [ "$3" = GOOD ]; then echo "$lo"; else echo "$hi"; fi
}
# boot VAR SHA: one fresh boot of SHA (it joins the results cache as
# history); its median into VAR. Returns 125 when SHA does not build or
# boot; an interrupted or failing measurement stops the search.
boot() {
	local -n _into=$1
	local out rcode
	out=$("$PB_TOP/bisect/stages/samples.sh" -F -n 1 -N 1 -m -l "$log" "$repo" "$2" -- "${mopts[@]}" 2>>"$log")
	rcode=$?
	[ "$rcode" -eq "$PB_INTERRUPTED" ] && pb_die "$PB_INTERRUPTED" "interrupted"
	if [ "$rcode" -ne 0 ]; then
		[ "$(pb_bisect_code "$rcode")" = 125 ] && return 125
		pb_die "$rcode" "measuring ${2:0:12} failed (code $rcode); see $log"
	fi
	_into=$(head -1 <<<"$out")
	[ -n "$_into" ] || pb_die "$PB_INTERNAL" "no median from a boot of ${2:0:12}; see $log"
}
# verdicts: each searched commit against the culprit (or "searched"), for
# the report.
verdicts() {
	awk -v c="${1:-}" '!seen[$2]++ { print $2, (c == "" ? "searched" : $1 < c ? "good" : "bad") }' \
		"$state/search" | pb_atomic_write "$state/search-verdicts"
}

mopts=("$@")
find_same
mapfile -t same < <(grep . "$state/search-same")
look
while [ "$verdict" = more ]; do
	sha=$(sha_of "$query")
	r=$((rounds + 1))
	subject=$(git -C "$repo" log -1 --format=%s "$sha" | cut -c1-50)
	sofar="the culprit so far: most likely commit $culprit, posterior $p"
	[ "$rounds" -gt 0 ] || sofar="$(pb_field culprits "$result") possible culprits, none favoured yet"
	say "search round $r (at most $(pb_field budget "$result")): commit $query of $n, ${sha:0:12} $subject ($sofar)"
	order="c g b c"
	[ $((r % 2)) -eq 0 ] && order="c b g c"
	cs=() skipped=0 gm="" bm="" one=""
	for k in $order; do
		case $k in
		g) boot gm "$gsha" || pb_die "$PB_NOBUILD" "GOOD (${gsha:0:12}) measured fine before but not now; see $log" ;;
		b) boot bm "$bsha" || pb_die "$PB_NOBUILD" "BAD (${bsha:0:12}) measured fine before but not now; see $log" ;;
		c)
			boot one "$sha" || {
				skipped=1
				break
			}
			cs+=("$one")
			;;
		esac
	done
	if [ "$skipped" = 1 ]; then
		pb_warn "${sha:0:12} does not build or boot: the search leaves it out"
		echo "$query" >>"$state/search-skip" || pb_die "$PB_INTERNAL" "cannot write $state/search-skip"
		echo "$sha skip" >>"$state/decisions"
		look
		continue
	fi
	# The pool first: a round cut short after it leaves valid pairs.
	printf '%s %s\nc %s %s\n' "$gm" "$bm" "${cs[0]}" "${cs[1]}" >>"$state/pool" &&
		echo "$query $sha $gm $bm ${cs[0]} ${cs[1]}" >>"$state/search" ||
		pb_die "$PB_INTERNAL" "cannot write $state/search"
	echo "search round $r: commit $query ${sha:0:12}: GOOD $gm candidate ${cs[*]} BAD $bm $unit" >>"$log"
	look
	echo "search round $r: $result" >>"$log"
	echo "$sha search $result" >>"$state/decisions" || pb_die "$PB_INTERNAL" "cannot write $state/decisions"
done
echo "$result" | pb_atomic_write "$state/search-result"
if [ "$verdict" = bad ]; then
	verdicts "$culprit"
	say "search: the culprit is commit $culprit of $n, $(sha_of "$culprit" | cut -c1-12), at $p after $rounds round$([ "$rounds" = 1 ] || echo s)"
	exit 0
fi
verdicts ''
say "search: no culprit reached 99.5% in $rounds rounds; the most likely, commit $culprit of $n, is at $p"
exit 1
