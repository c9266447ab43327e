#!/usr/bin/env bash
# Start-up cost (issue 24): the commands people type, side by side with
# sysstat (and uptime, cat, bpftrace) in one run. Not a test; needs root
# (the bpf door, the probes, kernel.bpf_stats_enabled) and takes about
# 8 minutes.
#
#   bench/startup.sh                 (uses build/triage; run `make` first)
#   BENCH_REPS=10 bench/startup.sh   runs per cell (default 5)
#   BENCH_NO_WRITE=1 bench/startup.sh   print the table, leave docs/ alone
#
# CPU = the whole process's task-clock (perf stat), or, where perf cannot
# count here, its user+sys (getrusage): the median of REPS runs, the two
# sides of each ratio run alternately. Output goes to /dev/null. Written
# into docs/performance.md, section "startup".
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
REPS=${BENCH_REPS:-5}
THREADS=${BENCH_THREADS:-2000}
bench_need "make; scripts/deps.sh bench" "$TRIAGE" "$SYSSTAT" "$SLEEPERS" python3 uptime
bench_scratch startup
STATS_WAS=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo "")
restore() {
	[ -z "$STATS_WAS" ] || echo "$STATS_WAS" >/proc/sys/kernel/bpf_stats_enabled 2>/dev/null || true
}
trap 'bench_cleanup; restore' EXIT
trap 'exit 130' INT TERM

# Each cell is a median over REPS runs, and the two sides of a ratio run
# alternately (A B, then B A, ...), so a burst of other users' work on this
# shared machine lands on both rather than on whichever ran during it.
if perf stat -e task-clock true >/dev/null 2>&1; then
	METHOD="task-clock of the whole process (perf stat), median of $REPS runs, the two sides of a ratio alternating"
	# one_ms CMD...: CPU ms of one run of CMD.
	one_ms() {
		perf stat -x, -o "$TMP/perf" -e task-clock -- "$@" >/dev/null 2>&1 || true
		awk -F, '$3 ~ /^task-clock/ { printf "%.2f\n", $1 }' "$TMP/perf"
	}
else
	METHOD="user+sys of the process (getrusage), median of $REPS runs, the two sides of a ratio alternating (perf cannot count here)"
	one_ms() {
		python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f" % ((r.ru_utime + r.ru_stime) * 1000))
PY
	}
