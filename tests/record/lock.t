#!/bin/bash
# test: shared -- locks on its own file
# One recorder per file (issue 27): a second `record -o` on a file being
# recorded fails at once with one line naming the first recorder's PID
# (the oracle: $! of the first), and writes nothing into it; the first
# goes on and ends cleanly, its intervals consecutive and the file intact;
# once it has exited the lock is gone and a third recorder appends.
. "$SRC/tests/record/lib.sh" lock
db=$work/one.db
"$TRIAGE" record -o "$db" -i 0.2 -d 3 2>"$work/first.err" &
first=$!
started="$started $first"
wait_intervals "$db" 2 || fail "the first recorder stored no interval"
before=$(q "$db" 'SELECT count(*) FROM meta WHERE key = "recorder_pid"')
"$TRIAGE" record -o "$db" -i 0.2 -d 1 2>"$work/second.err"
st=$?
[ "$st" = 1 ] || fail "the second recorder exited $st, not 1: $(cat "$work/second.err")"
[ "$(wc -l <"$work/second.err")" = 1 ] || fail "not one line: $(cat "$work/second.err")"
grep -q "PID $first\b" "$work/second.err" || fail "the line does not name PID $first: $(cat "$work/second.err")"
wait "$first"
st=$?
[ "$st" = 0 ] || fail "the first recorder exited $st: $(cat "$work/first.err")"
[ "$(q "$db" "SELECT value FROM meta WHERE key = 'recorder_pid'")" = "$first" ] ||
	fail "the second recorder wrote its PID into the file"
[ "$before" = 1 ] || fail "no recorder_pid in meta"
[ "$(q "$db" 'SELECT count(DISTINCT run) FROM interval')" = 1 ] || fail "two runs interleaved in the file"
read -r lo hi n <<<"$(q "$db" 'SELECT min(id), max(id), count(*) FROM interval' | tr '|' ' ')"
[ $((hi - lo + 1)) = "$n" ] || fail "intervals not consecutive: $lo..$hi, $n"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check"
"$TRIAGE" record -o "$db" -i 0.2 -d 0.4 2>"$work/third.err" || fail "after the first exited: $(cat "$work/third.err")"
[ "$(q "$db" 'SELECT count(DISTINCT run) FROM interval')" = 2 ] || fail "the third recorder appended no run"
echo "ok: a second recorder refused naming PID $first; $n intervals of one run, then a second run appended"
