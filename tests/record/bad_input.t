#!/bin/bash
# test: shared -- usage errors over a fixture recording
# Usage errors: one line naming the bad token, then a pointer to --help, exit 2.
. "$SRC/tests/record/lib.sh" bad_input
db=$work/r.db
"$TRIAGE" record -o "$db" --root "$SRC/tests/fixtures/pidstat/edge-threads" || fail "record"
usage_error() { # expected-token, command...
	local tok=$1 rc
	shift
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] || fail "'$*' exited $rc, not 2: $(cat "$work/err")"
	[ "$(wc -l <"$work/err")" = 2 ] || fail "'$*': not two lines: $(cat "$work/err")"
	grep -qF "'$tok'" "$work/err" || fail "'$*': does not name '$tok': $(cat "$work/err")"
	grep -q "^see 'triage re[a-z]* --help'" "$work/err" || fail "'$*': no --help pointer"
	[ ! -s "$work/out" ] || fail "'$*' wrote to stdout"
}
usage_error "yesterday-ish" "$TRIAGE" replay "$db" --from yesterday-ish
usage_error "10 parsecs ago" "$TRIAGE" replay "$db" --to "10 parsecs ago"
usage_error "2026-13-01T00:00:00Z" "$TRIAGE" replay "$db" --from 2026-13-01T00:00:00Z
usage_error "25:00" "$TRIAGE" replay "$db" --from 25:00
usage_error "-5x" "$TRIAGE" replay "$db" --from -5x
usage_error "now" "$TRIAGE" replay "$db" --from now --to "-1h"
usage_error "top" "$TRIAGE" replay "$db" top
usage_error "-s" "$TRIAGE" replay "$db" pidstat -s
usage_error "$work/none.db" "$TRIAGE" replay "$work/none.db"
printf 'not a database, just text\n%.0s' $(seq 200) >"$work/text.db"
usage_error "$work/text.db" "$TRIAGE" replay "$work/text.db"
sqlite3 "$work/other.db" 'CREATE TABLE t(x); PRAGMA user_version = 7;'
usage_error "$work/other.db" "$TRIAGE" replay "$work/other.db" pidstat
usage_error "2000-01-01T00:00:00Z" "$TRIAGE" replay "$db" --to 2000-01-01T00:00:00Z
usage_error "-o" "$TRIAGE" record
usage_error "0" "$TRIAGE" record -o "$work/x.db" -i 0
usage_error "--keep" "$TRIAGE" record -o "$work/x.db" --max-size 5 --keep 2
usage_error "10q" "$TRIAGE" record -o "$work/x.db" -d 10q
# good times are accepted (each form once)
for t in "2026-11-30T00:53:20Z" "2026-11-30 00:53:20+00:00" "@1796000000" "10m ago" "-1h30m" now \
	"2026-11-30"; do
	"$TRIAGE" replay "$db" --from 2000-01-01T00:00:00Z --to "$t" pidstat -u >/dev/null 2>"$work/err"
	rc=$?
	# parsed: the window holds the recording, or none of it (which says so)
	[ "$rc" = 0 ] || grep -q "no recorded interval" "$work/err" ||
		fail "--to '$t' rejected: $(cat "$work/err")"
done
# a replay never writes to the file
"$TRIAGE" record -o "$work/text.db" 2>"$work/err" && fail "record into a text file succeeded"
echo "ok: bad times, views, options and files are one-line usage errors (exit 2)"