fi
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# cpu_ms CMD...: median CPU ms of REPS runs of CMD.
cpu_ms() {
	local i
	for ((i = 0; i < REPS; i++)); do one_ms "$@"; done | median
}
# pair_ms A... -- B...: "median_A median_B", REPS runs of each, alternating.
pair_ms() {
	local -a a=() b=()
	local i
	while [ "$1" != "--" ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	: >"$TMP/pa"
	: >"$TMP/pb"
	for ((i = 0; i < REPS; i++)); do
		if ((i % 2)); then
			one_ms "${b[@]}" >>"$TMP/pb"
			one_ms "${a[@]}" >>"$TMP/pa"
		else
			one_ms "${a[@]}" >>"$TMP/pa"
			one_ms "${b[@]}" >>"$TMP/pb"
		fi
	done
	echo "$(median <"$TMP/pa") $(median <"$TMP/pb")"
}
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "-" }'; }
# verdict VALUE OP LIMIT: "met" or "not met"
verdict() { awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN {
	ok = (op == "<=") ? v <= l : v < l; print (ok ? "met" : "**not met**") }'; }

# a single-threaded target that sleeps (pidstat -p PID)
sleep 3600 &
TARGET=$!
bench_started "$TARGET"
door_of() { TRIAGE_VERBOSE=1 "$TRIAGE" "$@" 2>&1 >/dev/null | sed -n 's/.*task source: \([a-z]*\).*/\1/p' | head -1; }

rows=$TMP/rows
: >"$rows"
# row LABEL GOAL_RATIO SYSSTAT_CMD -- TRIAGE_CMD: one pidstat cell
pidstat_row() {
	local label=$1 goal=$2 s t d
	shift 2
	local -a scmd=() tcmd=()
	while [ "$1" != "--" ]; do scmd+=("$1"); shift; done
	shift
	tcmd=("$@")
	echo "bench: $label" >&2
	read -r s t < <(pair_ms env LC_ALL=C "${scmd[@]}" -- env LC_ALL=C "${tcmd[@]}")
	d=$(door_of "${tcmd[@]:1}")
	echo "| \`$label\` | $s ms | $t ms ($d) | $(ratio "$t" "$s")× | ≤ $goal× | $(verdict "$(ratio "$t" "$s")" "<=" "$goal") |" >>"$rows"
}

tasks0=$(count_tasks)
pidstat_row "pidstat -p PID 1 1" 1.0 "$SYSSTAT" -p "$TARGET" 1 1 -- "$TRIAGE" pidstat -p "$TARGET" 1 1
pidstat_row "pidstat -p ALL 1 1" 1.0 "$SYSSTAT" -p ALL 1 1 -- "$TRIAGE" pidstat -p ALL 1 1
pidstat_row "pidstat -u -w -p PID 1 5" 1.0 "$SYSSTAT" -u -w -p "$TARGET" 1 5 -- \
	"$TRIAGE" pidstat -u -w -p "$TARGET" 1 5

# the many-threads cell, and its steady state per interval ((1 11 - 1 1) / 10:
# over ten intervals, as a difference of five would be lost in one run's noise)
start_sleepers "$THREADS"
tasks1=$(count_tasks)
OPTS=(-u -w -r -d -t -p ALL)
pidstat_row "pidstat ${OPTS[*]} 1 3, $THREADS extra threads" 0.10 "$SYSSTAT" "${OPTS[@]}" 1 3 -- \
	"$TRIAGE" pidstat "${OPTS[@]}" 1 3
echo "bench: steady state" >&2
read -r s1 t1 < <(pair_ms env LC_ALL=C "$SYSSTAT" "${OPTS[@]}" 1 1 -- \
	env LC_ALL=C "$TRIAGE" pidstat "${OPTS[@]}" 1 1)
read -r s6 t6 < <(pair_ms env LC_ALL=C "$SYSSTAT" "${OPTS[@]}" 1 11 -- \
	env LC_ALL=C "$TRIAGE" pidstat "${OPTS[@]}" 1 11)
sp=$(awk -v a="$s1" -v b="$s6" 'BEGIN { printf "%.2f", (b - a) / 10 }')
tp=$(awk -v a="$t1" -v b="$t6" 'BEGIN { printf "%.2f", (b - a) / 10 }')
echo "| same, per interval in steady state ((\`1 11\` − \`1 1\`) / 10) | $sp ms | $tp ms | $(ratio "$tp" "$sp" 3)× | ≤ 0.02× | $(verdict "$(ratio "$tp" "$sp" 3)" "<=" 0.02) |" >>"$rows"
stop_sleepers

# start-up alone, and the one-shot commands against sysstat's -p ALL 1 1
echo "bench: start-up, load, report" >&2
# beside true (exec and exit, nothing else): on this VM that floor alone
# moves from 2 to 5 ms with the load, so the cell also shows the difference
read -r floor ver < <(pair_ms true -- "$TRIAGE" version)
above=$(awk -v a="$ver" -v b="$floor" 'BEGIN { printf "%.2f", a - b }')
echo "| \`triage version\` (start-up alone) | \`true\` $floor ms | $ver ms ($above ms above \`true\`) | | ≤ 3 ms | $(verdict "$ver" "<=" 3) ($(verdict "$above" "<=" 3) above \`true\`) |" >>"$rows"
up=$(cpu_ms uptime)
cat_la=$(cpu_ms cat /proc/loadavg)
read -r ANCHOR ld < <(pair_ms env LC_ALL=C "$SYSSTAT" -p ALL 1 1 -- "$TRIAGE" load)
echo "| \`triage load\` (one-shot; \`uptime\` $up ms, \`cat /proc/loadavg\` $cat_la ms) | $ANCHOR ms (\`-p ALL 1 1\`) | $ld ms ($(door_of load)) | $(ratio "$ld" "$ANCHOR")× | ≤ 2× | $(verdict "$(ratio "$ld" "$ANCHOR")" "<=" 2) |" >>"$rows"
read -r ANCHOR rep1 < <(pair_ms env LC_ALL=C "$SYSSTAT" -p ALL 1 1 -- \
	"$TRIAGE" report --no-bpf -d 1 --json)
echo "| \`triage report --no-bpf -d 1\` | $ANCHOR ms (\`-p ALL 1 1\`) | $rep1 ms | $(ratio "$rep1" "$ANCHOR")× | ≤ 2× | $(verdict "$(ratio "$rep1" "$ANCHOR")" "<=" 2) |" >>"$rows"

# report -d 10 with its eBPF enrichment: user+sys of the process plus the
# run time of its BPF programs in the kernel. With kernel.bpf_stats_enabled
# the kernel counts each program's run time, and /proc/PID/fdinfo of a
# program's descriptor shows it (prog_id, run_time_ns): polled while the
# report runs, keeping each program's largest value (the programs are
# detached at the window's end, before the report renders, so the last
# polls see their final counts). Not bpftool's per-process filter: that
# needs a bpftool built with its own BPF iterator (Debian's reads 0 here).
bpf_ns=0
bpf_progs=0
if [ -n "$STATS_WAS" ] && echo 1 >/proc/sys/kernel/bpf_stats_enabled 2>/dev/null; then
	/usr/bin/time -f '%U %S' -o "$TMP/rtime" "$TRIAGE" report -d 10 --json >/dev/null 2>&1 &
	rp=$!
	: >"$TMP/progs"
	tp=""
	while kill -0 "$rp" 2>/dev/null; do
		[ -n "$tp" ] || tp=$(pgrep -P "$rp" || true)
		[ -z "$tp" ] || grep -H -E '^(prog_id|run_time_ns):' /proc/"$tp"/fdinfo/* \
			>>"$TMP/progs" 2>/dev/null || true
		sleep 0.2
	done
	wait "$rp" || true
	# "FILE:prog_id:<tab>N", then "FILE:run_time_ns:<tab>NS", per descriptor
	read -r bpf_ns bpf_progs < <(awk -F'[:\t ]+' '
		$2 == "prog_id" { id[$1] = $3 }
		$2 == "run_time_ns" && ($1 in id) { k = id[$1]; if ($3 + 0 > best[k] + 0) best[k] = $3 }
		END { for (k in best) { s += best[k]; n++ } printf "%.0f %d\n", s, n }' "$TMP/progs")
	restore
	rep10=$(awk '{ printf "%.1f", ($1 + $2) * 1000 }' "$TMP/rtime")
else
	rep10=$(cpu_ms "$TRIAGE" report -d 10 --json)
fi
share=$(awk -v u="$rep10" -v k="$bpf_ns" 'BEGIN { printf "%.2f", (u + k / 1e6) / 10000 * 100 }')
echo "| \`triage report -d 10\` with eBPF (process $rep10 ms + its $bpf_progs programs in the kernel $(awk -v k="$bpf_ns" 'BEGIN { printf "%.1f", k / 1e6 }') ms) | — | $share % of one CPU | | ≤ 2 % | $(verdict "$share" "<=" 2) |" >>"$rows"

# what each probe costs to load, attach and run for one second with nothing
# asked of it (report's enrichment starts syscalls, offcpu, runq and profile)
echo "bench: probes" >&2
probe_cells=""
for p in syscalls offcpu runq profile; do
	probe_cells="$probe_cells \`$p\` $(cpu_ms "$TRIAGE" probe "$p" -d 1 --json) ms,"
done
echo "| \`triage probe P -d 1 --json\`, each probe's whole run (load, attach, 1 s, report):${probe_cells%,} | — | | | | |" >>"$rows"

# time from start to the first event: a target calling getppid() every 5 ms
echo "bench: time to first event" >&2
python3 -c 'import os, time
while True:
    os.getppid(); time.sleep(0.005)' &
PY_T=$!
bench_started "$PY_T"
LIBC=$( (ldconfig -p 2>/dev/null || true) | awk '/libc\.so\.6 / { print $NF; exit }')
[ -n "$LIBC" ] || LIBC=/lib/x86_64-linux-gnu/libc.so.6
# first_event_ms OUT CMD...: wall ms until CMD's first stdout line (median of 3)
first_event_ms() {
	local out=$1 i t0 p
	shift
	for i in 1 2 3; do
		: >"$out"
		t0=$(date +%s%N)
		"$@" >"$out" 2>/dev/null &
		p=$!
		while [ ! -s "$out" ] && kill -0 "$p" 2>/dev/null; do sleep 0.005; done
		echo $(( ($(date +%s%N) - t0) / 1000000 ))
		kill -9 "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done | sort -n | sed -n 2p
}
tp_ms=$(first_event_ms "$TMP/probe" "$TRIAGE" probe trace getppid -p "$PY_T" -d 20)
bt_ms="-"
if command -v bpftrace >/dev/null; then
	bt_ms=$(first_event_ms "$TMP/bt" timeout -s KILL 20 bpftrace -e \
		"uprobe:$LIBC:getppid /pid == $PY_T/ { printf(\"hit\\n\"); }")
fi
echo "| time to first event: \`triage probe trace getppid -p PID\` vs \`bpftrace -e 'uprobe:libc:getppid /pid == PID/ {...}'\` | $bt_ms ms (bpftrace) | $tp_ms ms | $(ratio "$tp_ms" "$bt_ms")× | | wall, median of 3 |" >>"$rows"

# --- bpf24 block: the same first event through a syscall tracepoint (what
# probe trace itself attaches to), and probe trace through libbpf's loader
# (the user-space BTF parse the light skeleton removed), alternating ---
if command -v bpftrace >/dev/null; then
	bt_tp_ms=$(first_event_ms "$TMP/bt_tp" timeout -s KILL 20 bpftrace -e \
		"tracepoint:syscalls:sys_enter_getppid /pid == $PY_T/ { printf(\"hit\\n\"); }")
	tp_libbpf_ms=$(first_event_ms "$TMP/probe_libbpf" env TRIAGE_BPF_LOADER=libbpf \
		"$TRIAGE" probe trace getppid -p "$PY_T" -d 20)
	tp2_ms=$(first_event_ms "$TMP/probe2" "$TRIAGE" probe trace getppid -p "$PY_T" -d 20)
	echo "| time to first event: \`triage probe trace getppid -p PID\` vs \`bpftrace -e 'tracepoint:syscalls:sys_enter_getppid /pid == PID/ {...}'\` (libbpf's loader: $tp_libbpf_ms ms) | $bt_tp_ms ms (bpftrace) | $tp2_ms ms | $(ratio "$tp2_ms" "$bt_tp_ms")× | | wall, median of 3 |" >>"$rows"
fi
# --- end of the bpf24 block ---

la=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "## start-up: the commands people type (issue 24)"
	echo
	echo "$(nproc) CPUs, kernel $(uname -r), $(date -u +%F), measured by bench/startup.sh in one"
	echo "run: $METHOD; tasks on the machine $tasks0 ($tasks1 with the"
	echo "extra threads); load average $la at the end (the machine is shared: ratios"
	echo "are within one run). The triage cell names the task door it chose."
	echo
	echo "| command | sysstat / anchor | triage | ratio | goal | |"
	echo "|---|---:|---:|---:|---|---|"
	cat "$rows"
} >"$TMP/table"
cat "$TMP/table"
[ "${BENCH_NO_WRITE:-0}" = 1 ] || bench_write_section startup "$TMP/table"
