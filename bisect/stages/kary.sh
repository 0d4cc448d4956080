#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kary.sh: the bisect's steps, W at a time (bisect.sh -P W): each round
# picks W commits that split what is left to test into W+1 parts, judges
# them at once with step.sh through GNU parallel (one job slot per
# worker), and enters the verdicts into `git bisect`, which stays the
# record: `git bisect log` and `git bisect visualize` work as after
# `git bisect run`. Ends when git bisect names the first bad commit, or
# only skipped commits are left.
# Usage: kary.sh STATE_DIR WORKERS [-- MEASURE_OPTION...]
#   GIT_DIR is the bisect repository (bisect.sh sets it); STATE_DIR as for
#   step.sh. WORKERS job slots run here; PB_HOSTS ('HOST[:PORT][/SLOTS]
#   ...') adds slots whose boots run on those hosts over ssh
#   (qemu-remote.sh): a host that does not answer, or runs another QEMU
#   version, is left out at each round, with a message. A step that fails
#   without a verdict (its worker died) is measured again in the next
#   round; an interrupted one ends the bisect.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ "${1:-}" = --help ] && {
	sed -n '3,17s/^# \{0,1\}//p' "$0"
	exit 0
}
state=${1:-} workers=${2:-}
[ -d "$state" ] && [ -f "$state/ends.json" ] || pb_die "$PB_USAGE" "no bisect state in '$state'"
pb_check_range "workers" "$workers" 1 "$PB_MAX_WORKERS"
shift 2
[ "${1:-}" = -- ] && shift
[ -n "${GIT_DIR:-}" ] || pb_die "$PB_USAGE" "GIT_DIR must name the bisect repository"
pb_need git parallel
progress="$(cat "$state/run" 2>/dev/null || echo "$state")/progress.txt"

# Ctrl-C or SIGTERM: GNU parallel passes it on to the running steps
# (--termseq: TERM, then 30 s for their cleanup, then KILL).
pid=''
stop() {
	trap '' INT TERM HUP
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	: >"$state/interrupted"
	exit "$PB_INTERRUPTED"
}
trap stop INT TERM HUP

