# SPDX-License-Identifier: GPL-2.0
# lib.sh: helpers shared by every perfbisect script (sourced, never run).
# Usage: . "$(dirname "$0")/lib.sh"
#
# The exit-code table lives here and only here; pb_bisect_code maps it onto
# the `git bisect run` contract (0 good, 1 bad, 125 skip, 255 abort).

# shellcheck shell=bash disable=SC2034

# Component exit codes (see README.md, "Exit codes").
PB_OK=0
PB_BAD=1		# judge: slower than the threshold
PB_USAGE=2		# bad command line or argument value
PB_NOTREPO=3		# path is not a git repository
PB_BADREV=4		# revision does not resolve to a commit
PB_NOTOOL=5		# a required program or package is missing
PB_BUSY=6		# another perfbisect process holds the resource
PB_NOTKERNEL=7		# the tree is not a Linux kernel tree
PB_CONFIG=8		# a requested config option did not survive olddefconfig
PB_INTERNAL=9		# perfbisect itself failed (disk full, ...)
PB_INTERRUPTED=10	# the user pressed Ctrl-C
PB_DIRTY=11		# the tree has uncommitted changes
PB_SAMEENDS=12		# GOOD and BAD are the same commit
PB_REVERSED=13		# GOOD descends from BAD: the ends are swapped
PB_UNRELATED=14		# GOOD is not an ancestor of BAD
PB_NOREGRESSION=15	# BAD is not measurably slower than GOOD
PB_UNDECIDED=16		# the bisect ended among skipped commits
PB_NOPATCH=17		# a fix patch is missing or does not apply
PB_UNCONFIRMED=18	# the culprit is not measurably slower than its parent
PB_UNDECIDEDFIX=19	# validate: a fix's comparison with the baseline stayed undecided
PB_PANIC=20		# guest: kernel panic
PB_OOPS=21		# guest: oops
PB_BUG=22		# guest: BUG: or WARNING:
PB_HANG=23		# guest: no console output for too long
PB_TIMEOUT=24		# guest: hard wall-clock limit reached
PB_NORESULT=25		# guest: finished but printed no valid result
PB_PAYLOAD=26		# guest: the payload exited with an error
PB_NOBOOT=27		# qemu exited without the guest reaching init
PB_DETKVM=30		# deterministic mode asked for together with KVM
PB_DETCPUS=31		# more vCPUs than deterministic mode supports
PB_BADICOUNT=32		# QEMU rejects the -icount options (PB_ICOUNT)
PB_NOTCONFIG=33		# the base config (-K, --config) is not a kernel config
PB_NOMETRIC=34		# --metric matched no line of the --run command's output
PB_NOBUILD=125		# the revision does not build (the bisect skip code)

PB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${PERFBISECT_HOME:=${XDG_CACHE_HOME:-$HOME/.cache}/perfbisect}"
export PERFBISECT_HOME
PB_PROG=${PB_PROG:-$(basename "$0")}
# One kernel build at a time on the machine, whatever PERFBISECT_HOME is.
PB_BUILD_LOCK=${PB_BUILD_LOCK:-/tmp/perfbisect-build-$(id -u).lock}
# The most workers (bisect -P) a bisect takes.
PB_MAX_WORKERS=8

# Deterministic mode: the guest clock follows executed instructions
# (QEMU -icount, TCG only), so host load and speed do not move the number.
# shift=0: one instruction is one nanosecond of guest time; sleep=off: an
# idle guest jumps to its next timer instead of waiting in real time.
PB_ICOUNT_DEFAULT=shift=0,sleep=off,align=off

# pb_det_max_cpus: print how many vCPUs deterministic mode supports with
# this QEMU. Before 8.1 its round-robin loop gave the whole -icount budget
# to the first vCPU, so a guest that spins waiting for another vCPU (Linux
# bringing up CPU 1) never lets it run: 1 vCPU (doc/deterministic.md).
pb_det_max_cpus() {
	local v
	v=$(pb_qemu_version | sed -n '1s/.*version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
	read -r major minor <<<"$v"
	if pb_is_uint "${major:-x}" && { [ "$major" -gt 8 ] || { [ "$major" -eq 8 ] && [ "$minor" -ge 1 ]; }; }; then
		echo 8
	else
		echo 1
	fi
}

# pb_bisect_code CODE: print the `git bisect run` code for a component code.
pb_bisect_code() {
	case $1 in
	0) echo 0 ;;
	1) echo 1 ;;
	8 | 20 | 21 | 22 | 23 | 24 | 25 | 26 | 27 | 125) echo 125 ;;
	*) echo 255 ;;
	esac
}

# pb_usage: print the calling script's header comment (from its third line
# to the first line that is not a comment) without the "# ": its --help.
pb_usage() {
	awk 'NR >= 3 && /^#/ { sub(/^# ?/, ""); print; next } NR >= 3 { exit }' "$0"
}

# pb_help_first ARG...: --help as the first argument prints the usage
# (the script's header) and exits 0.
pb_help_first() {
	[ "${1:-}" = --help ] || return 0
	pb_usage
	exit 0
}

# pb_opt_other OPT: what every script's getopts does with the letters it
# does not handle itself: -h prints the usage and exits 0, anything else is
# an unknown option (PB_USAGE).
pb_opt_other() {
	[ "$1" = h ] || pb_die "$PB_USAGE" "unknown option (see --help)"
	pb_usage
	exit 0
}

