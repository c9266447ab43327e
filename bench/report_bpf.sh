#!/usr/bin/env bash
# Benchmark: what triage report -d 10's eBPF enrichment costs, all of it
# counted: the process's user+sys (its start-up, the probes' load, the
# window, the reads, rendering) plus its BPF programs' run time in the
# kernel (kernel.bpf_stats_enabled; each program descriptor's fdinfo
# run_time_ns, polled while the report runs). Not a test; needs root.
#
#   bench/report_bpf.sh                 (uses build/triage; run `make` first)
#   BENCH_RUNS=5 bench/report_bpf.sh    runs per loader (default 3)
#   TRIAGE_OLD=/path/to/old/triage bench/report_bpf.sh
#                                       also an older build, alternating
#
# The two loaders alternate in one run (libbpf, light, libbpf, light...):
# TRIAGE_BPF_LOADER=libbpf is the report's loading before light skeletons
# (libbpf's skeletons, every one parsing /sys/kernel/btf/vmlinux; full
# stacks; the preallocated maps of `triage probe`), the default the light
# skeletons of src/bpf/*_enrich.bpf.o. --no-bpf runs beside them for the
# report's own cost. Medians and ranges; written into docs/performance.md,
# section "report_bpf". Goal (issue 24): at most 2% of one CPU in all.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
RUNS=${BENCH_RUNS:-3}
D=10
bench_need "make" "$TRIAGE" /usr/bin/time
bench_need "" jq
bench_scratch report_bpf
STATS_WAS=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo "")
[ -n "$STATS_WAS" ] || { echo "bench: no kernel.bpf_stats_enabled here" >&2; exit 1; }
restore() { echo "$STATS_WAS" >/proc/sys/kernel/bpf_stats_enabled 2>/dev/null || true; }
trap 'bench_cleanup; restore' EXIT
trap 'exit 130' INT TERM
echo 1 >/proc/sys/kernel/bpf_stats_enabled

