#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbuild-deps.sh: list the source files a finished Kbuild build read, from
# the .cmd files in its O= directory, for same-kernel.sh.
# Usage: kbuild-deps.sh -o OUTDIR BUILD_DIR SOURCE_DIR
# Writes OUTDIR/deps: every file of SOURCE_DIR the build read (sources,
# headers, scripts and inputs named on a command line), and
# OUTDIR/verbatim: those whose comments matter too: files a command other
# than the compiler reads (a script that parses header comments, a
# checksum), and everything a preprocessor run that keeps comments (-C,
# as for linker scripts) read. Paths are relative to SOURCE_DIR, made
# canonical, and a symlink adds its target. Stale .cmd files of objects
# built before only add names. Exit: 0, 2 usage, 9 internal (no .cmd
# files, or cannot write).
set -u
export LC_ALL=C
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n '3,14s/^# \{0,1\}//p' "$0"
}
[ "${1:-}" = --help ] && {
	usage
	exit 0
}
out=''
while getopts o:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	*) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] && [ -n "$out" ] || pb_die "$PB_USAGE" "expected -o OUTDIR, BUILD_DIR and SOURCE_DIR (see --help)"
bdir=$1
[ -d "$bdir" ] && [ -d "$2" ] && [ -d "$out" ] || pb_die "$PB_USAGE" "no such directory: $bdir, $2 or $out"
src=$(realpath "$2") || pb_die "$PB_USAGE" "cannot resolve $2"
given=$(realpath -s "$2") || pb_die "$PB_USAGE" "cannot resolve $2"
# The source dir as Kbuild, ccache (relative to O=) or a symlinked
# PERFBISECT_HOME may spell it, most specific first.
prefixes="$src/|$given/|$(realpath -m --relative-to="$bdir" "$src")/|$(realpath -m -s --relative-to="$bdir" "$given")/"

tmp=$(mktemp -d) || pb_die "$PB_INTERNAL" "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
find "$bdir" -name '.*.cmd' -type f >"$tmp/cmds" || pb_die "$PB_INTERNAL" "cannot list $bdir"
[ -s "$tmp/cmds" ] || pb_die "$PB_INTERNAL" "no .cmd files in $bdir: not a finished Kbuild build"

# Kbuild names a source file by its absolute path, or relative to O= when
# ccache rewrites paths under CCACHE_BASEDIR, and may leave "dir/../" in
# it. Print "D path" for every file named, "V path" for the verbatim ones.
# shellcheck disable=SC2016
xargs -d '\n' awk -v prefixes="$prefixes" '
	BEGIN { np = split(prefixes, pre, "|") }
	function rel(f,    i) {
		sub(/[:;,)"'"'"'\\]+$/, "", f)
		for (i = 1; i <= np; i++)
			if (index(f, pre[i]) == 1)
				return substr(f, length(pre[i]) + 1)
		return ""
	}
	# flush: the verdicts of one .cmd file (cmd_, source_ and deps_).
	function flush(    i, n, t, f, verb) {
		n = split(cmd, t, /[ \t]+/)
		verb = 0
		for (i = 1; i <= n; i++)
			if (t[i] == "-C")
				verb = 1
		for (i = 1; i <= n; i++) {
			f = rel(t[i])
			if (f != "" && (f != source || verb))
				print "V " f
		}
		if (verb) {
			n = split(deps, t, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				f = rel(t[i])
				if (f != "")
					print "V " f
			}
		}
		cmd = ""
		source = ""
		deps = ""
	}
	FNR == 1 && NR > 1 { flush() }
	/^cmd_/ { cmd = $0 }
	/^source_/ { source = rel($3) }
	/^deps_/ { indeps = 1 }
	indeps {
		deps = deps " " $0
		if ($0 !~ /\\$/)
			indeps = 0
	}
	{
		for (i = 1; i <= NF; i++) {
			f = rel($i)
			if (f != "")
				print "D " f
		}
	}
	END { flush() }' <"$tmp/cmds" >"$tmp/raw" || pb_die "$PB_INTERNAL" "cannot read the .cmd files in $bdir"

# canon KIND: the paths of that kind, canonical as text and as the
# filesystem resolves them (symlinked directories, symlinks' targets).
canon() {
	sed -n "s/^$1 //p" "$tmp/raw" | sort -u >"$tmp/$1"
	{
		awk '{
			n = split($0, part, "/")
			k = 0
			bad = 0
			for (i = 1; i <= n; i++) {
				if (part[i] == "" || part[i] == ".")
					continue
				if (part[i] == "..") {
					if (k == 0)
						bad = 1
					else
						k--
					continue
				}
				out[++k] = part[i]
			}
			if (bad || k == 0)
				next
			s = out[1]
			for (i = 2; i <= k; i++)
				s = s "/" out[i]
			print s
		}' "$tmp/$1"
		(cd "$src" && xargs -r -d '\n' realpath -m --relative-to=. -- <"$tmp/$1")
	} | grep -v '^\.\./\|^\.$\|^/' | sort -u
}
canon D >"$tmp/deps" && canon V >"$tmp/verbatim" &&
	mv "$tmp/deps" "$out/deps" && mv "$tmp/verbatim" "$out/verbatim" ||
	pb_die "$PB_INTERNAL" "cannot write the dependency lists into $out"
