#!/usr/bin/env bash
# Benchmark: `triage fleet` over 1,000 simulated hosts in a real Prometheus
# (issue 29's goal: within 2 s and 50 MB). Not a test.
#
#   bench/fleet.sh            (uses build/triage; run `make` first)
#   BENCH_HOSTS=5000 BENCH_RUNS=3 bench/fleet.sh
#
# The hosts' series are what `triage collect` exports, written as
# OpenMetrics for the hour before now at a 15 s scrape interval and turned
# into TSDB blocks by `promtool tsdb create-blocks-from openmetrics`:
# triage_report_findings{severity} for every host; 15% of the hosts run a
# cpu-bound-user relay (severity and figure), 5% have disk-saturated, 2%
# memory-pressure, and 1% stop reporting 20 minutes before the end (up 0).
# Prometheus then serves those blocks, its query log on. Measured, median
# of BENCH_RUNS, for `triage fleet --at END` and `--from END-1h --to END`:
#   fleet: wall s and max RSS;
#   Prometheus: the execTotalTime its query log gives for fleet's queries
#     of one run, summed (what the store itself spends on the answer);
#   curl: the same requests fleet made (read back from the query log),
#     fetched by one curl one after the other (gzip, as fleet asks): what
#     a client asking those questions waits; fleet / curl is fleet's own
#     share (JSON, analysis, and the later questions waiting for the
#     earlier answers);
#   before: curl fetching the queries fleet asked before they were
#     redesigned (each host's last sample by a timestamp() subquery at
#     every interval over the hour, and over a range present_over_time of
#     the hour at every step): what the redesign saves, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
HOSTS=${BENCH_HOSTS:-1000}
RUNS=${BENCH_RUNS:-5}
bench_need "make; apt-get install prometheus" "$TRIAGE" prometheus promtool /usr/bin/curl /usr/bin/time
bench_scratch fleet
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

end=$(($(date +%s) / 15 * 15 - 60))
start=$((end - 3600))
python3 - "$HOSTS" "$start" "$end" >"$TMP/fleet.om" <<'PY'
import sys
hosts, start, end = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
steps = range(start, end + 1, 15)
stop_at = end - 1200
def series(name, labels, fn):
    for t in steps:
        v = fn(t)
        if v is not None:
            out.append(f'{name}{{{labels}}} {v} {t}\n')
def host_series(h):
    inst = f'instance="host-{h:04d}",job="triage"'
    stopped = h % 100 == 7
    alive = lambda t: not stopped or t < stop_at
    series("up", inst, lambda t: 1 if alive(t) else 0)
    for sev in ("critical", "warning", "info"):
        series("triage_report_findings", f'{inst},severity="{sev}"',
               lambda t: (1 if sev == "warning" and h % 100 < 15 else 0) if alive(t) else None)
    if h % 100 < 15:
        lab = f'{inst},rule="cpu-bound-user",subject="carbon-relay"'
        series("triage_report_finding_severity", lab, lambda t: 2 if alive(t) else None)
        series("triage_report_finding_value", lab, lambda t: 80 + h % 20 if alive(t) else None)
    if 20 <= h % 100 < 25:
        lab = f'{inst},rule="disk-saturated",subject="sda"'
        # the second half-hour only: the range view has spans to find
        series("triage_report_finding_severity", lab, lambda t: 2 if t >= start + 1800 else None)
        series("triage_report_finding_value", lab, lambda t: 97 if t >= start + 1800 else None)
    if 30 <= h % 100 < 32:
        lab = f'{inst},rule="memory-pressure",subject="host"'
        series("triage_report_finding_severity", lab, lambda t: 3)
        series("triage_report_finding_value", lab, lambda t: 40)
out = []
for name, typ in (("up", "gauge"), ("triage_report_findings", "gauge"),
                  ("triage_report_finding_severity", "gauge"), ("triage_report_finding_value", "gauge")):
    pass
sys.stdout.write("# TYPE up gauge\n# TYPE triage_report_findings gauge\n"
                 "# TYPE triage_report_finding_severity gauge\n# TYPE triage_report_finding_value gauge\n")
# OpenMetrics wants a metric family's samples together
fams = {}
for h in range(hosts):
    out = []
    host_series(h)
    for line in out:
        fams.setdefault(line.split("{", 1)[0], []).append(line)
for name in ("up", "triage_report_findings", "triage_report_finding_severity", "triage_report_finding_value"):
    sys.stdout.writelines(fams.get(name, []))
sys.stdout.write("# EOF\n")
PY
samples=$(grep -vc '^#' "$TMP/fleet.om")
promtool tsdb create-blocks-from openmetrics "$TMP/fleet.om" "$TMP/data" >"$TMP/promtool.out" 2>&1 ||
	{ tail "$TMP/promtool.out"; exit 1; }
pp=$(port)
printf 'global:\n  query_log_file: %s\n' "$TMP/query.log" >"$TMP/prometheus.yml"
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
	--storage.tsdb.retention.time=10y --web.listen-address="127.0.0.1:$pp" \
	>"$TMP/prometheus.out" 2>&1 &
bench_started $!
url="http://127.0.0.1:$pp"
for _ in $(seq 300); do curl -sf "$url/-/ready" >/dev/null && break; sleep 0.2; done

