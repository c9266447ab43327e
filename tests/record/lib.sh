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
# same_live_and_replay DIR: DIR/live.txt and DIR/replay.txt (a live report and
# the replay of its recording over the same window), and their .json, say the
# same thing byte for byte: the host line, every finding, every checked line,
# every skipped line but those the replay's one mask line ("source  not
# recorded: ...") names, and the JSON's headline, findings and checked. Fails
# the test on the first difference.
same_live_and_replay() {
	local d=$1 part key n masked
	n=$(grep -c '^  source ' "$d/replay.txt")
	[ "$n" = 1 ] || fail "$n 'source' lines in the replay's Skipped"
	# what the live report skipped for the parts a recording does not keep
	masked='^  (cgroups|kernel-log|ebpf[a-z-]*) '
	for part in "host " Findings "Checked, fine"; do
		if [ "$part" = "host " ]; then
			sed -n '1p' "$d/live.txt" >"$d/a"
			sed -n '1p' "$d/replay.txt" >"$d/b"
		else
			report_section "$d/live.txt" "$part" >"$d/a"
			report_section "$d/replay.txt" "$part" >"$d/b"
		fi
		diff -u --label live --label replay "$d/a" "$d/b" || fail "$part differs"
	done
	report_section "$d/live.txt" Skipped | grep -Ev "$masked" >"$d/a"
	report_section "$d/replay.txt" Skipped | grep -v '^  source ' >"$d/b"
	diff -u --label live --label replay "$d/a" "$d/b" || fail "the skipped lines differ beyond the mask"
	for key in headline findings checked; do
		cmp -s <(jq -S ".$key" "$d/live.json") <(jq -S ".$key" "$d/replay.json") ||
			fail "JSON .$key differs: $(diff <(jq -S ".$key" "$d/live.json") <(jq -S ".$key" "$d/replay.json") | head -10)"
	done
}
# report_section FILE FIRST-LINE: the lines of one section of a plain report
report_section() {
	awk -v h="$2" '$0 == h { s = 1; print; next } s && /^$/ { exit } s' "$1"
}
