#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report.sh: turn a finished bisect into its results: results.jsonl (one
# object per measured kernel), summary.json, a table of every measured
# commit, the culprit with `git show --stat`, and a plot of jobs/min along
# the tested commits (SVG, gnuplot).
# Usage: report.sh -s STATE -r RUNDIR -w WALL_S [-C CULPRIT] [-U "SHA..."] [-- MEASURE_OPTION...]
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ "${1:-}" = --help ] && {
	sed -n '3,7s/^# \{0,1\}//p' "$0"
	exit 0
}
state='' run='' wall=0 culprit='' undecided=''
while getopts s:r:w:C:U: opt; do
	case $opt in
	s) state=$OPTARG ;;
	r) run=$OPTARG ;;
	w) wall=$OPTARG ;;
	C) culprit=$OPTARG ;;
	U) undecided=$OPTARG ;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ -d "$state" ] && [ -d "$run" ] || pb_die "$PB_USAGE" "need -s STATE and -r RUNDIR"
# What the numbers are: the reproducer's jobs/min, or a --run command's
# figure (the score is the value, or 1e6/value when lower is better).
cmd='' metric='' direction=higher prev=''
for a in "$@"; do
	case $prev in
	-A) cmd=$a ;;
	-Y) metric=$a ;;
	-D) direction=$a ;;
	esac
	prev=$a
done
[ -z "$cmd" ] || [ -n "$metric" ] || metric=$(pb_run_metric "$cmd")
label=$(pb_score_unit "$@")
repo=$(cat "$state/repo")
pb_tool pbstat >/dev/null || exit
ends="$state/ends.json"
read -r gsha bsha <"$state/ends" || pb_die "$PB_INTERNAL" "no ends recorded in $state"

# One line per measured commit: SHA ROLE, in the order they were measured.
{
	echo "$gsha good-end"
	echo "$bsha bad-end"
	sed -n 's/^git bisect \(good\|bad\|skip\) \([0-9a-f]\{40\}\)$/\2 \1/p' "$state/bisect.log"
	# A search (bisect.sh -S): each commit it booted, on its side of
	# the culprit.
	cat "$state/search-verdicts" 2>/dev/null
} | awk '!seen[$1]++' >"$run/measured"

