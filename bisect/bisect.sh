#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh: find the commit that made a kernel slower: measure both ends,
# calibrate a threshold, drive `git bisect run` with step.sh in a bisect
# repository perfbisect owns, confirm the culprit and write the report.
# Usage: bisect.sh [-t TREE] [-g GOOD] [-b BAD] [-x THRESHOLD] [-E MIN_EFFECT_PCT] [-e END_SAMPLES]
#                  [-n START] [-i INC] [-N CAP] [-C CPUS] [-T TASKS] [-J JOBS]
#                  [-k SAMPLES_PER_BOOT] [-w WARMUP] [-W WORKFILE] [-K BASE] [-c FRAGMENT]...
#                  [-A CMD [-Y REGEX] [-D higher|lower]]
#                  [-d auto|det|wall] [-P WORKERS] [-H HOSTS] [-S|-s] [-R]
#   -d (or PB_MODE) picks how time is measured. det: deterministic, the
#   guest clock counts instructions (QEMU -icount; 2 vCPUs from QEMU 8.1
#   on, else 1): a boot's figure depends on the kernel and its boot
#   inputs, not on what the host does, and the results cache holds
#   across time; -E may go down to 1. The Nth boot of a kernel has
#   pb_salt=N on its command line (boot inputs move the figure a little),
#   and the boot is the unit: the ends in paired rounds of their boots
#   with salt i, each step in rounds of one candidate boot against the
#   ends' cached boot i (pbstat sprt), the culprit against its parent
#   with salts no step used (doc/deterministic.md); with a THRESHOLD a
#   step tests its salted boots against it (pbstat level, below: at
#   least 3 boots a step, and small regressions end undecided more often
#   than without -x; bench/README.md).
#   PB_SALT=0 boots a kernel with the same inputs every time: GOOD and
#   BAD 2 boots each (their spread sets eps), a step 1 boot (pbstat
#   detplace). wall: real time under
#   TCG or KVM (below). auto (default): det when its ends check shows the
#   regression, wall otherwise; both say why.
#   WORKERS (-P, --workers; default 1, at most 8): steps judged at once in
#   deterministic mode (kary.sh): each round splits what is left into
#   WORKERS+1 parts, its boots run side by side through GNU parallel, and
#   the ends and the culprit's confirmation boot side by side too. Builds
#   stay one at a time. HOSTS (-H, --hosts, 'HOST[:PORT][/SLOTS] ...')
#   adds workers on other machines: ssh without a password and the same
#   QEMU version there; the image is built here and copied for each boot
#   (stages/qemu-remote.sh). Wall-clock mode boots one kernel at a time
#   (boots side by side would slow each other down), and says so.
#   TREE defaults to the lab ($PERFBISECT_HOME/lab/linux.git, made when
#   missing) with GOOD=good and BAD=bad; any kernel git tree works.
#   BASE (-K, or --config through perfbisect): the config every kernel
#   starts from: tinyconfig (default), defconfig, or your .config; the
#   fragments (-c, a path or a name in configs/) and configs/qemu.config
#   (serial console, initramfs, no modules or network) are merged on top.
#   A file that is not a kernel config is refused (exit 33).
#   CMD (-A, --run) is your benchmark instead of the reproducer: a program
#   of this machine (its libraries go along), a workload of workloads/
#   (pipebench, faultbench) or a busybox applet, with its arguments; REGEX
#   (-Y, --metric) the output line that holds its figure (the first number
#   after the match); -D lower (--lower-is-better) for times. See
#   measure.sh --help.
#   THRESHOLD (jobs/min) overrides the one calibrated from the ends; BAD must
#   be at least MIN_EFFECT_PCT (default 5; 1 in deterministic mode) slower
#   than GOOD, beyond the noise.
#   Wall-clock mode: the boot is the unit. Boots of one kernel differ by
#   15-30% under TCG, so the ends are first compared in paired rounds of
#   fresh boots (no regression shown: exit 15), each step boots the
#   commit, GOOD, BAD and the commit again a round at a time until a
#   sequential test decides
#   (pbstat sprt, 1% error each way), at most PB_ROUNDS_MAX (10) rounds,
#   and the culprit is confirmed against its parent in paired rounds.
#   END_SAMPLES per end (default 8; the first 4 when they already show a
#   large regression) calibrate the ends first.
#   PB_ROUNDS_BELOW=R keeps rounds for GOOD less than R times BAD and
#   judges larger regressions by the samples of one boot of the commit
#   (START 4, adding INC 4 while undecided, up to CAP 12, then a skip)
#   against ends booted afresh, or reused while at most PB_ENDS_MAX_AGE
#   seconds old (default 600) for a clear answer: the older, faster rule,
#   which counts the samples of a boot as independent. With a THRESHOLD
#   each step boots only the commit, once a round, until a test of its
#   boots against the threshold decides (pbstat level, from 3 boots, 1%
#   error each way over the looks), at most PB_ROUNDS_MAX boots.
#   The search (-S, --search; the default in wall-clock rounds): no steps;
#   a probabilistic bisection of the first-parent
#   line from GOOD to BAD (GOOD must be on it) in wall-clock rounds: each
#   round boots the commit where the culprit is as likely before as after
#   it, GOOD, BAD and that commit again, and every round, at whichever
#   commit, is evidence (pbstat search), until one culprit holds 99.5%,
#   at most PB_ROUNDS_MAX rounds for each halving of the line; then the
#   culprit is confirmed against its parent in paired rounds. A commit that
#   does not build or boot is left out; one that builds its parent's
#   kernel (same-kernel.sh, below), or comes before one that builds
#   GOOD's or after one that builds BAD's, is no culprit and never booted.
#   Simulated, it decides more bisects than the steps for 16% fewer
#   boots (bench/README.md). Wall-clock mode searches unless -s
#   (--steps, or PB_SEARCH=0) asks for git bisect's steps, or -x,
#   PB_ROUNDS_BELOW or GOOD off BAD's first-parent line takes them (said
#   at the start). -S insists on the search: it refuses -x, -P, -H, -d det
#   and GOOD off that line.
#   A commit that builds the same kernel as one already judged (its changes
#   are outside the build or only in comments: bisect/stages/same-kernel.sh) takes
#   that verdict without a build or a boot; PB_SAME_KERNEL=0 measures all.
# Running it again with the same arguments resumes an interrupted bisect,
# or reports a finished one again; -R starts it over (measurements already
# in the results cache are still used).
# The user's tree, index and own bisect are never touched.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

child='' launching=0 before='' bpid='' resume=0 asked='' pr_salted='' pr_failed='' pr_code=0 pr_first='' pr_argv=()
pr_a=() pr_b=()
ci_level=$(awk -v a="$PB_ROUNDS_ALPHA" 'BEGIN { print 100 * (1 - a) }')

# Helpers.

