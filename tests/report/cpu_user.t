#!/usr/bin/env bash
# Scenario: a single-threaded hog spinning in its own code (report_hog user:
# an arithmetic loop, no system calls).
# Expected: a warning or critical cpu-bound-user finding naming the hog's PID,
# whose `next` profiles it (`triage probe profile -p PID`), and whose CPU
# figure is within 15 points of what the kernel charged the hog
# (/proc/PID/stat utime+stime over the same run).
# Premise, checked before judging the report: the kernel charged the hog
# >= 80% of one CPU, >= 95% of it user time. The hog's autogroup runs at
# nice -10 (rs_favour) so the other engineers' builds on this 2-CPU machine
# cannot starve it below that.
# Tolerated besides: the background findings of lib.sh (RS_BACKGROUND),
# about other users' processes and backed by the kernel's counters;
# cpu-saturated when all CPUs were >= 80% busy (the hog is one of them).
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_hog" user 30
hog=$(rs_said hog)
rs_favour "$hog"
RS_WATCH=$hog rs_report "$RS_TMP/r.json" -d 4
out=$RS_TMP/r.json

usr=$(rs_oracle_get "$out" ".tasks[\"$hog\"].usr")
sys=$(rs_oracle_get "$out" ".tasks[\"$hog\"].sys")
awk -v u="$usr" -v s="$sys" 'BEGIN { exit !(u + s >= 80 && u >= 0.95 * (u + s)) }' ||
	fail "premise: the kernel charged the hog usr $usr% sys $sys% (want >= 80%, >= 95% user)"
echo "ok: premise: the kernel charged the hog usr $usr% sys $sys%"

mine=".kind == \"cpu-bound-user\" and .subject.pid == $hog and (.severity | IN(\"warning\", \"critical\"))"
rs_expect "$out" "cpu-bound-user naming the hog $hog" "$mine"
jq -e --arg want "triage probe profile -p $hog" "[.findings[] | select($mine) | .next // \"\" | contains(\$want)] | any" \
	"$out" >/dev/null || fail "next of the hog's finding does not contain 'triage probe profile -p $hog'"
echo "ok: next profiles the hog"
rs_evidence_near "$out" "$mine" cpu "$(awk -v u="$usr" -v s="$sys" 'BEGIN { print u + s }')" 15 "hog CPU"
rs_judge "$out" "$mine" false
