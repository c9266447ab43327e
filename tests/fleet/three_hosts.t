#!/usr/bin/env bash
# test: shared -- judges only what it made: its three hosts (own PID, mount, network, UTS namespaces), its mount, its hog, its own Prometheus, Alertmanager and carbon on claimed ports and a claimed subnet; built to hold on a loaded machine
# Three hosts (tests/fleet/lib.sh: a collector each in its own PID, mount,
# network and UTS namespaces), a real Prometheus with the shipped rules, a
# real Alertmanager with a recording webhook, carbon-cache and graphite-web.
# A full filesystem made inside host 2 must be host 2's alone: in
# Prometheus's series, in the alerts Alertmanager sent, and in Graphite;
# a spinner in host 1 is a process of host 1 only;
# then host 3's collector, killed, must be a host that stopped reporting.
# Oracles: the kernel's statvfs of the tmpfs inside host 2 (`stat -f`:
# no block free), and findmnt inside hosts 1 and 3 (no such mount there);
# for the dead host, the kernel's word that the collector is gone (its
# /proc/PID/stat: a zombie or no process).
. "$SRC/tests/fleet/lib.sh" three_hosts
fleet_start
fleet_fill_fs 2
free=$(fleet_in 2 stat -f -c %a "$fleet_mnt") || fail "stat -f in host 2"
[ "$free" = 0 ] || fail "host 2's tmpfs still has $free blocks free"
for n in 1 3; do
	! fleet_in "$n" findmnt "$fleet_mnt" >/dev/null || fail "host $n sees host 2's mount"
done

# Prometheus: the finding for that mount comes from host 2, and only there
sel="triage_report_finding_severity{rule=\"filesystem-full\",subject=\"$fleet_mnt\"}"
prom_wait "$sel" 'length >= 1' 20 || fail "no filesystem-full finding for $fleet_mnt: $(prom_query \
	'triage_report_finding_severity')"
ans=$(prom_get "$sel" 30)
got=$(jq -r '[.data.result[].metric.host] | sort | join(",")' <<<"$ans")
[ "$got" = host2 ] || fail "the finding for $fleet_mnt came from '$got', not host2 alone"
crit=$(jq -r '.data.result[0].value[1]' <<<"$ans")
[ "$crit" = 3 ] || fail "a full filesystem (0 blocks free) should be critical (3), got $crit"
# (waited for too: a scrape that failed on a loaded machine marks every
# series of that host stale until the next one succeeds)
info_sel="triage_report_finding_info{rule=\"filesystem-full\",subject=\"$fleet_mnt\"}"
info=$(prom_get "$info_sel" 30 | jq -r '.data.result[0].metric.next // empty')
[[ "$info" == *"$fleet_mnt"* ]] || fail "the finding's next command does not name the mount: '$info'"
# the fleet's recording rule counts one host with it (here, with this subject)
prom_wait "rule:triage_report_finding_severity:hosts{rule=\"filesystem-full\"}" 'length == 1' 10 ||
	fail "no fleet count for filesystem-full"

fleet_note "Prometheus has the finding"
# Alertmanager: the critical alert for host 2, its words read from the info series
amsel=".labels.alertname == \"TriageFilesystemFullCritical\" and .labels.subject == \"$fleet_mnt\""
fleet_alerts_wait "$amsel and .status == \"firing\"" 20 ||
	fail "Alertmanager sent no TriageFilesystemFullCritical for $fleet_mnt: $(head -c 2000 "$work/alerts.jsonl")"
hosts=$(fleet_alerts | jq -r "select($amsel) | .labels.host" | sort -u | paste -sd,)
[ "$hosts" = host2 ] || fail "filesystem-full alerts for $fleet_mnt from '$hosts'"
a=$(fleet_alerts | jq -c "select($amsel)" | head -1)
jq -e --arg m "$fleet_mnt" '(.annotations.sentence | contains($m) and contains("100%")) and
	(.annotations.next | contains($m)) and .labels.severity == "critical"' <<<"$a" >/dev/null ||
	fail "the alert lacks the finding's sentence or next command: $a"

fleet_note "Alertmanager sent the alert"
# Graphite: host 2's prefix (its own host name) holds the finding, 3 = critical
# (carbon creates a new series' whisper file from its cache when its writer
# gets to it, later on a loaded machine: wait for it up to 30 s)
g=$(graphite_render "triage.*.report.finding.filesystem-full.*full$$*")
for ((i = 0; i < 150; i++)); do
	jq -e '[.[].datapoints[][0] | select(. != null)] | length > 0' <<<"$g" >/dev/null && break
	sleep 0.2
	g=$(graphite_render "triage.*.report.finding.filesystem-full.*full$$*")
