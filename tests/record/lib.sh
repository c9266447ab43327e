# Shared by tests/record/*.t: tests/lib.sh (a private work directory
# $work, the processes this test started killed by PID on exit, fail, skip,
# cpu_seconds), the C locale in UTC, and q for sqlite3 queries.
# Usage: . "$SRC/tests/record/lib.sh" NAME
# shellcheck shell=bash
. "$SRC/tests/lib.sh" "record-$1.$$"
export LC_ALL=C TZ=UTC S_COLORS=never
command -v sqlite3 >/dev/null || skip "no sqlite3 CLI (scripts/deps.sh test installs it)"
# q DB SQL: one query through the sqlite3 CLI (the oracle for what the file holds).
q() {
	sqlite3 -batch -noheader "$1" "$2"
}
# wait_intervals DB N: waits (up to 10 s) until DB holds N committed intervals.
wait_intervals() {
	local _
	for _ in $(seq 100); do
		[ "$(q "$1" 'SELECT count(*) FROM interval' 2>/dev/null)" -ge "$2" ] 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
