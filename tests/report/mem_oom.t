#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a process in a v1 memory cgroup of its own
# (triage_report_oom_PID) limited to 16 MiB touches 64 MiB of anonymous
# memory (report_mem oom). There is no swap for it (memory.swappiness 0 for
# the cgroup, whatever the machine has), so the cgroup's OOM killer kills it.
# The test waits for that death (status 137, SIGKILL) and checks the cgroup's
# own memory.oom_control oom_kill counter grew; then the report runs, and
# reads the kill from the kernel log (/dev/kmsg) as its recent past.
# Expected: a critical or warning oom-kill finding whose subject.pid is the
# victim's PID.
# Tolerated besides: lib.sh's background findings -- among them oom-kill
# findings naming other PIDs: the kernel log's recent past really holds them
# (this test on the other build, a minute ago; other engineers' tests), and
# the report is right to show them.
. "$SRC/tests/report/lib.sh"
rs_require
[ -r /dev/kmsg ] || skip "no /dev/kmsg to read the kernel log from"
name=triage_report_oom_$$
rs_mkcgroup memory "$name"
cg=$RS_CG
echo $((16 << 20)) >"$cg/memory.limit_in_bytes" || fail "cannot set the memory limit"
echo 0 >"$cg/memory.swappiness" 2>/dev/null
k0=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.oom_control")
"${RS_IN_CGROUP[@]}" "$cg" "$BUILD/workloads/report_mem" oom 64 2>>"$RS_TMP/workload.err" &
victim=$!
wait "$victim"
rc=$?
k1=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.oom_control")
[ "$rc" = 137 ] && [ $((k1 - k0)) = 1 ] ||
	fail "premise: the workload exited $rc, cgroup oom_kill +$((k1 - k0)) (want 137 and +1)"
echo "ok: premise: $victim killed by the cgroup's OOM killer (oom_kill +1)"
RS_EXTRA_PIDS=("$victim")
rs_report "$RS_TMP/r.json" -d 3
out=$RS_TMP/r.json

mine=".kind == \"oom-kill\" and .subject.pid == $victim and (.severity | IN(\"warning\", \"critical\"))"
rs_expect "$out" "oom-kill naming the victim $victim" "$mine"
rs_judge "$out" "$mine" false "$name"
