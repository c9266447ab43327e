#!/usr/bin/env bash
# test: exclusive -- its premise is 1,000 forks a second, which other tests' CPU use can starve (then it skips)
# Scrapes during heavy process churn (1,200 children a second created and
# exiting) never fail: every scrape is HTTP 200, every third one is checked
# promtool-clean, /report answers, and the collector is alive at the end.
# The rate is measured, not assumed: the workload's own count over its own
# time, checked against the kernel's fork counter (/proc/stat processes,
# which also counts everyone else's forks, so it can only be higher). Below
# 1,000 exits a second the test proves too little and is skipped.
. "$SRC/tests/collect/lib.sh" churn
command -v curl >/dev/null || skip "curl missing"
command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"
command -v jq >/dev/null || skip "jq missing"
port=$(free_port)
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$port" 2>"$work/err" &
collector=$!
started="$started $collector"
wait_port "$port" 10 || fail "not listening: $(cat "$work/err")"
forks0=$(awk '$1 == "processes" { print $2 }' /proc/stat)
"$BUILD/workloads/collect_churn" 1200 6 >"$work/forks" &
churn=$!
started="$started $churn"
scrapes=0
while kill -0 "$churn" 2>/dev/null; do
	code=$(curl -s -o "$work/m.$scrapes" -w '%{http_code}' "http://127.0.0.1:$port/metrics")
	[ "$code" = 200 ] || fail "scrape $scrapes: HTTP $code; collector $(kill -0 $collector 2>/dev/null && echo alive || echo gone): $(cat "$work/err")"
	if [ $((scrapes % 5)) = 4 ]; then
		code=$(curl -s -o "$work/report" -w '%{http_code}' "http://127.0.0.1:$port/report")
		[ "$code" = 200 ] || [ "$code" = 503 ] || fail "/report: HTTP $code"
		[ "$code" = 503 ] || jq -e .findings "$work/report" >/dev/null || fail "/report: not the report's JSON"
	fi
	scrapes=$((scrapes + 1))
	sleep 0.1
done
# promtool is slow to start: check every third scrape's exposition
for ((i = 0; i < scrapes; i += 3)); do
	promtool check metrics <"$work/m.$i" >"$work/lint" 2>&1 || fail "scrape $i: $(cat "$work/lint")"
done
wait "$churn"
forks1=$(awk '$1 == "processes" { print $2 }' /proc/stat)
read -r forks secs <"$work/forks"
rate=$(awk -v n="$forks" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
[ $((forks1 - forks0)) -ge "$forks" ] || fail "the kernel counted $((forks1 - forks0)) forks, the workload $forks"
echo "churn: $forks children created and exited in ${secs}s: $rate/s (kernel fork counter +$((forks1 - forks0)))"
[ "$rate" -ge 1000 ] || skip "only $rate exits/s: machine too busy to churn at 1,000/s"
[ "$scrapes" -ge 3 ] || fail "only $scrapes scrapes"
# the collector's figure for the churner's group saw the exits: its processes' CPU is kept
grep -q '^triage_process_cpu_seconds_total{group="collect_churn"' "$work/m.$((scrapes - 1))" ||
	echo "note: collect_churn not in the top groups at the last scrape"
kill -0 "$collector" || fail "the collector died: $(cat "$work/err")"
echo "ok: $scrapes scrapes during $rate exits/s for ${secs}s, all 200 and promtool-clean"
