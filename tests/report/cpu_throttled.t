#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a user-space hog in a v1 cpu cgroup of its own
# (triage_report_thr_PID) with a quota of 20 ms per 100 ms period, i.e. 0.2
# CPU, while it wants a whole CPU: the kernel throttles it every period.
# Expected: a warning or critical cpu-throttled finding whose subject.cgroup
# names that cgroup.
# Premise, from the cgroup's own cpu.stat read around the report: at least
# 90% of the periods in the run were throttled, and the hog got <= 30% of
# one CPU (/proc/PID/stat; 20% plus the period's rounding).
# Tolerated, because the quota causes it: cpu-contention naming the hog
# (alone or among other users' processes) -- the kernel counts the time a
# throttled task waits as run-queue delay in /proc/PID/schedstat; and, for
# the same reason, cpu-bound-user naming the hog, which the report calls
# CPU-bound by demand (on CPU + "queued" >= 90%), when the kernel's
# schedstat agrees. The hog does spin; but see scen-to-report.md: the
# queueing is the throttle. Nothing else about the hog or the cgroup.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
name=triage_report_thr_$$
rs_mkcgroup cpu "$name"
cg=$RS_CG
# cpu.shares 8192 (8 times the default): the quota, not the other users'
# load, must be what stops the hog, so it has to reach its 20 ms in every
# period. (Autogroup favour does not apply to tasks outside the root group.)
echo 100000 >"$cg/cpu.cfs_period_us" && echo 20000 >"$cg/cpu.cfs_quota_us" &&
	echo 8192 >"$cg/cpu.shares" || fail "cannot set the quota"
rs_start "${RS_IN_CGROUP[@]}" "$cg" "$BUILD/workloads/report_hog" user 600
hog=$(rs_said hog)
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$cg/cpu.stat"; }
p0=$(stat_of nr_periods) t0=$(stat_of nr_throttled)
RS_WATCH=$hog rs_report "$RS_TMP/r.json" -d 3
out=$RS_TMP/r.json
p1=$(stat_of nr_periods) t1=$(stat_of nr_throttled)

got=$(rs_oracle_get "$out" ".tasks[\"$hog\"] | .usr + .sys")
awk -v p=$((p1 - p0)) -v t=$((t1 - t0)) -v g="$got" 'BEGIN { exit !(p >= 10 && t >= 0.9 * p && g <= 30) }' ||
	fail "premise: $((t1 - t0)) of $((p1 - p0)) periods throttled, hog at $got% (want >= 90% throttled, <= 30%)"
echo "ok: premise: $((t1 - t0)) of $((p1 - p0)) periods throttled; the hog got $got% of a CPU"

mine=".kind == \"cpu-throttled\" and (.subject.cgroup // \"\" | contains(\"$name\"))
	and (.severity | IN(\"warning\", \"critical\"))"
rs_expect "$out" "cpu-throttled naming $name" "$mine"
tolerated="(.kind == \"cpu-contention\" and (pids | all(. == $hog or foreign_pid)))
	or (.kind == \"cpu-bound-user\" and pids == [$hog] and (\$o.tasks[\"$hog\"] | .usr + .sys + .wait >= 90))"
rs_judge "$out" "$mine" "$tolerated" "$name"