# median of RUNS: "wall_s maxrss_kB"
measure() {
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %M' -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" || {
			cat "$TMP/err" >&2
			exit 1
		}
		cat "$TMP/time"
	done | sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'
}
# the query log's lines once it holds N (Prometheus writes each after answering)
log_lines() {
	for _ in $(seq 50); do
		[ "$(wc -l <"$TMP/query.log")" -ge "$1" ] && break
		sleep 0.1
	done
	cat "$TMP/query.log"
}
# the requests of a query log as URL paths, one a line
requests() {
	jq -r --arg u "$url" '"\($u)\(.httpRequest.path)?" + ({query: .params.query} +
		(if .httpRequest.path | endswith("query_range")
		 then {start: .params.start, end: .params.end, step: (.params.step | tostring)}
		 else {time: .params.end} end) | to_entries | map("\(.key)=\(.value | @uri)") | join("&"))'
}
# one curl fetching every URL of a file in turn over one connection, as fleet does
curl_all() {
	sed 's/.*/url = "&"\noutput = "\/dev\/null"/' "$1" >"$1.curlrc"
	curl -sf --compressed -K "$1.curlrc"
}
# view NAME ARGS...: fleet's row values "fleet_s rss_kB|prom_s|curl_s rss_kB" for one view
view() {
	local name=$1 n
	shift
	: >"$TMP/query.log"
	"$TRIAGE" fleet --prometheus "$url" -i 15 "$@" >"$TMP/$name.txt"
	sleep 0.3
	n=$(wc -l <"$TMP/query.log")
	log_lines "$n" | requests >"$TMP/$name.urls"
	: >"$TMP/query.log"
	f=$(measure "$TRIAGE" fleet --prometheus "$url" -i 15 "$@")
	# Prometheus' own time: each run's n queries summed, the median run
	p=$(log_lines $((n * RUNS)) | jq -r '.stats.timings.execTotalTime' |
		awk -v n="$n" '{ s += $1 } NR % n == 0 { print s; s = 0 }' | sort -n |
		awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
	c=$(measure bash -c "$(declare -f curl_all); curl_all $TMP/$name.urls")
	echo "$f|$p|$c|$n"
}
H=instance
sel='triage_report_findings{severity="critical"}'
enc() { jq -rn --arg q "$1" '$q|@uri'; }
inst=$(view instant --at "@$end")
"$TRIAGE" fleet --prometheus "$url" -i 15 --at "@$end" --json >"$TMP/instant.json"
rng=$(view range --from "@$start" --to "@$end")
"$TRIAGE" fleet --prometheus "$url" -i 15 --from "@$start" --to "@$end" --json >"$TMP/range.json"
r="start=$start&end=$end&step=15"
back=$((3600 + end - start))
{
	for q in 'triage_report_finding_severity{}' 'triage_report_finding_value{}' \
		"max by ($H) (max_over_time(timestamp($sel)[3600s:15000ms]))" 'up{} == 0'; do
		echo "$url/api/v1/query?query=$(enc "$q")&time=$end"
	done
} >"$TMP/before-instant.urls"
{
	for q in 'triage_report_finding_severity{}' 'triage_report_finding_value{}' \
		"group by ($H) (present_over_time($sel[3600s])) unless group by ($H) (present_over_time($sel[30000ms]))"; do
		echo "$url/api/v1/query_range?query=$(enc "$q")&$r"
	done
	echo "$url/api/v1/query?query=$(enc "max by ($H) (max_over_time(timestamp($sel)[${back}s:15000ms]))")&time=$end"
} >"$TMP/before-range.urls"
b_inst=$(measure bash -c "$(declare -f curl_all); curl_all $TMP/before-instant.urls")
b_rng=$(measure bash -c "$(declare -f curl_all); curl_all $TMP/before-range.urls")
row() { # name "fleet|prom|curl|n" before
	awk -v n="$1" -v all="$2" -v b="$3" 'BEGIN { split(all, v, "|"); split(v[1], f, " ");
		split(v[3], c, " "); split(b, x, " ");
		printf "| %s | %d | %.2f | %.1f | %.2f | %.2f | %.2f | %.2f |\n", n, v[4], f[1], f[2] / 1024,
			v[2], c[1], (c[1] > 0 ? f[1] / c[1] : 0), x[1] }'
}
{
	echo "### triage fleet over $HOSTS simulated hosts in Prometheus"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the end;"
	echo "$HOSTS hosts x 1 h at a 15 s scrape interval, $samples samples written with"
	echo "\`promtool tsdb create-blocks-from openmetrics\` (bench/fleet.sh); median of $RUNS runs."
	echo "Prometheus s: its own execTotalTime for fleet's queries of one run (its query log);"
	echo "curl s: the same requests fetched by curl one after the other; fleet / curl: fleet's"
	echo "own share. Before s: curl fetching the queries fleet asked before their redesign."
	echo "Goal: within 2 s and 50 MB."
	echo "The instant view found: $(jq -r '"\(.hosts) hosts, \(.hosts_with_findings) with findings, \(.hosts_stopped) stopped reporting"' "$TMP/instant.json");"
	echo "the range view: $(jq -r '"\(.hosts) hosts, \(.hosts_with_findings) with findings, \(.hosts_stopped) stopped reporting"' "$TMP/range.json")."
	echo
	echo "| view | queries | fleet s | fleet max RSS MiB | Prometheus s | curl s | fleet / curl | before s |"
	echo "|---|---|---|---|---|---|---|---|"
	row "instant (--at)" "$inst" "$b_inst"
	row "range 1 h (--from --to)" "$rng" "$b_rng"
} >"$TMP/table"
cat "$TMP/table"
head -12 "$TMP/instant.txt"
bench_write_section fleet "$TMP/table"
