# Shared by the shell tests, sourced directly or through an area's lib.sh:
#   $work     a private work directory, /tmp/NAME.XXXXXX, removed on exit
#             (kept when KEEP is set, for a look after a failure)
#   $started  the PIDs of the processes the test started, space-separated
#             (append: started="$started $!"); each is killed (SIGKILL) by
#             PID on exit, never by name, and reaped before $work goes
#   fail MSG  prints "FAIL: MSG" and exits 1
#   skip MSG  prints MSG (tests/run.sh shows the last line) and exits 77
#   cpu_seconds PID  user + system CPU seconds of PID, the kernel's count
#   claim_port LO HI  a loopback TCP port in LO..HI that nobody listens on and
#             no other running test has claimed (tests run side by side:
#             docs/testing.md); released on exit
#   claim KEY  the same for any name (a scratch subnet): 0 if now ours
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
	[ -f "$work/.claimed" ] && while read -r p; do rm -rf "${PORT_CLAIMS:?}/$p"; done <"$work/.claimed"
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
# A claim is a directory $PORT_CLAIMS/KEY holding the claiming test's PID,
# put there whole by rename(2), which fails on a claim that exists; a claim
# whose test is gone is moved aside (by one taker only) and taken over.
# claim KEY: 0 when this test now holds KEY (a port, or any name tests
# running side by side must not both take: a subnet), released on exit.
PORT_CLAIMS=/tmp/triage-test-ports
claim() {
	local key=$1 owner mine
	mkdir -p "$PORT_CLAIMS" 2>/dev/null
	mine=$PORT_CLAIMS/.new.$$.$key
	mkdir -p "$mine" && echo $$ >"$mine/pid" || return 1
	if ! mv -T "$mine" "$PORT_CLAIMS/$key" 2>/dev/null; then
		owner=$(cat "$PORT_CLAIMS/$key/pid" 2>/dev/null)
		if [ -z "$owner" ] || kill -0 "$owner" 2>/dev/null ||
			! mv -T "$PORT_CLAIMS/$key" "$PORT_CLAIMS/.old.$$.$key" 2>/dev/null ||
			! mv -T "$mine" "$PORT_CLAIMS/$key" 2>/dev/null; then
			rm -rf "$mine" "$PORT_CLAIMS/.old.$$.$key"
			return 1
		fi
		rm -rf "$PORT_CLAIMS/.old.$$.$key"
	fi
	echo "$key" >>"$work/.claimed"
}
# The scan starts at an offset from our PID, so tests rarely try the same port.
claim_port() {
	local lo=$1 hi=$2 n i port
	n=$(($$ % (hi - lo + 1)))
	for ((i = 0; i <= hi - lo; i++)); do
		port=$((lo + (n + i) % (hi - lo + 1)))
		claim "$port" || continue
		# someone outside the suite listens there: keep it claimed, move on
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
		echo "$port"
		return 0
	done
	return 1
}