# kv: the key=value words of a pbstat line as an object, numbers as
# numbers (jq).
kv_jq='def kv: map(select(test("^[a-z_]+=")) | capture("^(?<k>[a-z_]+)=(?<v>.*)$") | {(.k): (.v | tonumber? // .)}) | add // {}; '
: >"$run/results.jsonl.tmp"
while read -r sha role; do
	dir=$("$PB_TOP/bisect/stages/samples.sh" -d "$repo" "$sha" -- "$@")
	samples=$(cut -d' ' -f1 "$dir/samples" 2>/dev/null | jq -R 'tonumber? // empty' | jq -s .)
	idle=$(cut -d' ' -f2 "$dir/samples" 2>/dev/null | jq -R 'tonumber? // empty' | jq -s 'if length > 0 then (sort | .[length / 2 | floor]) else null end')
	median=null
	if [ "$(jq length <<<"$samples")" -gt 0 ]; then
		mapfile -t v < <(jq -r '.[]' <<<"$samples")
		median=$(pb_median "${v[@]}")
	fi
	case $role in
	good-end) verdict=good ;;
	bad-end) verdict=bad ;;
	*) verdict=$role ;;
	esac
	same=$(awk -v c="$sha" '$1 == c { s = $2 } END { print s }' "$state/same-kernel" 2>/dev/null)
	# The step's decision: its rule and statistics (step.sh).
	dec=$(awk -v c="$sha" '$1 == c { $1 = ""; l = substr($0, 2) } END { print l }' "$state/decisions" 2>/dev/null)
	jq -n --arg commit "$sha" --arg subject "$(git -C "$repo" log -1 --format=%s "$sha")" \
		--argjson position "$(git -C "$repo" rev-list --count "$gsha..$sha")" \
		--arg role "$role" --arg verdict "$verdict" --argjson samples "$samples" \
		--argjson median "${median:-null}" --argjson idle "$idle" --arg same "$same" \
		--arg mode "$(jq -r '.mode // "wall"' "$state/ends.json")" \
		--argjson boots "$("$PB_TOP/bisect/stages/samples.sh" -m -n 0 -N 0 "$repo" "$sha" -- "$@" 2>/dev/null | jq -s 'map(numbers)' 2>/dev/null || echo '[]')" \
		--slurpfile m <(cat "$dir/meta.json" 2>/dev/null || echo '{}') --arg dec "$dec" -c \
		"$kv_jq"'($m[0] // {}) as $m | {commit: $commit, subject: $subject, position: $position,
		  role: $role, verdict: $verdict, mode: $mode, samples: $samples, boot_medians: $boots, median: $median,
		  idle_pct: $idle, outcome: ($m.outcome // null), build_s: ($m.build_s // null),
		  boot_s: ($m.boot_s // null), ccache_hits: ($m.ccache_hits // null),
		  ccache_misses: ($m.ccache_misses // null),
		  bzimage_sha256: ($m.bzimage_sha256 // null),
		  same_kernel_as: (if $same == "" then null else $same end),
		  decision: (if $dec == "" then null else ($dec | split(" ") | {rule: .[0]} + (.[1:] | kv)) end)}' >>"$run/results.jsonl.tmp" ||
		pb_die "$PB_INTERNAL" "cannot write results.jsonl"
done <"$run/measured"
mv -f "$run/results.jsonl.tmp" "$run/results.jsonl"

threshold=$(jq .threshold "$ends")
cal=$(jq -r .calibration "$ends")
confirm=$(cat "$state/confirm" 2>/dev/null)
field() { pb_field "$@"; }
identical=false
if [ -n "$culprit" ]; then
	parent=$(git -C "$repo" rev-parse "$culprit^")
	c_img=$(jq -r .bzimage_sha256 "$("$PB_TOP/bisect/stages/samples.sh" -d "$repo" "$culprit" -- "$@")/meta.json" 2>/dev/null)
	p_img=$(jq -r .bzimage_sha256 "$("$PB_TOP/bisect/stages/samples.sh" -d "$repo" "$parent" -- "$@")/meta.json" 2>/dev/null)
	[ -n "$c_img" ] && [ "$c_img" != null ] && [ "$c_img" = "$p_img" ] && identical=true
fi
# confirmed: the culprit is slower than its parent by the confirmation's
# own rule (deterministic: beyond the boots' spread, pbstat detcmp; paired
# rounds: pbstat paired's separated; samples: p < 0.05 and the interval
# below 0, pbstat effect), and its image differs from its parent's.
confirmed=null
if [ -n "$culprit" ]; then
	confirmed=false
	case $confirm in
	deterministic:*) [ "$(field slower "$confirm")" = 1 ] && confirmed=true ;;
	"in rounds:"*separated=*) [ "$(field separated "$confirm")" = 1 ] && confirmed=true ;;
	?*) awk -v p="$(field p "$confirm")" -v h="$(field ci_high_pct "$confirm")" \
		'BEGIN { exit !(p != "" && h != "" && p < 0.05 && h < 0) }' && confirmed=true ;;
	esac
	[ "$identical" = true ] && confirmed=false
