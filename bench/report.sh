#!/usr/bin/env bash
# Benchmark: the CPU `triage report` itself uses (no eBPF) over its window,
# with 2,000 extra sleeping threads on the machine
# (tests/workloads/pidstat_sleepers). Goal: at most 3% of one CPU (issue 28). Not a test.
#
#   bench/report.sh             (uses build/triage; run `make` first)
#   BENCH_THREADS="2000 10000" BENCH_RUNS=5 bench/report.sh
#
# Per thread count and window (-d 10 and -d 5), BENCH_RUNS runs (default 3):
#   CPU % of one CPU = (user + sys of the whole run, from /usr/bin/time)
#                      / the window's measured seconds (JSON window.seconds)
# The whole run is counted: start-up, the first and last samples, the cgroup
# walk, the kernel log and rendering. The table goes into docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
THREADS=${BENCH_THREADS:-2000}
RUNS=${BENCH_RUNS:-3}
bench_need "make; scripts/deps.sh bench" "$TRIAGE" "$SLEEPERS" /usr/bin/time
bench_need "" jq

bench_scratch report
ulimit -s 8192 2>/dev/null || true

# count_tasks: the kernel's count of threads (/proc/loadavg), not lib.sh's
# /proc walk.
count_tasks() { awk '{ split($4, a, "/"); print a[2] }' /proc/loadavg; }

# one_run SECONDS: prints "cpu_pct window_s samples"
one_run() {
	/usr/bin/time -f '%U %S' -o "$TMP/time" "$TRIAGE" report -d "$1" --no-bpf --json >"$TMP/out.json" 2>/dev/null
	local w
	w=$(jq -r '.window.seconds' "$TMP/out.json")
	awk -v w="$w" '{ printf "%.2f %.2f\n", 100 * ($1 + $2) / w, w }' "$TMP/time"
}

table=$TMP/table
{
	echo "## report: triage report's own CPU over its window"
	echo
	echo "\`triage report -d D --no-bpf --json\` on $(nproc) CPUs ($(date -u +%F), kernel $(uname -r)),"
	echo "measured by bench/report.sh: user+sys of the whole run (start-up, samples,"
	echo "cgroup walk, kernel log, rendering) divided by the window's measured seconds;"
	echo "$RUNS runs each. tasks = threads on the machine (other users' included)."
	echo "Goal: at most 3% of one CPU (issue 28: with every rule of its kinds table), at -d 10."
	echo
	echo "| extra threads | tasks | window s | CPU % of one CPU, each run | max |"
	echo "|---|---|---|---|---|"
} >"$table"
for n in $THREADS; do
	start_sleepers "$n"
	tasks=$(count_tasks)
	echo "bench: $n sleeping threads ready, $tasks tasks" >&2
	for d in 10 5; do
		runs=() max=0
		for _ in $(seq 1 "$RUNS"); do
			read -r pct _ <<<"$(one_run "$d")"
			runs+=("$pct")
			max=$(awk -v a="$max" -v b="$pct" 'BEGIN { print (b > a) ? b : a }')
			echo "bench: $n threads, -d $d: $pct%" >&2
		done
		echo "| $n | $tasks | $d | ${runs[*]} | $max |" >>"$table"
	done
	stop_sleepers
done
cat "$table"
bench_write_section report "$table"
