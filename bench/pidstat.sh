#!/usr/bin/env bash
# Benchmark: `triage pidstat -u -w -r -d -t -p ALL 1 N` against sysstat's
# pidstat with the same options, with 2,000 and with 10,000 extra sleeping
# threads on the machine (tests/workloads/pidstat_sleepers). Not a test.
#
#   bench/pidstat.sh            (uses build/triage; run `make` first)
#   BENCH_THREADS="2000" TRIAGE=path bench/pidstat.sh
#
# Per tool and thread count:
#   CPU s/interval   (user+sys of a `1 6` run - user+sys of a `1 1` run) / 5,
#                    from /usr/bin/time; removes start-up, the first snapshot
#                    and the Average (pidstat-spec §12.2)
#   syscalls/int.    strace -c -f total of `1 2` minus that of `1 1`
#   peak RSS         max RSS of the `1 6` run
#   sample gaps      seconds between consecutive timestamps of the `1 6` run
#                    (start-up -> sample 1 -> ... -> sample 6); anything but
#                    1 is a late or skipped sample
# Output goes to a file (as a user redirecting it would). The table is
# written into docs/performance.md through bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
THREADS=${BENCH_THREADS:-"2000 10000"}
OPTS=(-u -w -r -d -t -p ALL)
bench_need "make; scripts/deps.sh bench" "$TRIAGE" "$SYSSTAT" "$SLEEPERS" /usr/bin/time
bench_need "" strace

bench_scratch pidstat
ulimit -u unlimited 2>/dev/null || true
ulimit -s 8192 2>/dev/null || true

# tool_cmd NAME: the command line of a tool, without interval and count.
tool_cmd() {
	case $1 in
	triage) echo "$TRIAGE pidstat ${OPTS[*]}" ;;
	sysstat) echo "$SYSSTAT ${OPTS[*]}" ;;
	esac
}

syscalls() {
	env LC_ALL=C strace -f -c -o "$TMP/strace" "$@" >/dev/null 2>&1
	awk '$NF == "total" { print $4 }' "$TMP/strace"
}

# gaps FILE: seconds between consecutive sample timestamps.
gaps() {
	python3 - "$1" <<'PY'
import re, sys
seen = []
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"(\d\d):(\d\d):(\d\d) ", line)
    if not m:
        continue
    t = int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3])
    # A header line shows the previous sample's time: only the first one
    # (start-up) is kept; data lines carry each sample's own time.
    if "Command" in line and seen:
        continue
    if not seen or seen[-1] != t:
        seen.append(t)
print(" ".join(str((b - a) % 86400) for a, b in zip(seen, seen[1:])) or "-")
PY
}

measure() { # tool -> "cpu_per_interval syscalls_per_interval rss_MB gaps"
	local cmd c1 c6 r6 s1 s2 g
	read -ra cmd <<<"$(tool_cmd "$1")"
	read -r c1 _ < <(cpu_rss "${cmd[@]}" 1 1)
	read -r c6 r6 < <(cpu_rss "${cmd[@]}" 1 6)
	g=$(gaps "$TMP/out")
	s1=$(syscalls "${cmd[@]}" 1 1)
	s2=$(syscalls "${cmd[@]}" 1 2)
	awk -v c1="$c1" -v c6="$c6" -v s1="$s1" -v s2="$s2" -v r="$r6" -v g="$g" \
		'BEGIN { printf "%.3f|%d|%.1f|%s\n", (c6 - c1) / 5, s2 - s1, r / 1024, g }'
}

table=$TMP/table.md
{
	echo "## pidstat: triage vs sysstat 12.6.1"
	echo
	echo "\`pidstat -u -w -r -d -t -p ALL 1 N\`, output to a file, on $(nproc) CPUs"
	echo "($(date -u +%Y-%m-%d), kernel $(uname -r)), measured by bench/pidstat.sh."
	echo "CPU per interval = (run \`1 6\` - run \`1 1\`) / 5 (user+sys); syscalls per"
	echo "interval = strace -c -f of \`1 2\` - \`1 1\`; sample gaps = seconds between"
	echo "consecutive timestamps (start-up, then 6 samples): anything but 1 is late."
	echo "tasks = threads on the machine during that tool's runs (other users' included)."
	echo
	echo "| extra threads | tasks | tool | CPU s/interval | syscalls/interval | peak RSS MB | sample gaps (s) |"
	echo "|---|---|---|---|---|---|---|"
} >"$table"
ratios=()
for n in $THREADS; do
	start_sleepers "$n"
	tasks=$(count_tasks)
	echo "bench: $n sleeping threads ready (pid $(cat "$TMP/ready")), $tasks tasks" >&2
	declare -A res=()
	for tool in sysstat triage; do
		before=$(count_tasks)
		res[$tool]=$(measure "$tool")
		after=$(count_tasks)
		echo "bench: $n $tool tasks $before..$after ${res[$tool]}" >&2
		IFS='|' read -r cpu sc rss g <<<"${res[$tool]}"
		# Differences of two runs only mean something if the machine's
		# task count held still (other users start and stop workloads).
		shown=$before
		if [ $((before - after)) -gt $((before / 20)) ] || [ $((after - before)) -gt $((before / 20)) ]; then
			shown="$before→$after (unstable)"
		fi
		echo "| $n | $shown | $tool | $cpu | $sc | $rss | $g |" >>"$table"
	done
	IFS='|' read -r sc_cpu sc_sc sc_rss _ <<<"${res[sysstat]}"
	IFS='|' read -r tr_cpu tr_sc tr_rss _ <<<"${res[triage]}"
	ratios+=("$(awk -v n="$n" -v a="$tr_cpu" -v b="$sc_cpu" -v c="$tr_sc" -v d="$sc_sc" \
		-v e="$tr_rss" -v f="$sc_rss" 'function r(x, y) { return y > 0 ? sprintf("%.3f", x / y) : "n/a" }
		BEGIN { printf "| %s | %s | %s | %s |", n, r(a, b), r(c, d), r(e, f) }')")
	stop_sleepers
	unset res
done
{
	echo
	echo "Ratios triage / sysstat (target: CPU at most 0.2, no late or skipped samples):"
	echo
	echo "| extra threads | CPU | syscalls | peak RSS |"
	echo "|---|---|---|---|"
	printf '%s\n' "${ratios[@]}"
} >>"$table"
cat "$table"
if [ "${BENCH_NO_WRITE:-0}" != 1 ]; then
	bench_write_section pidstat "$table"
	echo "bench: table written to docs/performance.md (section pidstat)" >&2
fi
