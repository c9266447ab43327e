#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a nice 19 hog and a normal-priority victim, each a report_hog
# pinned to the same CPU (the last online one), each in a session of its
# own. With autogroups on (sched_autogroup_enabled), each session is one
# scheduling group and a task's nice counts only inside it: the two groups
# share the CPU evenly, and the nice 19 hog takes half of it from the
# victim. Both sessions run at autogroup nice -10 so that the CPU is theirs
# on this shared machine; the tasks keep their own nice (19 and 0).
# Oracle: the kernel's /proc/PID/stat (nice, CPU) and schedstat (run-queue
# delay) of both, over the run.
# Premise: the hog runs at nice 19 and got >= 25% of a CPU; the victim, at
# nice 0, waited in the run queue >= 30% of the run.
# Expected: a warning cpu-contention naming the victim (subject.pid: the
# report runs with -p on the two) and not the hog among the ones that
# waited (pids), with the hog in subject.hogs: the one it waited behind.
# Tolerated, because it is true of the victim: cpu-bound-user naming it
# (it spins and never sleeps: CPU-bound by demand), when the kernel agrees
# (on CPU + waiting >= 90% of the run). The hog's own cpu-bound-user is
# info (cpu_nice.t); no warning or critical may name it.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
[ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ] ||
	skip "autogroups are off: a nice 19 hog yields to the victim, which then never waits"
cpu=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online)
rs_start nice -n 19 "$BUILD/workloads/report_hog" pinned 1 "$cpu" 600
hog=$(rs_said hog)
rs_start "$BUILD/workloads/report_hog" pinned 1 "$cpu" 600
victim=$(rs_said hog)
for p in "$hog" "$victim"; do [ -w "/proc/$p/autogroup" ] && echo -10 >"/proc/$p/autogroup"; done
out=$RS_TMP/r.json
RS_WATCH="$hog $victim" rs_report "$out" -d 2 --no-bpf -p "$hog,$victim"
nice_of() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $17 }'; }
hog_got=$(rs_oracle_get "$out" ".tasks[\"$hog\"] | .usr + .sys")
waited=$(rs_oracle_get "$out" ".tasks[\"$victim\"].wait")
[ "$(nice_of "$hog")" = 19 ] && [ "$(nice_of "$victim")" = 0 ] ||
	fail "premise: nice $(nice_of "$hog") and $(nice_of "$victim") (want 19 and 0)"
awk -v g="$hog_got" -v w="$waited" 'BEGIN { exit !(g >= 25 && w >= 30) }' ||
	fail "premise: the hog got $hog_got% of CPU $cpu and the victim waited $waited% (want >= 25, >= 30)"
echo "ok: premise: on CPU $cpu the nice 19 hog got $hog_got% and the nice 0 victim waited $waited% of the run"
mine=".kind == \"cpu-contention\" and .severity == \"warning\" and .subject.pid == $victim"
rs_expect "$out" "cpu-contention naming the victim $victim" "$mine"
rs_expect "$out" "it names the nice 19 hog $hog as the one waited behind, not as a victim" \
	"$mine and ((.subject.pids // []) | index($hog) | not) and ((.subject.hogs // []) | index($hog))"
bound=".kind == \"cpu-bound-user\" and .subject.pid == $victim and (\$o.tasks[\"$victim\"] | .usr + .sys + .wait >= 90)"
# Both are pinned to one CPU, so that CPU is 100% busy: on an otherwise idle
# machine single-cpu-hot about that CPU, naming only the two, is true too.
hot=".kind == \"single-cpu-hot\" and .subject.cpu == $cpu and (pids | all(. == $hog or . == $victim))
	and (\$o.cpu_busy_pct[\"cpu$cpu\"] // 0) >= 90"
rs_judge "$out" "$mine" "$bound or ($hot)"