# significant A B: a rank test on A values against B can reach p < 0.05
# (pbstat ends: enough; the values do not matter).
significant() {
	local ones
	ones=$(printf '1 %.0s' $(seq "$2"))
	# shellcheck disable=SC2086 # $ones: one word per value
	[ "$(field enough "$("$pbstat" ends --start "$1" -g $ones -b $ones)")" = 1 ]
}
# last_words: show the last lines of the log, where a measurement that
# stops the bisect said why (a --metric that matches nothing, say).
last_words() {
	tail -3 "$log" | sed 's/^/  /' >&2
}
# measure_end NAME SHA N FILE: measure N more samples of one end afresh
# (samples.sh -F: cached wall-clock samples are from another time) and add
# them to FILE, or stop with the measurement's own exit code.
measure_end() {
	local code
	pb_info "measuring $1 (${2:0:12}): $3 samples afresh"
	"$PB_TOP/bisect/stages/samples.sh" -F -n "$3" -N 6 -l "$run/measure.log" "$repo" "$2" -- "${mopts[@]}" \
		>>"$4" 2>>"$log"
	code=$?
	if [ "$code" -ne 0 ]; then
		last_words
		[ "$(pb_bisect_code "$code")" = 125 ] &&
			pb_die "$code" "$1 (${2:0:12}) cannot be measured: it does not build or boot (code $code); see $log"
		pb_die "$code" "measuring $1 (${2:0:12}) failed (code $code); see $log"
	fi
}
# det_end_failed NAME SHA CODE: stop the bisect with the code of an end's
# measurement and its last words (a --metric that matches nothing says so
# here, once, not as a skip at every step).
det_end_failed() {
	last_words
	pb_die "$3" "$1 (${2:0:12}) cannot be measured in deterministic mode (code $3); see $log"
}
field() { pb_field "$@"; }
# The deterministic ends check: 2 boots of each end with the guest clock
# counting instructions (their results are cached across time). BAD must be
# slower than GOOD by more than the minimum effect plus eps, the boots'
# spread (pbstat detcmp). Sets detline to the detcmp line; fails when it
# is not. With PB_SALT=1, see det_ends_salted.
det_ends() {
	local g b rc
	pb_salted && {
		det_ends_salted
		return
	}
	pb_info "deterministic ends check: GOOD and BAD, 2 boots each (guest time = instructions, ${cpus:-$(pb_det_cpus)} vCPUs, about a minute a boot)"
	# With workers, BAD boots beside GOOD (its build waits for GOOD's).
	if [ "$workers" -gt 1 ]; then
		"$PB_TOP/bisect/stages/samples.sh" -n 1 -B 2 -m -N 4 -l "$run/measure.log" "$repo" "$bsha" -- "${dmopts[@]}" \
			>"$state/det-bad" 2>>"$log" &
		bpid=$!
	fi
	g=$("$PB_TOP/bisect/stages/samples.sh" -n 1 -B 2 -m -N 4 -l "$run/measure.log" "$repo" "$gsha" -- "${dmopts[@]}" 2>>"$log")
	rc=$?
	if [ "$workers" -gt 1 ]; then
		wait "$bpid"
		brc=$?
		bpid=''
		[ "$rc" -eq 0 ] || det_end_failed GOOD "$gsha" "$rc"
		[ "$brc" -eq 0 ] || det_end_failed BAD "$bsha" "$brc"
		b=$(cat "$state/det-bad")
	else
		[ "$rc" -eq 0 ] || det_end_failed GOOD "$gsha" "$rc"
		b=$("$PB_TOP/bisect/stages/samples.sh" -n 1 -B 2 -m -N 4 -l "$run/measure.log" "$repo" "$bsha" -- "${dmopts[@]}" 2>>"$log") ||
			det_end_failed BAD "$bsha" "$?"
	fi
	mapfile -t gdet <<<"$g"
	mapfile -t bdet <<<"$b"
	detline=$("$pbstat" detcmp --min-effect "${min_effect:-1}" -a "${gdet[@]}" -b "${bdet[@]}")
	rc=$?
	echo "deterministic ends: GOOD ${gdet[*]} BAD ${bdet[*]}: $detline" >>"$log"
	return "$rc"
}
# det_ends_salted: the deterministic ends check with salted boots: the
# salts move a kernel's figure, so the boot is the unit, as in wall-clock
# mode. GOOD and BAD in paired rounds, round i comparing their boots with
# salt i (cached across time, so the steps reuse them), until pbstat
# paired shows BAD slower by more than the minimum effect, or not that
# much slower, or PB_ROUNDS_MAX rounds. detline: the detcmp line of
# those boots (medians, threshold, eps for the report), then the paired
# line, whose fields come last and so are the ones field() reads.
det_ends_salted() {
	local rc cmp
	pb_info "deterministic ends check with salted boots: GOOD and BAD in paired rounds, round i their boots with salt i (guest time = instructions, ${cpus:-$(pb_det_cpus)} vCPUs, about a minute a boot)"
	pr_salted=ends
	paired_rounds "$gsha" "$bsha" GOOD BAD "${min_effect:-1}"
	rc=$? pr_salted=''
	[ "$rc" -eq 2 ] && det_end_failed "$([ "$pr_failed" = "$gsha" ] && echo GOOD || echo BAD)" "$pr_failed" "$pr_code"
	gdet=("${pr_a[@]}") bdet=("${pr_b[@]}")
	cmp=$("$pbstat" detcmp --min-effect "${min_effect:-1}" -a "${gdet[@]}" -b "${bdet[@]}") ||
		[ $? -eq 1 ] || pb_die "$PB_INTERNAL" "pbstat detcmp failed: $cmp"
	detline="$cmp $paired"
	echo "deterministic ends, salted: GOOD ${gdet[*]} BAD ${bdet[*]}: $detline" >>"$log"
	[ "$(field separated "$paired")" = 1 ]
}
# det_tol: what the deterministic ends' difference was judged against,
# for messages: the boots' spread and eps, or with salted boots the
# paired rounds' interval.
det_tol() {
	if [ -n "$(field ci_low_pct "$detline")" ]; then
		echo "salted boots, $(field n "$detline") paired rounds, ${ci_level}% CI $(field ci_low_pct "$detline")..$(field ci_high_pct "$detline")%"
	else
		echo "boots agree within $(field spread_pct "$detline")%, eps $(field eps_pct "$detline")%"
	fi
}
# calibrate MIN: measure both ends afresh up to MIN samples each (this run's
# samples count, the cache's do not) into gs and bs, and calibrate: cal,
# sep, medians.
calibrate() {
	[ ${#gs[@]} -ge "$1" ] || measure_end GOOD "$gsha" $(($1 - ${#gs[@]})) "$state/ends-good"
	[ ${#bs[@]} -ge "$1" ] || measure_end BAD "$bsha" $(($1 - ${#bs[@]})) "$state/ends-bad"
	mapfile -t gs <"$state/ends-good"
	mapfile -t bs <"$state/ends-bad"
	cal=$("$pbstat" calibrate --min-effect "$min_effect" -g "${gs[@]}" -b "${bs[@]}" 2>>"$log")
	sep=$?
	echo "calibration: $cal" >>"$log"
	gmed=$(field good_median "$cal") bmed=$(field bad_median "$cal") noise=$(field noise_pct "$cal")
}
# ends_field KEY: KEY of pbstat ends over the ends' samples so far
# (whether the steps go in rounds, whether these samples suffice).
ends_field() {
	local ropt=() line
	[ -n "$rounds_below" ] && ropt=(--rounds-below "$rounds_below")
	line=$("$pbstat" ends "${ropt[@]}" --start "$start" -g "${gs[@]}" -b "${bs[@]}" 2>&1) ||
		pb_die "$PB_INTERNAL" "pbstat ends failed: $line"
	field "$1" "$line"
}
# pr_boot SHA ROUND: one boot of SHA for round ROUND of paired_rounds;
# prints its median. pr_salted says which boot: empty, a wall-clock boot
# afresh; else a salted deterministic one (pr_salted_args). Returns the
# measurement's code.
pr_boot() {
	local sha=$1 r=$2 out rcode one=()
	if [ -n "$pr_salted" ]; then
		pr_salted_args "$sha" "$r"
		out=$("$PB_TOP/bisect/stages/samples.sh" "${pr_argv[@]}" 2>>"$log")
		rcode=$?
		out=$(pr_salted_pick "$r" <<<"$out")
	else
		out=$(pb_boot_jpm "$state" "$run/measure.log" "$repo" "$sha" "${mopts[@]}")
		rcode=$?
		if [ -n "$out" ]; then
			mapfile -t one <<<"$out"
			out=$(pb_median "${one[@]}")
		fi
	fi
	[ -n "$out" ] && echo "$out"
	return "$rcode"
}
# pr_salted_args SHA ROUND: set pr_argv to the samples.sh arguments of a
# salted boot for round ROUND: with pr_salted "ends", SHA's boot ROUND
# (salt ROUND) from the results cache, booted when missing; "fresh", a
# boot with SHA's next salt, never one a step used.
pr_salted_args() {
	local b=$2 fresh=()
	[ "$pr_salted" = fresh ] && b=1 fresh=(-F)
	pr_argv=("${fresh[@]}" -n 1 -B "$b" -m -N 1 -l "$run/measure.log" "$repo" "$1" -- "${dmopts[@]}")
}
# pr_salted_pick ROUND: print the median of the boot that pr_salted_args
# asked for, from samples.sh's output on stdin (every boot up to ROUND's,
# for "ends").
pr_salted_pick() {
	if [ "$pr_salted" = ends ]; then sed -n "${1}p"; else head -1; fi
}
# pr_take SHA OUT RCODE: add the boot median OUT of SHA to pr_a or
# pr_b, or return 1 with pr_failed and pr_code set when the boot gave no
# result (RCODE); a failure of the kit stops the bisect.
pr_take() {
	local sha=$1 out=$2 rcode=$3
	if [ "$rcode" -ne 0 ] || [ -z "$out" ]; then
		if [ "$rcode" -ne 0 ] && [ "$(pb_bisect_code "$rcode")" != 125 ]; then
			last_words
			pb_die "$rcode" "measuring ${sha:0:12} failed (code $rcode); see $run/measure.log"
		fi
		pb_warn "${sha:0:12} gave no result this time (code $rcode); see $run/measure.log"
		pr_failed=$sha pr_code=$rcode
		[ "$rcode" -ne 0 ] || pr_code=$PB_NORESULT
		return 1
	fi
	if [ "$sha" = "$pr_first" ]; then
		pr_a+=("$out")
	else
		pr_b+=("$out")
	fi
}
# paired_rounds A B NAME_A NAME_B EFFECT_PCT: boot A and B (pr_boot) in
# rounds (one boot each, the order alternating) and, from the third round
# on, compare them with pbstat paired at PB_ROUNDS_ALPHA into $paired, the
# boot medians into pr_a and pr_b. Returns 0 once B is shown slower than
# A, by more than EFFECT_PCT as estimated, 1 once the interval shows it is
# not that much slower or after PB_ROUNDS_MAX rounds, 2 if a kernel
# (pr_failed) failed to build or boot this time (code pr_code); a failure
# of the kit stops the bisect. Salted boots share no drift with their
# round: with workers (-P), a round's two boots run side by side.
paired_rounds() {
	local a=$1 b=$2 na=$3 nb=$4 effect=$5 r first second out rcode rc2
	paired='' pr_a=() pr_b=() pr_first=$a
	for ((r = 1; r <= rounds_max; r++)); do
		first=$a second=$b
		[ $((r % 2)) -eq 0 ] && first=$b second=$a
		if [ "$workers" -gt 1 ] && [ -n "$pr_salted" ]; then
			pr_salted_args "$second" "$r"
			"$PB_TOP/bisect/stages/samples.sh" "${pr_argv[@]}" >"$state/pr-second" 2>>"$log" &
			bpid=$!
			out=$(pr_boot "$first" "$r")
			rcode=$?
			wait "$bpid"
			rc2=$?
			bpid=''
			pr_take "$first" "$out" "$rcode" || return 2
			out=$(pr_salted_pick "$r" <"$state/pr-second")
			rm -f "$state/pr-second"
			pr_take "$second" "$out" "$rc2" || return 2
		else
			out=$(pr_boot "$first" "$r")
			pr_take "$first" "$out" $? || return 2
			out=$(pr_boot "$second" "$r")
			pr_take "$second" "$out" $? || return 2
		fi
		pb_info "$na and $nb in paired rounds, round $r (at least 3, at most $rounds_max): ${pr_a[*]: -1} and ${pr_b[*]: -1} $unit"
		# GOOD and BAD in wall-clock mode: a pair for the steps' pool
		# (step.sh; salted, the steps read the cache instead).
		[ "$a:$b:$pr_salted" = "$gsha:$bsha:" ] && { echo "${pr_a[*]: -1} ${pr_b[*]: -1}" >>"$state/pool" ||
			pb_die "$PB_INTERNAL" "cannot write $state/pool"; }
		[ "$r" -ge 3 ] || continue
		paired=$("$pbstat" paired --alpha "$PB_ROUNDS_ALPHA" --min-effect "$effect" -a "${pr_a[@]}" -b "${pr_b[@]}") ||
			pb_die "$PB_INTERNAL" "pbstat paired failed"
		echo "$na vs $nb in rounds: $paired" >>"$log"
		[ "$(field separated "$paired")" = 1 ] && return 0
		# The interval shows B is not EFFECT_PCT slower: more rounds
		# would not change the answer.
		[ "$(field not_slower "$paired")" = 1 ] && return 1
	done
	return 1
}
# first_bad: print the first bad commit recorded in the bisect log, if any.
first_bad() {
	git bisect log 2>/dev/null | sed -n 's/^# first bad commit: \[\([0-9a-f]\{40\}\)\].*/\1/p' | tail -1
}
# interrupted: end `git bisect run` (in a process group of its own, see
# below) with SIGTERM, let its step finish its cleanup (30 s at most), keep
# the bisect log and stop. SIGTERM, whatever the signal was: a command
# started in the background ignores SIGINT, and so do its children.
interrupted() {
	local i
	trap '' INT TERM HUP QUIT
	# The BAD end measured beside GOOD (-P) ignores SIGINT, as any
	# command started in the background does.
	[ -n "${bpid:-}" ] && kill -TERM "$bpid" 2>/dev/null && wait "$bpid" 2>/dev/null
	# A signal right after the fork, before child was set: $! has
	# changed. Before the fork it still names an earlier, long-gone
	# process, whose pid may belong to another by now: leave it alone.
	[ -z "$child" ] && [ "$launching" = 1 ] && [ "${!:-}" != "$before" ] && child=$!
	if [ -n "$child" ]; then
		kill -TERM -- "-$child" "$child" 2>/dev/null
		for ((i = 0; i < 300; i++)); do
			kill -0 -- "-$child" 2>/dev/null || kill -0 "$child" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$child" "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	git -C "$state/repo.git" bisect log >"$state/bisect.log.tmp" 2>/dev/null &&
		mv -f "$state/bisect.log.tmp" "$state/bisect.log"
	pb_die "$PB_INTERRUPTED" "interrupted; run the same command again to resume (state: $state)"
}

# The stages, in the order main runs them.

# parse_args ARG...: read and check every option and PB_ setting, before
# anything is made.
parse_args() {
	pb_help_first "$@"
	[ -z "${PB_ENDS_MAX_AGE:-}" ] || pb_is_uint "$PB_ENDS_MAX_AGE" ||
		pb_die "$PB_USAGE" "PB_ENDS_MAX_AGE='$PB_ENDS_MAX_AGE' is not a number of seconds"
	case ${PB_SAME_KERNEL:-1} in
	0 | 1) ;;
	*) pb_die "$PB_USAGE" "PB_SAME_KERNEL='$PB_SAME_KERNEL' is not 0 or 1" ;;
	esac
	rounds_below=${PB_ROUNDS_BELOW:-} rounds_max=${PB_ROUNDS_MAX:-10}
	[ -z "$rounds_below" ] || { pb_is_number "$rounds_below" && awk -v r="$rounds_below" 'BEGIN { exit !(r > 0) }'; } ||
		pb_die "$PB_USAGE" "PB_ROUNDS_BELOW='$rounds_below' is not a ratio above 0"
	pb_is_uint "$rounds_max" && [ "$rounds_max" -ge 3 ] && [ "$rounds_max" -le 20 ] ||
		pb_die "$PB_USAGE" "PB_ROUNDS_MAX='$rounds_max' is not a number of rounds from 3 to 20"
	tree='' good='' bad='' threshold='' ends=8 start=4 inc=4 cap=12 min_effect=''
	mopts=() mode=${PB_MODE:-auto} cpus='' tree_given='' restart=0 workers=1 hosts=''
	# search: 1 (-S), 0 (-s), or auto: the search in wall-clock rounds.
	search=auto
	case ${PB_SEARCH:-} in
	'') ;;
	0 | 1) search=$PB_SEARCH ;;
	*) pb_die "$PB_USAGE" "PB_SEARCH='$PB_SEARCH' is neither 0 (git bisect's steps) nor 1 (the search)" ;;
	esac
	asked=''
	while getopts t:g:b:x:E:e:n:i:N:C:T:J:k:w:W:K:c:A:Y:D:d:P:H:SsRh opt; do
		case $opt in
		t)
			tree=$OPTARG
			tree_given=1
			;;
		g) good=$OPTARG ;;
		b) bad=$OPTARG ;;
		x) threshold=$OPTARG ;;
		E) min_effect=$OPTARG ;;
		e) ends=$OPTARG ;;
		n) start=$OPTARG ;;
		i) inc=$OPTARG ;;
		N) cap=$OPTARG ;;
		C)
			mopts+=(-C "$OPTARG")
			cpus=$OPTARG
			;;
		d) mode=$OPTARG ;;
		P) workers=$OPTARG ;;
		H) hosts=$OPTARG ;;
		R) restart=1 ;;
		S | s)
			[ -z "$asked" ] || [ "$asked" = "$opt" ] || pb_die "$PB_USAGE" "-S (--search) and -s (--steps) exclude each other: give one"
			asked=$opt
			search=$([ "$opt" = S ] && echo 1 || echo 0)
			;;
		T) mopts+=(-T "$OPTARG") ;;
		J) mopts+=(-J "$OPTARG") ;;
		k) mopts+=(-n "$OPTARG") ;;
		w) mopts+=(-w "$OPTARG") ;;
		W) mopts+=(-W "$OPTARG") ;;
		K) mopts+=(-K "$OPTARG") ;;
		A) mopts+=(-A "$OPTARG") ;;
		Y) mopts+=(-Y "$OPTARG") ;;
		D) mopts+=(-D "$OPTARG") ;;
		c) mopts+=(-c "$OPTARG") ;;
		*) pb_opt_other "$opt" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || pb_die "$PB_USAGE" "unexpected argument '$1' (see --help)"
	pb_check_range "samples per end (-e)" "$ends" 3 100
	pb_check_range "samples per step (-n)" "$start" 1 100
	pb_check_range "samples added (-i)" "$inc" 1 100
	pb_check_range "sample cap (-N)" "$cap" 1 200
	pb_check_range "workers (-P)" "$workers" 1 "$PB_MAX_WORKERS"
	local h
	for h in $hosts; do
		[[ $h =~ ^[A-Za-z0-9._@-]+(:[0-9]{1,5})?(/[1-8])?$ ]] ||
			pb_die "$PB_USAGE" "worker host '$h' (-H) is not [USER@]HOST[:PORT][/SLOTS], SLOTS 1 to 8"
	done
	pb_check_measure_opts "${mopts[@]}"
	unit=$(pb_score_unit "${mopts[@]}")
	[ -z "$tree" ] && [ -n "$tree_given" ] && pb_die "$PB_USAGE" "-t needs a kernel git tree, not an empty string"
	[ -z "$tree" ] && { [ -n "$good" ] || [ -n "$bad" ]; } &&
		pb_die "$PB_USAGE" "-g and -b name revisions of -t TREE: give the tree too (without -t, the lab's good and bad)"
	[ "$cap" -ge "$start" ] || pb_die "$PB_USAGE" "the sample cap ($cap) is below the start ($start)"
	pbstat=$(pb_tool pbstat) || exit
	significant "$start" "$ends" ||
		pb_die "$PB_USAGE" "$start samples per step against $ends per end can never be significant; raise -n or -e"
	pb_is_number "${min_effect:-1}" && awk -v e="${min_effect:-1}" 'BEGIN { exit !(e > 0 && e < 100) }' ||
		pb_die "$PB_USAGE" "minimum effect '$min_effect' is not a percentage above 0 and below 100 (-E)"
	pb_check_mode "$mode" "${cpus:-1}"
	if [ "$search" = 1 ]; then
		[ -z "$threshold" ] || pb_die "$PB_USAGE" "-S searches without a threshold: drop -x $threshold"
		[ "$workers" -eq 1 ] && [ -z "$hosts" ] || pb_die "$PB_USAGE" "-S boots one round at a time: drop -P and -H"
		[ "$mode" != det ] || pb_die "$PB_USAGE" "-S searches in wall-clock rounds: use -d wall (or auto)"
	fi
	# auto with more vCPUs than deterministic mode supports is wall-clock.
	det_why=''
	if [ "$mode" = auto ] && [ "$search" = 1 ]; then
		mode=wall det_why="-S: the search runs in wall-clock rounds"
	elif [ "$mode" = auto ] && [ "${PB_ACCEL:-}" = kvm ]; then
		mode=wall det_why="PB_ACCEL=kvm: KVM runs in wall-clock mode"
	elif [ "$mode" = auto ] && [ -n "$cpus" ] && ! { pb_is_uint "$cpus" && [ "$cpus" -le "$(pb_det_max_cpus)" ]; }; then
		mode=wall det_why="-C $cpus: deterministic mode supports $(pb_det_max_cpus) vCPU(s) with this QEMU"
	fi
	if [ -n "$threshold" ] && ! { pb_is_number "$threshold" && awk -v t="$threshold" 'BEGIN { exit !(t > 0) }'; }; then
		pb_die "$PB_USAGE" "threshold '$threshold' is not a positive number of jobs/min (-x)"
	fi
	pb_need git jq flock setsid
	[ "$workers" -eq 1 ] && [ -z "$hosts" ] || pb_need parallel
	[ -z "$hosts" ] || pb_need ssh
}
# open_repo: the tree (the lab when none is given) and its ends.
open_repo() {
	if [ -z "$tree" ]; then
		tree=$("$PB_TOP/bisect/lab.sh") || exit
		: "${good:=good}" "${bad:=bad}"
	fi
	[ -n "$good" ] && [ -n "$bad" ] || pb_die "$PB_USAGE" "give both ends: GOOD=<rev> BAD=<rev> (-g, -b)"
	repo=$(pb_resolve_repo "$tree") || exit
	if [ "$(git -C "$repo" rev-parse --is-bare-repository)" = false ] &&
		[ -n "$(git --no-optional-locks -C "$repo" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		pb_die "$PB_DIRTY" "$repo has uncommitted changes; perfbisect bisects commits: commit or stash them first"
	fi
	gsha=$(pb_resolve_rev "$repo" "$good") || exit
	bsha=$(pb_resolve_rev "$repo" "$bad") || exit
	[ "$gsha" != "$bsha" ] || pb_die "$PB_SAMEENDS" "GOOD and BAD are the same commit (${gsha:0:12})"
	if ! git -C "$repo" merge-base --is-ancestor "$gsha" "$bsha"; then
		git -C "$repo" merge-base --is-ancestor "$bsha" "$gsha" &&
			pb_die "$PB_REVERSED" "GOOD ($good) comes after BAD ($bad): the ends are swapped"
		pb_die "$PB_UNRELATED" "GOOD ($good) is not an ancestor of BAD ($bad)"
	fi
	if [ -z "${PB_MEASURE:-}" ]; then
		git -C "$repo" cat-file -e "$bsha:kernel/sched/core.c" 2>/dev/null ||
			pb_die "$PB_NOTKERNEL" "$repo is not a Linux kernel tree"
	fi
	# The search's line: the first parents from BAD back to GOOD.
	no_search=''
	if [ "$search" != 0 ]; then
		mapfile -t sline < <(git -C "$repo" rev-list --first-parent --reverse "$gsha..$bsha")
		[ ${#sline[@]} -ge 2 ] && [ "$(git -C "$repo" rev-parse "${sline[0]}^1" 2>/dev/null)" = "$gsha" ] ||
			no_search="GOOD ($good) is not on BAD's first-parent line (git log --first-parent $bad), or BAD is its child"
		[ "$search" = 1 ] && [ -n "$no_search" ] && pb_die "$PB_USAGE" "-S: $no_search: bisect without -S"
	fi
}
# state_key: the key of this bisect's saved state: its arguments, its
# decision settings and what defines its measurements (pb_measure_id, with
# the deterministic clock unless -d wall, and so whether boots are salted).
state_key() {
	local idopts=("${mopts[@]}")
	[ "$mode" = wall ] || idopts+=(-d det)
	# -S and -s keep states of their own; the default's key is a bisect's
	# of before the search (its state says which it chose: line or not).
	local extra=()
	[ "$search" = 1 ] && extra=(search=1)
	[ "$search" = 0 ] && extra=(search=0)
	pb_sha "$repo" "$gsha" "$bsha" "$(pb_measure_id "${PB_MEASURE:-$PB_TOP/bisect/measure.sh}" "${idopts[@]}")" \
		"${mopts[@]}" "mode=$mode" "E=${min_effect:-default}" "x=$threshold" \
		"e=$ends n=$start i=$inc N=$cap below=$rounds_below max=$rounds_max" "${extra[@]}"
}
# open_state: the saved state of this bisect, its lock and a run directory.
open_state() {
	local alt
	# A changed reproducer, config fragment, QEMU or setting starts a bisect
	# afresh instead of mixing verdicts reached two ways. The earlier bisect
	# of the same ends keeps its state and runs.
	key=$(state_key)
	# A bisect begun with unsalted boots (PB_SALT=0, the default before
	# 2026-12-07) goes on with them when PB_SALT is not set; -R or
	# PB_SALT=1 starts a salted one.
	if [ -z "${PB_SALT+set}" ] && [ "$restart" = 0 ] && [ ! -e "$PERFBISECT_HOME/bisect/$key/ends" ]; then
		alt=$(PB_SALT=0 state_key)
		if [ -s "$PERFBISECT_HOME/bisect/$alt/ends.json" ]; then
			key=$alt
			pb_info "these ends were begun with unsalted boots (state $PERFBISECT_HOME/bisect/$alt): going on with them (-R or PB_SALT=1: a new bisect with salted boots)"
		fi
	fi
	state="$PERFBISECT_HOME/bisect/$key"
	pb_lock "$PERFBISECT_HOME/locks/bisect-$(pb_sha "$repo").lock" "a bisect of $repo"
	last="$PERFBISECT_HOME/bisect/last-$(pb_sha "$repo" "$gsha" "$bsha")"
	prev=$(cat "$last" 2>/dev/null)
	if [ -n "$prev" ] && [ "$prev" != "$key" ] && [ -d "$PERFBISECT_HOME/bisect/$prev" ] && [ ! -e "$state/ends" ]; then
		pb_info "these ends were bisected with other settings or another measurement (state $PERFBISECT_HOME/bisect/$prev, kept): starting a new bisect"
	fi
	mkdir -p "$state" && echo "$key" >"$last" || pb_die "$PB_INTERNAL" "cannot create $state"
	if [ "$restart" = 1 ] && [ -e "$state/ends" ]; then
		rm -rf "$state" && mkdir -p "$state" || pb_die "$PB_INTERNAL" "cannot remove $state to start over"
		pb_info "-R: starting this bisect over (measurements in the results cache are still used)"
	fi
	run=$(pb_new_run bisect) || exit
	export PB_RUN_DIR=$run
	echo "$repo" >"$state/repo"
	echo "$start $inc $cap" >"$state/policy"
	echo "$gsha $bsha" >"$state/ends"
	echo "$run" >"$state/run"
	began=$(pb_now)
	ln -sfn "$state" "$run/state"
	log="$run/bisect.log"
	range=$(git -C "$repo" rev-list --count "$gsha..$bsha")
	# About log2(range) steps; with W workers log_(W+1)(range) rounds of W.
	nw=$workers
	for h in $hosts; do
		[[ $h == */* ]] && nw=$((nw + ${h##*/})) || nw=$((nw + 1))
	done
	awk -v n="$range" -v w="$nw" 'BEGIN { s = 0; while (n > 1) { n /= w + 1; s++ } print s * w }' >"$state/expected"
	pb_info "bisecting $range commits of $repo: ${gsha:0:12} ($good) .. ${bsha:0:12} ($bad), about $(cat "$state/expected") steps$([ "$nw" -gt 1 ] && echo ", $nw at a time")"
	pb_info "run directory: $run"
}
# check_ends: resume with the ends a bisect started with, or check them
# (deterministic mode first, unless -d wall) and choose the mode.
check_ends() {
	dmopts=("${mopts[@]}" -d det)
	# A bisect that has started keeps the ends it was started with: running
	# the same command again resumes it without measuring them again.
	resume=0
	# (A search, -S, keeps its line instead of a bisect log.)
	[ -s "$state/ends.json" ] && { [ -s "$state/bisect.log" ] || [ -s "$state/line" ]; } &&
		[ "$(jq -r '.mode // ""' "$state/ends.json")" != "" ] && resume=1
	if [ "$resume" = 1 ]; then
		mode=$(jq -r .mode "$state/ends.json") det_why=$(jq -r '.mode_reason // ""' "$state/ends.json")
		[ "$mode" = det ] && mopts=("${dmopts[@]}")
		# Its steps and confirmation use the boots it started with.
		if [ "$(jq -r '.salted // false' "$state/ends.json")" = true ]; then export PB_SALT=1; else export PB_SALT=0; fi
		pb_info "resuming in $mode mode with the ends measured when this bisect started ($det_why)"
	elif [ "$mode" != wall ]; then
		det_ends
		detrc=$?
		pb_info "deterministic ends: GOOD ${gdet[*]:-?} BAD ${bdet[*]:-?}: $(field delta_pct "$detline")% ($(det_tol))"
		if [ "$detrc" -eq 0 ]; then
			det_why="the deterministic ends check shows BAD $(field delta_pct "$detline")% ($(det_tol))"
			mode=det
		elif [ "$detrc" -eq 1 ] && [ "$mode" = det ]; then
			pb_die "$PB_NOREGRESSION" "no regression between GOOD and BAD in deterministic mode: BAD is $(field delta_pct "$detline")% ($(det_tol), minimum effect ${min_effect:-1}%); try -d wall"
		elif [ "$detrc" -eq 1 ]; then
			det_why="the deterministic ends check does not show the regression (BAD $(field delta_pct "$detline")%, $(det_tol))"
			mode=wall
		else
			pb_die "$PB_INTERNAL" "pbstat detcmp failed: $detline"
		fi
	fi
	[ -n "$det_why" ] || det_why="asked for (-d wall or PB_MODE=wall)"
	# Boots side by side on one host slow each other down: in wall-clock
	# mode that is in the numbers, so the boots go one at a time.
	if { [ "$workers" -gt 1 ] || [ -n "$hosts" ]; } && [ "$mode" = wall ]; then
		pb_warn "wall-clock mode: one boot at a time, here (-P and -H need deterministic mode, where boots side by side do not change each other's numbers)"
		workers=1 hosts=''
	fi
}
# calibrate_wall: the wall-clock ends: samples, and paired rounds for a
# small regression.
calibrate_wall() {
	: >"$state/ends-good" && : >"$state/ends-bad" || pb_die "$PB_INTERNAL" "cannot write in $state"
	# First 4 samples of each end (one boot at the default -k). When they
	# already show a large regression, every GOOD sample above every BAD one,
	# GOOD at least twice (and at least PB_ROUNDS_BELOW times) BAD and enough
	# samples for a step's rank test, the rest of the END_SAMPLES would not
	# change the answer: the steps judge against ends they boot afresh, or
	# these same ones while they are fresh. Anything less clear gets all
	# END_SAMPLES.
	calibrate $((ends < 4 ? ends : 4))
	fewest=$((${#gs[@]} < ${#bs[@]} ? ${#gs[@]} : ${#bs[@]}))
	if [ "$fewest" -lt "$ends" ]; then
		if [ "$sep" -eq 0 ] && [ "$(ends_field early)" = 1 ]; then
			pb_info "GOOD median $gmed, BAD median $bmed $unit: a large regression already; $fewest samples per end are enough"
		else
			calibrate "$ends"
		fi
	fi
	# A small regression (see step.sh) is measured in rounds: the steps judge
	# their commit within rounds and the culprit is confirmed the same way.
	# So are ends that the samples alone cannot separate: the drift between
	# boots may hide a regression that rounds show. Either way the ends must
	# first differ in paired rounds: drift during the calibration can also
	# fake a small regression, and a bisect that no step can decide costs
	# hours. The answer is kept for a resumed run. A threshold given by the
	# user turns rounds off.
	[ -z "$threshold" ] && [ "$(ends_field rounds)" = 1 ] && rounds=true
	# The search's evidence is rounds: its pool starts with the ends'.
	[ "$search" = 1 ] && rounds=true
	msg="no regression between GOOD and BAD: medians $gmed vs $bmed $unit, noise $noise%"
	if [ "$sep" -ne 0 ]; then
		if [ -n "$threshold" ] || ! awk -v e="$(field effect_pct "$cal")" 'BEGIN { exit !(e > 0) }'; then
			pb_die "$PB_NOREGRESSION" "$msg"
		fi
		pb_info "GOOD median $gmed, BAD median $bmed $unit: not separated by the samples (noise $noise%)"
		rounds=true
	fi
	if [ "$rounds" = true ]; then
		saved=$(cat "$state/ends-rounds" 2>/dev/null)
		if [ "$(field min_effect "$saved")" = "$min_effect" ]; then
			paired=$saved
			pb_info "GOOD and BAD in paired rounds, from an earlier run: $paired"
		else
			pb_info "a small regression: measuring GOOD and BAD in paired rounds"
			paired_rounds "$gsha" "$bsha" GOOD BAD "$min_effect"
			prc=$?
			[ "$prc" -eq 2 ] && pb_die "$PB_NOBUILD" "an end gave no result in the paired rounds; see $run/measure.log"
			paired="min_effect=$min_effect $paired"
			echo "$paired" | pb_atomic_write "$state/ends-rounds"
		fi
		[ "$(field separated "$paired")" = 1 ] ||
			pb_die "$PB_NOREGRESSION" "$msg; in paired rounds BAD is $(field delta_pct "$paired")% (${ci_level}% CI $(field ci_low_pct "$paired")..$(field ci_high_pct "$paired")%; remove $state/ends-rounds to measure again)"
	fi
}
# choose_search: what the default (no -S, -s or PB_SEARCH) does: in
# wall-clock mode the search, unless it cannot run; in deterministic
# mode git bisect's steps. A resumed run goes on as it started.
choose_search() {
	local why=''
	[ "$search" = auto ] || return 0
	if [ "$resume" = 1 ]; then
		search=$([ -s "$state/line" ] && echo 1 || echo 0)
		return 0
	fi
	search=0
	[ "$mode" = wall ] || return 0
	if [ -n "$threshold" ]; then
		why="a threshold (-x) is tested in git bisect's steps"
	elif [ -n "$rounds_below" ]; then
		why="PB_ROUNDS_BELOW=$rounds_below asks for the steps' rule of samples"
	elif [ -n "$no_search" ]; then
		why=$no_search
	fi
	if [ -n "$why" ]; then
		pb_info "wall-clock mode: git bisect's steps, not the search: $why"
	else
		search=1
		pb_info "wall-clock mode: searching the first-parent line in rounds (-s for git bisect's steps)"
	fi
}
# calibrate_det: the deterministic ends: the boot medians.
calibrate_det() {
	# Deterministic: the boot medians are the ends; every sample is kept
	# for the report.
	mopts=("${dmopts[@]}")
	mapfile -t gs < <("$PB_TOP/bisect/stages/samples.sh" -B 2 -N 0 "$repo" "$gsha" -- "${mopts[@]}")
	mapfile -t bs < <("$PB_TOP/bisect/stages/samples.sh" -B 2 -N 0 "$repo" "$bsha" -- "${mopts[@]}")
	gmed=$(field median_a "$detline") bmed=$(field median_b "$detline") noise=$(field eps_pct "$detline")
	cal="good_median=$gmed bad_median=$bmed threshold=$(field threshold "$detline") noise_pct=$noise effect_pct=$(field delta_pct "$detline" | tr -d -) $detline"
}
# calibrate_ends: the threshold and ends.json, which the steps read (a
# resumed bisect keeps its own).
calibrate_ends() {
	[ "$resume" = 0 ] || return 0
	# The minimum effect: 1% in deterministic mode, 5% in wall-clock mode.
	[ -n "$min_effect" ] || min_effect=$([ "$mode" = det ] && echo 1 || echo 5)
	pb_info "measuring in $( [ "$mode" = det ] && echo deterministic || echo wall-clock) mode: $det_why"
	echo "measuring in $mode mode: $det_why" >>"$log"
	echo "$mode $det_why" >"$state/mode"
	cal_start=$(date +%s)
	rounds=false gs=() bs=()
	if [ "$mode" = wall ]; then
		calibrate_wall
	else
		calibrate_det
	fi
	fixed=true
	# A threshold outside the ends would judge every commit alike.
	if [ -n "$threshold" ] && ! awk -v t="$threshold" -v g="$gmed" -v b="$bmed" 'BEGIN { exit !(t > b && t < g) }'; then
		pb_die "$PB_USAGE" "threshold $threshold (-x) is not between BAD's median $bmed and GOOD's median $gmed $unit"
	fi
	# Unsalted deterministic steps place a boot against the threshold
	# within eps (pbstat detplace): one within eps of an end would leave
	# every commit at that end unsure.
	if [ -n "$threshold" ] && [ "$mode" = det ] && ! pb_salted; then
		read -r xlo xhi < <(awk -v g="$gmed" -v b="$bmed" -v e="$noise" 'BEGIN { printf "%.2f %.2f\n", b * (1 + e / 100), g / (1 + e / 100) }')
		awk -v t="$threshold" -v l="$xlo" -v h="$xhi" 'BEGIN { exit !(t > l && t < h) }' ||
			pb_die "$PB_USAGE" "threshold $threshold (-x) is within eps ($noise%) of an end: give one between $xlo and $xhi $unit"
	fi
	[ -n "$threshold" ] || {
		threshold=$(field threshold "$cal")
		fixed=false
	}
	pb_info "GOOD median $gmed, BAD median $bmed $unit ($(field effect_pct "$cal")% slower, noise $noise%): threshold $threshold"
	jq -n --argjson g "$(printf '%s\n' "${gs[@]}" | jq -s .)" --argjson b "$(printf '%s\n' "${bs[@]}" | jq -s .)" \
		--argjson t "$threshold" --arg cal "$cal" --argjson fixed "$fixed" --argjson rounds "$rounds" \
		--arg mode "$mode" --arg why "$det_why" --argjson gdet "$(printf '%s\n' "${gdet[@]}" | jq -s 'map(numbers)')" \
		--argjson bdet "$(printf '%s\n' "${bdet[@]}" | jq -s 'map(numbers)')" \
		--arg eps "$(field eps_pct "${detline:-}")" --argjson salted "$([ "$mode" = det ] && pb_salted && echo true || echo false)" \
		'{good_samples: $g, bad_samples: $b, threshold: $t, fixed_threshold: $fixed, calibration: $cal, rounds: $rounds,
		  mode: $mode, mode_reason: $why, good_boots: $gdet, bad_boots: $bdet, eps_pct: ($eps | tonumber? // null),
		  salted: $salted}' |
		pb_atomic_write "$state/ends.json"
	# Ends measured just now are as fresh as those a step boots: the first
	# steps may reuse them (step.sh, PB_ENDS_MAX_AGE), dated from the start of
	# the calibration.
	if [ "$rounds" = false ] && [ "$mode" = wall ]; then
		printf '%s\n%s\n%s\n' "$cal_start" "${gs[*]}" "${bs[*]}" | pb_atomic_write "$state/fresh-ends"
	fi
}
# run_bisect: git bisect, with step.sh one commit at a time (git bisect
# run) or kary.sh W at a time, until it names the first bad commit.
run_bisect() {
	# In a bare clone that shares the user's objects.
	br="$state/repo.git"
	if [ ! -d "$br" ]; then
		git clone -q --bare --shared "$repo" "$br" || pb_die "$PB_INTERNAL" "cannot create $br"
	fi
	export GIT_DIR="$br"
	if [ -s "$state/bisect.log" ]; then
		msg="resuming: replaying $(grep -c '^git bisect \(good\|bad\|skip\)' "$state/bisect.log") recorded verdicts from $state/bisect.log"
		pb_info "$msg"
		echo "$msg" >>"$log"
		git bisect reset >/dev/null 2>&1
		git bisect replay "$state/bisect.log" >>"$log" 2>&1 ||
			pb_die "$PB_INTERNAL" "cannot replay $state/bisect.log; remove it to start over"
	else
		git bisect reset >/dev/null 2>&1
		echo 0 >"$state/steps"
		rm -f "$state/known" "$state/same-kernel"
		git bisect start --no-checkout "$bsha" "$gsha" >>"$log" 2>&1 ||
			pb_die "$PB_INTERNAL" "git bisect start failed; see $log"
	fi
	if [ -z "$(first_bad)" ]; then
		# In the background and in a process group (and session) of its own:
		# bash runs a trap only once a foreground child has ended, and `git
		# bisect run` passes no signal on to its step. So this shell takes a
		# Ctrl-C or a SIGTERM sent to it alone at once and ends the whole
		# group (step, build, boot) with SIGTERM.
		# Should this shell die all the same (SIGKILL), the next step sees
		# PB_BISECT_PID gone and stops the bisect.
		rm -f "$state/interrupted"
		export PB_BISECT_PID=$$
		before=${!:-}
		launching=1
		if [ "$workers" -gt 1 ] || [ -n "$hosts" ]; then
			PB_HOSTS=$hosts setsid -w "$PB_TOP/bisect/stages/kary.sh" "$state" "$workers" -- "${mopts[@]}" >>"$log" &
		else
			setsid -w git bisect run "$PB_TOP/bisect/stages/step.sh" "$state" -- "${mopts[@]}" >>"$log" &
		fi
		child=$!
		wait "$child"
		brc=$?
		child='' launching=0
		# A step marks a Ctrl-C that this shell may not have seen.
		[ -f "$state/interrupted" ] && rm -f "$state/interrupted" && interrupted
	else
		brc=0
		pb_info "this bisect has already finished; reporting it again"
	fi
	git bisect log >"$state/bisect.log.tmp" 2>/dev/null && mv -f "$state/bisect.log.tmp" "$state/bisect.log"
	cp "$state/bisect.log" "$run/git-bisect.log"
	culprit=$(first_bad)
	undecided=$(sed -n 's/^# possible first bad commit: \[\([0-9a-f]\{40\}\)\].*/\1/p' "$state/bisect.log" | tr '\n' ' ')
	unset GIT_DIR
	if [ -z "$culprit" ] && [ -z "$undecided" ]; then
		pb_die "$PB_INTERNAL" "git bisect run stopped (exit $brc) without a culprit; see $log"
	fi
}
# run_search: the search (-S, search.sh) instead of git bisect, on the
# first-parent line from GOOD to BAD; a finished one reports again.
run_search() {
	local src
	culprit='' undecided=''
	if [ ! -s "$state/line" ]; then
		printf '%s\n' "${sline[@]}" | pb_atomic_write "$state/line"
	fi
	: >>"$state/bisect.log" || pb_die "$PB_INTERNAL" "cannot write in $state"
	pb_info "searching ${#sline[@]} commits of the first-parent line in rounds (at most $rounds_max rounds a halving)"
	# In a process group of its own, as git bisect run (run_bisect).
	export PB_BISECT_PID=$$
	before=${!:-}
	launching=1
	setsid -w "$PB_TOP/bisect/stages/search.sh" "$state" -- "${mopts[@]}" >>"$log" &
	child=$!
	wait "$child"
	src=$?
	child='' launching=0
	[ "$src" -eq "$PB_INTERRUPTED" ] && interrupted
	result=$(cat "$state/search-result" 2>/dev/null)
	case $src in
	0) culprit=$(sed -n "$(field culprit "$result")p" "$state/line") ;;
	1) undecided=$(sed -n "$(field culprit "$result")p" "$state/line") ;;
	*) pb_die "$src" "the search stopped (code $src); see $log" ;;
	esac
	[ -n "$culprit$undecided" ] || pb_die "$PB_INTERNAL" "the search ended without a culprit ($result); see $log"
}
# confirm_culprit: the culprit against its parent, with fresh boots.
confirm_culprit() {
	# Confirm: measure the culprit and its parent once more and state the effect.
	# A small regression (see step.sh) is confirmed in paired rounds.
	# Deterministic with salted boots: paired rounds of boots with salts
	# that no step used (pr_boot fresh), the boot being the unit.
	if [ -n "$culprit" ] && [ ! -s "$state/confirm" ] && [ "$(jq -r '.salted // false' "$state/ends.json")" = true ]; then
		parent=$(git -C "$repo" rev-parse "$culprit^")
		pb_info "confirming ${culprit:0:12} against its parent ${parent:0:12} in paired rounds of salted boots not used before"
		pr_salted=fresh
		paired_rounds "$parent" "$culprit" parent culprit 0
		prc=$? pr_salted=''
		# No other rule stands in: the samples of a boot are not its unit.
		if [ "$prc" -eq 2 ] || [ -z "$paired" ]; then
			echo "in rounds: no result (${pr_failed:0:12} failed to build or boot, code $pr_code)"
		else
			echo "in rounds: $paired"
		fi | pb_atomic_write "$state/confirm"
	fi
	# Deterministic: one boot of each afresh (never the step's), with the cached
	# ones; the culprit must be slower than its parent beyond eps.
	if [ -n "$culprit" ] && [ ! -s "$state/confirm" ] && [ "$(jq -r '.mode // "wall"' "$state/ends.json")" = det ] &&
		[ "$(jq -r '.salted // false' "$state/ends.json")" != true ]; then
		parent=$(git -C "$repo" rev-parse "$culprit^")
		pb_info "confirming ${culprit:0:12} against its parent ${parent:0:12} with a fresh deterministic boot of each"
		pm=() cm=()
		# confirm_one SHA: print the cached boot medians of SHA and one of a
		# boot afresh. With workers, parent and culprit boot side by side.
		confirm_one() {
			local meds fresh onev=()
			meds=$("$PB_TOP/bisect/stages/samples.sh" -n 1 -B 1 -m -N 2 -l "$run/measure.log" "$repo" "$1" -- "${mopts[@]}" 2>>"$log")
			fresh=$(pb_boot_jpm "$state" "$run/measure.log" "$repo" "$1" "${mopts[@]}")
			mapfile -t onev <<<"$fresh"
			[ -n "$fresh" ] && meds+=$'\n'$(pb_median "${onev[@]}")
			grep . <<<"$meds"
		}
		if [ "$workers" -gt 1 ]; then
			confirm_one "$culprit" >"$state/confirm-culprit" &
			bpid=$!
			mapfile -t pm < <(confirm_one "$parent")
			wait "$bpid"
			bpid=''
			mapfile -t cm <"$state/confirm-culprit"
		else
			mapfile -t pm < <(confirm_one "$parent")
			mapfile -t cm < <(confirm_one "$culprit")
		fi
		if [ ${#pm[@]} -ge 2 ] && [ ${#cm[@]} -ge 2 ]; then
			echo "deterministic: parent ${pm[*]} culprit ${cm[*]}: $("$pbstat" detcmp --min-effect 0 \
				--eps "$(jq -r '.eps_pct // 0' "$state/ends.json")" -a "${pm[@]}" -b "${cm[@]}")" |
				pb_atomic_write "$state/confirm"
		else
			echo "" >"$state/confirm"
		fi
	fi
	# So is one found against a threshold given by the user: the boot is
	# the unit there too.
	if [ -n "$culprit" ] && [ ! -s "$state/confirm" ] &&
		[ "$(jq -r '.rounds or (.fixed_threshold // false)' "$state/ends.json")" = true ]; then
		parent=$(git -C "$repo" rev-parse "$culprit^")
		pb_info "confirming ${culprit:0:12} against its parent ${parent:0:12} in paired rounds"
		paired_rounds "$parent" "$culprit" parent culprit 0
		if [ $? -eq 2 ] || [ -z "$paired" ]; then
			echo "" >"$state/confirm"
		else
			echo "in rounds: $paired" | pb_atomic_write "$state/confirm"
		fi
	fi
	if [ -n "$culprit" ] && [ ! -s "$state/confirm" ]; then
		parent=$(git -C "$repo" rev-parse "$culprit^")
		pb_info "confirming ${culprit:0:12} against its parent ${parent:0:12} with $inc more samples each"
		for c in "$culprit" "$parent"; do
			have=$(wc -l 2>/dev/null <"$("$PB_TOP/bisect/stages/samples.sh" -d "$repo" "$c" -- "${mopts[@]}")/samples" || echo 0)
			"$PB_TOP/bisect/stages/samples.sh" -n $((have + inc)) -N 6 -l "$run/measure.log" "$repo" "$c" -- "${mopts[@]}" \
				>"$state/confirm-${c:0:12}" 2>>"$log" || pb_warn "could not re-measure ${c:0:12}"
		done
		mapfile -t ps <"$state/confirm-${parent:0:12}"
		mapfile -t cs <"$state/confirm-${culprit:0:12}"
		if [ ${#ps[@]} -gt 1 ] && [ ${#cs[@]} -gt 1 ]; then
			"$pbstat" effect -a "${ps[@]}" -b "${cs[@]}" >"$state/confirm" 2>>"$log"
		else
			echo "" >"$state/confirm"
		fi
	fi
}
# report: report.sh writes the run's results; the exit code says whether
# the culprit is an answer.
report() {
	"$PB_TOP/bisect/stages/report.sh" -s "$state" -r "$run" -w "$(pb_elapsed "$began")" \
		${culprit:+-C "$culprit"} ${undecided:+-U "$undecided"} -- "${mopts[@]}"
	code=$?
	[ -n "$culprit" ] || exit "$PB_UNDECIDED"
	[ "$code" -eq 0 ] || exit "$code"
	# A culprit that is not measurably slower than its parent is no answer:
	# the bisect followed noise, or the slowdown is spread over many commits.
	# report.sh decides (summary.json: confirmed); this says why.
	[ "$(jq -r .confirmed "$run/summary.json" 2>/dev/null)" = true ] && exit 0
	conf=$(cat "$state/confirm" 2>/dev/null)
	if [ "$(jq -r .culprit_image_identical_to_parent "$run/summary.json" 2>/dev/null)" = true ]; then
		pb_die "$PB_UNCONFIRMED" "cannot decide: ${culprit:0:12} builds a kernel image byte-identical to its parent's, so it cannot be what made the kernel slower; the bisect followed noise"
	fi
	if [[ $conf == deterministic:* ]]; then
		pb_die "$PB_UNCONFIRMED" "cannot decide: ${culprit:0:12} is not slower than its parent beyond the boots' spread ($conf)"
	fi
	pb_die "$PB_UNCONFIRMED" "cannot decide: ${culprit:0:12} is not measurably slower than its parent (${conf:-not re-measured}); the effect may be within the noise or spread over several commits: try more samples per step (-n, -N) or longer samples (-J)"
}

parse_args "$@"
pb_export_ids
open_repo
open_state
trap interrupted INT TERM HUP QUIT
check_ends
choose_search
calibrate_ends
if [ "$search" = 1 ]; then
	run_search
else
	run_bisect
fi
confirm_culprit
report
