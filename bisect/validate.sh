#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# validate.sh: prove whether fix patches bring the throughput back: apply
# each patch on top of ON (in a repository perfbisect owns), build, boot and
# measure it against the baseline BASE, run the lab's torture tests on it, and
# print a table shaped like the seed's (Tasks Jobs/Min JTI Real CPU
# Jobs/sec/task idle% vs good).
# Usage: validate.sh [-t TREE] [-B BASE] [-O ON] [-x TOLERANCE_PCT]
#                    [-r MIN_ROUNDS] [-M MAX_ROUNDS] [-s SUMMARY_JSON]
#                    [-c CULPRIT] [-R] [-C CPUS] [-T TASKS] [-J JOBS]
#                    [-k SAMPLES_PER_BOOT] [-w WARMUP] [-W WORKFILE]
#                    [-K CONFIG] [-A CMD [-Y REGEX] [-D higher|lower]]
#                    [-d auto|det|wall] PATCH...
#   -K CONFIG (--config), -A CMD (--run), -Y REGEX (--metric), -D lower
#   (--lower-is-better): your config and your benchmark, as for bisect.sh.
#   TREE defaults to the lab with BASE=good and ON=bad. The kernels are
#   measured in rounds, one fresh boot each per round in a rotating order,
#   and each fix is compared with BASE round by round (the ratio of the
#   boots' medians; pbstat paired: a t interval over the rounds), which
#   cancels the drift of this kind of machine. After MIN_ROUNDS (default
#   4) rounds continue while a fix is undecided, up to MAX_ROUNDS (8); a
#   MAX_ROUNDS given alone below the default MIN_ROUNDS is both.
#   A fix is "not back" when the interval of its difference to BASE lies
#   entirely below -TOLERANCE_PCT (default 2), "back to baseline" when the
#   interval lies above it, and "undecided: within the noise" (exit 19)
#   when the interval straddles it after MAX_ROUNDS; the table says which
#   tolerance the noise could have resolved. Each look, after every round
#   from MIN_ROUNDS on, takes its share of 5% (Bonferroni): the intervals
#   are 1 - 0.05 / (MAX_ROUNDS - MIN_ROUNDS + 1), 99% at the defaults.
#   -d det (or PB_MODE=det; auto, the default, picks det where this QEMU
#   runs the vCPUs asked for): deterministic boots (bisect.sh --help).
#   Round r takes boot r of each kernel, salt r, from the results cache (a
#   deterministic boot is the same on any day), booting it once when
#   missing; the boot is the unit and the rule is the paired one above,
#   3 rounds at least and 8 at most by default. With PB_SALT=0 (boots
#   without salts), 2 rounds at least and 3 at most, pbstat detcmp
#   compares each kernel's boot medians with BASE's: "not back" when it is
#   slower by more than TOLERANCE plus eps (the boots' spread), "back to
#   baseline" when it is slower by less than TOLERANCE minus eps, else
#   "undecided" (exit 19).
#   -P reproduce: no patches; measure BASE (GOOD) and ON (BAD) alike and
#   answer "reproduced" (exit 0) when ON is slower than BASE by more than
#   TOLERANCE (the minimum effect; beyond the interval, or beyond eps in
#   deterministic mode with PB_SALT=0), else "not reproduced" (exit 15).
#   -s adds the "fixes" list to an existing summary.json; -R skips the
#   torture (only for kernels without the lab's torture test); -c names
#   the culprit in the table's label for ON.
# Every patch is checked with `git apply --check` before anything is built;
# one that does not apply stops everything with nothing changed. The run
# directory keeps every sample (samples.tsv), the per-boot medians
# (rounds.tsv), the log (validate.log; in deterministic mode the build
# and boot logs in measure.log), table.txt, summary.json and
# vs-baseline.svg (each kernel's difference to the baseline with its
# interval).
# Exit: 0 every fix is back to baseline, 1 some fix is not (or fails the
# torture), 17 a patch is missing or does not apply, 19 a comparison stayed
# undecided (within the noise, or within eps), others as bisect.sh.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

