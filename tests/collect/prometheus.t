#!/usr/bin/env bash
# test: exclusive -- compares a spinner's rate over Prometheus' window with the kernel's over a window 2 s later: other tests' load changes the spinner's share in between
# triage collect scraped by a real Prometheus server (Debian prometheus,
# scratch config and storage, scrape interval 1 s): its HTTP query API
# returns the spinner's rate(triage_process_cpu_seconds_total[8s]).
# Oracle: the spinner's CPU seconds in /proc/PID/stat (the kernel's
# count) over the same 8 s. On an idle machine both are 1; on this shared
# one the spinner gets what the scheduler gives it, so we compare with the
# kernel's figure. Tolerance: Prometheus' window sees samples up to 2 s
# older than ours (1 s collector interval + 1 s scrape interval), 2 s of
# 8, so 25% of the rate, plus 0.05 for the extrapolation at the edges.
. "$SRC/tests/collect/lib.sh" prometheus
command -v prometheus >/dev/null || skip "prometheus missing (apt-get install prometheus)"
command -v curl >/dev/null || skip "curl missing"
command -v jq >/dev/null || skip "jq missing"

mport=$(free_port) pport=$(free_port)
name=pspin$$
name=${name:0:15}
named "$name" spin 300 # killed at the end
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
sleep 3
c0=$(cpu_seconds "$wpid")
sleep 8
c1=$(cpu_seconds "$wpid") t1=$(date +%s.%N)
got=$(query "sum(rate(triage_process_cpu_seconds_total{group=\"$name\"}[8s]))" "$t1" |
	jq -r '.data.result[0].value[1] // empty')
[ -n "$got" ] || fail "no rate for group $name: $(query "triage_process_cpu_seconds_total{group=\"$name\"}")"
want=$(awk -v a="$c0" -v b="$c1" 'BEGIN { print (b - a) / 8 }')
awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.25 * w + 0.05) }' ||
	fail "prometheus rate $got, the kernel's $want CPU-s/s"
# every scrape of the run succeeded: up was 1 each time
fails=$(query 'count_over_time(up{job="triage"}[1m]) - sum_over_time(up{job="triage"}[1m])' |
	jq -r '.data.result[0].value[1] // empty')
[ "$fails" = 0 ] || fail "failed scrapes: '$fails'"
echo "ok: prometheus rate $got CPU-s/s, kernel $want; no failed scrape"
