#!/usr/bin/env bash
# Benchmark: `triage record -i 1` against `triage pidstat -p ALL -t 1` (the
# issue's anchor) and `triage pidstat -u -r -d -w -R -p ALL -t 1` (the same
# files record reads: io and status too) in the same run, with 2,000 extra
# sleeping threads on the machine (tests/workloads/pidstat_sleepers). Not a
# test.
#
#   bench/record.sh          (uses build/triage; run `make` first)
#   BENCH_SECONDS=60 BENCH_ROUNDS=5 bench/record.sh
#
# Each round starts the three afresh (record into a new file), lets them
# warm up for 3 s, then measures BENCH_SECONDS (default 30) side by side:
#   CPU ms/s   CPU time of all its threads (their schedstat, in ns) per
#              wall second
#   RSS MiB    VmRSS at the end
# The table has every round's figures and ratios record / other (the
# issue's goal: record / anchor <= 1) and their median, and the file's
# growth (MB per hour at this interval and thread count). It is written
# into docs/performance.md through bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SECONDS_RUN=${BENCH_SECONDS:-30}
ROUNDS=${BENCH_ROUNDS:-3}
bench_need make "$TRIAGE" "$SLEEPERS"
bench_need "apt install sqlite3" sqlite3
bench_scratch record

ratio() { awk -v r="$1" -v p="$2" 'BEGIN { printf "%.2f", (p > 0 ? r / p : 0) }'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

start_sleepers 2000 $(((SECONDS_RUN + 10) * ROUNDS + 60))
threads=$(count_tasks)
rows="" rp_all="" ra_all="" mbh=0 sample_rows=0
for round in $(seq 1 "$ROUNDS"); do
	db="$TMP/r$round.db"
	"$TRIAGE" record -o "$db" -i 1 2>/dev/null &
	rec=$!
	"$TRIAGE" pidstat -p ALL -t 1 >/dev/null 2>&1 &
	ps=$!
	"$TRIAGE" pidstat -u -r -d -w -R -p ALL -t 1 >/dev/null 2>&1 &
	pa=$!
	bench_started "$rec" "$ps" "$pa"
	sleep 3
	r0=$(cpu_ns "$rec") p0=$(cpu_ns "$ps") a0=$(cpu_ns "$pa")
	n0=$(sqlite3 "$db" 'SELECT count(*) FROM interval')
	s0=$(sqlite3 "$db" 'PRAGMA page_count')
	w0=$(date +%s.%N)
	sleep "$SECONDS_RUN"
	r1=$(cpu_ns "$rec") p1=$(cpu_ns "$ps") a1=$(cpu_ns "$pa")
	wall=$(awk -v a="$w0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	rms=$(ns_ms_per "$r0" "$r1" "$wall")
	pms=$(ns_ms_per "$p0" "$p1" "$wall")
	ams=$(ns_ms_per "$a0" "$a1" "$wall")
	rss="$(rss_mib "$rec") / $(rss_mib "$ps") / $(rss_mib "$pa")"
	kill "$rec" "$ps" "$pa"
	wait "$rec" "$ps" "$pa" 2>/dev/null || true
	n1=$(sqlite3 "$db" 'SELECT count(*) FROM interval')
	s1=$(sqlite3 "$db" 'PRAGMA page_count')
	psz=$(sqlite3 "$db" 'PRAGMA page_size')
	sample_rows=$(sqlite3 "$db" 'SELECT ntasks + ncarried FROM interval WHERE id = (SELECT max(id) FROM interval)')
	mbh=$(awk -v a="$s0" -v b="$s1" -v ps="$psz" -v n="$((n1 - n0))" \
		'BEGIN { printf "%.0f", (n > 0 ? (b - a) * ps / n * 3600 / 1048576 : 0) }')
	rp=$(ratio "$rms" "$pms") ra=$(ratio "$rms" "$ams")
	rp_all="$rp_all $rp" ra_all="$ra_all $ra"
	rows="$rows| $round | $rms | $pms | $ams | $rp | $ra | $rss |"$'\n'
	echo "round $round: record $rms, pidstat -p ALL -t $pms, pidstat -u -r -d -w -R -p ALL -t $ams CPU ms/s" >&2
done
{
	echo "## record: triage record vs triage pidstat live"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the end;"
	echo "2,000 extra sleeping threads ($threads tasks in all, $sample_rows task rows an interval);"
	echo "$ROUNDS rounds, each of the three started afresh and measured side by side at 1 s for"
	echo "${SECONDS_RUN} s (bench/record.sh; CPU from every thread's schedstat). record reads what"
	echo "\`pidstat -p ALL -t\` reads (the same core) plus the host, and writes every task's"
	echo "counters in one SQLite transaction per interval; every 10 s the report's rules run"
	echo "over the window. File growth: $mbh MB an hour at this thread count (WAL, incremental vacuum)."
	echo
	echo "| round | record CPU ms/s | \`pidstat -p ALL -t\` (anchor) | \`pidstat -u -r -d -w -R -p ALL -t\` (the files record reads) | record / anchor | record / same files | RSS MiB (record / anchor / same files) |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s' "$rows"
	echo "| median | | | | $(echo "$rp_all" | median) | $(echo "$ra_all" | median) | |"
} >"$TMP/table"
cat "$TMP/table"
bench_write_section record "$TMP/table"