fi
steps=$(grep -c '^git bisect \(good\|bad\|skip\) ' "$state/bisect.log")
search_rounds=$(grep -c . "$state/search" 2>/dev/null)
search_result=$(cat "$state/search-result" 2>/dev/null)
# Builds done by this run (not taken from the image or results cache).
touch "$run/builds.jsonl"
builds=$(jq -s '[.[] | select(.cached | not) | .commit] | unique | length' "$run/builds.jsonl")
hits=$(jq -s 'map(.ccache_hits // 0) | add // 0' "$run/builds.jsonl")
misses=$(jq -s 'map(.ccache_misses // 0) | add // 0' "$run/builds.jsonl")
boots=$(wc -l <"$run/builds.jsonl")
# Steps that took the verdict of a known kernel (see step.sh).
same_steps=$(jq -s 'map(select(.same_kernel_as != null)) | length' "$run/results.jsonl")
jq -n --arg culprit "$culprit" \
	--arg culprit_subject "$([ -n "$culprit" ] && git -C "$repo" log -1 --format=%s "$culprit")" \
	--argjson steps "$steps" --argjson builds "$builds" --argjson wall_s "$wall" \
	--argjson threshold "$threshold" \
	--argjson good_jpm "$(field good_median "$cal")" --argjson bad_jpm "$(field bad_median "$cal")" \
	--arg noise_pct "$(field noise_pct "$cal")" --arg confirm "$confirm" \
	--argjson identical "$identical" --argjson confirmed "$confirmed" --arg undecided "$undecided" \
	--argjson hits "${hits:-0}" --argjson misses "${misses:-0}" --argjson boots "${boots:-0}" \
	--argjson same_steps "${same_steps:-0}" --argjson search_rounds "${search_rounds:-0}" \
	--arg search "$search_result" \
	--arg repo "$repo" --arg good "$gsha" --arg bad "$bsha" \
	--arg mode "$(jq -r '.mode // "wall"' "$ends")" --arg mode_reason "$(jq -r '.mode_reason // ""' "$ends")" \
	--argjson eps "$(jq '.eps_pct // null' "$ends")" \
	--arg cmd "$cmd" --arg metric "$metric" --arg direction "$direction" --arg score_label "$label" \
	"$kv_jq"'{culprit: (if $culprit == "" then null else $culprit end),
	  culprit_subject: (if $culprit == "" then null else $culprit_subject end),
	  steps: $steps, same_kernel_steps: $same_steps,
	  search: (if $search == "" then null else ($search | split(" ") | kv) + {rounds: $search_rounds} end), builds: $builds, boots: $boots, ccache_hits: $hits,
	  ccache_misses: $misses, wall_s: $wall_s, threshold: $threshold,
	  good_jpm: $good_jpm, bad_jpm: $bad_jpm, noise_pct: ($noise_pct | tonumber? // null),
	  confirmation: $confirm, confirmation_stats: (if $confirm == "" then null else ($confirm | split(" ") | kv) end),
	  confirmed: $confirmed, culprit_image_identical_to_parent: $identical,
	  undecided: ($undecided | split(" ") | map(select(. != ""))),
	  repo: $repo, good: $good, bad: $bad,
	  mode: $mode, mode_reason: $mode_reason, eps_pct: $eps,
	  metric: {command: (if $cmd == "" then "reproducer (pbaim)" else $cmd end),
	    regex: (if $metric == "" then null else $metric end),
	    direction: $direction, score: $score_label}}' | pb_atomic_write "$run/summary.json"

