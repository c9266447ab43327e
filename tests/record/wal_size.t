#!/bin/bash
# test: shared -- records only its own workload's threads (-p), so the tasks of tests beside it change nothing
# --max-size bounds the database and its WAL together (issue 27): the
# SQLite file and FILE-wal, as stat(1) sees them every 10 ms while a
# recording at -i 0.1 with --max-size 0.5 runs until retention
# has deleted and 2 s more, never take more
# than 0.5 MB plus two intervals' worth: retention brings them under 7/8
# of the limit; then come the next interval and the WAL of the deletion
# (an eighth of the pages, plus the copies of the carried threads' rows,
# at most an interval). One interval's worth is measured here: the size
# of a recording of one interval (every task's row and sample, the
# biggest an interval gets, and the empty schema besides).
# (Old main counted the database's used pages only: its WAL grew with
# every interval until SQLite's checkpoint at 1,000 pages, 4 MB.)
# What is recorded is the test's own: 'record -p' the workload
# pidstat_sleepers, 600 threads that each wake every 50 ms, so every thread
# is stored again in every 0.1 s interval, whatever else runs on the machine
# (an interval of the whole machine changes with other tests' threads, and
# the bound with it); the host figures are recorded as always.
. "$SRC/tests/record/lib.sh" walsize
db=$work/w.db
limit=0.5
nthreads=600
"$BUILD/workloads/pidstat_sleepers" "$nthreads" 150 50 >"$work/sleepers" &
started="$started $!"
for _ in $(seq 100); do
	[ -s "$work/sleepers" ] && break
	sleep 0.1
done
wpid=$(head -n1 "$work/sleepers")
[ "$wpid" = "${started##* }" ] || fail "pidstat_sleepers did not start its $nthreads threads"
"$TRIAGE" record -o "$work/one.db" -i 0.1 -d 0.04 -p "$wpid" 2>"$work/err" || fail "record of one interval: $(cat "$work/err")"
[ "$(q "$work/one.db" "SELECT count(*) FROM task WHERE tgid = $wpid")" -ge "$nthreads" ] ||
	fail "the interval does not hold the workload's $nthreads threads"
[ "$(q "$work/one.db" 'SELECT count(*) FROM interval')" = 1 ] || fail "not one interval"
first=$(($(stat -c %s "$work/one.db") + $(stat -c %s "$work/one.db-wal" 2>/dev/null || echo 0)))
"$TRIAGE" record -o "$db" -i 0.1 -d 120 --max-size "$limit" -p "$wpid" 2>"$work/err" &
rec=$!
started="$started $rec"
# Until retention has deleted and the recorder has gone on for 2 s more (at
# most 120 s: however slowly a loaded machine records, it fills 0.5 MB),
# then SIGINT; file + WAL measured every 10 ms all along.
peak=0 polls=0 cut_at=0
while kill -0 "$rec" 2>/dev/null; do
	read -r a b <<<"$(stat -c %s "$db" "$db-wal" 2>/dev/null | tr '\n' ' ')"
	total=$((${a:-0} + ${b:-0}))
	[ "$total" -gt "$peak" ] && peak=$total
	polls=$((polls + 1))
	if [ "$cut_at" = 0 ] && [ $((polls % 50)) = 0 ] &&
		[ "$(q "$db" 'SELECT coalesce(min(id), 0) FROM interval' 2>/dev/null)" -gt 1 ] 2>/dev/null; then
		cut_at=$polls
	fi
	[ "$cut_at" != 0 ] && [ $((polls - cut_at)) -ge 200 ] && kill -INT "$rec" 2>/dev/null
	sleep 0.01
done
wait "$rec" || fail "record: $(cat "$work/err")"
n=$(q "$db" 'SELECT min(id) FROM interval')
[ "$n" -gt 1 ] || fail "nothing was deleted: the test's premise (more than $limit MB in 120 s) failed"
bound=$(awk -v l="$limit" -v f="$first" 'BEGIN { printf "%d", l * 1048576 + 2 * f }')
[ "$peak" -le "$bound" ] ||
	fail "file + WAL reached $peak bytes: over $limit MB plus two intervals ($first bytes each) = $bound"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check"
echo "ok: file + WAL at most $peak bytes (bound $bound: $limit MB + 2 x $first bytes, one interval)"