# pb_bench_args ARG...: the arguments of a bench script that takes at most
# one RESULT_FILE: -h or --help prints its usage and exits 0; an option,
# or a second argument, exits PB_USAGE before anything is done.
pb_bench_args() {
	case ${1:-} in
	-h | --help)
		pb_usage
		exit 0
		;;
	-*) pb_die "$PB_USAGE" "unknown option '$1' (see --help)" ;;
	esac
	[ $# -le 1 ] || pb_die "$PB_USAGE" "at most one result file, not '$2' too (see --help)"
}

# pb_scratch NAME [DIR]: print a scratch directory for a bench script: DIR
# when given (made if missing; it must be empty, and nothing in it is ever
# removed for the script), else a new one from mktemp, which the script
# may remove. No bench script empties a directory it did not make.
pb_scratch() {
	local d
	if [ -n "${2:-}" ]; then
		mkdir -p "$2" || pb_die "$PB_USAGE" "cannot create $2"
		[ -z "$(ls -A "$2")" ] || pb_die "$PB_USAGE" "$2 is not empty: give a new or empty directory"
		echo "$2"
		return
	fi
	d=$(mktemp -d "${TMPDIR:-/tmp}/perfbisect-$1.XXXXXX") || pb_die "$PB_INTERNAL" "cannot make a scratch directory"
	echo "$d"
}

# pb_deps_dir REPO SHA MEASURE_OPTION...: the image directory of SHA's
# build (with the -c fragments and -K base among the options) when it
# holds the dependency lists of that build (kbuild-deps.sh); fails
# without printing anything otherwise.
pb_deps_dir() {
	local repo=$1 sha=$2 art bopts=()
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		-c | -K) [ $# -ge 2 ] && bopts+=("$1" "$2") && shift ;;
		esac
		shift
	done
	art=$("$PB_TOP/bisect/build.sh" -n "${bopts[@]}" "$repo" "$sha" 2>/dev/null) &&
		[ -s "$art/deps" ] && [ -f "$art/verbatim" ] && echo "$art"
}

# pb_bench_table DIR OUT TITLE: start DIR/table, the table of
# pb_bench_bisect, with "# TITLE" and the names of its columns, and
# append both lines to OUT.
pb_bench_table() {
	{
		echo "# $3"
		printf '%-6s %4s %7s %5s %-5s %5s %s\n' what run wall_s exit mode boots answer
	} >"$1/table" && tee -a "$2" <"$1/table"
}

# pb_bench_bisect DIR NAME WANT RUN ARG...: one bisect.sh ARG... for a
# bench script, from an empty results cache (DIR/results-NAME-RUN) and no
# saved state (the run's state is removed afterwards, so that the next one
# does not resume it). Appends "NAME RUN WALL_S EXIT MODE BOOTS ANSWER" to
# DIR/table, shows that line on stderr, and prints "WALL_S BOOTS ANSWER";
# ANSWER is "right" when the bisect exits 0 naming WANT.
pb_bench_bisect() {
	local dir=$1 name=$2 want=$3 i=$4 start=$SECONDS rc run found answer before wall
	shift 4
	before=$(readlink -f "$PERFBISECT_HOME/runs/latest" 2>/dev/null)
	PB_RESULTS=$dir/results-$name-$i "$PB_TOP/bisect/bisect.sh" "$@" >"$dir/out" 2>"$dir/err"
	rc=$?
	wall=$((SECONDS - start))
	run=$(readlink -f "$PERFBISECT_HOME/runs/latest" 2>/dev/null)
	[ "$run" != "$before" ] || run=/nonexistent
	found=$(jq -r '.culprit // empty' "$run/summary.json" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$found" = "$want" ]; then
		answer=right
	elif [ "$rc" -eq 0 ]; then
		answer="WRONG (${found:0:12})"
	else
		answer="no culprit: $(tail -1 "$dir/err" | cut -c1-110)"
	fi
	printf '%-6s %4s %7s %5s %-5s %5s %s\n' "$name" "$i" "$wall" "$rc" \
		"$(jq -r '.mode // "-"' "$run/summary.json" 2>/dev/null || echo -)" \
		"$(jq -r '.boots // "-"' "$run/summary.json" 2>/dev/null || echo -)" "$answer" >>"$dir/table"
	tail -1 "$dir/table" >&2
	[ -L "$run/state" ] && rm -rf "$(readlink -f "$run/state")"
	echo "$wall $(tail -1 "$dir/table" | awk '{ print $6 }') $answer"
}

# pb_die CODE MESSAGE...: print "prog: error: MESSAGE" on stderr and exit CODE.
pb_die() {
	local code=$1
	shift
	printf '%s: error: %s\n' "$PB_PROG" "$*" >&2
	exit "$code"
}

# pb_warn MESSAGE...: print a warning on stderr.
pb_warn() {
	printf '%s: warning: %s\n' "$PB_PROG" "$*" >&2
}

# pb_info MESSAGE...: print a progress line on stderr (quiet with PB_QUIET=1).
pb_info() {
	[ "${PB_QUIET:-0}" = 1 ] && return 0
	printf '%s: %s\n' "$PB_PROG" "$*" >&2
}

# pb_need CMD...: exit PB_NOTOOL naming the package when a command is missing.
pb_need() {
	local c pkg
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 && continue
		case $c in
		qemu-system-*) pkg=qemu-system-x86 ;;
		busybox) pkg=busybox-static ;;
		gnuplot) pkg=gnuplot-nox ;;
		xz) pkg=xz-utils ;;
		flock | setsid) pkg=util-linux ;;
		*) pkg=$c ;;
		esac
		pb_die "$PB_NOTOOL" "'$c' not found: run 'make deps' (as root) or 'sudo apt-get install $pkg'"
	done
}

