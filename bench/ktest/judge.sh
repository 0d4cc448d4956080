#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# judge.sh: ktest's TEST command. Reads the one jobs/min sample from the
# console log ktest recorded of this boot (its dmesg file). For good and
# bad (the calibration runs) it records the sample in STATE_DIR/good or
# STATE_DIR/bad. For bisect it compares the sample with STATE_DIR/threshold,
# which it first sets to the midpoint of the two calibration samples when it
# was not passed in.
# Usage: (run by ktest.pl in the kernel tree) judge.sh CONSOLE_LOG STATE_DIR good|bad|bisect
# Exit: 0 good (jpm >= threshold) or recorded, 1 bad (slower), 2 no sample
# or no threshold (ktest's BISECT_RET_ABORT: stop rather than guess).
set -u
log=$1 state=$2 what=$3
jpm=$(grep -a '^PERFBISECT sample=' "$log" | sed -n 's/.* jpm=\([0-9][0-9.]*\).*/\1/p' | head -1)
if [ -z "$jpm" ]; then
	echo "judge: no jobs/min sample in $log"
	exit 2
fi
echo "$what $(git rev-parse --short=12 HEAD 2>/dev/null) jpm=$jpm" >>"$state/samples"
case $what in
good | bad)
	echo "$jpm" >"$state/$what"
	echo "judge: $what jpm=$jpm"
	exit 0
	;;
esac
if [ ! -s "$state/threshold" ]; then
	if [ ! -s "$state/good" ] || [ ! -s "$state/bad" ]; then
		echo "judge: no threshold and no calibration samples in $state"
		exit 2
	fi
	awk -v g="$(cat "$state/good")" -v b="$(cat "$state/bad")" \
		'BEGIN { printf "%.1f\n", (g + b) / 2 }' >"$state/threshold"
fi
thr=$(cat "$state/threshold")
echo "judge: jpm=$jpm threshold=$thr"
awk -v j="$jpm" -v t="$thr" 'BEGIN { exit !(j >= t) }'
