# Shared by tests/record/*.t: a private work directory ($work), the
# processes this test started (killed by PID on exit), small helpers.
# Usage: . "$SRC/tests/record/lib.sh" NAME
# shellcheck shell=bash
set -u
: "${TRIAGE:?}" "${SRC:?}" "${BUILD:?}"
export LC_ALL=C TZ=UTC S_COLORS=never
work=$(mktemp -d "/tmp/record-$1.$$.XXXXXX")
started=""
cleanup() {
	for p in $started; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}
skip() {
	echo "$*"
	exit 77
}
command -v sqlite3 >/dev/null || skip "no sqlite3 CLI (scripts/deps.sh test installs it)"
# q DB SQL: one query through the sqlite3 CLI (the oracle for what the file holds).
q() {
	sqlite3 -batch -noheader "$1" "$2"
}
# CPU seconds (user + system) of PID from /proc/PID/stat: the kernel's own count.
cpu_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}
