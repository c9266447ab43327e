#!/usr/bin/env bash
# Scenario: a single-threaded syscall-bound loop (report_hog sys: read() of
# 256 KiB from /dev/zero, back to back, so the kernel clears the buffer and
# almost all the time is system time).
# Expected: a warning or critical cpu-bound-kernel finding naming the loop's
# PID, with CPU and system-time figures each within 15 points of what the
# kernel charged it (/proc/PID/stat over the same run).
# Premise, checked first: the kernel charged the loop >= 80% of one CPU,
# >= 70% of it system time (nice -10 for its autogroup, rs_favour, keeps
# other users' builds from starving it). No cpu-bound-user finding may name it.
# Tolerated besides: lib.sh's background findings (not ours, backed by the
# kernel's counters).
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_hog" sys 30
hog=$(rs_said hog)
rs_favour "$hog"
RS_WATCH=$hog rs_report "$RS_TMP/r.json" -d 4
out=$RS_TMP/r.json

usr=$(rs_oracle_get "$out" ".tasks[\"$hog\"].usr")
sys=$(rs_oracle_get "$out" ".tasks[\"$hog\"].sys")
awk -v u="$usr" -v s="$sys" 'BEGIN { exit !(u + s >= 80 && s >= 0.7 * (u + s)) }' ||
	fail "premise: the kernel charged the loop usr $usr% sys $sys% (want >= 80%, >= 70% system)"
echo "ok: premise: the kernel charged the loop usr $usr% sys $sys%"

mine=".kind == \"cpu-bound-kernel\" and .subject.pid == $hog and (.severity | IN(\"warning\", \"critical\"))"
rs_expect "$out" "cpu-bound-kernel naming the loop $hog" "$mine"
rs_evidence_near "$out" "$mine" cpu "$(awk -v u="$usr" -v s="$sys" 'BEGIN { print u + s }')" 15 "loop CPU"
rs_evidence_near "$out" "$mine" sys "$sys" 15 "loop system time"
rs_judge "$out" "$mine" false
