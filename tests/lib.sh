# Shared by the shell tests, sourced directly or through an area's lib.sh:
#   $work     a private work directory, /tmp/NAME.XXXXXX, removed on exit
#             (kept when KEEP is set, for a look after a failure)
#   $started  the PIDs of the processes the test started, space-separated
#             (append: started="$started $!"); each is killed (SIGKILL) by
#             PID on exit, never by name, and reaped before $work goes
#   fail MSG  prints "FAIL: MSG" and exits 1
#   skip MSG  prints MSG (tests/run.sh shows the last line) and exits 77
#   cpu_seconds PID  user + system CPU seconds of PID, the kernel's count
# Usage: . "$SRC/tests/lib.sh" NAME   (tests/run.sh sets TRIAGE, SRC, BUILD)
# shellcheck shell=bash
set -u
: "${TRIAGE:?}" "${SRC:?}" "${BUILD:?}"
work=$(mktemp -d "/tmp/$1.XXXXXX")
started=""
cleanup() {
	local p
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
# CPU seconds (user + system) of PID from /proc/PID/stat: the kernel's own count.
cpu_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}
