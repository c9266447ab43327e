#!/bin/bash
# test: shared -- its own short recording, counted by sqlite3
# replay --from/--to by time of day (with and without seconds), by full
# date, local and UTC, both ends, on a fresh recording made now (a clock
# that is not at midnight), in two zones. GNU date turns each time into
# epoch seconds and sqlite3 counts the intervals the window must hold: the
# replayed pidstat view has one row per interval after the first.
. "$SRC/tests/record/lib.sh" times_of_day
db=$work/t.db
"$TRIAGE" record -o "$db" -i 1 -d 4 2>"$work/err" || fail "record: $(cat "$work/err")"
n=$(q "$db" 'SELECT count(*) FROM interval')
[ "$n" -ge 3 ] || fail "the recording holds $n intervals, not 3 or more"
ts() { q "$db" "SELECT CAST(ts AS INTEGER) FROM interval ORDER BY id LIMIT 1 OFFSET $1"; }
# t3: the last interval's second (a busy machine may record fewer than asked)
t1=$(ts 1) t3=$(ts $((n - 1))) last=$(q "$db" 'SELECT CAST(max(ts) AS INTEGER) FROM interval')

# expect FROM TO FROM_EPOCH TO_EPOCH: the view holds the intervals sqlite3
# finds in [FROM_EPOCH, TO_EPOCH], less the first (a rate needs two)
expect() {
	local want got
	want=$(q "$db" "SELECT count(*) - 1 FROM interval WHERE ts >= $3 AND ts <= $4")
	[ "$want" -ge 1 ] || fail "test error: [$1, $2] holds under two intervals"
	"$TRIAGE" replay "$db" --from "$1" --to "$2" pidstat -u -p 1 >"$work/out" 2>"$work/err" ||
		fail "replay --from '$1' --to '$2' (TZ=$TZ): $(cat "$work/err")"
	got=$(awk '$1 ~ /^[0-9]/ && $3 == "1"' "$work/out" | wc -l)
	[ "$got" = "$want" ] ||
		fail "--from '$1' --to '$2' (TZ=$TZ): $got rows, the window holds $want: $(cat "$work/out")"
}
for zone in UTC Asia/Kolkata; do
	export TZ=$zone
	# a minute's end past local midnight would make "HH:MM" name another day
	[ "$(date -d "@$t1" +%F)" = "$(date -d "@$((last + 60))" +%F)" ] ||
		skip "the recording is within a minute of midnight ($zone): run again"
	from=$(date -d "@$t1" +%H:%M:%S) to=$(date -d "@$((t3 + 1))" +%H:%M:%S)
	expect "$from" "$to" "$(date -d "$from" +%s)" "$(date -d "$to" +%s)"
	# without seconds: from the start of the first interval's minute to the
	# start of the minute after the last
	from=$(date -d "@$t1" +%H:%M) to=$(date -d "@$((last + 60))" +%H:%M)
	expect "$from" "$to" "$(date -d "$from" +%s)" "$(date -d "$to" +%s)"
	# a full local date, then UTC with a zone, either end
	from=$(date -d "@$t1" '+%Y-%m-%d %H:%M:%S') to=$(date -d "@$((last + 60))" +%Y-%m-%dT%H:%M)
	expect "$from" "$to" "$t1" "$(date -d "$(date -d "@$((last + 60))" '+%Y-%m-%d %H:%M')" +%s)"
	from=$(date -u -d "@$t1" +%Y-%m-%dT%H:%M:%SZ)
	expect "$from" "$(date -d "@$((t3 + 1))" +%H:%M:%S)" "$t1" "$((t3 + 1))"
done
# a bad time is a usage error naming it, never a silently wider window
for bad in "$(date -d "@$t1" +%H:%M):7" "$(date -d "@$t1" +%H:%M)x" "$(date -d "@$t1" +%H):61"; do
	"$TRIAGE" replay "$db" --from "$bad" pidstat -u -p 1 >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] || fail "--from '$bad' exited $rc, not 2"
	grep -qF "'$bad'" "$work/err" || fail "--from '$bad': the error does not name it: $(cat "$work/err")"
	[ ! -s "$work/out" ] || fail "--from '$bad' printed a view"
done
echo "ok: times of day with and without seconds, full dates, both ends, UTC and +05:30"
