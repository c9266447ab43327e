#!/bin/bash
# test: exclusive -- its size bound holds an interval of the machine's tasks: others' thread bursts change it
# Retention. By age, relative to the newest sample: the workloads fixture
# (5 steps, one second apart) recorded with --keep 0.0005 (1.8 s) keeps
# the intervals of its last 1.8 s: steps 4 and 5. By size: a live recording at
# -i 0.2 with --max-size 0.5 stays under 0.5 MB of used pages (plus one
# interval's worth) while it has deleted its oldest intervals, and the
# intervals left are consecutive; unless one interval alone is bigger than
# that (a machine with thousands of tasks: one interval costs ~230 bytes a
# task with its task row), when only the newest is left. The growth does not
# depend on what else runs: pidstat_sleepers starts 600 threads that each
# wake every 50 ms, so each of them changes (its voluntary switches) in every
# 0.2 s interval and is stored again: at no less than 40 bytes a row, 24 KB
# an interval on top of the first interval's ~200 KB (600 threads and a
# small machine's tasks), past 0.5 MB within 13 of the ~20 intervals 4 s
# hold. Replay still reads every thread of what is left (a thread stored
# before the cut is carried over by a copy of its row).
. "$SRC/tests/record/lib.sh" retention
db=$work/old.db
"$TRIAGE" record -o "$db" --keep 0.0005 --root "$SRC/tests/fixtures/pidstat/workloads" ||
	fail "record --keep"
kept=$(q "$db" 'SELECT group_concat(id) FROM interval')
[ "$kept" = 4,5 ] || fail "--keep 0.0005 kept intervals $kept, not 4,5"
[ "$(q "$db" 'SELECT count(*) FROM sample WHERE iv < 4')" = 0 ] || fail "old samples left"
[ "$(q "$db" 'SELECT count(*) FROM cpu WHERE iv < 4')" = 0 ] || fail "old CPU lines left"
db=$work/size.db
nthreads=600
limit=0.5
"$BUILD/workloads/pidstat_sleepers" "$nthreads" 30 50 >"$work/sleepers" &
started="$started $!"
for _ in $(seq 100); do
	[ -s "$work/sleepers" ] && break
	sleep 0.1
done
wpid=$(head -n1 "$work/sleepers")
[ "$wpid" = "${started##* }" ] || fail "pidstat_sleepers did not start its $nthreads threads"
"$TRIAGE" record -o "$db" -i 0.2 -d 4 --max-size "$limit" 2>"$work/err" || fail "record: $(cat "$work/err")"
read -r first last n <<<"$(q "$db" 'SELECT min(id), max(id), count(*) FROM interval' | tr '|' ' ')"
# the workload's threads were recorded, each interval (the premise above)
stored=$(q "$db" "SELECT count(*) FROM sample JOIN task ON task.id = sample.task WHERE task.tgid = $wpid AND task.thread = 1")
[ "$stored" -ge "$nthreads" ] || fail "only $stored rows of the workload's $nthreads threads were stored"
[ "$first" -gt 1 ] || fail "nothing was deleted (intervals $first..$last; $stored rows of the workload left)"
[ $((last - first + 1)) = "$n" ] || fail "the intervals left are not consecutive"
per=$(q "$db" 'SELECT count(*) FROM sample' | awk -v n="$n" '{ print $1 / n }')
used=$(q "$db" 'SELECT (p.page_count - f.freelist_count) * s.page_size FROM pragma_page_count p, pragma_freelist_count f, pragma_page_size s')
size=$(stat -c %s "$db")
if [ "$n" -gt 1 ]; then
	awk -v u="$used" -v per="$per" -v l="$limit" 'BEGIN { if (u > l * 1048576 + per * 200) { print "FAIL: " u " bytes used"; exit 1 } }' || exit 1
	awk -v s="$size" -v l="$limit" 'BEGIN { if (s > (l + 0.25) * 1048576) { print "FAIL: file is " s " bytes"; exit 1 } }' || exit 1
else
	echo "note: one interval alone takes $used bytes here ($(q "$db" 'SELECT count(*) FROM task') tasks): only the newest is kept"
fi
# every task of the newest interval is there for replay (stored or carried);
# the window starts just before the interval before it (its start), not at
# the whole second, which holds only the newest when intervals are slow (SAN)
want=$(q "$db" 'SELECT ntasks + ncarried FROM interval ORDER BY id DESC LIMIT 1')
from=$(q "$db" "SELECT printf('%.3f', ts - 0.001) FROM interval ORDER BY id DESC LIMIT 1 OFFSET 1")
got=$("$TRIAGE" replay "$db" --from "@$from" pidstat -u -t -p ALL 1 1 |
	awk 'NR > 3 && NF' | wc -l)
[ "$got" -ge "$want" ] 2>/dev/null || [ "$n" -lt 2 ] || fail "replay shows $got rows, the interval has $want tasks"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check"
echo "ok: --keep kept the last 1.8 s; --max-size $limit kept $n intervals ($first..$last) in $used bytes, file $size"