# The table of every measured commit, along the history.
{
	printf '%-4s %-12s %-9s %7s %12s %6s %8s  %s\n' pos commit verdict samples "$label" "idle%" build_s subject
	jq -s -r 'sort_by(.position)[] | [.position, .commit[0:12], (.verdict + (if .same_kernel_as then "=" else "" end)), (.samples | length),
		(.median // "-"), (.idle_pct // "-"), (.build_s // "-"), .subject[0:50]] | @tsv' "$run/results.jsonl" |
		awk -F'\t' '{ printf "%-4s %-12s %-9s %7s %12s %6s %8s  %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
	[ "$same_steps" -gt 0 ] &&
		echo "(=: the same kernel as a commit judged before, so the same verdict without a build or boot; results.jsonl says which)"
} >"$run/table.txt"

# The plot: every judged commit along the history at its median jobs/min,
# with the spread of its boots' medians as an error bar; a commit that
# repeated a known kernel at that kernel's median (hollow), a skipped one
# on the threshold (a cross); the culprit marked with its subject.
# plot.dat: position, median, verdict, lowest and highest boot median,
# 1 when the verdict came from the same kernel.
jq -s -r '(map({key: .commit, value: {m: .median, s: .same_kernel_as}}) | from_entries) as $k |
	def level($c; $n): if $n > 50 or $k[$c] == null then null
		elif $k[$c].m != null then $k[$c].m
		elif $k[$c].s != null then level($k[$c].s; $n + 1) else null end;
	sort_by(.position)[] |
	(.median // (if .same_kernel_as then level(.same_kernel_as; 0) else null end)) as $y |
	[.position, ($y // "nan"), .verdict,
	 ((.boot_medians | min) // $y // "nan"), ((.boot_medians | max) // $y // "nan"),
	 (if .same_kernel_as then 1 else 0 end)] | @tsv' "$run/results.jsonl" >"$run/plot.dat"
# people: a number of jobs/min rounded, with thousands separators.
people() {
	awk -v x="$1" 'BEGIN { s = sprintf("%.0f", x); o = ""
		while (length(s) > 3) { o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) }
		print s o }'
}
if command -v gnuplot >/dev/null 2>&1 && [ -s "$run/plot.dat" ]; then
	mark='' span=$(git -C "$repo" rev-list --count "$gsha..$bsha")
	if [ -n "$culprit" ]; then
		cpos=$(git -C "$repo" rev-list --count "$gsha..$culprit")
		csub=$(git -C "$repo" log -1 --format=%s "$culprit" | tr -d '"\\' | cut -c1-50)
		# The label reads away from the middle, so that it stays inside.
		side="left offset 0.5,0"
		[ $((2 * cpos)) -gt "$span" ] && side="right offset -0.5,0"
		mark="set arrow from $cpos, graph 0 to $cpos, graph 1 nohead dt 3 lc rgb \"#c0392b\"
set label \"culprit ${culprit:0:12}:\\n$csub\" at $cpos, graph 0.7 $side textcolor rgb \"#c0392b\""
	fi
	gnuplot >"$run/plot.log" 2>&1 <<PLOT || pb_warn "gnuplot failed; see $run/plot.log"
set terminal svg size 960,500 dynamic
set output "$run/jobs-per-min.svg"
set title "perfbisect: $label along good..bad ($(jq -r '.mode // "wall"' "$ends") mode; threshold $(people "$threshold"))"
set xlabel "commits after GOOD"
set ylabel "$label (median of each boot; bars: lowest..highest boot)"
set key bottom left
set grid
set datafile missing "nan"
set format y "%.0f"
set offsets 0, 0, graph 0.08, graph 0.08
set xrange [-1:$((span + 1))]
$mark
plot "$run/plot.dat" using 1:((strcol(3) eq "good" && \$6 == 0) ? \$2 : 1/0):4:5 with yerrorbars pt 7 ps 1 lc rgb "#2a9d2a" title "good", \
     "$run/plot.dat" using 1:((strcol(3) eq "bad" && \$6 == 0) ? \$2 : 1/0):4:5 with yerrorbars pt 7 ps 1 lc rgb "#c0392b" title "bad", \
     "$run/plot.dat" using 1:((strcol(3) eq "good" && \$6 == 1) ? \$2 : 1/0) with points pt 6 ps 1 lc rgb "#2a9d2a" title "good (same kernel)", \
     "$run/plot.dat" using 1:((strcol(3) eq "bad" && \$6 == 1) ? \$2 : 1/0) with points pt 6 ps 1 lc rgb "#c0392b" title "bad (same kernel)", \
     "$run/plot.dat" using 1:(strcol(3) eq "skip" ? $threshold : 1/0) with points pt 2 ps 1 lc rgb "#777777" title "skipped", \
     $threshold with lines dt 2 lc rgb "#555555" title "threshold"
PLOT
fi

echo
cat "$run/table.txt"
echo
if [ -n "$culprit" ]; then
	echo "first bad commit: ${culprit:0:12} $(git -C "$repo" log -1 --format=%s "$culprit")"
	git -C "$repo" show --stat --format='commit %H%nAuthor: %an <%ae>%nDate:   %ad%n%n    %s%n' "$culprit" | sed 's/^/  /'
	[ -n "$confirm" ] && echo "confirmation against its parent: $confirm"
	[ "$identical" = true ] &&
		pb_warn "the culprit's kernel image is identical to its parent's: the difference is noise or not in the kernel"
elif [ -n "$search_result" ]; then
	echo "undecided: no culprit reached 99.5% in $search_rounds rounds; the most likely, ${undecided:0:12}, is at $(field p_culprit "$search_result")"
else
	echo "undecided: the first bad commit is one of: $undecided"
fi
[ -z "$search_result" ] ||
	echo "search: $search_rounds rounds over $(grep -c . "$state/search-verdicts" 2>/dev/null) commits of the first-parent line of $(grep -c . "$state/line") (pbstat search)"
done_what="$steps steps ($same_steps of them the same kernel as one judged before)"
[ -z "$search_result" ] || done_what="$search_rounds search rounds"
echo "threshold $threshold $label; $done_what, $builds builds and $boots boots in this run, $wall s"
echo "results: $run (summary.json, results.jsonl, table.txt, jobs-per-min.svg)"
