#!/bin/bash
# test: shared -- counts its own threads by task id
# A burst of exits mid-recording: 3,000 sleeping threads die at once while
# `record -i 0.5 -d 4` runs. The recorder must finish on its own (its task
# cache once sized itself for the survivors only, filled up and spun for
# ever), with every interval committed, the workload's process and N+1
# threads in an interval before the kill and none of them in the last one
# (counted by task id: the rest of the machine may start and end tasks).
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
# the workload's rows per interval, stored or carried (the oracle decodes
# interval.carried as docs/record.md gives it): all N+2 before the kill, none at the end
python3 - "$db" "$wl" "$n" >"$work/rows" <<'PY' || fail "$(cat "$work/rows")"
import sqlite3, sys
db, tgid, n = sqlite3.connect(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
mine = {r[0] for r in db.execute("SELECT id FROM task WHERE tgid = ?", (tgid,))}
def carried(blob):
    ids, prev, val, shift = [], 0, 0, 0
    for b in blob or b"":
        val |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            prev += val
            ids.append(prev)
            val, shift = 0, 0
    return ids
rows = []
for iv, blob in db.execute("SELECT id, carried FROM interval ORDER BY id"):
    stored = [r[0] for r in db.execute("SELECT task FROM sample WHERE iv = ?", (iv,))]
    rows.append(sum(1 for t in stored + carried(blob) if t in mine))
print(" ".join(map(str, rows)))
if max(rows) != n + 2 or rows[-1] != 0:
    sys.exit(f"the workload's rows per interval: {rows}; want {n + 2} before the kill, 0 at the end")
PY
echo "ok: $(q "$db" 'SELECT count(*) FROM interval') intervals, $n threads gone at once, the recorder ended on its own"
