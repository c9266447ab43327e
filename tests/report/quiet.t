#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a quiet machine. The test starts nothing that works: one idle
# process of its own (report_hog idle, asleep in pause()) and the report
# itself, system-wide, for 3 s.
# What "quiet" can honestly mean here: this 2-CPU machine is shared with
# other engineers who build and test at the same time, and the test cannot
# make them stop. So it asserts, always:
#   1. no finding of any severity names the idle process or the triage run;
#   2. every warning or critical finding is backed by the kernel's own
#      counters over the same run and names nothing of ours (lib.sh's
#      background rule: e.g. cpu-saturated only if the CPUs were >= 80% busy,
#      disk-saturated only for a device the kernel counted >= 50% busy,
#      oom-kill only for a PID the kernel log says was killed).
# And, when the kernel's counters say the machine WAS quiet over the run --
# all CPUs < 20% busy, PSI some < 5% for cpu, memory and io, every disk
# < 20% busy, no TCP retransmits, no task in D before or after -- the
# issue's strong form:
#   3. no warning or critical finding at all, except oom-kill and
#      kernel-errors that the kernel log holds: the log's recent past (the
#      report reads the 5 minutes before its window) is history, not the
#      machine's state now, and the OOM scenario in this same suite puts an
#      OOM kill there a minute before this test runs.
# The test prints which form it checked. A busy machine cannot make it pass
# on its own: forms 1 and 2 still fail on a false or unbacked finding.
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_hog" idle 600
idle=$(rs_said idle)
d_tasks() { cat /proc/[0-9]*/task/*/stat 2>/dev/null | sed 's/.*) //' | awk '$1 == "D"' | wc -l; }
d0=$(d_tasks)
RS_WATCH=$idle rs_report "$RS_TMP/r.json" -d 3
out=$RS_TMP/r.json
d1=$(d_tasks)

ours=$(rs_ours)
named=$(jq -c --argjson ours "$ours" ".findings[] | select($(rs_subject_pids) | any(. as \$p | \$ours | index(\$p)))" "$out")
[ -z "$named" ] || fail "findings name our idle process or the triage run ($ours): $named"
echo "ok: no finding names our processes ($ours)"
rs_judge "$out" false false

quiet=$(jq -r --argjson d "$((d0 + d1))" '
	[.cpu_busy_pct.cpu < 20, ((.psi_some_pct | to_entries | map(.value) | max // 0) < 5),
	 ((.disk_util_pct | to_entries | map(.value) | max // 0) < 20), .retrans_per_s == 0,
	 $d == 0] | all' "$out.oracle")
if [ "$quiet" = true ]; then
	n=$(jq -c --slurpfile o "$out.oracle" '($o[0]) as $o | [.findings[] | select(.severity == "warning" or .severity == "critical")
		| select((.kind == "oom-kill" and (.subject.pid? as $v | $o.kmsg_oom_pids | index($v)))
			or (.kind == "kernel-errors" and $o.kmsg_error_lines > 0) | not)]' "$out")
	[ "$n" = "[]" ] || fail "the machine was quiet by the kernel's counters, yet: $n"
	echo "ok: strong form: the machine was quiet and the report found nothing wrong"
else
	echo "note: the machine was not quiet by the kernel's counters (D tasks $d0/$d1, $(cat "$out.oracle"));"
	echo "note: checked forms 1 and 2 only (nothing of ours named; every finding backed)"
fi