# slots: write $state/slots, one line per job slot: "local" for each of
# WORKERS, then each remote host that answers with this QEMU's version,
# once per slot it offers. Says which hosts are left out.
local_qemu=$(PB_REMOTE_HOST='' pb_qemu_version)
slots() {
	local h spec n v i
	{
		for ((i = 0; i < workers; i++)); do echo local; done
		for spec in ${PB_HOSTS:-}; do
			h=${spec%/*} n=1
			[[ $spec == */* ]] && n=${spec##*/}
			v=$(PB_REMOTE_HOST=$h "$PB_TOP/bisect/stages/qemu-remote.sh" --version 2>/dev/null | head -1)
			if [ -z "$v" ]; then
				pb_warn "worker $h does not answer over ssh: left out this round (a worker needs an ssh login by key, without a password, and qemu-system-x86_64)"
			elif [ "$v" != "$local_qemu" ]; then
				pb_warn "worker $h runs '$v', not '$local_qemu': left out (its deterministic numbers would differ)"
			else
				for ((i = 0; i < n; i++)); do echo "$h"; done
			fi
		done
	} >"$state/slots.tmp" && mv -f "$state/slots.tmp" "$state/slots" || pb_die "$PB_INTERNAL" "cannot write $state/slots"
}
# done_yet: git bisect has named the first bad commit, or only skipped
# commits are left.
done_yet() {
	git bisect log 2>/dev/null | grep -q '^# \(first bad commit\|only skipped commits left\)'
}
# candidates: print the commits left to test, oldest first (topological
# order): what BAD has and no GOOD has, without BAD and the skipped ones.
candidates() {
	local bad goods=() skips=()
	bad=$(git rev-parse -q --verify refs/bisect/bad) || return 1
	mapfile -t goods < <(git for-each-ref --format='%(objectname)' 'refs/bisect/good-*')
	mapfile -t skips < <(git for-each-ref --format='%(objectname)' 'refs/bisect/skip-*')
	git rev-list --topo-order --reverse "$bad" --not "${goods[@]}" |
		grep -v -x -F -e "$bad" "${skips[@]/#/-e}"
}
# mark VERDICT SHA: enter one verdict into git bisect, with its output in
# the bisect's log.
mark() {
	local rc
	git bisect "$1" "$2" >>"$state/kary.log" 2>&1
	rc=$?
	# 2: only skipped commits left, which done_yet sees in the log.
	[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || pb_die "$PB_INTERNAL" "git bisect $1 ${2:0:12} failed (code $rc); see $state/kary.log"
}

round=0 failed=0
while ! done_yet; do
	slots
	nslots=$(wc -l <"$state/slots")
	mapfile -t left < <(candidates)
	n=${#left[@]}
	[ "$n" -gt 0 ] || pb_die "$PB_INTERNAL" "git bisect has commits left but none to test; see $state/kary.log"
	# W commits at 1/(W+1), 2/(W+1), ... of the list, without repeats.
	picks=()
	for ((i = 1; i <= nslots; i++)); do
		j=$(((i * (n + 1) + nslots / 2) / (nslots + 1) - 1))
		[ "$j" -lt 0 ] && j=0
		[ "$j" -ge "$n" ] && j=$((n - 1))
		[ ${#picks[@]} -gt 0 ] && [ "${picks[-1]}" = "$j" ] && continue
		picks+=("$j")
	done
	round=$((round + 1))
	shas=() nums=() retries=()
	step=$(cat "$state/steps" 2>/dev/null || echo 0)
	for j in "${picks[@]}"; do
		step=$((step + 1))
		shas+=("${left[$j]}")
		nums+=("$step")
		# A commit whose step failed without a verdict may have left
		# its half-run in the results cache as a failure: measured
		# again, not taken from there.
		if grep -q -x -F "${left[$j]}" "$state/no-verdict" 2>/dev/null; then
			retries+=(1)
		else
			retries+=("${PB_RETRY_FAILED:-0}")
		fi
	done
	echo "$step" >"$state/steps" || pb_die "$PB_INTERNAL" "cannot write $state/steps"
	msg="round $round: $n commits left, testing ${#shas[@]} at once: $(for s in "${shas[@]}"; do printf '%s ' "${s:0:12}"; done)"
	pb_info "$msg"
	echo "$msg" >>"$progress"
	joblog="$state/round-$round.joblog"
	rm -f "$joblog"
	# One job slot per worker; a job is one step.sh, told its commit,
	# its step number, its slot (a line of $state/slots) and whether
	# to measure a cached failure again.
	parallel --will-cite -j "$nslots" --termseq TERM,30000,KILL,25 --joblog "$joblog" -q \
		env 'PB_STEP_COMMIT={1}' 'PB_STEP_NO={2}' 'PB_SLOT={%}' 'PB_RETRY_FAILED={3}' \
		"$PB_TOP/bisect/stages/step.sh" "$state" -- "$@" \
		::: "${shas[@]}" :::+ "${nums[@]}" :::+ "${retries[@]}" &
	pid=$!
	wait "$pid"
	pid=''
	[ -f "$state/interrupted" ] && exit "$PB_INTERRUPTED"
	# The verdicts, in the order of the picks (the joblog's Seq).
	verdicts=()
	aborted=0
	for ((k = 0; k < ${#shas[@]}; k++)); do
		code=$(awk -F'\t' -v s=$((k + 1)) 'NR > 1 && $1 == s { print $7 }' "$joblog")
		case $code in
		0) verdicts+=(good) ;;
		1) verdicts+=(bad) ;;
		125) verdicts+=(skip) ;;
		*)
			verdicts+=(none)
			aborted=1
			echo "${shas[$k]}" >>"$state/no-verdict" || pb_die "$PB_INTERNAL" "cannot write $state/no-verdict"
			;;
		esac
	done
	echo "round $round: $(for ((k = 0; k < ${#shas[@]}; k++)); do printf '%s=%s ' "${shas[$k]:0:12}" "${verdicts[$k]}"; done)" >>"$state/kary.log"
	# The oldest bad one bounds the range; good and skipped ones before it
	# narrow it. A good one after it contradicts it: said, not entered.
	first=-1
	for ((k = 0; k < ${#shas[@]}; k++)); do
		[ "${verdicts[$k]}" = bad ] && first=$k && break
	done
	[ "$first" -ge 0 ] && mark bad "${shas[$first]}"
	for ((k = 0; k < ${#shas[@]}; k++)); do
		[ "$first" -ge 0 ] && [ "$k" -ge "$first" ] && {
			[ "${verdicts[$k]}" = good ] &&
				pb_warn "${shas[$k]:0:12} measured good, after ${shas[$first]:0:12} measured bad: not entered"
			continue
		}
		case ${verdicts[$k]} in
		good | skip)
			[ "$first" -lt 0 ] || git merge-base --is-ancestor "${shas[$k]}" "${shas[$first]}" ||
				continue
			done_yet || mark "${verdicts[$k]}" "${shas[$k]}"
			;;
		esac
	done
	git bisect log >"$state/bisect.log.tmp" 2>/dev/null && mv -f "$state/bisect.log.tmp" "$state/bisect.log"
	# A step that failed (its worker died, or the kit failed) has no
	# verdict: its commit is still left, and the next round measures it
	# again. Twice in a row is the kit's own failure.
	if [ "$aborted" = 1 ]; then
		failed=$((failed + 1))
		[ "$failed" -lt 2 ] ||
			pb_die "$PB_INTERNAL" "steps failed in two rounds in a row; see $state/measure.log and $state/kary.log (run the same command again to resume)"
		pb_warn "a step of round $round failed without a verdict; its commit is measured again"
	else
		failed=0
	fi
done
exit 0
