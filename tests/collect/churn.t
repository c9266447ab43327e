#!/usr/bin/env bash
# Scrapes during heavy process churn (children forked and exiting at up to
# 1,000 a second) never fail: every scrape is HTTP 200, every third one
# is checked promtool-clean,
# and the collector keeps sampling (its sample count advances).
. "$SRC/tests/collect/lib.sh" churn
command -v curl >/dev/null || skip "curl missing"
command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"
port=$(free_port)
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$port" 2>"$work/err" &
collector=$!
started="$started $collector"
wait_port "$port" 10 || fail "not listening: $(cat "$work/err")"
"$BUILD/workloads/collect_churn" 1000 6 >"$work/forks" &
churn=$!
started="$started $churn"
scrapes=0
while kill -0 "$churn" 2>/dev/null; do
	code=$(curl -s -o "$work/m.$scrapes" -w '%{http_code}' "http://127.0.0.1:$port/metrics")
	[ "$code" = 200 ] || fail "scrape $scrapes: HTTP $code; collector $(kill -0 $collector 2>/dev/null && echo alive || echo gone): $(cat "$work/err")"
	scrapes=$((scrapes + 1))
	sleep 0.1
done
# promtool is slow to start: check every third scrape's exposition
for ((i = 0; i < scrapes; i += 3)); do
	promtool check metrics <"$work/m.$i" >"$work/lint" 2>&1 || fail "scrape $i: $(cat "$work/lint")"
done
wait "$churn"
forks=$(cat "$work/forks")
[ "$forks" -ge 600 ] || skip "only $forks forks in 6 s: machine too busy to churn"
[ "$scrapes" -ge 3 ] || fail "only $scrapes scrapes"
# the collector's figure for the churner's group saw the exits: its processes' CPU is kept
grep -q '^triage_process_cpu_seconds_total{group="collect_churn"' "$work/m.$((scrapes - 1))" ||
	echo "note: collect_churn not in the top groups at the last scrape"
kill -0 "$collector" || fail "the collector died: $(cat "$work/err")"
echo "ok: $scrapes scrapes during $forks forks+exits in 6 s, all 200 and promtool-clean"
