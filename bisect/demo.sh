#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: the main job on the built-in lab, start to finish: install what is
# missing, import linux-source-6.1, generate the lab, bisect it, name the
# culprit, validate fix A (semaphore lock stealing) and fix B (spinlock BKL)
# with the semaphore and BKL torture, and print the seed-shaped table.
# Usage: demo.sh
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,7s/^# \{0,1\}//p' "$0"
	exit 0
	;;
"") ;;
*) pb_die "$PB_USAGE" "demo takes no arguments (see --help)" ;;
esac

start=$(pb_now)
phase() {
	pb_info "[$1/5] $2 (elapsed $(pb_elapsed "$start") s)"
}
phase 1 "checking packages"
"$PB_TOP/bisect/deps.sh" || exit
phase 2 "kernel source (linux-source-6.1, imported once)"
"$PB_TOP/bisect/kernel-src.sh" >/dev/null || exit
phase 3 "the lab: a 6.1 history with one culprit"
lab=$("$PB_TOP/bisect/lab.sh") || exit
phase 4 "bisecting the lab (progress: one line per step)"
"$PB_TOP/bisect/bisect.sh"
code=$?
[ "$code" -eq 0 ] || pb_die "$code" "the bisect did not name a culprit; see $PERFBISECT_HOME/runs/latest"
run=$(readlink -f "$PERFBISECT_HOME/runs/latest")
culprit=$(jq -r .culprit "$run/summary.json")
expected=$(jq -r .culprit "$(dirname "$lab")/lab.json")
if [ "$culprit" = "$expected" ]; then
	pb_info "the culprit is the lab's recorded culprit ${culprit:0:12}"
else
	pb_warn "the bisect named ${culprit:0:12}, the lab recorded ${expected:0:12}"
fi
phase 5 "validating fix A and fix B against good (with the semaphore and BKL torture)"
"$PB_TOP/bisect/validate.sh" -c "$culprit" -s "$run/summary.json" \
	"$PB_TOP/patches/fixes/fix-a-semaphore-lock-stealing.patch" \
	"$PB_TOP/patches/fixes/fix-b-spinlock-bkl.patch"
vcode=$?
echo
echo "2008, as the seeds give it (Ingo Molnar's mail: AIM7, 2000 tasks, quad-core; doc/lab.md):"
printf '  %-44s %9s  %s\n' \
	"v2.6.25" 56096.4 "" \
	"v2.6.26-rc1 (the hand-off semaphore)" 33230.6 "41% below 2.6.25 (\"AIM7 40% regression\")" \
	"v2.6.26-rc1 + lock stealing (fix A's idea)" 55707.1 "\"a 67% speedup\"" \
	"v2.6.26-rc1 + spinlock BKL (fix B's)" 55889.0 ""
echo "The lab's figures above are its own (2 vCPUs under TCG, its BKL sites and task count), not 2008's."
echo
echo "culprit: ${culprit:0:12} $(jq -r .culprit_subject "$run/summary.json")"
echo "summary: $run/summary.json; plot: $run/jobs-per-min.svg"
pb_info "done in $(pb_elapsed "$start") s"
exit "$vcode"
