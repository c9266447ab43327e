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
TRIAGE=${TRIAGE:-$PWD/build/triage}
SLEEPERS=${SLEEPERS:-$PWD/build/workloads/pidstat_sleepers}
SECONDS_RUN=${BENCH_SECONDS:-20}
PE=${PE:-/usr/bin/prometheus-process-exporter}
NE=${NE:-/usr/bin/prometheus-node-exporter}
for x in "$TRIAGE" "$SLEEPERS" "$PE" "$NE" /usr/bin/curl; do
	[ -x "$x" ] || { echo "bench: $x is missing (make; apt-get install prometheus-process-exporter prometheus-node-exporter)" >&2; exit 1; }
done
work=$(mktemp -d "/tmp/bench-collect.$$.XXXXXX")
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
hz=$(getconf CLK_TCK)
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
rss_mib() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

"$SLEEPERS" 2000 600 >"$work/sleepers" &
pids="$pids $!"
while [ ! -s "$work/sleepers" ]; do sleep 0.1; done

p1=$(port) p2=$(port) p3=$(port)
printf 'process_names:\n  - name: "{{.Comm}}"\n    cmdline: [".+"]\n' >"$work/pe.yml"
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$p1" --top 50 2>/dev/null &
t=$!
pids="$pids $t"
"$PE" -config.path "$work/pe.yml" -web.listen-address "127.0.0.1:$p2" >/dev/null 2>&1 &
pe=$!
pids="$pids $pe"
"$NE" --web.listen-address="127.0.0.1:$p3" >/dev/null 2>&1 &
ne=$!
pids="$pids $ne"
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
		(curl -sf --max-time 20 -o "$work/t.$p" "http://127.0.0.1:$p/metrics" &&
			mv "$work/t.$p" "$work/m.$p") &
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
	echo "cost $(awk '/^triage_collect_sample_cpu_seconds / { printf "%.1f", $2 * 1000 }' "$work/m.$p1") ms of CPU by its own count (triage_collect_sample_cpu_seconds)."
	echo
	echo "| exporter | CPU ms/scrape | CPU ms/s | RSS MiB | series |"
	echo "|---|---|---|---|---|"
	for row in "triage collect -i 1:$t:$p1" "prometheus-process-exporter:$pe:$p2" \
		"prometheus-node-exporter:$ne:$p3"; do
		IFS=: read -r name pid prt <<<"$row"
		ms=$(awk -v a="${c0[$pid]}" -v b="$(ticks "$pid")" -v hz="$hz" -v n="$scrapes" \
			'BEGIN { printf "%.1f", (b - a) * 1000 / hz / n }')
		mss=$(awk -v a="${c0[$pid]}" -v b="$(ticks "$pid")" -v hz="$hz" -v w="$wall" \
			'BEGIN { printf "%.1f", (b - a) * 1000 / hz / w }')
		echo "| $name | $ms | $mss | $(rss_mib "$pid") | $(grep -vc '^#' "$work/m.$prt") |"
	done
} >"$work/table"
cat "$work/table"
bench_write_section collect "$work/table"
