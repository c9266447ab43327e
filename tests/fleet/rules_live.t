#!/usr/bin/env bash
# test: shared -- judges only its own collector (-p its own hog) and the alerts promtool computes from that collector's series
# The shipped rules (contrib/prometheus/triage.rules.yml) unit-tested by
# promtool on the series a real collector serves now, not on a capture
# checked in once (triage.rules.test.yml, which can drift from collect):
# a collector watching a process at its descriptor limit (report_fdhog);
# every triage_report_* series on its /metrics becomes an input series of
# one host (the job and instance labels a scrape adds); promtool must fire
# the fd-exhaustion alert of the severity the collector exported, about
# that process on that host, with the finding's sentence and next command
# (the collector's triage_report_finding_info labels) as annotations, and
# no fd-exhaustion alert of the two other severities.
# Oracles: the process this test started and gave -p (the subject); the
# kernel's count of its descriptors and its soft limit (the sentence).
. "$SRC/tests/collect/lib.sh" fleet-rules-live
command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"
rules=$SRC/contrib/prometheus/triage.rules.yml

port=$(free_port)
"$BUILD/workloads/report_fdhog" 256 600 >"$work/fdhog.out" & # killed at exit
started="$started $!"
for ((i = 0; i < 100; i++)); do grep -q ready "$work/fdhog.out" && break; sleep 0.1; done
hogpid=$(awk '$1 == "hog" { print $2 }' "$work/fdhog.out")
[ -n "$hogpid" ] || fail "report_fdhog did not start"
hog=report_fdhog
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$port" -p "$hogpid" 2>"$work/collect.err" &
started="$started $!"
wait_port "$port" 30 || fail "collect did not listen: $(cat "$work/collect.err")"
sel="triage_report_finding_severity{rule=\"fd-exhaustion\",subject=\"$hog\"}"
for ((i = 0; i < 150; i++)); do
	curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" && grep -qF "$sel " "$work/metrics" && break
	sleep 0.2
done
grep -qF "$sel " "$work/metrics" || fail "no fd-exhaustion finding for $hog on /metrics: $(grep ^triage_report "$work/metrics")"
sev=$(awk -v s="$sel" 'index($0, s " ") == 1 { print $2 }' "$work/metrics")
case $sev in
3) want=Critical at=10s ;;
2) want=Warning at=6m ;; # for: 5m
1) want=Info at=16m ;;   # for: 15m
*) fail "fd-exhaustion severity $sev" ;;
esac
# The test file: every triage_report_* series, one sample per 10 s for 20
# minutes; the expected annotations are the info series' own labels. The
# exposition's label values are Go-escaped strings, as a PromQL selector's.
cat >"$work/mk.py" <<'PY'
import json, re, sys
metrics, rules, hog, want, at = sys.argv[1:]
q = lambda s: "'" + s.replace("'", "''") + "'"
out = ["rule_files:", f"  - {rules}", "evaluation_interval: 10s", "tests:", "  - interval: 10s",
       "    input_series:"]
info = None
for line in open(metrics):
    m = re.match(r'(triage_report_[a-z_]+)\{(.*)\} (\S+)$', line.rstrip("\n"))
    if not m:
        continue
    name, lab, value = m.groups()
    labels = dict((k, json.loads('"' + v + '"'))
                  for k, v in re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', lab))
    if (name == "triage_report_finding_info" and labels.get("rule") == "fd-exhaustion"
            and labels.get("subject") == hog):
        info = labels
    out.append("      - series: " + q(name + '{job="triage",instance="host-a",' + lab + "}"))
    out.append(f"        values: '{value}x120'")
out += ["      - series: 'up{job=\"triage\",instance=\"host-a\"}'", "        values: '1x120'",
        "    alert_rule_test:"]
if info is None:
    sys.exit(f"no finding_info for {hog}")
out += [f"      - eval_time: {at}", f"        alertname: TriageFdExhaustion{want}",
        "        exp_alerts:", "          - exp_labels:",
        f"              severity: {want.lower()}", "              resource: processes",
        "              job: triage", "              instance: host-a",
        "              rule: fd-exhaustion", f"              subject: {q(hog)}",
        "            exp_annotations:",
        f"              summary: {q('fd-exhaustion on host-a: ' + hog)}",
        f"              sentence: {q(info['sentence'])}", f"              next: {q(info['next'])}",
        "              doc: 'docs/report.md#kind-fd-exhaustion'"]
for other in ("Critical", "Warning", "Info"):
    if other != want:
        out += ["      - eval_time: 16m", f"        alertname: TriageFdExhaustion{other}",
                "        exp_alerts: []"]
print("\n".join(out))
PY
python3 "$work/mk.py" "$work/metrics" "$rules" "$hog" "$want" "$at" >"$work/test.yml" ||
	fail "cannot make the test file from /metrics"
# the sentence promtool carried is the kernel's: the hog's open descriptors of its soft limit
fds=$(find "/proc/$hogpid/fd" -mindepth 1 | wc -l)
lim=$(awk '/^Max open files/ { print $4 }' "/proc/$hogpid/limits")
grep -qF "sentence: 'PID $hogpid $hog has $fds of $lim descriptors open'" "$work/test.yml" ||
	fail "the kernel says $fds of $lim descriptors: $(grep sentence: "$work/test.yml")"
promtool test rules "$work/test.yml" >"$work/promtool.out" 2>&1 ||
	fail "promtool test rules on the collector's series: $(head -40 "$work/promtool.out")"
echo "ok: promtool fired TriageFdExhaustion$want for $hog on host-a from $(grep -cE '^triage_report_[a-z_]+\{' "$work/metrics") series the collector served"
