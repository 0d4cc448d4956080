#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# step.sh: one `git bisect run` step: measure the commit under test (from the
# results cache when possible), adding samples only while the statistics
# cannot decide, and answer good (0), bad (1), skip (125) or abort (255).
# A small regression is judged in rounds of fresh boots (bisect.sh --help).
# Usage: git bisect run step.sh STATE_DIR [-- MEASURE_OPTION...]
# STATE_DIR is made by bisect.sh: repo (the user's tree), ends.json (the end
# samples, threshold and mode), policy (start, step and cap of the sample
# count).
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ "${1:-}" = --help ] && {
	sed -n '3,10s/^# \{0,1\}//p' "$0"
	exit 0
}
# Everything below answers in the bisect contract; an unexpected failure of
# the kit aborts instead of passing for "bad".
abort() {
	printf '%s: error: %s\n' "$PB_PROG" "$*" >&2
	exit 255
}
# A Ctrl-C aborts the step and leaves a mark for bisect.sh, which may not
# see the signal itself. A measurement that ends interrupted (code 10)
# counts as one even when the signal has not reached this shell yet.
interrupted() {
	: >"$state/interrupted"
	abort "interrupted"
}
# say FORMAT ARG...: print a progress line on stderr and keep it in the run.
say() {
	# shellcheck disable=SC2059
	printf "$@" | tee -a "$progress" >&2
}
# This kind of machine drifts by tens of percent over minutes (and not by
# the same factor for fast and slow kernels), and the ends may come from
# the results cache. So the candidate is judged against GOOD and BAD
# booted afresh, right before it.
# fresh_end VAR SHA MEASURE_OPTION...: boot SHA once, afresh, and put the
# jobs/min of its samples into the array VAR; abort if it fails now.
fresh_end() {
	local -n _into=$1
	local sha=$2 out rcode
	shift 2
	out=$(pb_boot_jpm "$state" "$state/measure.log" "$repo" "$sha" "$@")
	rcode=$?
	[ "$rcode" -eq "$PB_INTERRUPTED" ] && interrupted
	[ "$rcode" -eq 0 ] || abort "step $step: ${sha:0:12} measured fine before but not now (code $rcode); see $state/measure.log"
	_into=()
	[ -z "$out" ] || mapfile -t _into <<<"$out"
}
median() {
	pb_median "$@"
}
# fresh_ends MEASURE_OPTION...: boot GOOD and BAD afresh into good and bad,
# and keep them (with the time) in $state/fresh-ends for the next steps.
fresh_ends() {
	fresh_end good "$gsha" "$@"
	fresh_end bad "$bsha" "$@"
	[ ${#good[@]} -ge 3 ] && [ ${#bad[@]} -ge 3 ] || abort "step $step: too few fresh samples of the ends"
	printf '%s\n%s\n%s\n' "$(date +%s)" "${good[*]}" "${bad[*]}" >"$state/fresh-ends.tmp" &&
		mv -f "$state/fresh-ends.tmp" "$state/fresh-ends" || abort "cannot write $state/fresh-ends"
	echo "step $step: ends now: GOOD ${good[*]} / BAD ${bad[*]}" >>"$state/measure.log"
	ends_note=''
}
# deps_of SHA: print the image directory of SHA if it holds the
# dependency lists of its build (pb_deps_dir).
deps_of() {
	pb_deps_dir "$repo" "$1" "${mopts_all[@]}"
}
# finish VERDICT: record the verdict among the known kernels and answer.
# The rule and statistics behind the verdict ($decision: "RULE key=value
# ...") go to $state/decisions, one line per step, for results.jsonl.
finish() {
	echo "$commit ${decision:-none verdict=${1%% *}}" >>"$state/decisions" ||
		abort "cannot write $state/decisions"
	case $1 in
	good | bad)
		echo "$commit $1 ${2:-$(deps_of "$commit" || echo -)}" >>"$state/known" ||
			abort "cannot write $state/known"
		;;
	esac
	case $1 in
	good) exit 0 ;;
	bad) exit 1 ;;
	*) exit 125 ;;
	esac
}
# cand_boot VAR [-r ROUND] MEASURE_OPTION...: boot the candidate once
# more (its samples join the results cache) and put the jobs/min of that
# boot into the array VAR; with -r, put the median of its boot ROUND
# (deterministic, salt ROUND: from the cache, booted when missing).
# Returns 125 when it does not build or boot; a failure of the kit aborts.
cand_boot() {
	local -n _cb=$1
	local cache have out rcode round=''
	shift
	[ "${1:-}" = -r ] && round=$2 && shift 2
	if [ -n "$round" ]; then
		out=$("$PB_TOP/bisect/stages/samples.sh" -n 1 -B "$round" -m -N 1 -l "$state/measure.log" "$repo" "$commit" -- "$@" \
			2>>"$state/measure.log")
	else
		cache=$("$PB_TOP/bisect/stages/samples.sh" -d "$repo" "$commit" -- "$@")
		have=$(wc -l 2>/dev/null <"$cache/samples" || echo 0)
		out=$("$PB_TOP/bisect/stages/samples.sh" -n $((have + 1)) -N 1 -l "$state/measure.log" "$repo" "$commit" -- "$@" \
			2>>"$state/measure.log")
	fi
	rcode=$?
	[ "$rcode" -eq "$PB_INTERRUPTED" ] && interrupted
	if [ "$rcode" -ne 0 ]; then
		[ "$(pb_bisect_code "$rcode")" = 125 ] ||
			abort "step $step: measuring ${commit:0:12} failed (code $rcode); see $state/measure.log"
		# A remote worker that is gone took the boot with it: no
		# verdict from a half-run.
		if [ -n "$worker" ] && ! "$PB_QEMU" --version >/dev/null 2>&1; then
			abort "step $step: worker $worker died while booting ${commit:0:12}; it is measured again elsewhere"
		fi
		return 125
	fi
	_cb=()
	if [ -n "$round" ]; then
		mapfile -t _cb < <(sed -n "${round}p" <<<"$out" | grep .)
	else
		mapfile -t _cb < <(tail -n +$((have + 1)) <<<"$out")
	fi
}
# end_boot VAR SHA ROUND MEASURE_OPTION...: put the median of the
# deterministic boot ROUND (salt ROUND) of the end SHA into VAR, from the
# results cache or booted now, once for every later step too; abort if
# it fails: it measured fine before.
end_boot() {
	local -n _eb=$1
	local sha=$2 r=$3 out rcode
	shift 3
	out=$("$PB_TOP/bisect/stages/samples.sh" -n 1 -B "$r" -m -N 1 -l "$state/measure.log" "$repo" "$sha" -- "$@" \
		2>>"$state/measure.log")
	rcode=$?
	[ "$rcode" -eq "$PB_INTERRUPTED" ] && interrupted
	[ "$rcode" -eq 0 ] || abort "step $step: ${sha:0:12} measured fine before but not now (code $rcode); see $state/measure.log"
	_eb=$(sed -n "${r}p" <<<"$out")
	[ -n "$_eb" ] || abort "step $step: no boot $r of ${sha:0:12} in the results cache"
}
# cached_boots VAR SHA MEASURE_OPTION...: the medians of every boot of SHA
# in the results cache, in order (boot i: salt i), into the array VAR.
cached_boots() {
	local -n _cbs=$1
	local sha=$2
	shift 2
	_cbs=()
	mapfile -t _cbs < <("$PB_TOP/bisect/stages/samples.sh" -n 0 -N 0 -m "$repo" "$sha" -- "$@" 2>>"$state/measure.log" | grep .)
}
# cand_meta MEASURE_OPTION...: print the candidate's build and boot record.
cand_meta() {
	cat "$("$PB_TOP/bisect/stages/samples.sh" -d "$repo" "$commit" -- "$@")/meta.json" 2>/dev/null || echo '{}'
}
# take_verdict RULE LINE CODE: the verdict of pbstat RULE from its LINE and
# exit CODE into verdict, and both into the step's decision record.
take_verdict() {
	decision="$1 $2"
	verdict=$(pb_verdict "$3") || abort "pbstat $1 failed: $2"
}
# sprt_look SPRT_OPTION...: one look of pbstat sprt (at most PB_ROUNDS_MAX
# rounds) at this step's rounds: its line into line (and the run's
# log), its answer into verdict.
sprt_look() {
	local pcode
	line=$("$pbstat" sprt --max-rounds "$rounds_max" "$@")
	pcode=$?
	echo "step $step: ${commit:0:12}: $line" >>"$state/measure.log"
	take_verdict sprt "$line" "$pcode"
}
# pos_of LINE: where a pbstat line places the candidate between BAD (0)
# and GOOD (1).
pos_of() {
	sed -n 's/.*pos=\([-0-9.]*\).*/\1/p' <<<"$1"
}
# say_measured COUNT WHAT MEDIAN NOTE MEASURE_OPTION...: the progress line
# of a step measured in COUNT WHAT (rounds, boots): build and boot times,
# the candidate's MEDIAN, the verdict (unsure is a skip), NOTE and the
# worker host it booted on, if not this one.
say_measured() {
	local count=$1 what=$2 med=$3 note=$4 meta
	shift 4
	[ "$verdict" = unsure ] && verdict="skip (undecided)"
	meta=$(cand_meta "$@")
	say 'step %d of ~%s  %s  %-50s build %6.1fs boot %6.1fs  %2d %s median %10s  %s (%s)%s\n' \
		"$step" "$total" "${commit:0:12}" "$subject" "$(jq -r '.build_s // 0' <<<"$meta")" \
		"$(jq -r '.boot_s // 0' <<<"$meta")" "$count" "$what" "$med" "$verdict" "$note" "${worker:+ on $worker}"
}
# cand_boot_or_skip VAR [-r ROUND] MEASURE_OPTION...: cand_boot, or,
# when the candidate does not build or boot, say so and exit 125 (skip).
cand_boot_or_skip() {
	local into=$1 ropt=()
	shift
	[ "${1:-}" = -r ] && ropt=("$1" "$2") && shift 2
	cand_boot "$into" "${ropt[@]}" "$@" && return 0
	say 'step %d of ~%s  %s  %-50s %s\n' "$step" "$total" "${commit:0:12}" "$subject" \
		"skip ($(jq -r '.outcome // "failed"' <<<"$(cand_meta "$@")"))"
	exit 125
}

