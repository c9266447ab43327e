#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a nice 19 CPU hog (report_hog user under `nice -n 19`), alone in
# its session. A task at nice 19 asked for only the CPU time others leave:
# spinning on it is by design. Its session's autogroup runs at nice -10
# (as lib.sh's rs_favour does, but the task keeps its own nice 19) so that
# it gets its CPU on this shared machine.
# Oracle: the kernel's /proc/PID/stat (nice, utime, stime) and schedstat
# (run-queue delay) over the run.
# Premise: the kernel shows nice 19, and that the hog got >= 50% of a CPU.
# Expected: cpu-bound-user naming the hog at severity info (the report
# still says what it does), and no critical finding naming it.
# Tolerated, because they are true of it: single-cpu-hot naming it when the
# kernel shows a CPU >= 90% busy (on a quiet machine the hog keeps one CPU
# busy while the other idles), and lib.sh's cpu-saturated, which lists the
# biggest consumers of CPUs that were all busy, whatever their nice.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
rs_start nice -n 19 "$BUILD/workloads/report_hog" user 600
hog=$(rs_said hog)
[ -w "/proc/$hog/autogroup" ] && echo -10 >"/proc/$hog/autogroup"
out=$RS_TMP/r.json
RS_WATCH=$hog rs_report "$out" -d 2 --no-bpf
nice=$(sed 's/.*) //' "/proc/$hog/stat" | awk '{ print $17 }')
got=$(rs_oracle_get "$out" ".tasks[\"$hog\"] | .usr + .sys")
[ "$nice" = 19 ] || fail "premise: the hog runs at nice $nice (want 19)"
awk -v g="$got" 'BEGIN { exit !(g >= 50) }' || fail "premise: the kernel shows the hog got $got% of a CPU (want >= 50)"
echo "ok: premise: the hog runs at nice 19 and got $got% of a CPU"
rs_expect "$out" "cpu-bound-user naming the nice 19 hog $hog at severity info" \
	".kind == \"cpu-bound-user\" and .subject.pid == $hog and .severity == \"info\""
jq -e "[.findings[] | select(.severity == \"critical\" and ([.subject.pid?, (.subject.pids? // [])[]] | index($hog)))]
	| length == 0" "$out" >/dev/null ||
	fail "a critical finding names the nice 19 hog: $(jq -c "[.findings[] | select(.severity == \"critical\") | {kind, subject}]" "$out")"
echo "ok: no critical finding names the nice 19 hog"
hot=".kind == \"single-cpu-hot\" and ([\$o.cpu_busy_pct | to_entries[] | select(.key != \"cpu\") | .value] | max) >= 90"
rs_judge "$out" false "$hot"
