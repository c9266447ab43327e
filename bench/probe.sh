#!/usr/bin/env bash
# Slowdown of a getppid loop under `triage probe syscalls` against no
# tracing, `strace -c -f` and `perf trace -s`, in interleaved rounds.
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

: >"$RES"
for r in $(seq "$ROUNDS"); do
	echo "round $r/$ROUNDS" >&2
	run_base "$r" >>"$RES"
	run_triage triage "$r" >>"$RES"
	run_triage triage_nolat "$r" --no-latency >>"$RES"
	run_base "$r" >>"$RES"
	run_strace "$r" >>"$RES"
	run_perf "$r" >>"$RES"
done
cat "$RES" >&2

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
    "strace": "`strace -c -f`",
    "perf": "`perf trace -s`",
}
print("## probe\n")
print(f"`bench/probe.sh`: {n:,} raw `getppid()` calls, {rounds} interleaved rounds (base twice per round).")
print("CPU = the traced process's own CPU time per call (`CLOCK_PROCESS_CPUTIME_ID`), the robust figure on")
print("this shared machine; wall time is noisier. Counted = the getppid calls each tool reported (every distinct value over the rounds).\n")
print("| tool | CPU ns/call median (best) | slowdown, CPU median (best) | wall ns/call median | slowdown, wall | added CPU ns/call | getppid counted |")
print("|---|---|---|---|---|---|---|")
for v in ["base", "triage", "triage_nolat", "strace", "perf"]:
    if v not in by:
        continue
    cpus = [c for c, _, _ in by[v]]
    walls = [w for _, w, _ in by[v]]
    counts = sorted({c for _, _, c in by[v]})
    cpu, best, wall = statistics.median(cpus), min(cpus), statistics.median(walls)
    counted = "—" if v == "base" else ", ".join(counts)
    print(f"| {names[v]} | {cpu:.0f} ({best:.0f}) | ×{cpu / base_cpu:.2f} (×{best / base_best:.2f}) "
          f"| {wall:.0f} | ×{wall / base_wall:.2f} | {cpu - base_cpu:+.0f} | {counted} |")
tri = statistics.median(c for c, _, _ in by.get("triage", [(0, 0, 0)]))
print(f"\nThe issue's target, at most ×1.5, was set on a VM where a bare getppid() cost ≈ 1.1 µs of CPU;"
      f" here it costs {base_cpu:.0f} ns, so the same added cost per traced call"
      f" ({tri - base_cpu:+.0f} ns) is a larger ratio. With every other process's syscalls, the"
      f" syscall-tracepoint slow path costs ≈ +0.1 µs while any probe is attached.")
PY
cat "$OUT/table.md"
bench_write_section probe "$OUT/table.md"