# pb_is_number STRING: succeed when STRING is a plain decimal number.
pb_is_number() {
	[[ $1 =~ ^[0-9]{1,12}(\.[0-9]{1,6})?$ ]]
}

# pb_is_uint STRING: succeed when STRING is a non-negative integer.
pb_is_uint() {
	[[ $1 =~ ^[0-9]{1,9}$ ]]
}

# pb_sha STRING...: print a 16-hex-digit digest of the arguments' text.
pb_sha() {
	printf '%s\n' "$@" | sha256sum | cut -c1-16
}

# pb_file_sha FILE...: print a 16-hex-digit digest of the files' contents.
pb_file_sha() {
	cat -- "$@" | sha256sum | cut -c1-16
}

# pb_config_base BASE: check the base config a kernel is configured from
# (-K, --config) and print it: tinyconfig, defconfig, or the absolute path
# of a .config file. A file must read like a kernel config: only
# "CONFIG_X=value", "# CONFIG_X is not set", comments and blank lines, and
# at least one CONFIG_ assignment; else PB_NOTCONFIG, naming the first
# line that is not.
pb_config_base() {
	local f=$1 bad
	case $f in
	tinyconfig | defconfig)
		echo "$f"
		return 0
		;;
	esac
	[ -f "$f" ] && [ -r "$f" ] ||
		pb_die "$PB_USAGE" "config '$f' not found: give tinyconfig, defconfig or a .config file (-K)"
	bad=$(awk '!/^(CONFIG_[A-Za-z0-9_]+=.*|#.*|[ \t]*)$/ { printf "line %d: %.40s", NR, $0; exit }' "$f")
	[ -z "$bad" ] || pb_die "$PB_NOTCONFIG" "$f is not a kernel config ($bad)"
	grep -qE '^CONFIG_[A-Za-z0-9_]+=' "$f" ||
		pb_die "$PB_NOTCONFIG" "$f is not a kernel config (no CONFIG_ option is set in it)"
	realpath "$f"
}

# pb_cold_build_min OPTIONS_Y: print the minutes a cold build (empty
# ccache) of a config with OPTIONS_Y options =y takes on the development
# machine (2 cores), by a line through two measured points
# (bench/README.md): tinyconfig + qemu.config, 700 options, 339 s
# (bench/build-boot.sh), and defconfig + qemu.config, PB_DEFCONFIG_Y
# options, PB_DEFCONFIG_S s (bench/config-build.sh).
PB_DEFCONFIG_Y=1181 PB_DEFCONFIG_S=922
pb_cold_build_min() {
	awk -v y="$1" -v dy="$PB_DEFCONFIG_Y" -v ds="$PB_DEFCONFIG_S" 'BEGIN {
		s = 339 + (y - 700) * (ds - 339) / (dy - 700)
		printf "%d\n", (s < 339 ? 339 : s) / 60 + 0.5
	}'
}

