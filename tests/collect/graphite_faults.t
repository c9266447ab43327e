#!/usr/bin/env bash
# test: exclusive -- its "never" part bounds the exit flush in time (5 s + 0.5 s): tests beside it starve the collector past that (seen at load 30-44)
# The Graphite sender against broken peers (issue 27), small Python peers
# (tests/collect/graphite_peer.py). The collector says at exit how many
# points it produced, dropped and could not send; the sink's own count of
# the distinct lines it read is the oracle for what was delivered:
#   stall: a peer with a 4 KiB receive window that reads nothing until the
#     collector has reset a connection for a full buffer, then everything,
#     while the buffer holds 1 batch of 100 processes
#     (each batch bigger than the window): some batches must go; delivered = produced - dropped (plus at most the lines on the wire at a reset; none unsent: the
#     peer reads at the end), every line whole (three fields, our prefix,
#     a timestamp on the grid: no line glued to a cut one).
#   reset: a peer that resets every connection: nothing is delivered (the
#     exit flush waits for carbon's end of the connection, a reset is not
#     one), so dropped + unsent = produced, and stderr says "unreachable" once.
#   never: a peer that never accepts (backlog full): the exit flush ends
#     within its 5 s (plus 0.5 s for start and exit), nothing delivered.
# The three run at once, each with its own peer, collector and files: each
# waits on its peer or its timers (16 s one after the other, about 10 s at
# once); the timed exit of "never" starts once "stall" is over.
. "$SRC/tests/collect/lib.sh" gfaults
peer=$SRC/tests/collect/graphite_peer.py
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
prefix=gf$$

# Each phase runs in a subshell of its own (MODE is its peer's mode): its
# files are $work/*.MODE, its processes are killed when it ends, however
# it ends, and its result line is $work/result.MODE.
# start_peer [GOFILE]: sets $port and $ppid_
start_peer() {
	/usr/bin/python3 "$peer" "$mode" "$work/port.$mode" "$work/lines.$mode" "${1:-}" &
	ppid_=$!
	started="$started $ppid_"
	for _ in $(seq 100); do
		[ -s "$work/port.$mode" ] && break
		sleep 0.05
	done
	port=$(cat "$work/port.$mode") || fail "the $mode peer did not start"
}
# wait_line TEXT: waits (30 s at most) for TEXT in the collector's stderr
wait_line() {
	for _ in $(seq 300); do
		grep -q "$1" "$work/err.$mode" && return 0
		sleep 0.1
	done
	fail "the collector never said '$1': $(cat "$work/err.$mode")"
}
# run_collector WAIT EXTRA...: runs collect against $port; WAIT (a command)
# says when to stop it; sets $produced, $dropped, $unsent
run_collector() {
	local until=$1
	shift
	"$TRIAGE" collect -i 1 --graphite "127.0.0.1:$port" --prefix "$prefix" "$@" \
		2>"$work/err.$mode" &
	local c=$!
	started="$started $c"
	eval "$until"
	t_term=$(date +%s.%N)
	kill -TERM "$c"
	wait "$c" || fail "collector exited $?: $(cat "$work/err.$mode")"
	t_exit=$(date +%s.%N)
	summary=$(grep -o '[0-9]* points, [0-9]* dropped, [0-9]* not sent' "$work/err.$mode") ||
		fail "no summary at exit: $(cat "$work/err.$mode")"
	read -r produced _ dropped _ unsent _ <<<"$summary"
	# of the dropped, lines written whole but unacknowledged when a full
	# buffer reset the connection: carbon's kernel may hold them (a delayed
	# ACK), and a reset does not take them back
	in_flight=$(grep -o 'of the dropped, [0-9]* were on the wire' "$work/err.$mode" | grep -o '[0-9]*') ||
		in_flight=0
}
stop_peer() {
	kill -TERM "$ppid_"
	wait "$ppid_"
}

