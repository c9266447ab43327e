#!/usr/bin/env bash
# triage fleet against a real Prometheus (Debian prometheus, 1 s scrapes)
# scraping three real collectors on loopback, named host-a, host-b and
# host-c by their instance label. host-a watches a CPU spinner, host-b a
# sleeper under a hostile name, host-c is killed mid-run.
# Oracles: the kernel's CPU seconds of the spinner (/proc/PID/stat) for
# the figure fleet prints; which process each collector was given (-p)
# for which host has which finding; Prometheus' own up series and the
# times this script killed things for "stopped reporting" and the spans.
. "$SRC/tests/collect/lib.sh" fleet-prom
command -v prometheus >/dev/null || skip "prometheus missing (apt-get install prometheus)"
command -v jq >/dev/null || skip "jq missing"

pa=$(free_port) pb=$(free_port) pc=$(free_port) pp=$(free_port)
hog=fhog$$
hog=${hog:0:15}
named "$hog" spin 120
hogpid=$wpid
# a name that tries a terminal escape, a quote and a forged line
evil=$'ev\e[2J"\nx'
named "$evil" sleep 120
evilpid=$wpid
t_start=$(date +%s)
for h in "a $pa $hogpid" "b $pb $evilpid" "c $pc $evilpid"; do
	set -- $h
	"$TRIAGE" collect -i 1 --listen "127.0.0.1:$2" -p "$3" 2>"$work/collect-$1.err" &
	started="$started $!"
	eval "cpid_$1=$!"
done
cat >"$work/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: triage
    static_configs:
      - targets: ['127.0.0.1:$pa']
        labels: {instance: host-a}
      - targets: ['127.0.0.1:$pb']
        labels: {instance: host-b}
      - targets: ['127.0.0.1:$pc']
        labels: {instance: host-c}
CONF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$pp" >"$work/prometheus.out" 2>&1 &
started="$started $!"
wait_port "$pp" 30 || { tail "$work/prometheus.out"; fail "prometheus did not listen"; }
url="http://127.0.0.1:$pp"
query() { curl -s --get "$url/api/v1/query" --data-urlencode "query=$1"; }
fleet() { "$TRIAGE" fleet --prometheus "$url" -i 1 "$@"; }

# until Prometheus holds host-a's finding about the spinner (the collector's
# first window, then a scrape)
for ((i = 0; i < 300; i++)); do
	[ "$(query "count(triage_report_finding_severity{rule=\"cpu-bound-user\",subject=\"$hog\"})" |
		jq -r '.data.result[0].value[1] // 0')" = 1 ] && break
	sleep 0.1
done
[ $i -lt 300 ] || fail "no cpu-bound-user for $hog in Prometheus: $(query up)"

# the figure: the kernel's count of the spinner's CPU over the 2 s before
# the view, against the collector's last 1 s window (a steady spinner:
# 20 points apart at most on this shared machine)
c0=$(cpu_seconds "$hogpid") t0=$(date +%s.%N)
sleep 2
c1=$(cpu_seconds "$hogpid") t1=$(date +%s.%N)
fleet --json >"$work/now.json" || fail "fleet exited $?"
fleet >"$work/now.txt" || fail "fleet (plain) exited $?"
want=$(awk -v a="$c0" -v b="$c1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", 100 * (b - a) / (e - s) }')
jq -e '.hosts == 3 and .hosts_stopped == 0' "$work/now.json" >/dev/null ||
	fail "hosts: $(jq -c '{hosts, hosts_stopped}' "$work/now.json")"
got=$(jq -r --arg s "$hog" '.findings[] | select(.kind == "cpu-bound-user") | .entries[] |
	select(.subject == $s) | "\(.host) \(.value)"' "$work/now.json")
[ "$(echo "$got" | wc -l)" = 1 ] && [ "${got% *}" = host-a ] ||
	fail "cpu-bound-user for $hog: '$got' (only host-a runs it)"
awk -v g="${got#* }" -v w="$want" 'BEGIN { d = g - w; exit !(d <= 20 && d >= -20) }' ||
	fail "fleet says $hog used ${got#* }% on host-a, the kernel $want%"
grep -qF "$hog on host-a (" "$work/now.txt" || fail "plain: no '$hog on host-a': $(cat "$work/now.txt")"
grep -qF "next on host-a: triage probe profile -p \"\$(pgrep -xo $hog)\" -d 10" "$work/now.txt" ||
	fail "plain: no next command for host-a: $(cat "$work/now.txt")"
# the hostile name: never an escape on the terminal, never a line of its own
! grep -q $'\e' "$work/now.txt" || fail "an escape byte reached the plain output"
! grep -q '^x' "$work/now.txt" || fail "a process name forged a line"

# host-c's collector killed: Prometheus' up goes 0, fleet names it stopped
t_kill=$(date +%s.%N)
kill -9 "$cpid_c"
for ((i = 0; i < 100; i++)); do
	[ "$(query 'up{instance="host-c"}' | jq -r '.data.result[0].value[1] // empty')" = 0 ] && break
	sleep 0.1
done
[ $i -lt 100 ] || fail "Prometheus never saw host-c down"
fleet --json >"$work/stopped.json" || fail "fleet exited $?"
jq -e '.hosts == 3 and .hosts_stopped == 1 and
	(.findings[0].kind == "stopped-reporting") and
	([.findings[0].entries[].host] == ["host-c"]) and .findings[0].entries[0].up_zero' \
	"$work/stopped.json" >/dev/null || fail "stopped: $(jq -c . "$work/stopped.json")"
fleet | grep -q '^critical stopped-reporting on 1 of 3 hosts: host-c (' ||
	fail "plain: $(fleet)"

# the spinner stopped: over the range, its finding ends when it did, and
# host-c's gap starts when it was killed
t_hog=$(date +%s.%N)
kill -9 "$hogpid"
sleep 3
fleet --json --from "@$t_start" >"$work/range.json" || fail "fleet --from exited $?"
span=$(jq -r --arg s "$hog" '.findings[] | select(.kind == "cpu-bound-user") | .entries[] |
	select(.subject == $s and .host == "host-a") | .spans[-1] | "\(.end) \(.open)"' "$work/range.json")
[ -n "$span" ] || fail "range: no span for $hog: $(jq -c . "$work/range.json")"
awk -v e="${span% *}" -v k="$t_hog" 'BEGIN { exit !(e <= k + 1 && e >= k - 3) }' && [ "${span#* }" = false ] ||
	fail "range: $hog's finding ended at $span, the spinner was killed at $t_hog"
gap=$(jq -r '.findings[] | select(.kind == "stopped-reporting") | .entries[] |
	select(.host == "host-c") | .spans[0].start' "$work/range.json")
awk -v s="$gap" -v k="$t_kill" 'BEGIN { exit !(s != "" && s <= k + 0.5 && s >= k - 2.5) }' ||
	fail "range: host-c stopped at '$gap', killed at $t_kill"

# usage and an unreachable store: one line each, documented statuses
"$TRIAGE" fleet >/dev/null 2>"$work/err"
[ $? = 2 ] && [ "$(wc -l <"$work/err")" = 2 ] || fail "no store: $(cat "$work/err")"
"$TRIAGE" fleet --prometheus "http://127.0.0.1:$pc" >/dev/null 2>"$work/err"
[ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] || fail "closed port: $(cat "$work/err")"
echo "ok: $hog on host-a only at ${got#* }% (kernel $want%); host-c stopped (up 0) $gap after kill $t_kill; span end ${span% *} vs kill $t_hog"
