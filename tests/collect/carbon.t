#!/usr/bin/env bash
# triage collect against a real carbon-cache (Debian graphite-carbon) on a
# scratch port and storage dir: a spinner's CPU seconds reach whisper, and
# carbon killed (SIGKILL) and restarted mid-run loses no interval.
# Oracle: the spinner's CPU seconds in /proc/PID/stat (the kernel's count),
# read by this script at the start and end of the run. Whisper holds the
# collector's cumulative counters, so the last point minus the first must
# match the kernel's increase over the same seconds (tolerance below).
. "$SRC/tests/collect/lib.sh" carbon
command -v carbon-cache >/dev/null || skip "carbon-cache missing (apt-get install graphite-carbon)"
command -v whisper-fetch >/dev/null || skip "whisper-fetch missing (python3-whisper)"

line=$(free_port) pickle=$(free_port) query=$(free_port)
mkdir -p "$work/conf" "$work/data/whisper" "$work/log" "$work/run"
cat >"$work/conf/carbon.conf" <<CONF
[cache]
STORAGE_DIR = $work/data/
LOCAL_DATA_DIR = $work/data/whisper/
CONF_DIR = $work/conf/
LOG_DIR = $work/log/
PID_DIR = $work/run/
USER =
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = 10000
MAX_CREATES_PER_MINUTE = inf
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $line
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $pickle
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = $query
CARBON_METRIC_INTERVAL = 0
CONF
printf '[all]\npattern = .*\nretentions = 1s:1h\n' >"$work/conf/storage-schemas.conf"

carbon_start() {
	carbon-cache --config="$work/conf/carbon.conf" --pidfile="$work/run/carbon.pid" \
		--logdir="$work/log" --nodaemon start >>"$work/carbon.out" 2>&1 &
	carbon=$!
	started="$started $carbon"
	wait_port "$line" 20 || { cat "$work/carbon.out"; fail "carbon-cache did not listen on $line"; }
}
carbon_start

name=cspin$$
name=${name:0:15}
named "$name" spin 40
prefix=t$$
"$TRIAGE" collect -i 1 --graphite "127.0.0.1:$line" --prefix "$prefix" -p "$wpid" \
	2>"$work/collect.err" &
collector=$!
started="$started $collector"
sleep 1
c0=$(cpu_seconds "$wpid") t0=$(date +%s)
sleep 3
kill -9 "$carbon"
wait "$carbon" 2>/dev/null
sleep 2 # carbon away for two intervals at least: the collector buffers
carbon_start
sleep 3
c1=$(cpu_seconds "$wpid") t1=$(date +%s)
sleep 1.5 # the sample stamped t1 is taken at most an interval late
kill -TERM "$collector"
wait "$collector"
st=$?
[ $st = 0 ] || fail "collector exited $st on SIGTERM: $(cat "$work/collect.err")"
grep -q unreachable "$work/collect.err" || fail "the collector never noticed carbon went away"
# carbon writes its cache to whisper asynchronously: a clean stop flushes it
kill -TERM "$carbon"
wait "$carbon" 2>/dev/null

dir="$work/data/whisper/$prefix/process/$name/cpu_seconds"
[ -f "$dir/user.wsp" ] || fail "no $dir/user.wsp: $(find "$work/data/whisper" -maxdepth 3 | head)"
fetch() { whisper-fetch --from="$((t0 - 1))" --until="$((t1 + 1))" "$dir/$1.wsp"; }
paste <(fetch user) <(fetch system) >"$work/points"
# every second from t0 to t1 holds a point: no interval lost across the restart
missing=$(awk -v a="$t0" -v b="$t1" '$1 >= a && $1 <= b && ($2 == "None" || $4 == "None")' "$work/points" | wc -l)
[ "$missing" = 0 ] || fail "$missing intervals missing between $t0 and $t1: $(grep None "$work/points" | head -5)"
got=$(awk -v a="$t0" -v b="$t1" '$1 == a { f = $2 + $4 } $1 == b { l = $2 + $4 } END { print l - f }' "$work/points")
want=$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')
secs=$((t1 - t0))
# Tolerance: our read of /proc and the collector's sample of the same
# second are up to one interval apart at each end, and a spinner uses at
# most 1 CPU-second per second: 2 CPU-seconds in all.
awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d <= 2 && d >= -2) }' ||
	fail "whisper holds $got CPU-seconds over ${secs}s, the kernel counted $want"
echo "ok: whisper $got CPU-s over ${secs}s (kernel $want), no interval missing across a carbon restart"
