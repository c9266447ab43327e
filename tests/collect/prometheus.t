#!/usr/bin/env bash
# test: exclusive -- it asserts that every 1 s scrape of the run succeeded (Prometheus' scrape timeout is the interval, 1 s): a collector starved by tests beside it misses one (seen at load 30: 2 failed scrapes). Its rate oracle itself holds at any CPU share
# triage collect scraped by a real Prometheus server (Debian prometheus,
# scratch config and storage, scrape interval 1 s): its HTTP query API
# returns the spinner's rate(triage_process_cpu_seconds_total[8s]).
# Oracle: the spinner's CPU seconds in /proc/PID/stat (the kernel's
# count), read every 0.25 s for the whole run. On an idle machine the rate
# is 1; on a shared one the spinner gets what the scheduler gives it, and
# that can change from second to second, so the kernel's rate is taken
# over each window Prometheus' samples can stand for: a sample scraped at
# ts holds the collector's reading from up to 3 s before (1 s collector
# interval, its publication, a late scrape), so the first sample of
# (t1-8, t1] was read in [t1-11, t1-7] and the last in [t1-4, t1], at least
# 6 s apart. Prometheus' rate must lie between the lowest and the highest
# of the kernel's rates over those windows, give or take 5% (sample
# spacing: scrape times against reading times) and 0.05 (extrapolation to
# the window's edges). On a steady machine all those rates agree, and the
# bound is the kernel's rate +-5% +-0.05.
. "$SRC/tests/collect/lib.sh" prometheus
command -v prometheus >/dev/null || skip "prometheus missing (apt-get install prometheus)"
command -v curl >/dev/null || skip "curl missing"
command -v jq >/dev/null || skip "jq missing"

mport=$(free_port) pport=$(free_port)
name=pspin$$
name=${name:0:15}
named "$name" spin 300 # killed at the end
# the kernel's count of its CPU seconds (utime + stime), every 0.25 s
/usr/bin/python3 - "$wpid" >"$work/kernel" <<'PY' &
import os, sys, time
hz = os.sysconf("SC_CLK_TCK")
while True:
    try:
        f = open(f"/proc/{sys.argv[1]}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        break
    print(f"{time.time():.3f} {(int(f[11]) + int(f[12])) / hz}", flush=True)
    time.sleep(0.25)
PY
started="$started $!"
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$mport" -p "$wpid" 2>"$work/collect.err" &
started="$started $!"
wait_port "$mport" 10 || fail "collector not listening: $(cat "$work/collect.err")"
cat >"$work/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: triage
    static_configs:
      - targets: ['127.0.0.1:$mport']
CONF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$work/prometheus.out" 2>&1 &
started="$started $!"
wait_port "$pport" 30 || { tail "$work/prometheus.out"; fail "prometheus did not listen"; }

api="http://127.0.0.1:$pport/api/v1/query"
query() { curl -s --get "$api" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"}; }
for ((i = 0; i < 200; i++)); do
	[ "$(query 'up{job="triage"}' | jq -r '.data.result[0].value[1] // empty')" = 1 ] && break
	sleep 0.1
done
[ $i -lt 200 ] || fail "prometheus never scraped the collector: $(query up)"
# the window (t1-8, t1] and the kernel's readings 3 s before it
sleep 11
t1=$(date +%s.%N)
got=$(query "sum(rate(triage_process_cpu_seconds_total{group=\"$name\"}[8s]))" "$t1" |
	jq -r '.data.result[0].value[1] // empty')
[ -n "$got" ] || fail "no rate for group $name: $(query "triage_process_cpu_seconds_total{group=\"$name\"}")"
# the reader's next reading (every 0.25 s) is the first one at or past t1
for ((i = 0; i < 40; i++)); do
	awk -v t1="$t1" 'END { exit !($1 >= t1) }' "$work/kernel" && break
	sleep 0.1
done
# the kernel's rate over [a, b]: a in [t1-11, t1-7], b in [t1-4, t1], b - a >= 6,
# in steps of 0.25 s; the count between two readings is interpolated
read -r lo hi < <(awk -v t1="$t1" '{ t[NR] = $1; c[NR] = $2 }
	function at(x, i) {
		for (i = 2; i <= NR; i++)
			if (t[i] >= x) return c[i - 1] + (c[i] - c[i - 1]) * (x - t[i - 1]) / (t[i] - t[i - 1])
		return c[NR]
	}
	END {
		if (NR < 2 || t[1] > t1 - 11 || t[NR] < t1) { print "none"; exit }
		lo = 1e9; hi = -1
		for (a = t1 - 11; a <= t1 - 7 + 1e-6; a += 0.25)
			for (b = t1 - 4; b <= t1 + 1e-6; b += 0.25) {
				if (b - a < 6 - 1e-6) continue
				r = (at(b) - at(a)) / (b - a)
				if (r < lo) lo = r
				if (r > hi) hi = r
			}
		printf "%.4f %.4f\n", lo, hi
	}' "$work/kernel")
[ "$lo" != none ] || fail "the kernel's readings do not cover t1-11..t1: $(head -2 "$work/kernel"; tail -2 "$work/kernel")"
awk -v g="$got" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(g >= 0.95 * lo - 0.05 && g <= 1.05 * hi + 0.05) }' ||
	fail "prometheus rate $got, the kernel's $lo to $hi CPU-s/s over the windows its samples can stand for"
want="$lo to $hi"
# every scrape of the run succeeded: up was 1 each time
fails=$(query 'count_over_time(up{job="triage"}[1m]) - sum_over_time(up{job="triage"}[1m])' |
	jq -r '.data.result[0].value[1] // empty')
[ "$fails" = 0 ] || fail "failed scrapes: '$fails'"
echo "ok: prometheus rate $got CPU-s/s, kernel $want; no failed scrape"
