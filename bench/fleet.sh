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
# Prometheus then serves those blocks. Measured, median of BENCH_RUNS:
#   wall s and max RSS of `triage fleet --at END` (4 queries) and
#   `--from END-1h --to END` (3 range queries and one instant);
#   the anchor: curl fetching the same queries' answers (gzip, as fleet
#   asks) one after the other: what Prometheus itself takes, so the ratio
#   is fleet's own share.
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
prometheus --config.file=/dev/null --storage.tsdb.path="$TMP/data" \
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
anchor() {
	local q
	for q in "$@"; do curl -sf --compressed "$url/api/v1/$q" -o /dev/null; done
}
H=instance
sel='triage_report_findings{severity="critical"}'
inst=$(measure "$TRIAGE" fleet --prometheus "$url" -i 15 --at "@$end")
cp "$TMP/out" "$TMP/instant.txt"
"$TRIAGE" fleet --prometheus "$url" -i 15 --at "@$end" --json >"$TMP/instant.json"
rng=$(measure "$TRIAGE" fleet --prometheus "$url" -i 15 --from "@$start" --to "@$end")
q_inst=("query?query=$(jq -rn --arg q 'triage_report_finding_severity{}' '$q|@uri')&time=$end"
	"query?query=$(jq -rn --arg q 'triage_report_finding_value{}' '$q|@uri')&time=$end"
	"query?query=$(jq -rn --arg q "max by ($H) (max_over_time(timestamp($sel)[3600s:15000ms]))" '$q|@uri')&time=$end"
	"query?query=$(jq -rn --arg q 'up{} == 0' '$q|@uri')&time=$end")
r="start=$start&end=$end&step=15"
back=$((3600 + end - start))
q_rng=("query_range?query=$(jq -rn --arg q 'triage_report_finding_severity{}' '$q|@uri')&$r"
	"query_range?query=$(jq -rn --arg q 'triage_report_finding_value{}' '$q|@uri')&$r"
	"query?query=$(jq -rn --arg q "max by ($H) (max_over_time(timestamp($sel)[${back}s:15000ms]))" '$q|@uri')&time=$end"
	"query_range?query=$(jq -rn --arg q "group by ($H) (present_over_time($sel[3600s])) unless group by ($H) (present_over_time($sel[30000ms]))" '$q|@uri')&$r")
a_inst=$(measure bash -c "$(declare -f anchor); url=$url; anchor ${q_inst[*]@Q}")
a_rng=$(measure bash -c "$(declare -f anchor); url=$url; anchor ${q_rng[*]@Q}")
row() { # name fleet anchor
	awk -v n="$1" -v f="$2" -v a="$3" 'BEGIN { split(f, x, " "); split(a, y, " ");
		printf "| %s | %.2f | %.1f | %.2f | %.1f | %.2f |\n", n, x[1], x[2] / 1024, y[1], y[2] / 1024, (y[1] > 0 ? x[1] / y[1] : 0) }'
}
{
	echo "### triage fleet over $HOSTS simulated hosts in Prometheus"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the end;"
	echo "$HOSTS hosts x 1 h at a 15 s scrape interval, $samples samples written with"
	echo "\`promtool tsdb create-blocks-from openmetrics\` (bench/fleet.sh); median of $RUNS runs."
	echo "The anchor is curl fetching the same answers from Prometheus one after the other;"
	echo "the ratio is triage fleet's wall time over it. Goal: within 2 s and 50 MB."
	echo "The instant view found: $(jq -r '"\(.hosts) hosts, \(.hosts_with_findings) with findings, \(.hosts_stopped) stopped reporting"' "$TMP/instant.json")."
	echo
	echo "| view | fleet s | fleet max RSS MiB | curl s | curl max RSS MiB | ratio |"
	echo "|---|---|---|---|---|---|"
	row "instant (--at)" "$inst" "$a_inst"
	row "range 1 h (--from --to)" "$rng" "$a_rng"
} >"$TMP/table"
cat "$TMP/table"
head -12 "$TMP/instant.txt"
bench_write_section fleet "$TMP/table"