# pb_run_program CMD: check the program of a --run command (-A), its first
# word, before anything is built, and print where it comes from:
#   "host PATH"      a file of this machine (a path with a /): a static or
#                    dynamically linked x86-64 executable (its libraries
#                    go along, as ldd resolves them), or a script;
#   "workload NAME"  a ready workload, workloads/NAME.c (built static);
#   "guest NAME"     a busybox applet of the guest (sh, dd, ...).
# Anything else is a usage error that says which.
pb_run_program() {
	local prog=${1%% *} bb=${PB_BUSYBOX:-/bin/busybox} missing interp
	[ -n "$prog" ] || pb_die "$PB_USAGE" "--run needs a command"
	if [[ $prog == */* ]]; then
		[ -f "$prog" ] || pb_die "$PB_USAGE" "--run: $prog not found"
		[ -x "$prog" ] || pb_die "$PB_USAGE" "--run: $prog is not executable (chmod +x?)"
		if [ "$(head -c 2 "$prog")" = '#!' ]; then
			# The guest has busybox only: its sh, awk, ...
			interp=$(head -1 "$prog" | sed 's/^#![ ]*//; s/[ ].*//')
			interp=${interp##*/}
			[ -x "$bb" ] && "$bb" --list 2>/dev/null | grep -qxF -- "$interp" ||
				pb_die "$PB_USAGE" "--run: $prog runs with $interp, which the guest lacks (it has busybox: #!/bin/sh)"
			echo "host $(realpath "$prog")"
			return 0
		fi
		readelf -h "$prog" 2>/dev/null | grep -q 'Machine:.*X86-64' ||
			pb_die "$PB_USAGE" "--run: $prog is not an x86-64 executable or a script"
		if readelf -l "$prog" 2>/dev/null | grep -q 'program interpreter'; then
			missing=$(ldd "$prog" 2>&1 | awk '/not found/ { print $1; exit }')
			[ -z "$missing" ] || pb_die "$PB_USAGE" "--run: $prog needs $missing, which ldd cannot find"
		fi
		echo "host $(realpath "$prog")"
	elif [[ $prog =~ ^[a-z0-9_]+$ ]] && [ -f "$PB_TOP/workloads/$prog.c" ]; then
		echo "workload $prog"
	elif [ -x "$bb" ] && "$bb" --list 2>/dev/null | grep -qxF -- "$prog"; then
		echo "guest $prog"
	else
		pb_die "$PB_USAGE" "--run: '$prog' is not a path, a workload in workloads/ ($(cd "$PB_TOP/workloads" && ls -- *.c | sed 's/\.c$//' | paste -sd, -)) or a busybox applet"
	fi
}

# pb_run_metric CMD: print the metric of a ready workload (-A NAME), the
# default of --metric; nothing for other commands.
pb_run_metric() {
	case ${1%% *} in
	pipebench) echo 'messages/s=' ;;
	faultbench) echo 'faults/s=' ;;
	esac
}

# pb_distcc_hosts HOSTS: print the hosts of a distcc host list (HOST,
# HOST:PORT, HOST/LIMIT or HOST:PORT/LIMIT, separated by blanks) that
# accept a connection within 2 s, in DISTCC_HOSTS form; warn about each
# one that does not. Prints nothing when none answers.
pb_distcc_hosts() {
	local h hp host port up=()
	for h in $1; do
		hp=${h%%/*} host=${h%%[:/]*} port=3632
		[ "$hp" = "$host" ] || port=${hp#*:}
		if ! [[ $port =~ ^[0-9]{1,5}$ ]] || [ -z "$host" ]; then
			pb_warn "distcc host '$h' is not HOST[:PORT][/LIMIT]: left out"
		elif timeout 2 bash -c ">/dev/tcp/$host/$port" 2>/dev/null; then
			up+=("$h")
		else
			pb_warn "distcc host $h does not answer: left out"
		fi
	done
	[ ${#up[@]} -eq 0 ] || echo "${up[*]}"
}

# pb_distcc_slots HOSTS: print the compile slots of DISTCC_HOSTS-style
# HOSTS (LIMIT each, 2 where not given).
pb_distcc_slots() {
	local h n=0
	for h in $1; do
		if [[ $h == */* ]] && [[ ${h##*/} =~ ^[0-9]+$ ]]; then
			n=$((n + ${h##*/}))
		else
			n=$((n + 2))
		fi
	done
	echo "$n"
}

# pb_score_unit MEASURE_OPTION...: what the numbers of a measurement are:
# jobs/min (the reproducer), or a --run command's value, or 1e6/value
# when lower is better (-D lower).
pb_score_unit() {
	local a prev='' run='' dir=higher
	for a in "$@"; do
		case $prev in
		-A) run=$a ;;
		-D) dir=$a ;;
		esac
		prev=$a
	done
	if [ -z "$run" ]; then
		echo jobs/min
	elif [ "$dir" = lower ]; then
		echo 1e6/value
	else
		echo value
	fi
}

# pb_now: print the time in seconds with millisecond resolution.
pb_now() {
	date +%s.%N | cut -c1-14
}

# pb_elapsed START: print seconds elapsed since START (from pb_now), 1 decimal.
pb_elapsed() {
	awk -v s="$1" -v e="$(pb_now)" 'BEGIN { printf "%.1f\n", e - s }'
}

# pb_lock FILE WHAT: take an exclusive lock on FILE, held until the script
# exits, or exit PB_BUSY naming the holder recorded in FILE.owner.
pb_lock() {
	_pb_lock "$1" "$2" fail
}

# pb_lock_wait FILE WHAT: like pb_lock, but wait (saying so) while another
# process holds it.
pb_lock_wait() {
	_pb_lock "$1" "$2" wait
}

# _pb_lock FILE WHAT fail|wait: the common part of pb_lock and pb_lock_wait.
_pb_lock() {
	local file=$1 what=$2 mode=$3 holder fd
	mkdir -p "$(dirname "$file")" || pb_die "$PB_INTERNAL" "cannot create $(dirname "$file")"
	exec {fd}>>"$file" || pb_die "$PB_INTERNAL" "cannot open lock $file"
	if ! flock -n "$fd"; then
		holder=$(cat "$file.owner" 2>/dev/null)
		[ "$mode" = wait ] ||
			pb_die "$PB_BUSY" "$what is in use by ${holder:-another perfbisect process}; wait for it or set PERFBISECT_HOME to another directory"
		pb_info "waiting for $what, held by ${holder:-another perfbisect process}"
		flock "$fd" || pb_die "$PB_INTERNAL" "cannot lock $file"
	fi
	echo "pid $$ ($PB_PROG, since $(date '+%F %T'))" >"$file.owner"
}

# pb_atomic_write FILE: copy stdin to FILE through a temporary file, so FILE
# is either the old or the complete new content, never half-written.
pb_atomic_write() {
	local tmp
	tmp=$(mktemp "$1.tmp.XXXXXX") || pb_die "$PB_INTERNAL" "cannot write $1"
	if ! cat >"$tmp"; then
		rm -f "$tmp"
		pb_die "$PB_INTERNAL" "cannot write $1 (disk full?)"
	fi
	mv -f "$tmp" "$1" || pb_die "$PB_INTERNAL" "cannot write $1"
}

# pb_field KEY LINE: the number after KEY= in a pbstat line (empty when
# it has none).
pb_field() {
	sed -n "s/.*\\b$1=\\([-0-9.]*\\).*/\\1/p" <<<"$2"
}

# pb_kernel_src [VERSION]: print the path of the imported linux-source-VERSION
# git tree (default 6.1, the lab's).
pb_kernel_src() {
	echo "$PERFBISECT_HOME/linux-${1:-6.1}"
}

# pb_tool NAME: print the path of a perfbisect C helper, building it if needed
# into a directory named after its sources: two versions of perfbisect (a
# CI clone and a working copy) never run each other's binary.
pb_tool() {
	local dir bin
	dir="$PERFBISECT_HOME/tools/$(cd "$PB_TOP/bisect/tools" && pb_file_sha Makefile decide.h decide.c "$1.c")"
	bin="$dir/$1"
	if [ ! -x "$bin" ]; then
		mkdir -p "$dir" || pb_die "$PB_INTERNAL" "cannot create $dir"
		make -s -C "$PB_TOP/bisect/tools" O="$dir" "$bin" >&2 ||
			pb_die "$PB_INTERNAL" "cannot build helper $1"
	fi
	echo "$bin"
}

# pb_resolve_repo PATH: print the absolute top of the git repository at PATH
# (its git dir when bare) or exit PB_NOTREPO.
pb_resolve_repo() {
	local top
	[ -d "$1" ] || pb_die "$PB_NOTREPO" "'$1' does not exist or is not a directory"
	if [ "$(git -C "$1" rev-parse --is-bare-repository 2>/dev/null)" = true ]; then
		top=$(git -C "$1" rev-parse --absolute-git-dir)
	else
		top=$(git -C "$1" rev-parse --show-toplevel 2>&1) || {
			# git's own words when it refuses a repository it could read.
			case $top in
			*"dubious ownership"*)
				pb_die "$PB_NOTREPO" "git refuses '$1': $(grep -m1 'dubious ownership' <<<"$top" | sed 's/^fatal: //'); to trust it: git config --global --add safe.directory '$1'" ;;
			esac
			pb_die "$PB_NOTREPO" "'$1' is not a git repository (give the top of a kernel git checkout)"
		}
	fi
	echo "$top"
}

# pb_resolve_rev REPO REV: print the full commit hash of REV in REPO or exit
# PB_BADREV.
pb_resolve_rev() {
	local sha
	case $2 in
	-*) pb_die "$PB_BADREV" "'$2' is not a revision" ;;
	esac
	sha=$(git -C "$1" rev-parse -q --verify "$2^{commit}" 2>/dev/null) ||
		pb_die "$PB_BADREV" "unknown revision '$2' in $1"
	echo "$sha"
}

# pb_new_run NAME: create $PERFBISECT_HOME/runs/<date>-NAME-<pid>, point
# runs/latest at it and print its path.
pb_new_run() {
	local runs="$PERFBISECT_HOME/runs" id
	id="$(date +%Y%m%d-%H%M%S)-$1-$$"
	mkdir -p "$runs/$id" || pb_die "$PB_INTERNAL" "cannot create $runs/$id"
	ln -sfn "$id" "$runs/.latest.$$" && mv -Tf "$runs/.latest.$$" "$runs/latest" ||
		pb_warn "cannot update $runs/latest"
	echo "$runs/$id"
}

# pb_measure_id MEASURE_CMD OPTION...: print what defines a measurement,
# whatever the kernel: the measuring program (its contents, and its path
# when it is not perfbisect's own, so the checkout's place does not count),
# its options, the config fragments (a user's -K or -c file by its
# contents) and the sources of the guest
# (reproducer, initramfs), the compiler; in deterministic mode (-d det
# among the options) also the QEMU version and the -icount options, which
# define its clock.
pb_measure_id() {
	local cmd=$1 inputs det='' prev='' a user_files=() user='' kind what memo=${PB_INPUTS_ID:-} cc
	shift
	if [ "${memo%%|*}" = "$PB_TOP" ]; then
		memo=${memo#*|}
		inputs=${memo%%|*} cc=${memo#*|}
	else
		inputs=$(pb_inputs_hash) cc=$(gcc -dumpfullversion 2>/dev/null)
	fi
	# Salted: deterministic boot N has salt N (samples.sh).
	if [ "$(pb_opt_mode "$@")" = det ]; then
		det="$(pb_det_id)"
		pb_salted && det+=" salt=boot"
	fi
	# The user's own config files (-K FILE, -c PATH) count by content.
	for a in "$@"; do
		case $prev in
		-K | -c) [ -f "$a" ] && user_files+=("$a") ;;
		-A)
			# The program's bytes: a file of this machine, or a
			# workload's source and its Makefile.
			read -r kind what <<<"$(pb_run_program "$a")" || return
			case $kind in
			host) user_files+=("$what") ;;
			workload) user_files+=("$PB_TOP/workloads/$what.c" "$PB_TOP/workloads/Makefile") ;;
			esac
			;;
		esac
		prev=$a
	done
	[ ${#user_files[@]} -eq 0 ] || user="files $(pb_file_sha "${user_files[@]}")"
	pb_sha "${cmd#"$PB_TOP"/}" "$(pb_file_sha "$cmd")" "$inputs" "$cc" "$@" $det $user
}

# pb_inputs_hash: print a digest of perfbisect's own inputs to every
# measurement: the config fragments, the initramfs and the reproducer.
pb_inputs_hash() {
	(cd "$PB_TOP" && find configs initramfs reproducer \
		-path reproducer/build -prune -o -type f -print 2>/dev/null | LC_ALL=C sort |
		xargs -r sha256sum | sha256sum | cut -c1-16)
}

# pb_export_ids: compute once what every results-cache key of this run
# shares, for the commands it starts (a step's samples.sh spent most of
# its time on them): the inputs' digest and the compiler's version
# (PB_INPUTS_ID, tagged with PB_TOP, so that another checkout computes
# its own) and the QEMU version (PB_QEMU_ID, tagged with PB_QEMU; a
# remote worker's is always asked). They stand for the whole run: a
# reproducer edited meanwhile counts from the next run on.
pb_export_ids() {
	PB_INPUTS_ID="$PB_TOP|$(pb_inputs_hash)|$(gcc -dumpfullversion 2>/dev/null)"
	PB_QEMU_ID="${PB_QEMU:-qemu-system-x86_64}|$(PB_QEMU_ID='' pb_qemu_version)"
	export PB_INPUTS_ID PB_QEMU_ID
}

# pb_qemu_version: print the first line of "$PB_QEMU --version": the one
# pb_export_ids saved when it is of this PB_QEMU, and no remote worker's
# QEMU is meant (PB_REMOTE_HOST), else asked now.
pb_qemu_version() {
	local q=${PB_QEMU:-qemu-system-x86_64}
	if [ -n "${PB_QEMU_ID:-}" ] && [ "${PB_QEMU_ID%%|*}" = "$q" ] && [ -z "${PB_REMOTE_HOST:-}" ]; then
		echo "${PB_QEMU_ID#*|}"
	else
		"$q" --version 2>/dev/null | head -1
	fi
}

# pb_measure_key REPO SHA MEASURE_CMD OPTION...: print the results-cache key
# of a measurement: the commit's tree and pb_measure_id.
pb_measure_key() {
	local repo=$1 sha=$2 tree
	shift 2
	tree=$(git -C "$repo" rev-parse "$sha^{tree}") || pb_die "$PB_BADREV" "no tree for $sha"
	echo "${tree:0:16}-$(pb_measure_id "$@")"
}

# pb_opt_mode MEASURE_OPTION...: print the measurement mode the options
# ask for (the last -d, or -I), wall when none.
pb_opt_mode() {
	local mode=wall prev=''
	for a in "$@"; do
		[ "$prev" = -d ] && mode=$a
		[ "$a" = -I ] && mode=det
		prev=$a
	done
	echo "$mode"
}

# pb_det_id: print what defines the deterministic clock: the QEMU version,
# the -icount options and the QEMU command line boot.sh builds.
pb_det_id() {
	local v
	v=$(pb_qemu_version)
	echo "qemu=${v##*version } icount=${PB_ICOUNT:-$PB_ICOUNT_DEFAULT} boot=$(pb_file_sha "$PB_TOP/bisect/boot.sh")"
}

# pb_det_cpus: print the vCPUs of a deterministic measurement when none are
# asked for: 2, as in wall-clock mode, where this QEMU supports them.
pb_det_cpus() {
	if [ "$(pb_det_max_cpus)" -ge 2 ]; then echo 2; else echo 1; fi
}

# pb_check_mode MODE CPUS: exit with a one-line error when the measurement
# mode (wall, det or auto) cannot work with CPUS vCPUs, the accelerator
# PB_ACCEL forces, or the -icount options PB_ICOUNT gives; QEMU itself is
# asked whether it takes those options. Nothing is built before this.
pb_check_mode() {
	local mode=$1 cpus=$2 icount=${PB_ICOUNT:-$PB_ICOUNT_DEFAULT} err max
	pb_check_salt
	case $mode in
	wall) return 0 ;;
	det | auto) ;;
	*) pb_die "$PB_USAGE" "measurement mode '$mode' is not det, wall or auto" ;;
	esac
	[ "${PB_ACCEL:-}" != kvm ] || [ "$mode" = auto ] ||
		pb_die "$PB_DETKVM" "deterministic mode runs under TCG (-icount), but PB_ACCEL=kvm forces KVM: unset PB_ACCEL or use -d wall"
	max=$(pb_det_max_cpus)
	pb_is_uint "$cpus" && [ "$cpus" -le "$max" ] || [ "$mode" = auto ] ||
		pb_die "$PB_DETCPUS" "deterministic mode supports at most $max vCPU(s) with this QEMU, not '$cpus' (QEMU 8.1 or later runs more; doc/deterministic.md); use -C $max or -d wall"
	[[ $icount =~ ^[a-z0-9=,]{1,64}$ ]] ||
		pb_die "$PB_BADICOUNT" "PB_ICOUNT='$icount': only -icount options such as $PB_ICOUNT_DEFAULT"
	pb_need "${PB_QEMU:-qemu-system-x86_64}" timeout
	err=$(echo quit | timeout 20 "${PB_QEMU:-qemu-system-x86_64}" -accel tcg -icount "$icount" \
		-machine none -nodefaults -display none -S -monitor stdio 2>&1 >/dev/null) ||
		pb_die "$PB_BADICOUNT" "QEMU rejects PB_ICOUNT='$icount': $(head -1 <<<"${err:-no answer in 20 s}")"
}

