#!/usr/bin/env bash
# test: shared, slow -- claimed free port; its crowd comes from 127.0.0.2-101 to its own server
# A slow or idle crowd cannot starve the collector's HTTP server (issue 27):
# a normal client on 127.0.0.1 fetches /metrics and /healthz every 0.25 s,
# each on a fresh connection, and every fetch must be answered 200 (9 in
# 10 within 1 s) while, in turn,
#   - slowloris: 64 connections from 127.0.0.2 each send a request line and
#     then one header byte every 5 s, never finishing; the server keeps 32
#     (the per-address limit) and closes each of those at its 10 s request
#     deadline although it was never idle 5 s (12 s run: none left open);
#   - 2,000 idle connections from 127.0.0.2: 32 kept, the rest refused;
#   - 2,000 idle connections from 100 addresses (127.0.0.2-101, 20 each,
#     under the per-address limit): at most 512 kept (the server's room),
#     the longest-waiting pushed out to make room for the new ones.
# Fetches are timed once the server's accept queue is empty: 2,000 connects
# queued ahead of a fetch in the kernel are a burst, which the server took
# in up to 1.3 s here (ASan build), not the crowd this is about.
# Loopback only; tests/collect/crowd.py bounds every loop in time.
. "$SRC/tests/collect/lib.sh" http_crowd
command -v python3 >/dev/null || skip "python3 missing"
port=$(free_port)
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$port" 2>"$work/collect.err" &
started="$started $!"
wait_port "$port" 10 || fail "collector not listening: $(cat "$work/collect.err")"
for ((i = 0; i < 100; i++)); do # /metrics is 200 once the first sample is in
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 200 ] && break
	sleep 0.1
done
# crowd MODE CONNS SOURCES SECONDS: sets the fields crowd.py prints, and $all
crowd() {
	local line
	line=$(python3 "$SRC/tests/collect/crowd.py" "$port" "$@") || fail "crowd.py $*: $line"
	# shellcheck disable=SC2034 # every field crowd.py prints; $all shows them
	read -r settle_s scrapes failed slow max_s opened refused closed max_life open_end all <<<"$line"
	[ "$failed" = 0 ] || fail "$1 $2 from $3: $failed of $scrapes normal fetches failed: $all"
	# 9 in 10 within 1 s: on this shared 2-CPU machine (load average 15-20
	# while others build) a lone fetch was seen at 1.02 s, the client
	# itself waiting for a CPU; a starved server fails them all
	[ $((slow * 10)) -le "$scrapes" ] || fail "$1 $2 from $3: $slow of $scrapes normal fetches took 1 s or more: $all"
	echo "$1 $2 from $3 addresses: $all"
}

crowd slowloris 64 1 12
[ "$refused" = 32 ] || fail "slowloris: the per-address limit let $((64 - refused)) in: $all"
[ "$open_end" = 0 ] || fail "slowloris: $open_end trickling connections outlived the 10 s deadline: $all"
crowd idle 2000 1 3
[ "$open_end" = 32 ] || fail "idle, one address: $open_end kept, want 32: $all"
crowd idle 2000 100 3
[ "$open_end" -le 512 ] || fail "idle, 100 addresses: $open_end kept, room is 512: $all"
kill -0 "${started##* }" 2>/dev/null || fail "the collector died: $(cat "$work/collect.err")"
echo "ok: normal fetches answered (9 in 10 within 1 s) through slowloris and 2,000 idle connections"