done
targets=$(jq -r '[.[].target | split(".")[1]] | sort | unique | join(",")' <<<"$g")
[ "$targets" = host2 ] || fail "Graphite has the finding under '$targets', not host2 alone: $g"
last=$(jq -r '[.[0].datapoints[][0] | select(. != null)] | last' <<<"$g")
[ "$last" = 3 ] || fail "Graphite's last point for the finding is $last, not 3"

fleet_note "Graphite has the finding"
# triage fleet names the same finding on host 2 alone, from either store
fp=$("$TRIAGE" fleet --prometheus "$fleet_prom" --host-label host -i 1 --json) ||
	fail "triage fleet --prometheus exited $?"
jq -e --arg m "$fleet_mnt" '[.findings[] | select(.kind == "filesystem-full") | .entries[]
	| select(.subject == $m) | .host] == ["host2"] and .hosts == 3' <<<"$fp" >/dev/null ||
	fail "triage fleet (Prometheus) does not name $fleet_mnt on host2 alone: $fp"
fg=$("$TRIAGE" fleet --graphite "$fleet_graphite" --prefix 'triage.*' -i 1 --json) ||
	fail "triage fleet --graphite exited $?"
jq -e '[.findings[] | select(.kind == "filesystem-full") | .entries[]
	| select(.severity == "critical") | .host] == ["host2"]' <<<"$fg" >/dev/null ||
	fail "triage fleet (Graphite) does not name a critical filesystem-full on host2 alone: $fg"
fleet_note "triage fleet names it, both stores"
# a process of host 1 is host 1's alone: a spinner there is a group of
# host 1's collector only (its own PID namespace and /proc)
# (a readiness wait: collector, scrape and query each take their turn on
# a loaded machine; in the soak's pool at load 20 ten seconds were too few)
fleet_hog 1 600
prom_wait 'triage_process_cpu_seconds_total{group="fleethog",mode="user"} > 0' 'length >= 1' 60 ||
	fail "no CPU seconds for host 1's fleethog: $(prom_query 'triage_process_procs')"
got=$(prom_query 'triage_process_procs{group="fleethog"}' | jq -r '[.data.result[].metric.host] | sort | join(",")')
[ "$got" = host1 ] || fail "fleethog seen on '$got', not host1 alone"
kill -9 "$fleet_hog_pid"
fleet_note "the hog seen on host 1 only"

# host 3 stops reporting: its collector killed, Prometheus sees up == 0 and
# the silent-host alert reaches the webhook; hosts 1 and 2 stay up
fleet_kill_collector 3 || fail "host 3's collector survived SIGKILL"
prom_wait "up{job=\"triage\",host=\"host3\"} == 0" 'length == 1' 10 ||
	fail "Prometheus still sees host 3 up: $(prom_query up)"
fleet_alerts_wait '.labels.alertname == "TriageHostDown" and .labels.host == "host3"' 20 ||
	fail "no TriageHostDown for host 3: $(fleet_alerts | jq -c .labels | tail -5)"
fleet_note "host 3 down alerted"
fp=$("$TRIAGE" fleet --prometheus "$fleet_prom" --host-label host -i 1 --json) ||
	fail "triage fleet --prometheus exited $?"
jq -e '.findings[0].kind == "stopped-reporting" and
	any(.findings[0].entries[]; .host == "host3" and .up_zero)' <<<"$fp" >/dev/null ||
	fail "triage fleet does not show host3 as stopped reporting first: $fp"
# Hosts 1 and 2 report on. (Not "were never alerted down": on a machine
# loaded enough, a live collector can miss the 1 s scrape timeout for the
# 3 s the test's rules wait, and that alert would be right.)
prom_wait 'up{job="triage",host=~"host1|host2"} == 1' 'length == 2' 10 ||
	fail "hosts 1 and 2 do not report: $(prom_query up)"
prom_wait "job:triage_hosts_reporting:count" ".[0].value[1] == \"$((FLEET_N - 1))\"" 10 ||
	fail "the fleet does not count $((FLEET_N - 1)) hosts reporting"
echo "ok: filesystem-full on host2 only (Prometheus, Alertmanager, Graphite); a hog on host1 only;" \
	"host3 down alerted;" \
	"$(awk -v a="$fleet_t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
