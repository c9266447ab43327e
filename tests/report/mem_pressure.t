#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a process in a v1 memory cgroup of its own
# (triage_report_mem_PID) limited to 12 MiB, holding two processes whose
# working sets are a 32 MiB file each, mapped and read page after page
# (report_mem churn). The files are sparse, so every refault is a zero-filled page-cache page: the cgroup
# reclaims and refaults all the time without any disk I/O (no swap is
# needed either; clean page cache is always reclaimable).
# Expected: a warning or critical memory-pressure finding. Its subject, if
# it names a cgroup, names ours; if it names a PID (subject.pid, the first
# of the top faulting processes), it is one of the churners -- each faults
# thousands of times a second; the list may go on with other processes.
# Premise, from the kernel over the same run: PSI memory "some" >= 10% of
# the run (/proc/pressure/memory; the report's documented warning threshold,
# which two churners exceed about threefold here even on a busy machine),
# and the cgroup's memory.failcnt grew (it hit its limit).
# Tolerated, because the workload causes them: cpu-bound-kernel or
# cpu-bound-user naming a churner (it never sleeps: it touches its pages in a
# loop, about half user time and half reclaim and faults in the kernel, so
# which side wins varies from run to run); cpu-contention naming them when the
# kernel shows they waited (lib.sh's rule). Nothing else about them or the
# cgroup.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
name=triage_report_mem_$$
rs_mkcgroup memory "$name"
cg=$RS_CG
echo $((12 << 20)) >"$cg/memory.limit_in_bytes" || fail "cannot set the memory limit"
churners=""
for i in 1 2; do
	truncate -s 32M "$RS_TMP/working-set.$i" || fail "truncate"
	rs_start "${RS_IN_CGROUP[@]}" "$cg" "$BUILD/workloads/report_mem" churn "$RS_TMP/working-set.$i" 30
	churners+="$(rs_said churn) "
done
churners_json=$(jq -sc . <<<"$churners")
f0=$(cat "$cg/memory.failcnt")
RS_WATCH=$churners rs_report "$RS_TMP/r.json" -d 4
out=$RS_TMP/r.json
f1=$(cat "$cg/memory.failcnt")

psi=$(rs_oracle_get "$out" .psi_some_pct.memory)
awk -v p="$psi" -v f=$((f1 - f0)) 'BEGIN { exit !(p >= 10 && f > 0) }' ||
	fail "premise: PSI memory some $psi%, failcnt +$((f1 - f0)) (want >= 10% and > 0)"
echo "ok: premise: PSI memory some $psi% over the run, failcnt +$((f1 - f0))"

mine=".kind == \"memory-pressure\" and (.severity | IN(\"warning\", \"critical\"))
	and ((.subject.cgroup // \"$name\") | contains(\"$name\"))
	and (.subject.pid == null or (.subject.pid as \$p | $churners_json | index(\$p)))"
rs_expect "$out" "memory-pressure (about cgroup $name or the whole machine)" "$mine"
churner_only="($(rs_subject_pids) | length > 0 and all(. as \$p | $churners_json | index(\$p)))"
# cpu-contention names our cgroup in its subject, so lib.sh's background
# rule (which never lets a finding name our cgroup) cannot cover it: the
# same rule, stated here for the churners.
# No memory-growth: a churner's RSS grows as it faults its file's pages in
# between two reclaims, but those are file pages; its anonymous memory, which
# the rule judges, stays.
tolerated="((.kind | IN(\"cpu-bound-kernel\", \"cpu-bound-user\")) and $churner_only)
	or (.kind == \"cpu-contention\" and \$o.cpu_busy_pct.cpu >= 80 and $churner_only and (pids | all(waited)))"
rs_judge "$out" "$mine" "$tolerated" "$name"