# pb_salted: succeed when deterministic boots are salted, boot N with salt
# N (samples.sh, doc/deterministic.md): PB_SALT=1, the default; PB_SALT=0
# boots a kernel with the same inputs every time.
pb_salted() {
	[ "${PB_SALT:-1}" = 1 ]
}

# pb_check_salt: exit PB_USAGE with one line unless PB_SALT is unset, 0 or
# 1 (1 salts deterministic boots: samples.sh, doc/deterministic.md).
pb_check_salt() {
	case ${PB_SALT:-1} in
	0 | 1) ;;
	*) pb_die "$PB_USAGE" "PB_SALT='$PB_SALT': 1 salts deterministic boots, 0 does not" ;;
	esac
}

# pb_check_range NAME VALUE MIN MAX: exit PB_USAGE unless VALUE is an
# integer from MIN to MAX; NAME says which option it is.
pb_check_range() {
	pb_is_uint "$2" && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
		pb_die "$PB_USAGE" "$1 '$2' is not a whole number from $3 to $4"
}

# pb_check_measure_opts MEASURE_OPTION...: check the options that bisect,
# validate and reproduce pass on to measure.sh (-C -m -T -J -n -w -W -c -d)
# before anything is built; exit PB_USAGE with one line naming the first
# bad one.
pb_check_measure_opts() {
	local o v f run='' metric=''
	while [ $# -gt 0 ]; do
		o=$1 v=${2:-}
		[ $# -ge 2 ] || pb_die "$PB_USAGE" "option $o needs a value"
		shift 2
		case $o in
		-C) pb_check_range "vCPUs (-C)" "$v" 1 64 ;;
		-m) pb_check_range "memory in MiB (-m)" "$v" 128 65536 ;;
		-T) pb_check_range "tasks (-T)" "$v" 1 10000 ;;
		-J) pb_check_range "jobs per task (-J)" "$v" 1 1000000 ;;
		-n) pb_check_range "samples per boot (-k)" "$v" 1 100 ;;
		-w) pb_check_range "warm-up samples (-w)" "$v" 0 100 ;;
		-W)
			[[ $v =~ ^[a-z0-9_]+$ ]] && [ -f "$PB_TOP/reproducer/workfiles/$v" ] ||
				pb_die "$PB_USAGE" "no workfile '$v' in reproducer/workfiles (-W)"
			;;
		-c)
			f=$v
			[ -f "$f" ] || f=$PB_TOP/configs/$v
			[ -f "$f" ] || f=$PB_TOP/configs/$v.config
			[ -f "$f" ] || pb_die "$PB_USAGE" "config fragment '$v' not found: a path or a name in configs/ (-c)"
			;;
		-K) pb_config_base "$v" >/dev/null ;;
		-A)
			pb_run_program "$v" >/dev/null
			run=$v
			;;
		-Y)
			[ -n "$v" ] || pb_die "$PB_USAGE" "--metric needs a regular expression"
			grep -qE -- "$v" </dev/null 2>/dev/null
			[ $? -ne 2 ] || pb_die "$PB_USAGE" "--metric '$v' is not an extended regular expression"
			metric=$v
			;;
		-D)
			case $v in
			higher | lower) ;;
			*) pb_die "$PB_USAGE" "the direction (-D) is higher or lower, not '$v'" ;;
			esac
			;;
		-d) ;;
		*) pb_die "$PB_INTERNAL" "pb_check_measure_opts: unknown option $o" ;;
		esac
	done
	if [ -n "$run" ] && [ -z "$metric" ] && [ -z "$(pb_run_metric "$run")" ]; then
		pb_die "$PB_USAGE" "--run '$run' needs --metric REGEX: which line of its output holds the figure"
	fi
	if [ -z "$run" ] && [ -n "$metric" ]; then
		pb_die "$PB_USAGE" "--metric is for a --run command"
	fi
}