pb_help_first "$@"
tree='' base='' on='' tol=2 rmin='' rmax='' summary='' torture=1 cpus='' culprit=
mopts=() mode=${PB_MODE:-auto} reproduce=0
while getopts t:B:O:x:r:M:s:c:RC:T:J:k:w:W:K:A:Y:D:d:Ph opt; do
	case $opt in
	t) tree=$OPTARG ;;
	B) base=$OPTARG ;;
	O) on=$OPTARG ;;
	x) tol=$OPTARG ;;
	r) rmin=$OPTARG ;;
	M) rmax=$OPTARG ;;
	s) summary=$OPTARG ;;
	c) culprit=$OPTARG ;;
	R) torture=0 ;;
	d) mode=$OPTARG ;;
	P) reproduce=1 ;;
	C)
		cpus=$OPTARG
		mopts+=(-C "$OPTARG")
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
	*) pb_opt_other "$opt" ;;
	esac
done
shift $((OPTIND - 1))
if [ "$reproduce" = 1 ]; then
	[ $# -eq 0 ] || pb_die "$PB_USAGE" "reproduce takes no patch ('$1')"
	torture=0
else
	[ $# -gt 0 ] || pb_die "$PB_USAGE" "no patch given (see --help)"
fi
{ pb_is_number "$tol" && awk -v t="$tol" 'BEGIN { exit !(t >= 0 && t < 100) }'; } ||
	pb_die "$PB_USAGE" "tolerance '$tol' is not a number from 0 to below 100 (percent, -x)"
pb_check_mode "$mode" "${cpus:-1}"
pb_check_measure_opts "${mopts[@]}"
# The table's column: the reproducer's Jobs/Min, or a --run command's score.
col=Jobs/Min
[ "$(pb_score_unit "${mopts[@]}")" = jobs/min ] || col=$(pb_score_unit "${mopts[@]}")
[ -z "$rmin" ] || pb_check_range "rounds (-r)" "$rmin" 2 20
[ -z "$rmax" ] || pb_check_range "rounds (-M)" "$rmax" 2 20
if [ "$mode" = auto ]; then
	mode=wall
	[ "${cpus:-$(pb_det_cpus)}" -le "$(pb_det_max_cpus)" ] && [ "${PB_ACCEL:-}" != kvm ] && mode=det
fi
# rule: how a kernel is compared with BASE: det (pbstat detcmp, eps) or
# wall (pbstat paired over the rounds). Salted deterministic boots
# (PB_SALT=1: round r boots every kernel with salt r) differ by their
# inputs, so the boot is the unit there too: the paired rule.
# dmin, dmax: the rule's default rounds.
rule=$mode salted=false dmin=4 dmax=8
if [ "$mode" = det ]; then
	mopts+=(-d det)
	if pb_salted; then
		rule=wall salted=true dmin=3 dmax=8
	else
		dmin=2 dmax=3
	fi
fi
: "${rmax:=$dmax}" "${cpus:=$([ "$mode" = det ] && pb_det_cpus || echo 2)}"
# -M alone, below the default minimum (but 2 or more), is the minimum too.
if [ -z "${rmin:-}" ]; then
	rmin=$dmin
	pb_is_uint "$rmax" && [ "$rmax" -ge 2 ] && [ "$rmax" -lt "$dmin" ] && rmin=$rmax
fi
pb_is_uint "$rmin" && [ "$rmin" -ge 2 ] || pb_die "$PB_USAGE" "-r '$rmin': at least 2 rounds are needed"
pb_is_uint "$rmax" && [ "$rmax" -ge "$rmin" ] || pb_die "$PB_USAGE" "-M '$rmax': give at least as many rounds as -r ($rmin)"
# Error spending: a verdict may come after any round from rmin to rmax, so
# each of those looks tests at 0.05 divided by their number (Bonferroni):
# a fix is called back or not back wrongly at most 5% of the time overall.
looks=$((rmax - rmin + 1))
look_alpha=$(awk -v k="$looks" 'BEGIN { printf "%.6g", 0.05 / k }')
ci_level=$(awk -v a="$look_alpha" 'BEGIN { printf "%.4g", 100 * (1 - a) }')
[ -z "$summary" ] || [ -f "$summary" ] || pb_die "$PB_USAGE" "summary '$summary' not found"
patches=()
for p in "$@"; do
	[ -f "$p" ] || pb_die "$PB_NOPATCH" "patch '$p' not found"
	patches+=("$(realpath "$p")")
done
pb_need git jq
pb_export_ids
if [ -z "$tree" ]; then
	tree=$("$PB_TOP/bisect/lab.sh") || exit
	: "${base:=good}" "${on:=bad}"
fi
[ -n "$base" ] && [ -n "$on" ] || pb_die "$PB_USAGE" "give BASE and ON (-B, -O)"
repo=$(pb_resolve_repo "$tree") || exit
bsha=$(pb_resolve_rev "$repo" "$base") || exit
osha=$(pb_resolve_rev "$repo" "$on") || exit
pbstat=$(pb_tool pbstat) || exit

# The fixed commits live in a bare repository of ours that shares the
# user's objects; the commits are deterministic, so results are cached.
# They build in the checkout of the user's repository (pb_patch_repo).
vdir="$PERFBISECT_HOME/validate/$(pb_sha "$repo")"
vrepo="$vdir/repo.git"
mkdir -p "$vdir" || pb_die "$PB_INTERNAL" "cannot create $vdir"
pb_lock "$vdir/lock" "fix validation for $repo"
pb_patch_repo "$repo" "$vrepo" || pb_die "$PB_INTERNAL" "cannot create $vrepo"
work=$(mktemp -d "$vdir/work.XXXXXX") || pb_die "$PB_INTERNAL" "cannot create a work dir"
trap 'rm -rf "$work"' EXIT
trap 'exit $PB_INTERRUPTED' INT TERM

# check_patch FILE: succeed when FILE applies to ON; the reason on stderr.
check_patch() {
	GIT_DIR=$vrepo GIT_INDEX_FILE=$work/index git read-tree "$osha" &&
		GIT_DIR=$vrepo GIT_INDEX_FILE=$work/index git apply --cached --check "$1" 2>"$work/err"
}
for p in "${patches[@]}"; do
	check_patch "$p" ||
		pb_die "$PB_NOPATCH" "${p##*/} does not apply to ${osha:0:12}: $(head -1 "$work/err")"
done

run=$(pb_new_run "$([ "$reproduce" = 1 ] && echo reproduce || echo validate)") || exit
export PB_RUN_DIR=$run
pb_info "run directory: $run"
names=() shas=() repos=()
names+=("baseline") shas+=("$bsha") repos+=("$repo")
names+=("unfixed") shas+=("$osha") repos+=("$repo")
for p in "${patches[@]}"; do
	c=$(pb_commit_patch "$vrepo" "$osha" "$p") || pb_die "$PB_INTERNAL" "cannot commit ${p##*/}"
	name=${p##*/}
	names+=("${name%.patch}") shas+=("$c") repos+=("$vrepo")
	git --git-dir="$vrepo" update-ref "refs/perfbisect/${name%.patch}" "$c"
done

# Boot-to-boot drift on this kind of machine is larger than the effects
# sought, so the kernels are measured in rounds, one fresh boot each in
# turn, and each fix is compared with the baseline of its own round.
# The order rotates from round to round so that no kernel always follows
# the same one. Cached wall-clock samples come from another time: none are
# used. A deterministic boot is the same on any day: round r takes boot r
# from the results cache (det_boot).
measure_cmd=${PB_MEASURE:-$PB_TOP/bisect/measure.sh}
nk=${#names[@]}
printf 'round\tkernel\tcommit\tjpm\tidle\tjti\treal\tcpu\tjpst\ttasks\n' >"$run/samples.tsv"
printf 'round\tkernel\tcommit\tmedian_jpm\n' >"$run/rounds.tsv"
# decide I: compare kernel I with the baseline over the rounds so far
# into stat, lo, hi and tolv, pbstat's answer against the tolerance:
# beyond (slower by more than tol), within, or unsure (pbstat paired
# --tolerance; in deterministic mode without salts, detcmp's slower and
# within). Returns 0 when decided, 1 when unsure.
decide() {
	local i=$1 a=() b=() r
	for ((r = 1; r <= round; r++)); do
		[ -n "${med[$r, 0]:-}" ] && [ -n "${med[$r, $i]:-}" ] || continue
		a+=("${med[$r, 0]}") b+=("${med[$r, $i]}")
	done
	stat='' tolv=unsure
	[ ${#a[@]} -ge 2 ] || return 1
	if [ "$rule" = det ]; then
		stat=$("$pbstat" detcmp --min-effect "$tol" -a "${a[@]}" -b "${b[@]}")
		[ $? -le 1 ] || pb_die "$PB_INTERNAL" "pbstat detcmp failed: $stat"
		if [ "$(sed -n 's/.* slower=\([01]\).*/\1/p' <<<"$stat")" = 1 ]; then
			tolv=beyond
		elif [ "$(sed -n 's/.* within=\([01]\).*/\1/p' <<<"$stat")" = 1 ]; then
			tolv=within
		fi
	else
		stat=$("$pbstat" paired --alpha "$look_alpha" --tolerance "$tol" -a "${a[@]}" -b "${b[@]}" 2>&1) ||
			pb_die "$PB_INTERNAL" "pbstat paired failed: $stat"
		lo=$(sed -n 's/.*ci_low_pct=\([-0-9.]*\).*/\1/p' <<<"$stat")
		hi=$(sed -n 's/.*ci_high_pct=\([-0-9.]*\).*/\1/p' <<<"$stat")
		tolv=$(sed -n 's/.* tol=\([a-z]*\).*/\1/p' <<<"$stat")
	fi
	[ "$tolv" != unsure ]
}
# det_boot I: the deterministic boot ROUND of kernel I (salt ROUND with
# PB_SALT=1) is the same figure on any day: from the results cache, as a
# bisect left it, or booted now and cached (samples.sh; the build and boot
# logs go to measure.log, as a bisect's do, not into validate.log). Its
# samples go to $work/rows, its code to code; a failure's outcome to
# $work/boot.
det_boot() {
	local dir
	"$PB_TOP/bisect/stages/samples.sh" -n 1 -B "$round" -N "$round" -l "$run/measure.log" \
		"${repos[$1]}" "${shas[$1]}" -- "${mopts[@]}" >/dev/null 2>>"$run/validate.log"
	code=$?
	dir=$("$PB_TOP/bisect/stages/samples.sh" -d "${repos[$1]}" "${shas[$1]}" -- "${mopts[@]}") || return 0
	if [ "$code" -eq 0 ]; then
		pb_boot_rows "$dir" "$round" >"$work/rows"
	elif [ -f "$dir/failed-run/outcome" ]; then
		mkdir -p "$work/boot" && cp "$dir/failed-run/outcome" "$work/boot/"
	fi
}
declare -A med
round=0
while ((round < rmax)); do
	round=$((round + 1))
	for ((j = 0; j < nk; j++)); do
		i=$(((j + round - 1) % nk))
		[ -f "$work/failed-$i" ] && continue
		pb_info "round $round (at least $rmin, at most $rmax): ${names[$i]} (${shas[$i]:0:12})"
		if [ "$mode" = det ]; then
			det_boot "$i"
		else
			"$measure_cmd" "${mopts[@]}" -o "$work/boot" "${repos[$i]}" "${shas[$i]}" >/dev/null 2>>"$run/validate.log"
			code=$?
			[ -f "$work/boot/results" ] && pb_sample_rows "$work/boot/results" >"$work/rows"
		fi
		[ "$code" -eq "$PB_INTERRUPTED" ] && exit "$PB_INTERRUPTED"
		if [ "$code" -ne 0 ]; then
			echo "$(cat "$work/boot/outcome" 2>/dev/null || echo nobuild) (code $code)" >"$work/failed-$i"
		else
			if [ -s "$work/rows" ]; then
				cat "$work/rows" >>"$work/samples-$i"
				tr ' ' '\t' <"$work/rows" | sed "s/^/$round\t${names[$i]}\t${shas[$i]}\t/" >>"$run/samples.tsv"
				mapfile -t jpms < <(cut -d' ' -f1 "$work/rows")
				m=$(pb_median "${jpms[@]}")
				med[$round, $i]=$m
				printf '%s\t%s\t%s\t%s\n' "$round" "${names[$i]}" "${shas[$i]}" "$m" >>"$run/rounds.tsv"
			fi
		fi
		rm -rf "${work:?}/boot" "$work/rows"
	done
	[ -s "$work/samples-0" ] || pb_die "$PB_NORESULT" "the baseline ${bsha:0:12} cannot be measured; see $run/validate.log"
	((round >= rmin)) || continue
	open=0
	for ((i = 2 - reproduce; i < nk; i++)); do
		[ -f "$work/failed-$i" ] && continue
		decide "$i" || open=$((open + 1))
	done
	[ "$open" -eq 0 ] && break
	pb_info "round $round: $open fix(es) not decided yet, measuring another round"
done
pb_info "measured $round rounds; samples in $run/samples.tsv"

echo '[]' >"$work/fixes.json"
rows=()
allback=0 undecided=0
for i in "${!names[@]}"; do
	name=${names[$i]} sha=${shas[$i]} r=${repos[$i]}
	mapfile -t s < <(cut -d' ' -f1 "$work/samples-$i" 2>/dev/null)
	decide "$i"
	decided=$?
	if [ ${#s[@]} -lt 2 ] || [ -z "$stat" ]; then
		verdict="does not build or boot: $(cat "$work/failed-$i" 2>/dev/null)"
		[ "$i" -eq 0 ] && verdict=baseline
		jpm=0 ratio=0
		[ "$i" -ge 2 ] && allback=1
	elif [ "$rule" = det ]; then
		delta=$(sed -n 's/.*delta_pct=\([-0-9.]*\).*/\1/p' <<<"$stat")
		eps=$(sed -n 's/.*eps_pct=\([0-9.]*\).*/\1/p' <<<"$stat")
		n=$(sed -n 's/.* n_b=\([0-9]*\).*/\1/p' <<<"$stat")
		ratio=$(awk -v d="$delta" 'BEGIN { printf "%.6g", 1 + d / 100 }')
		jpm=$(pb_median "${s[@]}")
		ci="deterministic, $n boots, eps ${eps}%: a tolerance above ${eps}% is resolvable"
		if [ "$tolv" = beyond ]; then
			verdict="not back: ${delta}% ($ci; slower than -${tol}%)"
			[ "$i" -ge 2 ] && allback=1
		elif [ "$decided" -eq 0 ]; then
			verdict="back to baseline (${delta}%, $ci)"
		else
			verdict="undecided: ${delta}% is within eps of -${tol}% ($ci)"
			[ "$i" -ge 2 ] && undecided=1
		fi
		[ "$i" -eq 0 ] && verdict="baseline"
		[ "$i" -eq 1 ] && verdict="unfixed: ${delta}% ($ci)"
	else
		delta=$(sed -n 's/.*delta_pct=\([-0-9.]*\).*/\1/p' <<<"$stat")
		ratio=$(sed -n 's/.*ratio=\([-0-9.]*\).*/\1/p' <<<"$stat")
		n=$(sed -n 's/^n=\([0-9]*\).*/\1/p' <<<"$stat")
		jpm=$(pb_median "${s[@]}")
		ci="${ci_level}% CI ${lo}%..${hi}% over $n rounds$([ "$salted" = true ] && echo " of salted deterministic boots")"
		if [ "$tolv" = beyond ]; then
			verdict="not back: ${delta}% ($ci, below -${tol}%)"
			[ "$i" -ge 2 ] && allback=1
		elif [ "$decided" -eq 0 ]; then
			verdict="back to baseline (${delta}%, $ci)"
		else
			# Within the noise is no answer: say what the noise resolves.
			verdict="undecided: within the noise (${delta}%, $ci: not shown slower than -${tol}%, nor faster; the noise resolves a tolerance of $(printf '%.1f' "$(sed -n 's/.*resolves_pct=\([0-9.]*\).*/\1/p' <<<"$stat")")% here)"
			[ "$i" -ge 2 ] && undecided=1
		fi
		[ "$i" -eq 0 ] && verdict="baseline"
		[ "$i" -eq 1 ] && verdict="unfixed: ${delta}% ($ci)"
		# Nothing to bring back when ON is not measurably slower.
		if [ "$i" -eq 1 ] && [ "$tolv" != beyond ]; then
			pb_warn "ON ${sha:0:12} is not measurably slower than BASE ${bsha:0:12} (${delta}%, $ci): the verdicts below say little"
		fi
	fi
	if [ "$i" -ge 2 ] && [ "$torture" = 1 ]; then
		pb_info "semaphore and BKL torture on $name (${sha:0:12})"
		t=$("$PB_TOP/bisect/torture.sh" -C "$cpus" "$r" "$sha" 2>>"$run/validate.log")
		tc=$?
		[ "$tc" -eq "$PB_INTERRUPTED" ] && exit "$PB_INTERRUPTED"
		if [ "$tc" -ne 0 ]; then
			verdict="rejected: torture ${t:-failed to run (code $tc)}; throughput: $verdict"
			allback=1
		else
			verdict="$verdict; torture pass"
		fi
	fi
	# The seed's columns: medians of each sample column, with the jpm spread.
	row=$(awk '{ for (c = 1; c <= NF; c++) v[c, NR] = $c; n = NR; k = NF }
		function med(c,   i, j, t, a) { for (i = 1; i <= n; i++) a[i] = v[c, i]
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { if (!n) { print "- - - - - - - -"; exit }
			lo = hi = v[1, 1]; for (i = 1; i <= n; i++) { if (v[1, i] < lo) lo = v[1, i]; if (v[1, i] > hi) hi = v[1, i] }
			printf "%d %.1f %.1f %.0f %.2f %.2f %.4f %.1f", med(7), med(1), (hi - lo) / 2, med(3), med(4), med(5), med(6), med(2) }' \
		"$work/samples-$i" 2>/dev/null)
	[ "$i" -eq 0 ] && ratio=1
	label=$name
	[ "$i" -eq 0 ] && label="good (${sha:0:12})"
	[ "$i" -eq 1 ] && label="bad (${culprit:+culprit }${culprit:-$sha}"
	[ "$i" -eq 1 ] && label="${label:0:25})"
	[ "$i" -ge 2 ] && label="bad + $name"
	rows+=("$label|$row|$ratio|$verdict")
	# The chart against the baseline: delta and its interval (in
	# deterministic mode, delta -+ eps), for ON and every fix measured.
	if [ "$i" -ge 1 ] && [ -n "${stat:-}" ] && [ ${#s[@]} -ge 2 ]; then
		if [ "$rule" = det ]; then
			blo=$(awk -v d="$delta" -v e="$eps" 'BEGIN { print d - e }') bhi=$(awk -v d="$delta" -v e="$eps" 'BEGIN { print d + e }')
		else
			blo=$lo bhi=$hi
		fi
		printf '%s\t%s\t%s\t%s\n' "$([ "$i" -eq 1 ] && echo unfixed || echo "${name:0:28}")" "$delta" "$blo" "$bhi" >>"$work/bars.dat"
	fi
	if [ "$i" -ge 2 ]; then
		jq --arg name "$name" --argjson jpm "${jpm:-0}" --argjson ratio "${ratio:-0}" \
			--arg verdict "$verdict" --arg commit "$sha" \
			'. + [{name: $name, commit: $commit, jpm: $jpm, ratio_to_good: $ratio, verdict: $verdict}]' \
			"$work/fixes.json" >"$work/fixes.new" && mv "$work/fixes.new" "$work/fixes.json"
	fi
done

{
	printf '%-34s %6s %10s %8s %4s %7s %7s %13s %6s %7s  %s\n' kernel Tasks "$col" '+-' JTI Real CPU Jobs/sec/task idle% 'vs good' verdict
	for r in "${rows[@]}"; do
		IFS='|' read -r label row ratio verdict <<<"$r"
		read -r tasks jpm spread jti real cpu jpst idle <<<"$row"
		printf '%-34s %6s %10s %8s %4s %7s %7s %13s %6s %7s  %s\n' "${label:0:34}" "$tasks" "$jpm" "$spread" \
			"$jti" "$real" "$cpu" "$jpst" "$idle" "$ratio" "$verdict"
	done
} | tee "$run/table.txt"
# vs-baseline.svg: each kernel's difference to the baseline, with its
# interval, and the tolerance.
if command -v gnuplot >/dev/null 2>&1 && [ -s "$work/bars.dat" ]; then
	cp "$work/bars.dat" "$run/vs-baseline.dat"
	gnuplot >"$run/vs-baseline.log" 2>&1 <<PLOT || pb_warn "gnuplot failed; see $run/vs-baseline.log"
set terminal svg size 900,420 dynamic
set output "$run/vs-baseline.svg"
set title "perfbisect validate: $(pb_score_unit "${mopts[@]}") against the baseline ($mode mode; bars: $([ "$rule" = det ] && echo "-+ eps" || echo "${ci_level}% interval"))"
set ylabel "difference to the baseline, %"
set style fill solid 0.5
set boxwidth 0.6
set grid ytics
set xtics noenhanced
set datafile separator "\t"
set key bottom left
set yrange [*:*]
set offsets 0.5, 0.5, graph 0.1, graph 0.1
plot "$run/vs-baseline.dat" using 0:2:xtic(1) with boxes lc rgb "#4a7ab0" notitle, \
     "" using 0:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb "#222222" notitle, \
     -$tol with lines dt 2 lc rgb "#c0392b" title "-$tol% (the tolerance)", \
     0 with lines lc rgb "#555555" notitle
PLOT
fi
# reproduce: ON against BASE, as decided above.
answer=''
if [ "$reproduce" = 1 ]; then
	decide 1
	delta=$(sed -n 's/.*delta_pct=\([-0-9.]*\).*/\1/p' <<<"$stat")
	if [ -z "$stat" ]; then
		answer="not reproduced: BAD or GOOD gave no result"
	elif [ "$rule" = det ] && [ "$tolv" = beyond ]; then
		answer="reproduced: BAD is ${delta}% against GOOD (deterministic, eps $(sed -n 's/.*eps_pct=\([0-9.]*\).*/\1/p' <<<"$stat")%)"
	elif [ "$rule" = wall ] && [ "$tolv" = beyond ]; then
		answer="reproduced: BAD is ${delta}% against GOOD (${ci_level}% CI ${lo}%..${hi}%, over $round rounds$([ "$salted" = true ] && echo " of salted deterministic boots"))"
	else
		answer="not reproduced: BAD is ${delta}% against GOOD, not shown slower than -${tol}% ($stat)"
	fi
	echo "$answer"
fi
jq -n --arg base "$bsha" --arg on "$osha" --arg repo "$repo" --argjson tol "$tol" \
	--arg answer "$answer" \
	--slurpfile fixes "$work/fixes.json" \
	--argjson rounds "$round" \
	--arg mode "$mode" --argjson salted "$salted" \
	'{repo: $repo, base: $base, on: $on, tolerance_pct: $tol, rounds: $rounds, mode: $mode, salted: $salted, fixes: $fixes[0]}
	 + (if $answer == "" then {} else {reproduced: ($answer | startswith("reproduced")), answer: $answer} end)' |
	pb_atomic_write "$run/summary.json"
if [ -n "$summary" ]; then
	jq --slurpfile fixes "$work/fixes.json" '.fixes = $fixes[0]' "$summary" | pb_atomic_write "$summary"
fi
echo "results: $run (table.txt, summary.json, samples.tsv, rounds.tsv, vs-baseline.svg)"
if [ "$reproduce" = 1 ]; then
	[[ $answer == reproduced* ]] && exit 0
	exit "$PB_NOREGRESSION"
fi
[ "$allback" = 0 ] && [ "$undecided" = 1 ] && exit "$PB_UNDECIDEDFIX"
exit "$allback"
