#!/usr/bin/env bash
# test: shared -- asserts only its own leaker's finding, by its own process name
# memory-growth under collect: collect judges a window of one interval (one
# task sample), and a leak needs a rise in most of at least 3 sample
# intervals, so collect judges RSS over its last MEM_GROWTH_WINDOWS
# windows. A leaker (report_leak grow 20: 2 MiB touched every 100 ms) runs
# beside `triage collect -i 1 --listen`; /metrics is scraped once a second.
# Oracle: the kernel's VmRSS of the leaker (/proc/PID/status), read at
# every scrape: its rate over the run.
# Expected: within 8 scrapes, triage_report_finding_severity{rule=
# "memory-growth", subject="report_leak"} is exported at warning (2) or
# more, with triage_report_finding_value (its MiB/s) within 25% of the
# kernel's rate over the run. Fails on a main where collect judged one
# interval alone (it never exported memory-growth).
. "$SRC/tests/collect/lib.sh" mem_growth
command -v curl >/dev/null || skip "curl missing"
port=$(free_port)
"$BUILD/workloads/report_leak" grow 20 900 30 >"$work/leak" &
leak=$!
started="$started $leak"
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$port" 2>"$work/err" &
started="$started $!"
wait_port "$port" 10 || fail "not listening: $(cat "$work/err")"
rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$leak/status"; }
t0=$(date +%s.%N) r0=$(rss)
sel='{rule="memory-growth",subject="report_leak"}'
for i in $(seq 1 8); do
	sleep 1
	curl -s -o "$work/m" "http://127.0.0.1:$port/metrics" || fail "scrape $i failed"
	sev=$(awk -v s="triage_report_finding_severity$sel" '$1 == s { print $2 }' "$work/m")
	[ -n "$sev" ] && break
done
t1=$(date +%s.%N) r1=$(rss)
rate=$(awk -v a="$r0" -v b="$r1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", (b - a) / 1024 / (e - s) }')
awk -v r="$rate" 'BEGIN { exit !(r >= 12) }' || skip "the leaker grew only $rate MiB/s by the kernel's VmRSS (this machine is too busy now)"
echo "ok: premise: the kernel's VmRSS grew $rate MiB/s ($r0 -> $r1 kB)"
[ -n "$sev" ] || fail "no memory-growth series for report_leak after $i scrapes: $(grep '^triage_report_finding_severity' "$work/m")"
[ "$sev" -ge 2 ] || fail "memory-growth exported at severity $sev"
val=$(awk -v s="triage_report_finding_value$sel" '$1 == s { print $2 }' "$work/m")
awk -v v="$val" -v r="$rate" 'BEGIN { exit !(v >= 0.75 * r && v <= 1.25 * r) }' ||
	fail "exported rate $val MiB/s is not within 25% of the kernel's $rate MiB/s"
echo "ok: after $i scrapes: memory-growth of report_leak at severity $sev, $val MiB/s (kernel: $rate)"
