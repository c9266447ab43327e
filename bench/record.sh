#!/usr/bin/env bash
# Benchmark: `triage record -i 1` against `triage pidstat -p ALL -t 1` (the
# issue's anchor) and `triage pidstat -u -r -d -w -R -p ALL -t 1` (the same
# files record reads: io and status too) in the same run, with 2,000 extra sleeping threads on the machine
# (tests/workloads/pidstat_sleepers). Not a test.
#
#   bench/record.sh          (uses build/triage; run `make` first)
#   BENCH_SECONDS=60 bench/record.sh
#
# Both run side by side for BENCH_SECONDS after a 3 s warm-up; per tool:
#   CPU ms/s   user+sys ticks over the run (/proc/PID/stat) per wall second
#   RSS MiB    VmRSS at the end
# plus the ratio record/pidstat (the issue's goal: <= 1) and the file's
# growth (MB per hour at this interval and thread count). The table is
# written into docs/performance.md through bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SECONDS_RUN=${BENCH_SECONDS:-30}
bench_need make "$TRIAGE" "$SLEEPERS"
bench_scratch record

start_sleepers 2000 600
threads=$(count_tasks)

"$TRIAGE" record -o "$TMP/r.db" -i 1 2>/dev/null &
rec=$!
bench_started "$rec"
"$TRIAGE" pidstat -p ALL -t 1 >/dev/null 2>&1 &
ps=$!
bench_started "$ps"
"$TRIAGE" pidstat -u -r -d -w -R -p ALL -t 1 >/dev/null 2>&1 &
pa=$!
bench_started "$pa"
sleep 3
r0=$(ticks "$rec") p0=$(ticks "$ps") a0=$(ticks "$pa") n0=$(sqlite3 "$TMP/r.db" 'SELECT count(*) FROM interval')
s0=$(sqlite3 "$TMP/r.db" 'PRAGMA page_count')
w0=$(date +%s.%N)
sleep "$SECONDS_RUN"
r1=$(ticks "$rec") p1=$(ticks "$ps") a1=$(ticks "$pa") n1=$(sqlite3 "$TMP/r.db" 'SELECT count(*) FROM interval')
s1=$(sqlite3 "$TMP/r.db" 'PRAGMA page_count')
psz=$(sqlite3 "$TMP/r.db" 'PRAGMA page_size')
wall=$(awk -v a="$w0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
rows=$(sqlite3 "$TMP/r.db" 'SELECT count(*) FROM sample WHERE iv = (SELECT max(id) FROM interval)')
rms=$(ticks_ms_per "$r0" "$r1" "$wall")
pms=$(ticks_ms_per "$p0" "$p1" "$wall")
ams=$(ticks_ms_per "$a0" "$a1" "$wall")
ratio() { awk -v r="$1" -v p="$2" 'BEGIN { printf "%.2f", (p > 0 ? r / p : 0) }'; }
mbh=$(awk -v a="$s0" -v b="$s1" -v ps="$psz" -v n="$((n1 - n0))" \
	'BEGIN { printf "%.0f", (n > 0 ? (b - a) * ps / n * 3600 / 1048576 : 0) }')
{
	echo "## record: triage record vs triage pidstat live"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the end;"
	echo "2,000 extra sleeping threads ($threads tasks in all, $rows task rows an interval);"
	echo "all three at 1 s side by side for $(printf %.0f "$wall") s (bench/record.sh). record reads what"
	echo "\`pidstat -p ALL -t\` reads (the same core) plus the host, and writes every task's"
	echo "counters in one SQLite transaction per interval; every 10 s the report's rules run"
	echo "over the window. File growth: $mbh MB an hour at this thread count (WAL, incremental vacuum)."
	echo
	echo "| tool | CPU ms/s | RSS MiB | record / this |"
	echo "|---|---|---|---|"
	echo "| triage pidstat -p ALL -t 1 | $pms | $(rss_mib "$ps") | $(ratio "$rms" "$pms") |"
	echo "| triage pidstat -u -r -d -w -R -p ALL -t 1 (the files record reads) | $ams | $(rss_mib "$pa") | $(ratio "$rms" "$ams") |"
	echo "| triage record -i 1 | $rms | $(rss_mib "$rec") | 1.00 |"
} >"$TMP/table"
cat "$TMP/table"
bench_write_section record "$TMP/table"
