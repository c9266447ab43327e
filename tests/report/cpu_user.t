#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a single-threaded hog spinning in its own code (report_hog user:
# an arithmetic loop, no system calls).
# Expected: a warning or critical cpu-bound-user finding naming the hog's PID,
# whose `next` profiles it (`triage probe profile -p PID`), and whose CPU
# figure is within 15 points of what the kernel charged the hog
# (/proc/PID/stat utime+stime over the same run).
# Premise, checked before judging the report (rs_hog_scenario): the hog
# wanted a CPU all the time (on CPU + run-queue wait >= 90% of the run) and
# got >= 50% of one, >= 95% of it user time. The hog's autogroup runs at
# nice -10 (rs_favour) so the other engineers' builds on this 2-CPU machine
# do not starve it.
# Tolerated besides: the background findings of lib.sh (RS_BACKGROUND),
# about other users' processes and backed by the kernel's counters;
# cpu-saturated when all CPUs were >= 80% busy (the hog is one of them);
# single-cpu-hot naming the hog alone: one thread keeps one CPU busy while
# the other has room, which is this scenario's fault seen per CPU (the
# rule fires when the machine is quiet enough for the other CPU to idle).
. "$SRC/tests/report/lib.sh"
rs_require
rs_hog_scenario user cpu-bound-user "u >= 0.95 * (u + s)"
jq -e --arg want "triage probe profile -p $HOG" "[.findings[] | select($MINE) | .next // \"\" | contains(\$want)] | any" \
	"$OUT" >/dev/null || fail "next of the hog's finding does not contain 'triage probe profile -p $HOG'"
echo "ok: next profiles the hog"
rs_judge "$OUT" "$MINE" ".kind == \"single-cpu-hot\" and (pids | unique) == [$HOG]"
