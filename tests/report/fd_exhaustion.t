#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a process at its RLIMIT_NOFILE. report_fdhog sets its soft
# limit to 256, opens /dev/null until open() fails with EMFILE, then tries
# once more every 50 ms.
# Oracle: the kernel's /proc/PID/limits (soft "Max open files") and the
# entries of /proc/PID/fd, before and after the report: 256 of 256.
# Expected: the first finding is a critical fd-exhaustion naming the hog,
# with its open descriptors and limit as evidence.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_fdhog" 256 30
hog=$(rs_said hog)
# fds PID: "open soft" as the kernel shows them.
fds() { echo "$(ls "/proc/$1/fd" | wc -l) $(awk '/^Max open files/ { print $4 }' "/proc/$1/limits")"; }
before=$(fds "$hog")
out=$RS_TMP/r.json
rs_report "$out" -d 2 --no-bpf # no eBPF part explains descriptors
after=$(fds "$hog")
[ "$before" = "256 256" ] && [ "$after" = "256 256" ] ||
	fail "premise: the kernel shows open/soft '$before' before, '$after' after (want 256 256)"
echo "ok: premise: the kernel shows $hog with 256 descriptors open, soft limit 256, before and after"
first=".findings[0] | .kind == \"fd-exhaustion\" and .severity == \"critical\" and .subject.pid == $hog
	and any(.evidence[]; .metric == \"open_fds\" and .value == 256)
	and any(.evidence[]; .metric == \"nofile_soft\" and .value == 256)"
jq -e "$first" "$out" >/dev/null ||
	fail "the first finding is not a critical fd-exhaustion of $hog at 256 of 256: $(jq -c '.findings[0]' "$out")"
echo "ok: first finding: critical fd-exhaustion naming $hog, 256 of 256"
rs_judge "$out" ".kind == \"fd-exhaustion\" and .subject.pid == $hog" false
