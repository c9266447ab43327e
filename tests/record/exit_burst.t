#!/bin/bash
# A burst of exits mid-recording: 3,000 sleeping threads die at once while
# `record -i 0.5 -d 4` runs. The recorder must finish on its own (its task
# cache once sized itself for the survivors only, filled up and spun for
# ever), with every interval committed, the workload's N+1 threads seen
# before the kill and none of them in the last interval.
. "$SRC/tests/record/lib.sh" exit_burst
n=3000
db=$work/r.db
"$BUILD/workloads/pidstat_sleepers" "$n" 120 >"$work/pid" &
wl=$!
started="$started $wl"
for _ in $(seq 200); do
	[ -s "$work/pid" ] && break
	sleep 0.05
done
[ -s "$work/pid" ] || fail "the workload did not start its $n threads"
timeout -s KILL 60 "$TRIAGE" record -o "$db" -i 0.5 -d 4 2>"$work/err" &
rec=$!
started="$started $rec"
wait_intervals "$db" 3 || fail "no 3 intervals in 10 s: $(cat "$work/err")"
kill -9 "$wl"
wait "$wl" 2>/dev/null
wait "$rec"
rc=$?
[ "$rc" = 137 ] && fail "the recorder hung after the threads exited (killed after 60 s)"
[ "$rc" = 0 ] || fail "record exit $rc: $(cat "$work/err")"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check"
nthr=$(q "$db" "SELECT count(*) FROM task WHERE tgid = $wl AND thread = 1")
[ "$nthr" = $((n + 1)) ] || fail "$nthr thread rows for the workload, not $((n + 1))"
last=$(q "$db" 'SELECT max(id) FROM interval')
gone=$(q "$db" "SELECT count(*) FROM sample s JOIN task t ON t.id = s.task WHERE s.iv = $last AND t.tgid = $wl")
[ "$gone" = 0 ] || fail "$gone rows of the dead workload in the last interval"
most=$(q "$db" 'SELECT max(ntasks + ncarried) FROM interval')
final=$(q "$db" "SELECT ntasks + ncarried FROM interval WHERE id = $last")
[ "$most" -gt "$n" ] && [ $((most - final)) -ge "$n" ] ||
	fail "tasks per interval: at most $most, last $final; $n should have gone"
echo "ok: $(q "$db" 'SELECT count(*) FROM interval') intervals, $n threads gone at once, the recorder ended on its own"