# The stages, in the order main runs them.

# open_step STATE_DIR [-- MEASURE_OPTION...]: the bisect's state, the
# commit under test and the ends to judge it against.
open_step() {
	state=${1:-}
	[ -d "$state" ] && [ -f "$state/ends.json" ] || abort "no bisect state in '$state'"
	trap interrupted INT TERM
	# bisect.sh is gone (killed with SIGKILL): stop rather than go on alone.
	if [ -n "${PB_BISECT_PID:-}" ] && ! kill -0 "$PB_BISECT_PID" 2>/dev/null; then
		: >"$state/interrupted"
		abort "bisect.sh (pid $PB_BISECT_PID) is gone; run it again to resume"
	fi
	repo=$(cat "$state/repo") || abort "no repo in $state"
	read -r start inc cap <"$state/policy" || abort "no policy in $state"
	# kary.sh (bisect.sh -P) runs several steps at once and names each one's
	# commit and number (PB_STEP_COMMIT, PB_STEP_NO); it keeps the bisect log.
	if [ -n "${PB_STEP_COMMIT:-}" ]; then
		commit=$(git rev-parse -q --verify "${PB_STEP_COMMIT}^{commit}") || abort "no commit '$PB_STEP_COMMIT'"
	else
		commit=$(git rev-parse -q --verify BISECT_HEAD 2>/dev/null || git rev-parse HEAD) ||
			abort "cannot tell which commit to test"
		git bisect log >"$state/bisect.log.tmp" 2>/dev/null && mv -f "$state/bisect.log.tmp" "$state/bisect.log"
	fi
	subject=$(git log -1 --format=%s "$commit" | cut -c1-50)
	# From here on, git commands address the user's repository by path.
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

	if [ -n "${PB_STEP_NO:-}" ]; then
		step=$PB_STEP_NO
	else
		step=$(($(cat "$state/steps" 2>/dev/null || echo 0) + 1))
		echo "$step" >"$state/steps"
	fi
	# A slot of kary.sh on another host: the boots run there (the
	# image is built here and copied).
	worker=''
	if [ -n "${PB_SLOT:-}" ] && [ -f "$state/slots" ]; then
		worker=$(sed -n "${PB_SLOT}p" "$state/slots")
		if [ -n "$worker" ] && [ "$worker" != local ]; then
			export PB_QEMU="$PB_TOP/bisect/stages/qemu-remote.sh" PB_REMOTE_HOST="$worker"
			echo "step $step: ${commit:0:12}: boots on $worker" >>"$state/measure.log"
		else
			worker=''
		fi
	fi
	total=$(cat "$state/expected" 2>/dev/null || echo "?")
	pbstat=$(pb_tool pbstat) || abort "cannot build pbstat"
	progress="$(cat "$state/run" 2>/dev/null || echo "$state")/progress.txt"
	mapfile -t good < <(jq -r '.good_samples[]' "$state/ends.json")
	mapfile -t bad < <(jq -r '.bad_samples[]' "$state/ends.json")
	threshold=$(jq -r .threshold "$state/ends.json")
	fixed_threshold=$(jq -r '.fixed_threshold // false' "$state/ends.json")
	# The boots a salted bisect started with (samples.sh salts them).
	salted=$(jq -r '.salted // false' "$state/ends.json")
	if [ "$salted" = true ]; then export PB_SALT=1; else export PB_SALT=0; fi
	read -r gsha bsha <"$state/ends"
	# The measurement's options, for deps_of.
	mopts_all=("$@")
	decision=''
	rounds_max=${PB_ROUNDS_MAX:-10}
	pb_is_uint "$rounds_max" && [ "$rounds_max" -ge 3 ] || abort "PB_ROUNDS_MAX='$rounds_max' is not a number of rounds (3 or more)"
}
# Same kernel, same verdict. GOOD, BAD and every commit this bisect judged
# are known kernels ($state/known: SHA VERDICT DIR, DIR being the image
# directory with the dependency lists of its build, or -). A commit whose
# every change against one of
# them is outside the build or only in comments (bisect/stages/same-kernel.sh)
# builds that kernel again, so it takes that verdict without a build or a
# boot. The most recently judged commits are tried first: they are the
# nearest. PB_SAME_KERNEL=0 measures every commit.
# same_kernel_step: exits with that verdict when the commit builds a known
# kernel.
same_kernel_step() {
	[ "${PB_SAME_KERNEL:-1}" != 0 ] || return 0
	known=()
	[ -f "$state/known" ] && mapfile -t known < <(tac "$state/known")
	known+=("$gsha good $(deps_of "$gsha" || echo -)" "$bsha bad $(deps_of "$bsha" || echo -)")
	for k in "${known[@]}"; do
		read -r ksha kverdict kdeps <<<"$k"
		[[ $ksha =~ ^[0-9a-f]{40}([0-9a-f]{24})?$ ]] && [[ $kverdict =~ ^(good|bad)$ ]] || continue
		dopt=()
		[ -n "$kdeps" ] && [ "$kdeps" != - ] && [ -f "$kdeps/deps" ] && [ -f "$kdeps/verbatim" ] && dopt=(-d "$kdeps")
		why=$("$PB_TOP/bisect/stages/same-kernel.sh" "${dopt[@]}" "$repo" "$ksha" "$commit" 2>>"$state/measure.log")
		same=$?
		echo "step $step: ${commit:0:12} against ${ksha:0:12}: $why" >>"$state/measure.log"
		[ "$same" -eq 0 ] || continue
		say 'step %d of ~%s  %s  %-50s same kernel as %s (%s): %s\n' "$step" "$total" "${commit:0:12}" \
			"$subject" "${ksha:0:12}" "${why#the same kernel: }" "$kverdict"
		echo "$commit $ksha" >>"$state/same-kernel" || abort "cannot write $state/same-kernel"
		decision="same-kernel verdict=$kverdict same_as=$ksha"
		finish "$kverdict" "${dopt[1]:--}"
	done
}
# In wall-clock mode the boot is the unit: a single boot of the candidate,
# however many samples it gives, lands anywhere between the ends of a small
# regression. Unless PB_ROUNDS_BELOW lets bisect.sh judge a large one by
# samples, the candidate is measured in rounds: each round boots the
# candidate, GOOD, BAD and the candidate again (see rounds), and after each round
# pbstat sprt, a sequential test at 1% error each way, says good, bad or
# one more round. It judges
# the candidate by its log ratios to the ends of its own round, with the
# span and the boot-to-boot spread estimated from every pair of end boots
# of the bisect ($state/pool: the ends check's rounds and every step's);
# the two candidate boots of every round so far (the pool's "c" lines)
# add to the spread's estimate.
# At most PB_ROUNDS_MAX (default 10) rounds; still unsure: skip.
# rounds MEASURE_OPTION...: judge the candidate in rounds; exits. A round
# boots the candidate, GOOD, BAD and the candidate again (GOOD and BAD
# swap places every other round): two candidate boots around the ends
# cancel a drift linear in time, and give pbstat sprt 1.5 times the
# evidence of one for 4 boots instead of 3 (bench/decisions.sh).
rounds() {
	local r k sha rg=() rb=() rc=() pg=() pb=() pc=() one m line pcode verdict meta order
	for ((r = 1; r <= rounds_max; r++)); do
		order="c g b c"
		[ $((r % 2)) -eq 0 ] && order="c b g c"
		for k in $order; do
			case $k in
			g) fresh_end one "$gsha" "$@" ;;
			c) cand_boot_or_skip one "$@" ;;
			b) fresh_end one "$bsha" "$@" ;;
			esac
			[ ${#one[@]} -gt 0 ] || abort "step $step: no samples from a boot in round $r"
			m=$(median "${one[@]}")
			case $k in
			g) rg+=("$m") ;;
			c) rc+=("$m") ;;
			b) rb+=("$m") ;;
			esac
		done
		echo "step $step: ${commit:0:12}: round $r: GOOD ${rg[*]: -1} candidate ${rc[*]: -2} BAD ${rb[*]: -1}" >>"$state/measure.log"
		# A step in rounds takes minutes: say how far it got.
		pb_info "step $step, ${commit:0:12}, round $r of at most $rounds_max: GOOD ${rg[*]: -1}, candidate ${rc[*]: -2}, BAD ${rb[*]: -1} $(pb_score_unit "$@")"
		printf '%s %s\nc %s %s\n' "${rg[*]: -1}" "${rb[*]: -1}" "${rc[@]: -2}" >>"$state/pool" ||
			abort "cannot write $state/pool"
		mapfile -t pg < <(awk 'NF == 2 { print $1 }' "$state/pool")
		mapfile -t pb < <(awk 'NF == 2 { print $2 }' "$state/pool")
		mapfile -t pc < <(awk '$1 == "c" && NF == 3 { print $2; print $3 }' "$state/pool")
		sprt_look --cand-boots 2 -G "${pg[@]}" -B "${pb[@]}" -C "${pc[@]}" -g "${rg[@]}" -b "${rb[@]}" -c "${rc[@]}"
		[ "$verdict" = more ] || break
	done
	say_measured "${#rg[@]}" rounds "$(median "${rc[@]}")" "at $(pos_of "$line") of GOOD/BAD" "$@"
	finish "$verdict"
}
# Deterministic mode with salted boots (PB_SALT=1; ends.json: salted):
# a salt moves a kernel's figure, so the boot is the unit, as in
# wall-clock mode, but a boot is exact for its inputs and cached across
# time. Round r boots the candidate with salt r and takes GOOD's and BAD's
# boot r from the results cache (the ends check booted the first ones; a
# round past them boots the next pair once, for every later step too);
# pbstat sprt then decides as in wall-clock rounds, the pool being every
# cached pair of end boots, one candidate boot a round (no drift to
# cancel). At most PB_ROUNDS_MAX rounds; still unsure: skip.
# det_salted_step MEASURE_OPTION...: judge the candidate so; exits.
det_salted_step() {
	local r one=() g b rg=() rb=() rc=() pg=() pb=() n
	for ((r = 1; r <= rounds_max; r++)); do
		cand_boot_or_skip one -r "$r" "$@"
		[ ${#one[@]} -gt 0 ] || abort "step $step: no result from boot $r of ${commit:0:12}"
		rc+=("${one[0]}")
		end_boot g "$gsha" "$r" "$@"
		end_boot b "$bsha" "$r" "$@"
		rg+=("$g") rb+=("$b")
		cached_boots pg "$gsha" "$@"
		cached_boots pb "$bsha" "$@"
		n=$((${#pg[@]} < ${#pb[@]} ? ${#pg[@]} : ${#pb[@]}))
		echo "step $step: ${commit:0:12}: salted round $r: GOOD $g candidate ${rc[*]: -1} BAD $b" >>"$state/measure.log"
		pb_info "step $step, ${commit:0:12}, salted round $r of at most $rounds_max: GOOD $g, candidate ${rc[*]: -1}, BAD $b $(pb_score_unit "$@")"
		sprt_look --cand-boots 1 -G "${pg[@]:0:n}" -B "${pb[@]:0:n}" -g "${rg[@]}" -b "${rb[@]}" -c "${rc[@]}"
		[ "$verdict" = more ] || break
	done
	say_measured "${#rc[@]}" rounds "$(median "${rc[@]}")" "deterministic, salted, at $(pos_of "$line") of GOOD/BAD" "$@"
	finish "$verdict"
}
# A threshold given by the user (bisect.sh -x) in wall-clock mode: the
# boot is the unit here too. The candidate is booted once a round, and
# from the third boot on pbstat level tests the boots' log medians
# against the threshold (a one-sample t-test, 1% error each way over all
# the looks); at most PB_ROUNDS_MAX boots, then a skip. The threshold is
# the user's number, not a measurement, so no ends are booted. Salted
# deterministic boots are the same draws: boot r is the one with salt r.
# threshold_boots MEASURE_OPTION...: judge the candidate so; exits.
threshold_boots() {
	local r one=() rc=() line pcode verdict=more meta ropt=()
	for ((r = 1; r <= rounds_max; r++)); do
		[ "$salted" = true ] && ropt=(-r "$r")
		cand_boot_or_skip one "${ropt[@]}" "$@"
		[ ${#one[@]} -gt 0 ] || abort "step $step: no samples from boot $r of ${commit:0:12}"
		rc+=("$(median "${one[@]}")")
		pb_info "step $step, ${commit:0:12}, boot $r of at most $rounds_max: ${rc[*]: -1} against the threshold $threshold $(pb_score_unit "$@")"
		line=$("$pbstat" level --max-rounds "$rounds_max" --threshold "$threshold" -c "${rc[@]}")
		pcode=$?
		echo "step $step: ${commit:0:12}: boots ${rc[*]}: $line" >>"$state/measure.log"
		take_verdict level "$line" "$pcode"
		[ "$verdict" = more ] || break
	done
	say_measured "${#rc[@]}" boots "$(median "${rc[@]}")" "threshold $threshold" "$@"
	finish "$verdict"
}
# det_step MEASURE_OPTION...: judge the candidate in deterministic mode
# (bisect.sh -d det); exits. Boots of a kernel agree within eps, so one
# boot places it (pbstat detplace against the ends' boot medians); a
# candidate in the middle band gets one more boot (in case its own boots
# disagree), then is a skip: boots that agree would only repeat the
# answer. A fixed threshold (-x) takes the middle's place (detplace
# --threshold): within eps of it is the same middle band.
det_step() {
	local nb one=() cm=() topt=() gdet=() bdet=() eps line pcode verdict=unsure meta
	mapfile -t gdet < <(jq -r '.good_boots[]' "$state/ends.json")
	mapfile -t bdet < <(jq -r '.bad_boots[]' "$state/ends.json")
	eps=$(jq -r '.eps_pct // 0' "$state/ends.json")
	for ((nb = 1; nb <= 2; nb++)); do
		if ! cand_boot one -r "$nb" "$@"; then
			say 'step %d of ~%s  %s  %-50s %s\n' "$step" "$total" "${commit:0:12}" "$subject" \
				"skip ($(cand_meta "$@" | jq -r '.outcome // "failed"'))"
			exit 125
		fi
		meta=$(cand_meta "$@")
		cm+=("${one[@]}")
		topt=()
		[ "$fixed_threshold" = true ] && topt=(--threshold "$threshold")
		line=$("$pbstat" detplace --eps "$eps" "${topt[@]}" -g "${gdet[@]}" -b "${bdet[@]}" -c "${cm[@]}")
		pcode=$?
		echo "step $step: ${commit:0:12}: deterministic, boots ${cm[*]}: $line" >>"$state/measure.log"
		decision="detplace $line"
		verdict=$(pb_verdict "$pcode") || abort "pbstat detplace failed: $line"
		[ "$verdict" = unsure ] || break
	done
	[ "$verdict" = unsure ] && verdict="skip (undecided)"
	say 'step %d of ~%s  %s  %-50s build %6.1fs boot %6.1fs  %d boot(s) median %10s  %s (deterministic, at %s of GOOD/BAD)%s\n' \
		"$step" "$total" "${commit:0:12}" "$subject" "$(jq -r '.build_s // 0' <<<"$meta")" \
		"$(jq -r '.boot_s // 0' <<<"$meta")" "${#cm[@]}" "$(median "${cm[@]}")" "$verdict" \
		"$(sed -n 's/.*pos=\([-0-9.]*\).*/\1/p' <<<"$line")" "${worker:+ on $worker}"
	finish "$verdict"
}
# Two boots per step are a large part of a step. A step may reuse the
# fresh ends of an earlier one, measured at most PB_ENDS_MAX_AGE seconds
# (default 600) ago, but only to confirm a clear answer: GOOD at least
# 2.5 times as fast as BAD, the rank test decided, and the candidate's
# median in the outer fifth of the distance between the ends' medians on
# a log scale, on the side of its verdict. Moving such a candidate across
# the middle takes the machine halving (or doubling) its speed within
# those minutes; anything less clear is judged again against ends booted
# afresh. Small regressions always get fresh ends.
# judge_samples MEASURE_OPTION...: the older rule, for a large regression
# when PB_ROUNDS_BELOW asks for it: samples of one boot
# of the candidate against ends booted afresh, or reused while fresh and
# the answer clear (see fresh_ends); exits.
judge_samples() {
	max_age=${PB_ENDS_MAX_AGE:-600}
	pb_is_uint "$max_age" || abort "PB_ENDS_MAX_AGE='$max_age' is not a number of seconds"
	reuse=0 ends_note=''
	if [ -f "$state/fresh-ends" ]; then
		{
			read -r when
			read -r -a sgood
			read -r -a sbad
		} <"$state/fresh-ends"
		[[ ${when:-x} =~ ^[0-9]{1,12}$ ]] || when=0
		age=$(($(date +%s) - when))
		if [ "$max_age" -gt 0 ] && [ "$age" -ge 0 ] && [ "$age" -le "$max_age" ] && [ ${#sgood[@]} -ge 3 ] && [ ${#sbad[@]} -ge 3 ] &&
			[ "$("$pbstat" ends -g "${sgood[@]}" -b "${sbad[@]}" | sed -n 's/.*reuse=\([01]\).*/\1/p')" = 1 ]; then
			good=("${sgood[@]}") bad=("${sbad[@]}") reuse=1
			ends_note=" (ends of ${age}s ago)"
		fi
	fi
	[ "$reuse" = 1 ] || fresh_ends "$@"

	# The candidate's samples are this step's own (samples.sh -F): cached
	# wall-clock samples come from another stretch of time than the ends.
	n=$start want=$start
	: >"$state/cand" || abort "cannot write $state/cand"
	while :; do
		"$PB_TOP/bisect/stages/samples.sh" -F -n "$want" -l "$state/measure.log" "$repo" "$commit" -- "$@" \
			>>"$state/cand" 2>>"$state/measure.log"
		code=$?
		samples=$(cat "$state/cand")
		[ "$code" -eq "$PB_INTERRUPTED" ] && interrupted
		cache=$("$PB_TOP/bisect/stages/samples.sh" -d "$repo" "$commit" -- "$@")
		meta=$(cat "$cache/meta.json" 2>/dev/null || echo '{}')
		bs=$(jq -r '.build_s // 0' <<<"$meta" 2>/dev/null)
		bt=$(jq -r '.boot_s // 0' <<<"$meta" 2>/dev/null)
		if [ "$code" -ne 0 ]; then
			verdict=$(pb_bisect_code "$code")
			[ "$verdict" = 125 ] ||
				abort "step $step: measuring ${commit:0:12} failed (code $code); see $state/measure.log"
			say 'step %d of ~%s  %s  %-50s build %6.1fs boot %6.1fs  %s\n' "$step" "$total" \
				"${commit:0:12}" "$subject" "${bs:-0}" "${bt:-0}" "skip ($(jq -r '.outcome // "failed"' <<<"$meta"))" >&2
			exit 125
		fi
		mapfile -t cand <<<"$samples"
		line=$("$pbstat" judge -g "${good[@]}" -b "${bad[@]}" -c "${cand[@]}")
		jcode=$?
		echo "step $step: ${commit:0:12}: $line" >>"$state/measure.log"
		decision="judge $line"
		median=$(sed -n 's/.*median=\([0-9.]*\).*/\1/p' <<<"$line")
		verdict=$(pb_verdict "$jcode") || abort "pbstat judge failed: $line"
		if [ "$reuse" = 1 ]; then
			reuse=0
			# pos: where the candidate lies between BAD (0) and GOOD (1);
			# clear: an answer these ends may confirm (pbstat judge).
			pos=$(sed -n 's/.* pos=\([-0-9.]*\).*/\1/p' <<<"$line")
			echo "step $step: ${commit:0:12}: against ends of ${age}s ago: $verdict at $pos" >>"$state/measure.log"
			if [ "$(sed -n 's/.* clear=\([01]\).*/\1/p' <<<"$line")" != 1 ]; then
				fresh_ends "$@"
				want=0
				continue
			fi
		fi
		if [ "$verdict" = unsure ] && [ "$n" -lt "$cap" ]; then
			say 'step %d of ~%s  %s  %-50s %d samples, median %s: not sure yet, more samples\n' \
				"$step" "$total" "${commit:0:12}" "$subject" "${#cand[@]}" "$median" >&2
			n=$((n + inc)) want=$inc
			continue
		fi
		[ "$verdict" = unsure ] && verdict="skip (undecided)"
		say 'step %d of ~%s  %s  %-50s build %6.1fs boot %6.1fs  %2d samples  median %10s  %s\n' \
			"$step" "$total" "${commit:0:12}" "$subject" "${bs:-0}" "${bt:-0}" "${#cand[@]}" \
			"$median" "$verdict$ends_note" >&2
		finish "$verdict"
	done
}

open_step "$@"
shift
[ "${1:-}" = -- ] && shift
same_kernel_step
if [ "$(jq -r '.mode // "wall"' "$state/ends.json")" = det ]; then
	if [ "$salted" = true ]; then
		[ "$fixed_threshold" = true ] && threshold_boots "$@"
		det_salted_step "$@"
	fi
	det_step "$@"
fi
[ "$(jq -r '.rounds // false' "$state/ends.json")" = true ] && rounds "$@"
[ "$fixed_threshold" = true ] && threshold_boots "$@"
judge_samples "$@"