# pb_sample_rows RESULTS: print one line per measured (not warm-up) sample in
# a validated results file: "jpm idle jti real cpu jpst tasks".
pb_sample_rows() {
	awk '/ sample=/ && / warmup=0 / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["jpm"], v["idle"], v["jti"], v["real"], v["cpu"], v["jpst"], v["tasks"]
	}' "$1"
}

# The significance level of each look at a comparison in rounds. Rounds
# go on until a test passes, looking after rounds 3, 4, 5 and 6; four
# looks at 0.05 each would pass a null effect about twice as often as
# 0.05, so each look uses the Pocock-style bound of about 0.02.
PB_ROUNDS_ALPHA=0.02

# pb_verdict CODE: print the verdict a pbstat rule's exit CODE stands for
# (0 good, 1 bad, 3 unsure, 4 more); fail for any other code (a usage
# error of pbstat, 2, is a bug of the caller).
pb_verdict() {
	case $1 in
	0) echo good ;;
	1) echo bad ;;
	3) echo unsure ;;
	4) echo more ;;
	*) return 1 ;;
	esac
}

# pb_median V...: print the median of the numbers (pbstat summary).
pb_median() {
	local pbstat
	pbstat=$(pb_tool pbstat) || return
	"$pbstat" summary "$@" | sed -n 's/.*median=\([0-9.]*\).*/\1/p'
}

