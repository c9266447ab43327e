# Shared by tests/collect/*.t: tests/lib.sh (a private work directory
# $work, the processes this test started killed by PID on exit, fail, skip,
# cpu_seconds), then scratch loopback ports chosen free at run time, small
# waiting helpers and the named workload.
# Usage: . "$SRC/tests/collect/lib.sh" NAME
# shellcheck shell=bash
. "$SRC/tests/lib.sh" "collect-$1.$$"
# Whether something accepts connections on 127.0.0.1:$1 (bash's /dev/tcp:
# no interpreter to start, which matters on a loaded machine).
listening() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
# A loopback TCP port nobody listens on now, from this suite's range
# (19000-19099, see the notes on ports), claimed for this test so that no
# test running beside it takes it too (claim_port, tests/lib.sh).
# (The servers we start all set SO_REUSEADDR, so a port in TIME_WAIT binds.)
free_port() {
	claim_port 19000 19099
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
# Starts the named workload: named NAME MODE SECONDS; sets $wpid.
# shellcheck disable=SC2034 # wpid is for the tests
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
