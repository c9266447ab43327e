#!/usr/bin/env bash
# test: shared -- judges only its own collectors (-p its hog and sleeper), its own Prometheus on claimed ports, and the times it killed things; built to hold on a loaded machine
# triage fleet against a real Prometheus (Debian prometheus, 1 s scrapes)
# scraping three real collectors on loopback, named host-a, host-b and
# host-c by their instance label. host-a watches a process at its
# descriptor limit (report_fdhog: fd-exhaustion, whatever the machine's
# CPU load), host-b and host-c a sleeper under a hostile name; host-c's
# collector is killed mid-run.
# Oracles: the kernel's count of the hog's descriptors and its soft
# RLIMIT_NOFILE (/proc/PID/fd, /proc/PID/limits) for the figure fleet
# prints; which process each collector was given (-p) for which host has
# which finding; Prometheus' own up series and the times this script
# killed things for "stopped reporting" and the spans.
. "$SRC/tests/collect/lib.sh" fleet-prom
command -v prometheus >/dev/null || skip "prometheus missing (apt-get install prometheus)"
command -v jq >/dev/null || skip "jq missing"

pa=$(free_port) pb=$(free_port) pc=$(free_port) pp=$(free_port)
"$BUILD/workloads/report_fdhog" 256 600 >"$work/fdhog.out" & # killed at exit: outlives a slow run
started="$started $!"
for ((i = 0; i < 100; i++)); do grep -q ready "$work/fdhog.out" && break; sleep 0.1; done
hogpid=$(awk '$1 == "hog" { print $2 }' "$work/fdhog.out")
[ -n "$hogpid" ] || fail "report_fdhog did not start"
hog=report_fdhog
# a name that tries a terminal escape, a quote and a forged line
evil=$'ev\e[2J"\nx'
named "$evil" sleep 600
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