# pb_log_boot MEASURE_RUNDIR COMMIT: with PB_RUN_DIR set, add what one
# measurement's build and boot cost (a cached artifact costs 0 s) to the
# run's builds.jsonl.
pb_log_boot() {
	local boot_s
	[ -n "${PB_RUN_DIR:-}" ] && [ -f "$1/build.json" ] || return 0
	boot_s=$(jq -r '.boot_s // 0' "$1/boot.json" 2>/dev/null || echo 0)
	jq -c --arg commit "$2" --argjson boot_s "${boot_s:-0}" \
		'{commit: $commit, build_s, cached: (.cached // false), ccache_hits, ccache_misses, boot_s: $boot_s}' \
		"$1/build.json" >>"$PB_RUN_DIR/builds.jsonl" 2>/dev/null
	return 0
}

# pb_boot_jpm WORKDIR LOG REPO REV [MEASURE_OPTION...]: build (from the
# caches) and boot REV once, afresh, bypassing the results cache, and print
# the jobs/min of each measured sample; the measurement's stderr goes to
# LOG. Returns the measurement's exit code. PB_MEASURE replaces measure.sh.
pb_boot_jpm() {
	local wd=$1 log=$2 repo=$3 rev=$4 ref rc
	shift 4
	ref=$(mktemp -d "$wd/boot.XXXXXX") || return "$PB_INTERNAL"
	"${PB_MEASURE:-$PB_TOP/bisect/measure.sh}" "$@" -o "$ref" "$repo" "$rev" >/dev/null 2>>"$log"
	rc=$?
	pb_log_boot "$ref" "$rev"
	[ -f "$ref/results" ] && pb_sample_rows "$ref/results" | cut -d' ' -f1
	rm -rf "$ref"
	return "$rc"
}

