# Shared helpers for bench/*.sh, sourced from the top of the tree (each
# script does `cd "$(dirname "$0")/.."` first).
# shellcheck shell=bash

# The programs measured; each may be given in the environment.
TRIAGE=${TRIAGE:-$PWD/build/triage}
SLEEPERS=${SLEEPERS:-$PWD/build/workloads/pidstat_sleepers}
SYSSTAT=${SYSSTAT:-/usr/bin/pidstat}

# bench_need HINT PROGRAM...: exits 1 naming the first PROGRAM that is
# missing, with HINT (how to get it) when HINT is not empty. A PROGRAM with
# a slash must be an executable file; a bare name must be found in PATH.
bench_need() {
	local hint=$1 x
	shift
	for x in "$@"; do
		if [[ $x == */* ]]; then
			[ -x "$x" ] && continue
		else
			command -v "$x" >/dev/null && continue
		fi
		echo "bench: $x is missing${hint:+ ($hint)}" >&2
		exit 1
	done
}

# bench_scratch NAME: a scratch directory in $TMP (/tmp/triage-bench-NAME.*).
# On exit, the processes in $BENCH_PIDS (bench_started) and the sleepers
# are killed by PID and waited for, then $TMP is removed.
BENCH_PIDS=""
BENCH_SLEEPER=""
bench_scratch() {
	TMP=$(mktemp -d "/tmp/triage-bench-$1.XXXXXX")
	trap bench_cleanup EXIT
}
bench_cleanup() {
	local p
	for p in $BENCH_PIDS $BENCH_SLEEPER; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$TMP"
}
# bench_started PID...: killed on exit.
bench_started() {
	BENCH_PIDS="$BENCH_PIDS $*"
}

# start_sleepers N [SECONDS]: N extra sleeping threads on the machine
# ($SLEEPERS, for SECONDS, default 3600; killed by stop_sleepers or on
# exit), once all of them are up: the sleepers' PID is then in $TMP/ready.
# Exits 1 if they are not up within 60 s.
start_sleepers() {
	"$SLEEPERS" "$1" "${2:-3600}" >"$TMP/ready" &
	BENCH_SLEEPER=$!
	for _ in $(seq 1 600); do
		[ -s "$TMP/ready" ] && break
		sleep 0.1
	done
	[ -s "$TMP/ready" ] || { echo "bench: $1 sleepers did not start" >&2; exit 1; }
}

stop_sleepers() {
	kill "$BENCH_SLEEPER" 2>/dev/null || true
	wait "$BENCH_SLEEPER" 2>/dev/null || true
	BENCH_SLEEPER=""
}

# count_tasks: the threads on the machine, everyone's (a /proc walk; tasks
# come and go while ls runs: its status does not matter here).
count_tasks() {
	(ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null || true) | wc -l
}

# cpu_rss CMD...: "user+sys maxrss_kB" of one run of CMD in the C locale,
# its output in $TMP/out.
cpu_rss() {
	/usr/bin/time -f '%U %S %M' -o "$TMP/time" env LC_ALL=C "$@" >"$TMP/out" 2>/dev/null
	awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$TMP/time"
}

# ticks PID: user+sys clock ticks of a running PID (/proc/PID/stat).
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
# ticks_ms_per T0 T1 N: the CPU ms of ticks T0 to T1, per N (seconds,
# scrapes...), one decimal.
ticks_ms_per() {
	awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" \
		'BEGIN { printf "%.1f", (b - a) * 1000 / hz / n }'
}
# cpu_ns PID: the CPU time of a running PID's threads in ns, from each
# thread's schedstat (exact, where ticks count in 10 ms steps).
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'
}
# ns_ms_per N0 N1 S: the CPU ms of N0 to N1 (ns), per S seconds, two decimals.
ns_ms_per() {
	awk -v a="$1" -v b="$2" -v s="$3" 'BEGIN { printf "%.2f", (b - a) / 1e6 / s }'
}
# rss_mib PID: VmRSS of PID in MiB, one decimal.
rss_mib() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# bench_write_section NAME FILE: replaces the NAME section of
# docs/performance.md with the contents of FILE.
bench_write_section() {
	local name=$1 file=$2 doc
	doc="$(dirname "${BASH_SOURCE[0]}")/../docs/performance.md"
	python3 - "$doc" "$name" "$file" <<'PY'
import sys, re
doc, name, body = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().rstrip() + "\n"
text = open(doc).read()
begin, end = f"<!-- BEGIN {name} -->\n", f"<!-- END {name} -->"
if begin in text:
    a = text.index(begin) + len(begin)
    b = text.index(end)
    text = text[:a] + body + text[b:]
else:
    text = text.rstrip() + f"\n\n\n{begin}{body}{end}\n"
open(doc, "w").write(text)
PY
}
