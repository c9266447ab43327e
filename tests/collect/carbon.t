#!/usr/bin/env bash
# test: shared -- carbon on claimed free ports; compares its own spinner's CPU-seconds with the kernel's over the same seconds (a share-independent check)
# triage collect against a real carbon-cache (Debian graphite-carbon) on a
# scratch port and storage dir: a spinner's CPU seconds reach whisper, and
# carbon killed (SIGKILL) and restarted mid-run loses no interval.
# Oracle: the spinner's CPU seconds in /proc/PID/stat (the kernel's count),
# read by this script at the start and end of the run. Whisper holds the
# collector's cumulative counters, so the last point minus the first must
# match the kernel's increase over the same seconds (tolerance below).
# Most of the run is carbon's own start-up (Python and Twisted, 2 to 9 s
# each time on a loaded machine): the outage is 1 s plus that restart,
# measured and printed (several of our 1 s intervals).
. "$SRC/tests/collect/lib.sh" carbon
command -v carbon-cache >/dev/null || skip "carbon-cache missing (apt-get install graphite-carbon)"
/usr/bin/python3 -c 'import whisper' 2>/dev/null || skip "python3-whisper missing (graphite-carbon depends on it)"

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
named "$name" spin 300 # killed at the end; carbon may take long to restart
prefix=t$$
"$TRIAGE" collect -i 1 --graphite "127.0.0.1:$line" --prefix "$prefix" -p "$wpid" \
	2>"$work/collect.err" &
collector=$!
started="$started $collector"
# our reads of /proc follow a whole second by 50 ms, as the collector's
# samples do by their wake-up latency (see the tolerance below)
next_second() { sleep "$(awk -v t="$(date +%s.%N)" 'BEGIN { printf "%.3f", int(t) + 1.05 - t }')"; }
# t0 once carbon has acknowledged the collector's first batch (its
# "connected" line): a slow start must not look like a lost interval
for _ in $(seq 300); do
	grep -q connected "$work/collect.err" && break
	sleep 0.1
done
next_second
c0=$(cpu_seconds "$wpid") t0=$(date +%s)
sleep 2
k0=$(date +%s.%N)
kill -9 "$carbon"
wait "$carbon" 2>/dev/null
sleep 1 # then carbon's start-up: the collector buffers meanwhile
carbon_start
outage=$(awk -v a="$k0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
# The collector retries after 1, 2, 4, then 8 s and says "reconnected" once
# carbon has acknowledged a batch: wait for that line, not a guess of how
# long carbon's start and the back-off take on a loaded machine.
for _ in $(seq 300); do
	[ "$(grep -c connected "$work/collect.err")" -ge 2 ] && break
	sleep 0.1
done
next_second
c1=$(cpu_seconds "$wpid") t1=$(date +%s)
sleep 1.5 # the sample stamped t1 is taken at most an interval late
kill -TERM "$collector"
wait "$collector"
st=$?
[ $st = 0 ] || fail "collector exited $st on SIGTERM: $(cat "$work/collect.err")"
grep -q unreachable "$work/collect.err" || fail "the collector never noticed carbon went away"
[ "$(grep -c connected "$work/collect.err")" -ge 2 ] || fail "the collector did not reconnect: $(cat "$work/collect.err")"
# carbon writes its cache to whisper asynchronously: a clean stop flushes it
kill -TERM "$carbon"
wait "$carbon" 2>/dev/null

dir="$work/data/whisper/$prefix/process/$name/cpu_seconds"
[ -f "$dir/user.wsp" ] || fail "no $dir/user.wsp: $(find "$work/data/whisper" -maxdepth 3 | head)"
# whisper-fetch's own module, both files in one interpreter: "ts user ts system"
/usr/bin/python3 - "$dir" "$((t0 - 1))" "$((t1 + 1))" >"$work/points" <<'PY' ||
import sys, whisper
d, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
series = []
for mode in ("user", "system"):
    (start, end, step), values = whisper.fetch(f"{d}/{mode}.wsp", a, b)
    series.append(list(zip(range(start, end, step), values)))
for (t, u), (t2, s) in zip(*series):
    print(t, u, t2, s)
PY
	fail "reading whisper failed"
# every second from t0 to t1 holds a point: no interval lost across the restart
missing=$(awk -v a="$t0" -v b="$t1" '$1 >= a && $1 <= b && ($2 == "None" || $4 == "None")' "$work/points" | wc -l)
[ "$missing" = 0 ] || fail "$missing intervals missing between $t0 and $t1: $(grep None "$work/points" | head -5)"
got=$(awk -v a="$t0" -v b="$t1" '$1 == a { f = $2 + $4 } $1 == b { l = $2 + $4 } END { print l - f }' "$work/points")
want=$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')
secs=$((t1 - t0))
# Tolerance: at each end, our read of /proc (50 ms after the whole second,
# plus awk's start) and the collector's sample stamped with that second
# (taken when it wakes on it, late by its scheduling delay on this loaded
# machine) are within 0.5 s of each other, and a spinner uses at most 1
# CPU-second per second: 1 CPU-second in all. (A tick is 0.01 s: noise.)
awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d <= 1 && d >= -1) }' ||
	fail "whisper holds $got CPU-seconds over ${secs}s, the kernel counted $want"
echo "ok: whisper $got CPU-s over ${secs}s (kernel $want, $(awk -v g="$got" -v w="$want" -v s="$secs" 'BEGIN { printf "%.3f vs %.3f CPU-s/s", g / s, w / s }')), no interval missing across a carbon restart (${outage}s away)"
