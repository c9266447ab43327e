#!/usr/bin/env bash
# Benchmark: `triage collect -i 1 --listen` against prometheus-process-exporter
# (groups by comm, like ours) and prometheus-node-exporter, in the same run,
# with 2,000 extra sleeping threads on the machine
# (tests/workloads/pidstat_sleepers). Not a test.
#
#   bench/collect.sh          (uses build/triage; run `make` first)
#   BENCH_SECONDS=30 bench/collect.sh
#
# Each exporter listens on a scratch loopback port; this script scrapes all
# three once a second for BENCH_SECONDS after a 3 s warm-up. Per exporter:
#   CPU ms/scrape   (user+sys ticks of the exporter over the run, from
#                   /proc/PID/stat) / scrape rounds
#   CPU ms/s        the same over the run's wall time. Ours samples once an
#                   interval whether scraped or not: this is its whole cost.
#   RSS MiB         VmRSS at the end
#   series          sample lines of the last scrape
# The table is written into docs/performance.md through bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SECONDS_RUN=${BENCH_SECONDS:-20}
PE=${PE:-/usr/bin/prometheus-process-exporter}
NE=${NE:-/usr/bin/prometheus-node-exporter}
bench_need "make; apt-get install prometheus-process-exporter prometheus-node-exporter" \
	"$TRIAGE" "$SLEEPERS" "$PE" "$NE" /usr/bin/curl
bench_scratch collect
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_sleepers 2000 600

p1=$(port) p2=$(port) p3=$(port)
printf 'process_names:\n  - name: "{{.Comm}}"\n    cmdline: [".+"]\n' >"$TMP/pe.yml"
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$p1" --top 50 2>/dev/null &
t=$!
bench_started "$t"
"$PE" -config.path "$TMP/pe.yml" -web.listen-address "127.0.0.1:$p2" >/dev/null 2>&1 &
pe=$!
bench_started "$pe"
"$NE" --web.listen-address="127.0.0.1:$p3" >/dev/null 2>&1 &
ne=$!
bench_started "$ne"
sleep 3
declare -A c0
for x in $t $pe $ne; do c0[$x]=$(ticks "$x"); done
scrapes=0
w0=$(date +%s.%N)
end=$((SECONDS + SECONDS_RUN))
while [ $SECONDS -lt $end ]; do
	cp=""
	for p in $p1 $p2 $p3; do
		# the last scrape that answered is the one counted for series
		(curl -sf --max-time 20 -o "$TMP/t.$p" "http://127.0.0.1:$p/metrics" &&
			mv "$TMP/t.$p" "$TMP/m.$p") &
		cp="$cp $!"
	done
	for c in $cp; do wait "$c" || true; done
	scrapes=$((scrapes + 1))
	sleep 1
done
wall=$(awk -v a="$w0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
{
	echo "### triage collect vs process-exporter and node_exporter"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the end;"
	echo "2,000 extra sleeping threads; $scrapes scrape rounds in $(printf %.0f "$wall") s (bench/collect.sh)."
	echo "triage collect samples once a second whether scraped or not: its CPU ms/s is"
	echo "its whole cost; the exporters work only when scraped (CPU ms/scrape)."
	echo "One triage sample (tasks, host, and the report's rules over the last second)"
	echo "cost $(awk '/^triage_collect_sample_cpu_seconds / { printf "%.1f", $2 * 1000 }' "$TMP/m.$p1") ms of CPU by its own count (triage_collect_sample_cpu_seconds)."
	echo
	echo "| exporter | CPU ms/scrape | CPU ms/s | RSS MiB | series |"
	echo "|---|---|---|---|---|"
	for row in "triage collect -i 1:$t:$p1" "prometheus-process-exporter:$pe:$p2" \
		"prometheus-node-exporter:$ne:$p3"; do
		IFS=: read -r name pid prt <<<"$row"
		c1=$(ticks "$pid")
		ms=$(ticks_ms_per "${c0[$pid]}" "$c1" "$scrapes")
		mss=$(ticks_ms_per "${c0[$pid]}" "$c1" "$wall")
		echo "| $name | $ms | $mss | $(rss_mib "$pid") | $(grep -vc '^#' "$TMP/m.$prt") |"
	done
} >"$TMP/table"
cat "$TMP/table"
bench_write_section collect "$TMP/table"
