#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# reproduce.sh: reproduce a regression on demand: measure GOOD and BAD alike
# (fresh boots in rounds, one of each per round), print the seed-style
# table for both with the effect and its interval, and answer "reproduced"
# or "not reproduced" with the reason.
# Usage: reproduce.sh [-t TREE] [-x MIN_EFFECT_PCT] [-d auto|det|wall]
#                     [-r MIN_ROUNDS] [-M MAX_ROUNDS] [-C CPUS] [-T TASKS]
#                     [-J JOBS] [-k SAMPLES_PER_BOOT] [-w WARMUP]
#                     [-W WORKFILE] [-K BASE] [-A CMD [-Y REGEX] [-D higher|lower]]
#                     [GOOD BAD]
#   TREE defaults to the lab, with GOOD=good and BAD=bad. MIN_EFFECT_PCT
#   (default 2): BAD must be slower than GOOD by more than this, beyond the
#   interval (wall-clock, and deterministic with salted boots, the
#   default) or eps (deterministic with PB_SALT=0). The rest is as for
#   validate.sh, which does the measuring (validate.sh -P).
# Exit: 0 reproduced, 15 not reproduced, others as validate.sh.
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

pb_help_first "$@"
opts=() tree=''
while getopts t:x:d:r:M:C:T:J:k:w:W:K:A:Y:D:h opt; do
	case $opt in
	t) tree=$OPTARG ;;
	h)
		pb_usage
		exit 0
		;;
	\?) pb_die "$PB_USAGE" "unknown option (see --help)" ;;
	*) opts+=("-$opt" "$OPTARG") ;;
	esac
done
shift $((OPTIND - 1))
case $# in
0) [ -z "$tree" ] || pb_die "$PB_USAGE" "give GOOD and BAD for -t $tree (see --help)" ;;
2) opts+=(-B "$1" -O "$2") ;;
*) pb_die "$PB_USAGE" "expected GOOD and BAD (see --help)" ;;
esac
exec "$PB_TOP/bisect/validate.sh" -P ${tree:+-t "$tree"} "${opts[@]}"
