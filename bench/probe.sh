#!/usr/bin/env bash
# Slowdown of a getppid loop under `triage probe syscalls` against no
# tracing, bpftrace doing the same (counts; counts and latency), `strace -c
# -f` and `perf trace -s`, in interleaved rounds.
# The figure of merit is the traced process's own CPU time per call
# (CLOCK_PROCESS_CPUTIME_ID, printed by the loop): on a shared, busy
# machine it moves far less than wall time. Each traced run also checks
# that the tracer counted every getppid call.
# Usage: bench/probe.sh [ROUNDS] [CALLS]   (defaults 3 and 1000000)
# Writes the "probe" section of docs/performance.md.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${1:-3}
N=${2:-1000000}
BUILD=${BUILD:-build}
TRIAGE=$BUILD/triage
LOOP=$BUILD/workloads/probe_getppid_loop
[ -x "$TRIAGE" ] && [ -x "$LOOP" ] || { echo "run make first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench/probe.sh needs root (BPF)" >&2; exit 3; }
OUT=$(mktemp -d /tmp/triage-bench-probe.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
RES=$OUT/results # variant round cpu_ns wall_ns counted

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$2"; }

run_base() {
	"$LOOP" "$N" >"$OUT/loop" || return 1
	echo "base $1 $(field cpu_ns_per_call "$OUT/loop") $(field wall_ns_per_call "$OUT/loop") -"
}

# The loop waits for SIGUSR1 until the probe has attached to it by pid.
run_triage() { # variant round [probe options]
	local v=$1 r=$2 wpid tpid i
	shift 2
	rm -f "$OUT/ready" "$OUT/err"
	"$LOOP" "$N" "$OUT/ready" >"$OUT/loop" &
	wpid=$!
	for i in $(seq 200); do [ -s "$OUT/ready" ] && break; sleep 0.05; done
	"$TRIAGE" probe syscalls -p "$wpid" --json "$@" >"$OUT/probe.json" 2>"$OUT/err" &
	tpid=$!
	for i in $(seq 400); do grep -q '^Tracing' "$OUT/err" 2>/dev/null && break; sleep 0.05; done
	kill -USR1 "$wpid"
	wait "$wpid"
	wait "$tpid" || { cat "$OUT/err" >&2; return 1; }
	echo "$v $r $(field cpu_ns_per_call "$OUT/loop") $(field wall_ns_per_call "$OUT/loop")" \
		"$(jq -r '[.reports[-1].syscalls[] | select(.name == "getppid") | .count] | add // 0' "$OUT/probe.json")"
}

# The floor: a probe attached to another (idle) process. The loop's calls
# only pay the syscall-tracepoint slow path and a filter that says no.
run_floor() {
	local spid tpid i
	sleep 600 &
	spid=$!
	rm -f "$OUT/err"
	"$TRIAGE" probe syscalls -p "$spid" >/dev/null 2>"$OUT/err" &
	tpid=$!
	for i in $(seq 400); do grep -q '^Tracing' "$OUT/err" 2>/dev/null && break; sleep 0.05; done
	"$LOOP" "$N" >"$OUT/loop"
	kill -INT "$tpid"
	wait "$tpid"
	kill "$spid"
	wait "$spid" 2>/dev/null
	echo "floor $1 $(field cpu_ns_per_call "$OUT/loop") $(field wall_ns_per_call "$OUT/loop") -"
}

run_strace() {
	strace -c -f -o "$OUT/strace" "$LOOP" "$N" >"$OUT/loop" || return 1
	echo "strace $1 $(field cpu_ns_per_call "$OUT/loop") $(field wall_ns_per_call "$OUT/loop")" \
		"$(awk '$NF == "getppid" { print $4 }' "$OUT/strace")"
}

# perf trace mounts tracefs if needed: a private mount namespace keeps that
# mount from leaking into the machine.
run_perf() {
	unshare -m --propagation private perf trace -s -o "$OUT/perf" "$LOOP" "$N" \
		>"$OUT/loop" 2>/dev/null || return 1
	echo "perf $1 $(field cpu_ns_per_call "$OUT/loop") $(field wall_ns_per_call "$OUT/loop")" \
		"$(awk '$1 == "getppid" { print $2 }' "$OUT/perf")"
}

# bpftrace attaches classic tracepoints by name, which needs tracefs: it is
# mounted in a private mount namespace only, so the machine does not change.
# Programs: per-syscall counts of the loop's process (what
# `probe syscalls --no-latency` keeps), and counts plus a latency histogram
# per syscall (what `probe syscalls` keeps).
BT_COUNT='tracepoint:raw_syscalls:sys_enter /pid == $1/ { @n[args->id] = count(); }'
BT_LAT='tracepoint:raw_syscalls:sys_enter /pid == $1/ { @n[args->id] = count(); @t[tid] = nsecs; }
tracepoint:raw_syscalls:sys_exit /@t[tid]/ { @us[args->id] = hist((nsecs - @t[tid]) / 1000); delete(@t[tid]); }'
run_bpftrace() { # variant round program
	local v=$1 r=$2 prog=$3 wpid tpid i
	command -v bpftrace >/dev/null || return 0
	rm -f "$OUT/ready" "$OUT/bt"
	"$LOOP" "$N" "$OUT/ready" >"$OUT/loop" &
	wpid=$!
	for i in $(seq 200); do [ -s "$OUT/ready" ] && break; sleep 0.05; done
	unshare -m --propagation private sh -c 'mount -t tracefs nodev /sys/kernel/tracing &&
		exec bpftrace -e "$0" "$1"' "$prog" "$wpid" >"$OUT/bt" 2>&1 &
	tpid=$!
	for i in $(seq 400); do grep -q '^Attaching' "$OUT/bt" 2>/dev/null && break; sleep 0.05; done
	sleep 0.2
	kill -USR1 "$wpid"
	wait "$wpid"
	kill -INT "$tpid"
	wait "$tpid"
	echo "$v $r $(field cpu_ns_per_call "$OUT/loop") $(field wall_ns_per_call "$OUT/loop")" \
		"$(sed -n 's/^@n\[110\]: \([0-9]*\)$/\1/p' "$OUT/bt" | head -1)"
}

: >"$RES"
for r in $(seq "$ROUNDS"); do
	echo "round $r/$ROUNDS" >&2
	run_base "$r" >>"$RES"
	run_triage triage "$r" >>"$RES"
	run_triage triage_nolat "$r" --no-latency >>"$RES"
	run_floor "$r" >>"$RES"
	run_bpftrace bpftrace_nolat "$r" "$BT_COUNT" >>"$RES"
	run_bpftrace bpftrace "$r" "$BT_LAT" >>"$RES"
	run_base "$r" >>"$RES"
	run_strace "$r" >>"$RES"
	run_perf "$r" >>"$RES"
done
cat "$RES" >&2
mkdir -p bench/out && cp "$RES" bench/out/probe-results.txt # raw rounds, not committed

python3 - "$RES" "$N" "$ROUNDS" >"$OUT/table.md" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
n, rounds = int(sys.argv[2]), sys.argv[3]
by = {}
for v, r, cpu, wall, counted in rows:
    by.setdefault(v, []).append((float(cpu), float(wall), counted))
base_cpu = statistics.median(c for c, _, _ in by["base"])
base_best = min(c for c, _, _ in by["base"])
base_wall = statistics.median(w for _, w, _ in by["base"])
names = {
    "base": "no tracing",
    "triage": "`triage probe syscalls -p PID`",
    "triage_nolat": "`triage probe syscalls -p PID --no-latency`",
    "floor": "floor: a probe attached to another process",
    "bpftrace": "bpftrace: per-syscall counts and latency histograms of the PID",
    "bpftrace_nolat": "bpftrace: per-syscall counts of the PID",
    "strace": "`strace -c -f`",
    "perf": "`perf trace -s`",
}
print("## probe\n")
print(f"`bench/probe.sh`: {n:,} raw `getppid()` calls, {rounds} interleaved rounds (base twice per round).")
print("CPU = the traced process's own CPU time per call (`CLOCK_PROCESS_CPUTIME_ID`), the robust figure on")
print("this shared machine; wall time is noisier. Counted = the getppid calls each tool reported (every distinct value over the rounds).\n")
print("| tool | CPU ns/call median (best) | slowdown, CPU median (best) | wall ns/call median | slowdown, wall | added CPU ns/call | getppid counted |")
print("|---|---|---|---|---|---|---|")
for v in ["base", "triage", "bpftrace", "triage_nolat", "bpftrace_nolat", "floor", "strace", "perf"]:
    if v not in by:
        continue
    cpus = [c for c, _, _ in by[v]]
    walls = [w for _, w, _ in by[v]]
    counts = sorted({c for _, _, c in by[v]})
    cpu, best, wall = statistics.median(cpus), min(cpus), statistics.median(walls)
    counted = "—" if v in ("base", "floor") else ", ".join(counts)
    print(f"| {names[v]} | {cpu:.0f} ({best:.0f}) | ×{cpu / base_cpu:.2f} (×{best / base_best:.2f}) "
          f"| {wall:.0f} | ×{wall / base_wall:.2f} | {cpu - base_cpu:+.0f} | {counted} |")
tri = statistics.median(c for c, _, _ in by.get("triage", [(0, 0, 0)]))
print(f"\nThe issue's target, at most ×1.5, was set on a VM where a bare getppid() cost ≈ 1.1 µs of CPU;"
      f" here it costs {base_cpu:.0f} ns, so the same added cost per traced call"
      f" ({tri - base_cpu:+.0f} ns) is a larger ratio. The floor row is what attaching costs before any"
      f" counting: the syscall-tracepoint slow path plus two BPF programs that return at once. Every"
      f" process pays it while a syscall probe is attached, and it alone exceeds ×1.5 here.")
PY
cat "$OUT/table.md"
bench_write_section probe "$OUT/table.md"