# until Prometheus holds host-a's finding about the hog (the collector's
# first window, then a scrape)
for ((i = 0; i < 300; i++)); do
	[ "$(query "count(triage_report_finding_severity{rule=\"fd-exhaustion\",subject=\"$hog\"})" |
		jq -r '.data.result[0].value[1] // 0')" = 1 ] && break
	sleep 0.1
done
[ $i -lt 300 ] || fail "no fd-exhaustion for $hog in Prometheus: $(query up)"

# the figure: the kernel's count of the hog's descriptors against its limit.
# A view where every host reported within two intervals: on this shared
# machine (load 20-40) a collector or a scrape stalls for seconds at times,
# and a stalled host is (rightly) stopped, its findings not shown; and all
# three collectors scraped (they start in parallel).
for ((i = 0; i < 40; i++)); do
	fleet --json >"$work/now.json" || fail "fleet exited $?"
	jq -e '.hosts == 3 and .hosts_stopped == 0' "$work/now.json" >/dev/null && break
	sleep 0.5
done
fleet >"$work/now.txt" || fail "fleet (plain) exited $?"
fds=$(find "/proc/$hogpid/fd" -mindepth 1 | wc -l)
lim=$(awk '/^Max open files/ { print $4 }' "/proc/$hogpid/limits")
want=$(awk -v f="$fds" -v l="$lim" 'BEGIN { printf "%.2f", 100 * f / l }')
jq -e '.hosts == 3 and .hosts_stopped == 0' "$work/now.json" >/dev/null ||
	fail "hosts: $(jq -c '{hosts, hosts_stopped}' "$work/now.json")"
got=$(jq -r --arg s "$hog" '.findings[] | select(.kind == "fd-exhaustion") | .entries[] |
	select(.subject == $s) | "\(.host) \(.value) \(.severity)"' "$work/now.json")
[ "$(echo "$got" | wc -l)" = 1 ] && [ "${got%% *}" = host-a ] ||
	fail "fd-exhaustion for $hog: '$got' (only host-a watches it)"
read -r _ val sev <<<"$got"
awk -v g="$val" -v w="$want" 'BEGIN { exit !(g - w < 0.01 && w - g < 0.01) }' && [ "$sev" = critical ] ||
	fail "fleet says $hog holds $val% ($sev) of its descriptors, the kernel $fds of $lim"
grep -qF "critical fd-exhaustion on 1 of 3 hosts: $hog on host-a ($(printf %.0f "$want")% of the descriptor limit)" \
	"$work/now.txt" || fail "plain: no '$hog on host-a': $(cat "$work/now.txt")"
grep -qF "next on host-a: ls -l /proc/\"\$(pgrep -xo $hog)\"/fd |" "$work/now.txt" ||
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
# host-c stopped with up 0; on this shared machine another collector or a
# scrape can stall past two intervals too (stopped, but up stays 1)
jq -e '.hosts == 3 and (.findings[0].kind == "stopped-reporting") and
	any(.findings[0].entries[]; .host == "host-c" and .up_zero) and
	all(.findings[0].entries[]; .host == "host-c" or (.up_zero | not))' \
	"$work/stopped.json" >/dev/null || fail "stopped: $(jq -c . "$work/stopped.json")"
fleet | grep -Eq '^critical stopped-reporting on [1-3] of 3 hosts: .*host-c \(last sample [0-9:]+, [0-9]+ s before; up == 0\)' ||
	fail "plain: $(fleet)"
# --match narrows every question, the stopped hosts' (up, last samples) too
fleet --json --match 'instance!="host-c"' >"$work/match.json" || fail "fleet --match exited $?"
jq -e '.hosts == 2 and all(.findings[].entries[]; .host != "host-c")' "$work/match.json" >/dev/null ||
	fail "--match 'instance!=\"host-c\"': $(jq -c . "$work/match.json")"

# the hog gone: over the range, its finding ends when it went, and
# host-c's gap starts when it was killed
t_hog=$(date +%s.%N)
kill -9 "$hogpid"
# its last sample can be 3 s after the kill (below), and a finding whose
# last sample is within two intervals of the range's end is still open:
# the range ends 6 s after the kill
while awk -v k="$t_hog" -v n="$(date +%s.%N)" 'BEGIN { exit !(n < k + 6) }'; do sleep 0.2; done
fleet --json --from "@$t_start" >"$work/range.json" || fail "fleet --from exited $?"
span=$(jq -r --arg s "$hog" '.findings[] | select(.kind == "fd-exhaustion") | .entries[] |
	select(.subject == $s and .host == "host-a") | .spans[-1] | "\(.end) \(.open)"' "$work/range.json")
[ -n "$span" ] || fail "range: no span for $hog: $(jq -c . "$work/range.json")"
# its last window ends at the next whole second (the collector keeps a
# process that exited inside a window), the scrape of it within a second,
# and the range's steps fall on whole seconds: at most 3 s after the kill
awk -v e="${span% *}" -v k="$t_hog" 'BEGIN { exit !(e <= k + 3 && e >= k - 3) }' && [ "${span#* }" = false ] ||
	fail "range: $hog's finding ended at $span, the hog was killed at $t_hog"
fleet --from "@$t_start" >"$work/range.txt" || fail "fleet --from (plain) exited $?"
grep -Eq "^  $hog on host-a: .*[0-9]{2}:[0-9]{2}:[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\$" "$work/range.txt" ||
	fail "plain range: no closed span for $hog: $(cat "$work/range.txt")"
# host-c's last stretch without samples: open, from its last sample before
# the kill (the range's steps fall on whole seconds: up to 1 s later)
gap=$(jq -r '.findings[] | select(.kind == "stopped-reporting") | .entries[] |
	select(.host == "host-c") | .spans[-1] | "\(.start) \(.open)"' "$work/range.json")
awk -v s="${gap% *}" -v k="$t_kill" 'BEGIN { exit !(s != "" && s <= k + 1 && s >= k - 3) }' &&
	[ "${gap#* }" = true ] || fail "range: host-c stopped at '$gap', killed at $t_kill"

# usage and an unreachable store: one line each, documented statuses
"$TRIAGE" fleet >/dev/null 2>"$work/err"
[ $? = 2 ] && [ "$(wc -l <"$work/err")" = 2 ] || fail "no store: $(cat "$work/err")"
"$TRIAGE" fleet --prometheus "http://127.0.0.1:$pc" >/dev/null 2>"$work/err"
[ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] || fail "closed port: $(cat "$work/err")"
echo "ok: $hog on host-a only at $val% (kernel: $fds of $lim); host-c stopped (up 0) at ${gap% *}, killed at $t_kill; span end ${span% *} vs kill $t_hog"
