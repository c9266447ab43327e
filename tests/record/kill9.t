#!/bin/bash
# test: shared -- integrity of its own file
# kill -9 during a recording: the file passes PRAGMA integrity_check, and
# every committed interval is whole (its CPU lines, its task rows as many
# as it counted, its host figures), since each interval is one transaction.
# Then a clean stop (SIGINT, SIGTERM) ends the recording with status 0.
. "$SRC/tests/record/lib.sh" kill9
db=$work/r.db
"$TRIAGE" record -o "$db" -i 0.1 2>"$work/err" &
rec=$!
started="$started $rec"
wait_intervals "$db" 8
kill -9 "$rec"
wait "$rec" 2>/dev/null
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check: $(q "$db" 'PRAGMA integrity_check')"
n=$(q "$db" 'SELECT count(*) FROM interval')
[ "$n" -ge 8 ] || fail "only $n intervals before the kill"
ncpu=$(q "$db" "SELECT count(*) FROM cpu WHERE iv = (SELECT min(id) FROM interval)")
broken=$(q "$db" "SELECT count(*) FROM interval i WHERE ntasks IS NULL OR ntasks <> (SELECT count(*) FROM sample s WHERE s.iv = i.id)
	OR (SELECT count(*) FROM cpu c WHERE c.iv = i.id) <> $ncpu OR uptime_cs IS NULL OR memtotal_kb IS NULL")
[ "$broken" = 0 ] || fail "$broken of $n committed intervals are not whole"
[ "$ncpu" -ge 2 ] || fail "no per-CPU lines"
# a replay of the killed file works
"$TRIAGE" replay "$db" pidstat -u >/dev/null || fail "replay after kill -9"
# appending after the kill starts a new run; SIGINT and SIGTERM stop cleanly
for sig in INT TERM; do
	"$TRIAGE" record -o "$db" -i 0.1 2>"$work/err" &
	rec=$!
	started="$started $rec"
	sleep 1
	kill -"$sig" "$rec"
	wait "$rec"
	rc=$?
	[ "$rc" = 0 ] || fail "SIG$sig: exit $rc: $(cat "$work/err")"
done
[ "$(q "$db" 'SELECT count(DISTINCT run) FROM interval')" = 3 ] || fail "not three runs"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after the clean stops"
echo "ok: $n intervals whole after kill -9; SIGINT/SIGTERM stop with 0"