# --- stall
# the peer reads once the buffer has overflowed (the reset is logged), then
# the collector has 2 s to reconnect and send before it is stopped
phase_stall() {
	start_peer "$work/go"
	run_collector 'wait_line "buffer full"; touch "$work/go"; sleep 2' --buffer 1 --group pid --top 100
	stop_peer
	[ -f "$work/lines.stall" ] || fail "the stall peer wrote nothing"
	bad=$(grep -cvE "^$prefix\.[A-Za-z0-9_.-]+ [-0-9.e+]+ [0-9]+$" "$work/lines.stall")
	[ "$bad" = 0 ] || fail "$bad malformed lines: $(grep -vE "^$prefix\.[A-Za-z0-9_.-]+ [-0-9.e+]+ [0-9]+$" "$work/lines.stall" | head -3)"
	delivered=$(awk '{ print $1, $3 }' "$work/lines.stall" | sort -u | wc -l)
	[ "$dropped" -gt 0 ] || fail "nothing dropped: the premise (a 1-batch buffer overflowing) failed ($summary)"
	[ "$unsent" = 0 ] || fail "$unsent points not sent at exit to a peer that was reading"
	# exact where TCP lets it be: every line not counted dropped arrived, and
	# of the dropped ones only those on the wire at a reset may have
	[ "$delivered" -ge $((produced - dropped)) ] && [ "$delivered" -le $((produced - dropped + in_flight)) ] ||
		fail "stall: the sink got $delivered distinct points; produced $produced - dropped $dropped = $((produced - dropped)) (+ at most $in_flight on the wire at a reset)"
	echo "stall: $produced produced, $dropped dropped ($in_flight of them on the wire at a reset), $delivered delivered"
}

# --- reset
phase_reset() {
	start_peer
	run_collector 'wait_line unreachable; sleep 1' -p $$
	stop_peer
	[ $((dropped + unsent)) = "$produced" ] ||
		fail "reset: nothing can be delivered, but dropped $dropped + unsent $unsent != produced $produced"
	n=$(grep -c unreachable "$work/err.$mode")
	[ "$n" = 1 ] || fail "reset: 'unreachable' said $n times: $(cat "$work/err.$mode")"
	grep -q "connected" "$work/err.$mode" && fail "reset: claimed a connection: $(cat "$work/err.$mode")"
	echo "reset: $produced produced = $dropped dropped + $unsent unsent, one 'unreachable'"
}

# --- never
phase_never() {
	start_peer
	# stopped once the stall phase is over: its burst of sending does not
	# share the CPUs with this timed exit (a minute at most)
	run_collector 'sleep 2; for _ in $(seq 600); do [ -s "$work/result.stall" ] && break; sleep 0.1; done' -p $$
	stop_peer
	took=$(awk -v a="$t_term" -v b="$t_exit" 'BEGIN { printf "%.2f", b - a }')
	awk -v t="$took" 'BEGIN { exit !(t <= 5.5) }' || fail "never: the exit took ${took}s (bound 5 s flush)"
	[ "$unsent" = "$produced" ] || [ $((dropped + unsent)) = "$produced" ] ||
		fail "never: dropped $dropped + unsent $unsent != produced $produced"
	echo "never: exit in ${took}s"
}

phases=()
for mode in stall reset never; do
	(
		# this phase's processes only, killed however it ends
		started=""
		trap 'for p in $started; do kill -9 "$p" 2>/dev/null; done; wait' EXIT
		"phase_$mode" >"$work/result.$mode"
	) &
	phases+=("$!")
done
msg=""
for i in 0 1 2; do
	mode=$(echo stall reset never | cut -d' ' -f$((i + 1)))
	# a phase that failed said why (FAIL: ...) in its result
	wait "${phases[i]}" || { cat "$work/result.$mode"; exit 1; }
	msg="$msg${msg:+; }$(cat "$work/result.$mode")"
done
echo "ok: $msg"