# one_run LOADER: "process_ms kernel_ms load_ms" of one report -d 10
# (LOADER light, libbpf or none for --no-bpf; load_ms from -v: the CPU
# the five parts took to start)
one_run() {
	local -a env=() args=(-v)
	local bin=$TRIAGE
	case $1 in
	libbpf) env=(TRIAGE_BPF_LOADER=libbpf) ;;
	old) bin=$TRIAGE_OLD ;;
	none) args=(--no-bpf) ;;
	esac
	env "${env[@]}" /usr/bin/time -f '%U %S' -o "$TMP/time" "$bin" report -d "$D" "${args[@]}" \
		--json >/dev/null 2>"$TMP/err" &
	local rp=$! tp
	: >"$TMP/progs"
	# /usr/bin/time's child is the report: asked again until it has one
	while kill -0 "$rp" 2>/dev/null; do
		tp=$(pgrep -P "$rp" || true)
		[ -z "$tp" ] || grep -H -E '^(prog_id|run_time_ns|run_cnt):' /proc/"$tp"/fdinfo/* \
			>>"$TMP/progs" 2>/dev/null || true
		[ -z "$tp" ] || prog_names
		sleep 0.2
	done
	wait "$rp" || true
	local k load
	k=$(awk -F'[:\t ]+' '
		$2 == "prog_id" { id[$1] = $3 }
		$2 == "run_time_ns" && ($1 in id) { k = id[$1]; if ($3 + 0 > best[k] + 0) best[k] = $3 }
		END { for (k in best) s += best[k]; printf "%.1f\n", s / 1e6 }' "$TMP/progs")
	[ "$1" != light ] || per_prog >>"$TMP/perprog"
	load=$({ grep -o '[0-9.]* ms CPU' "$TMP/err" || true; } | awk '{ s += $1 } END { printf "%.1f\n", s }')
	awk -v k="$k" -v l="$load" '{ printf "%.1f %s %s\n", ($1 + $2) * 1000, k, l }' "$TMP/time"
}

# prog_names: the names of the programs seen in $TMP/progs, once each
# (bpftool asked while they are loaded), into $TMP/names "id name"
prog_names() {
	local id
	for id in $(awk -F'[:\t ]+' '$2 == "prog_id" { print $3 }' "$TMP/progs" | sort -u); do
		grep -q "^$id " "$TMP/names" 2>/dev/null && continue
		bpftool prog show id "$id" --json 2>/dev/null |
			jq -r --arg id "$id" '"\($id) \(.name)"' >>"$TMP/names" || true
	done
}
# per_prog: "name run_cnt run_time_ns" of each program of the last run
# (its largest readings: the counters only grow)
per_prog() {
	awk -F'[:\t ]+' 'FNR == NR { name[$1] = $2; next }
		$2 == "prog_id" { id[$1] = $3 }
		$2 == "run_time_ns" && ($1 in id) { k = id[$1]; if ($3 + 0 > t[k] + 0) t[k] = $3 }
		$2 == "run_cnt" && ($1 in id) { k = id[$1]; if ($3 + 0 > c[k] + 0) c[k] = $3 }
		END { for (k in t) printf "%s %d %d\n", (k in name) ? name[k] : "id" k, c[k], t[k] }' \
		"$TMP/names" "$TMP/progs"
}

: >"$TMP/names"
: >"$TMP/perprog"
LOADERS="libbpf light none"
[ -z "${TRIAGE_OLD:-}" ] || { bench_need "" "$TRIAGE_OLD"; LOADERS="libbpf old light none"; }
for loader in $LOADERS; do : >"$TMP/$loader"; done
for ((i = 0; i < RUNS; i++)); do
	for loader in $LOADERS; do
		one_run "$loader" >>"$TMP/$loader"
		echo "bench: run $((i + 1)) $loader: $(tail -1 "$TMP/$loader")" >&2
	done
done

# stat FILE COLUMN: "median (min-max)"
stat() {
	awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f (%.1f-%.1f)", m, v[1], v[NR] }'
}
# share FILE: "median (min-max)" of (process + kernel) / window, % of one CPU
share() {
	awk -v d="$D" '{ print ($1 + $2) / (d * 10) }' "$1" | sort -n | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'
}
med() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }

table=$TMP/table
{
	echo "## report_bpf: what report -d 10's eBPF enrichment costs (issue 24)"
	echo
	echo "\`triage report -d $D --json\` on $(nproc) CPUs, kernel $(uname -r), $(date -u +%F), measured by"
	echo "bench/report_bpf.sh: $RUNS runs of each, alternating; medians (min-max). Process = user+sys"
	echo "of the whole run; kernel = run time of its BPF programs (kernel.bpf_stats_enabled);"
	echo "load = the CPU its five parts took to start (report -v). The programs' run time follows"
	echo "the machine's activity (system calls, context switches: other users' included);"
	echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
	echo
	echo "| loader | process ms | kernel ms | load ms | % of one CPU (process + kernel) |"
	echo "|---|---:|---:|---:|---:|"
	echo "| libbpf skeletons (before: \`TRIAGE_BPF_LOADER=libbpf\`) | $(stat "$TMP/libbpf" 1) | $(stat "$TMP/libbpf" 2) | $(stat "$TMP/libbpf" 3) | $(share "$TMP/libbpf") |"
	[ -z "${TRIAGE_OLD:-}" ] ||
		echo "| light skeletons, before this change (\`TRIAGE_OLD\`) | $(stat "$TMP/old" 1) | $(stat "$TMP/old" 2) | $(stat "$TMP/old" 3) | $(share "$TMP/old") |"
	echo "| light skeletons (now) | $(stat "$TMP/light" 1) | $(stat "$TMP/light" 2) | $(stat "$TMP/light" 3) | $(share "$TMP/light") |"
	echo "| \`--no-bpf\` (the report alone) | $(stat "$TMP/none" 1) | — | — | $(share "$TMP/none") |"
	echo
	echo "Each program of the light runs (all runs summed: $RUNS windows of $D s): how often it ran,"
	echo "its run time, and per run."
	echo
	echo "| program | runs | ms | ns per run | % of one CPU |"
	echo "|---|---:|---:|---:|---:|"
	awk -v n="$RUNS" -v d="$D" '{ c[$1] += $2; t[$1] += $3 }
		END { for (k in t) printf "| %s | %d | %.1f | %.0f | %.2f |\n", k, c[k], t[k] / 1e6,
			c[k] ? t[k] / c[k] : 0, t[k] / 1e6 / (n * d * 10) }' "$TMP/perprog" | sort -t'|' -k4 -rn
	echo
	[ -z "${TRIAGE_OLD:-}" ] ||
		echo "Now / older build, same run: process $(ratio "$(med "$TMP/light" 1)" "$(med "$TMP/old" 1)")×, kernel $(ratio "$(med "$TMP/light" 2)" "$(med "$TMP/old" 2)")×."
	echo
	echo "Light / libbpf, same run: process $(ratio "$(med "$TMP/light" 1)" "$(med "$TMP/libbpf" 1)")×, kernel $(ratio "$(med "$TMP/light" 2)" "$(med "$TMP/libbpf" 2)")×, load $(ratio "$(med "$TMP/light" 3)" "$(med "$TMP/libbpf" 3)")×. Goal: at most 2% of one CPU."
} >"$table"
cat "$table"
[ "${BENCH_NO_WRITE:-0}" = 1 ] || bench_write_section report_bpf "$table"