# pb_commit_all DIR DATE MESSAGE: commit every tracked change in the
# worktree DIR (git commit -a) as perfbisect, authored and committed at
# DATE, so that a history a bench script makes has the same hashes on
# every run and machine.
pb_commit_all() {
	GIT_AUTHOR_NAME=perfbisect GIT_AUTHOR_EMAIL=perfbisect@localhost \
		GIT_COMMITTER_NAME=perfbisect GIT_COMMITTER_EMAIL=perfbisect@localhost \
		GIT_AUTHOR_DATE="$2" GIT_COMMITTER_DATE="$2" \
		git -C "$1" -c commit.gpgsign=false commit -q -a -m "$3" ||
		pb_die "$PB_INTERNAL" "cannot commit '$3' in $1"
}

# pb_boot_rows DIR N: print the sample rows of boot N in the results-cache
# directory DIR (samples.sh: the file boots holds each boot's row count).
pb_boot_rows() {
	awk -v n="$2" 'NR == FNR { if (FNR < n) skip += $1; else if (FNR == n) take = $1; next }
		FNR > skip && FNR <= skip + take' "$1/boots" "$1/samples"
}

# pb_patch_repo REPO DIR: make DIR (once) a bare repository sharing REPO's
# objects, for commits of patches on top of REPO's (pb_commit_patch), and
# name REPO in it (perfbisect-origin), so that build.sh builds its commits
# in REPO's checkout and build dirs: little changes there. Fails quietly.
pb_patch_repo() {
	if [ ! -d "$2" ]; then
		rm -rf "$2.tmp" && git clone -q --bare --shared "$1" "$2.tmp" && mv "$2.tmp" "$2" || return 1
	fi
	[ "$(cat "$2/perfbisect-origin" 2>/dev/null)" = "$1" ] || echo "$1" >"$2/perfbisect-origin"
}

# pb_commit_patch GIT_DIR PARENT PATCH: apply the mail-format PATCH on
# PARENT in the repository GIT_DIR without a worktree and print the new
# commit. Author, date and subject come from the patch; the committer and
# its date are fixed, so the same patch on the same parent gives the same
# commit everywhere (and hits perfbisect's caches).
pb_commit_patch() {
	local gd=$1 parent=$2 patch=$3 tmp tree author email date subject rc=1 alts=() t f
	tmp=$(mktemp -d) || return 1
	# Writing an object that exists already, even in an alternate (the
	# user's object store), makes git freshen that file's time: the times
	# of the alternates' files are put back afterwards.
	[ -f "$gd/objects/info/alternates" ] && mapfile -t alts <"$gd/objects/info/alternates"
	pb_mtimes "${alts[@]}" >"$tmp/mtimes"
	(
		export GIT_DIR=$gd GIT_INDEX_FILE=$tmp/index
		git mailinfo "$tmp/msg" "$tmp/diff" <"$patch" >"$tmp/info" &&
			git read-tree "$parent" && git apply --cached "$tmp/diff" &&
			tree=$(git write-tree) || exit 1
		author=$(sed -n 's/^Author: //p' "$tmp/info")
		email=$(sed -n 's/^Email: //p' "$tmp/info")
		date=$(sed -n 's/^Date: //p' "$tmp/info")
		subject=$(sed -n 's/^Subject: //p' "$tmp/info")
		GIT_AUTHOR_NAME=${author:-perfbisect} GIT_AUTHOR_EMAIL=${email:-perfbisect@localhost} \
			GIT_AUTHOR_DATE=${date:-"@1671000000 +0000"} \
			GIT_COMMITTER_NAME=perfbisect GIT_COMMITTER_EMAIL=perfbisect@localhost \
			GIT_COMMITTER_DATE="@1671000000 +0000" \
			git commit-tree "$tree" -p "$parent" -F <(printf '%s\n\n' "${subject:-${patch##*/}}"; cat "$tmp/msg")
	)
	rc=$?
	pb_mtimes "${alts[@]}" | awk 'NR == FNR { t[$2] = $1; next } ($2 in t) && t[$2] != $1 { print $1, $2 }' \
		- "$tmp/mtimes" >"$tmp/changed"
	while read -r t f; do
		touch -m -d "@$t" "$f" || pb_warn "cannot put back the time of $f"
	done <"$tmp/changed"
	rm -rf "$tmp"
	return "$rc"
}

# pb_mtimes DIR...: print "MTIME PATH" for every file under the existing DIRs.
pb_mtimes() {
	local d
	for d in "$@"; do
		[ -d "$d" ] && find "$d" -type f -printf '%T@ %p\n'
	done
	return 0
}

# pb_tokens FILE: print FILE as the compiler sees it, comments gone, line
# numbers kept: where lines are spliced (a backslash at the end), the
# pragmas as written (the tokenizer blanks them), then the text with its
# spliced lines joined first, as the compiler's phase 2 does, tokenized
# with macro definitions kept. Two files with the same output compile to
# the same object wherever they are used (same-kernel.sh, checkout.sh).
pb_tokens() {
	(
		set -o pipefail
		[ -r "$1" ] || exit 1
		grep -n '\\[[:space:]]*$' "$1"
		grep -nE '^[[:space:]]*#[[:space:]]*pragma' "$1"
		awk '{
			if (held) {
				buf = buf $0
				k++
			} else {
				buf = $0
				k = 1
			}
			if (buf ~ /\\[ \t\r]*$/) {
				sub(/\\[ \t\r]*$/, "", buf)
				held = 1
				next
			}
			held = 0
			print buf
			for (i = 1; i < k; i++)
				print ""
		}
		END { if (held) print buf }' "$1" | gcc -fpreprocessed -dD -E -x c - 2>/dev/null
	)
}
