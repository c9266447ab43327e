# Shared by tests/collect/*.t: a private work directory ($work), the
# processes this test started (killed by PID on exit), scratch loopback
# ports chosen free at run time, and small waiting helpers.
# Usage: . "$SRC/tests/collect/lib.sh" NAME
# shellcheck shell=bash
set -u
: "${TRIAGE:?}" "${SRC:?}" "${BUILD:?}"
work=$(mktemp -d "/tmp/collect-$1.$$.XXXXXX")
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
# Whether something accepts connections on 127.0.0.1:$1 (bash's /dev/tcp:
# no interpreter to start, which matters on a loaded machine).
listening() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
# A loopback TCP port nobody listens on now, from this suite's range
# (19000-19099, see the notes on ports): each call moves on from the last
# port handed out (kept in $work), starting at an offset from our PID.
# (The servers we start all set SO_REUSEADDR, so a port in TIME_WAIT binds.)
free_port() {
	local n i port
	n=$(cat "$work/.port" 2>/dev/null || echo $(($$ % 100)))
	for ((i = 0; i < 100; i++)); do
		port=$((19000 + (n + i) % 100))
		listening "$port" && continue
		echo $((n + i + 1)) >"$work/.port"
		echo "$port"
		return 0
	done
	return 1
}
# Waits up to $2 seconds for something to listen on 127.0.0.1:$1.
wait_port() {
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		listening "$1" && return 0
		sleep 0.05
	done
	return 1
}
# CPU seconds (user + system) of PID from /proc/PID/stat: the kernel's own count.
cpu_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}
# Starts the named workload: named NAME MODE SECONDS; sets $wpid.
named() {
	"$BUILD/workloads/collect_named" "$1" "$2" "$3" >"$work/named.pid" &
	started="$started $!"
	wpid=$!
	local i
	for ((i = 0; i < 50; i++)); do
		[ -s "$work/named.pid" ] && return 0
		sleep 0.1
	done
	fail "workload $1 did not start"
}
