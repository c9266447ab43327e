#!/usr/bin/env bash
# test: exclusive -- compares whole-machine findings (CPU busy, PSI) of two samplers half a second apart: other tests' load can cross a threshold between them
# Parity (issue 29, part 4): for one host, `triage fleet` over one window
# of the collector, read back from a real Prometheus, and `triage replay`
# of a `triage record` run beside it over the same window name the same
# findings (kind and subject, as collect labels them). Both watch the same
# CPU spinner (-p); host figures (CPU busy, PSI) are the whole machine's.
# The window: the collector samples on multiples of S of the wall clock,
# so its window ending at mark t1 is (t1-S, t1]; Prometheus holds it from
# the first scrape after the collector published it until the next mark.
. "$SRC/tests/collect/lib.sh" fleet-parity
command -v prometheus >/dev/null || skip "prometheus missing (apt-get install prometheus)"
command -v jq >/dev/null || skip "jq missing"

S=4
pm=$(free_port) pp=$(free_port)
hog=phog$$
hog=${hog:0:15}
named "$hog" spin 600 # killed at exit: outlives a slow run
hogpid=$wpid
"$TRIAGE" record -o "$work/rec.db" -i 1 -p "$hogpid" 2>"$work/record.err" &
started="$started $!"
"$TRIAGE" collect -i "$S" --listen "127.0.0.1:$pm" -p "$hogpid" 2>"$work/collect.err" &
started="$started $!"
t_start=$(date +%s)
cat >"$work/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: triage
    static_configs:
      - targets: ['127.0.0.1:$pm']
        labels: {instance: host-a}
CONF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$pp" >"$work/prometheus.out" 2>&1 &
started="$started $!"
wait_port "$pp" 30 || { tail "$work/prometheus.out"; fail "prometheus did not listen"; }
url="http://127.0.0.1:$pp"
query() { curl -s --get "$url/api/v1/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"}; }

# t1: a whole window's end (the collector's first window may be short).
# The scrape read is one from 2 s after t1 (the collector publishes its
# window well within that) to just before the next mark; a window no
# scrape fell in on this loaded machine gives way to the next one.
t1=$(((t_start / S + 2) * S))
ts=""
for ((w = 0; w < 5; w++)); do
	[ -z "$ts" ] || break
	while [ "$(date +%s)" -lt $((t1 + S + 1)) ]; do sleep 0.2; done
	ts=$(query "triage_report_findings{severity=\"critical\"}[$((S + 2))s]" "$((t1 + S))" |
		jq -r --argjson a "$((t1 + 2))" --argjson b "$((t1 + S))" \
			'[.data.result[0].values[]?[0] | select(. >= $a and . < $b - 0.2)] | last // empty')
	[ -n "$ts" ] || t1=$((t1 + S))
done
[ -n "$ts" ] || fail "no scrape in 5 windows after $t_start: $(query up)"
"$TRIAGE" fleet --prometheus "$url" -i 1 --at "@$ts" --json >"$work/fleet.json" ||
	fail "fleet exited $?"
jq -r '.findings[] | select(.kind != "stopped-reporting") | .kind as $k | .entries[] |
	select(.host == "host-a") | "\($k) \(.subject)"' "$work/fleet.json" | sort >"$work/fleet.set"
# replay's subject as collect labels it (src/report/subject.c, REPORT_LABEL_METRIC)
# (record samples every second at its own offset: half a second each side
# makes its window the collector's length)
"$TRIAGE" replay "$work/rec.db" --from "@$((t1 - S)).5" --to "@$t1.5" report --json >"$work/replay.json" ||
	fail "replay exited $?: $(cat "$work/record.err")"
jq -r '.findings[] | .kind as $k | .subject |
	(if .pid and .comm then .comm elif .cgroup then .cgroup elif .mount then .mount
	 elif .device then .device elif .interface then .interface
	 elif .cpu != null then "cpu\(.cpu)" elif .comm then .comm else "host" end) as $s |
	"\($k) \($s)"' "$work/replay.json" | sort -u >"$work/replay.set"
# A recording keeps no kernel log, cgroups, filesystems... (replay says so
# in its "not recorded" line): the findings made only of those are the
# collector's alone, and left out of the comparison on both sides.
why=$(jq -r '.skipped[]? | select(.what == "source") | .why' "$work/replay.json")
drop='^$'
add_drop() { case "$why" in *"$1"*) drop="$drop|$2" ;; esac; }
add_drop "kernel log" '^(kernel-errors|oom-kill|disk-errors) '
add_drop "cgroups" '^cpu-throttled |^memory-pressure /'
add_drop "filesystems" '^(filesystem-full|inodes-full) '
add_drop "descriptors" '^fd-exhaustion '
add_drop "softirqs" '^irq-saturated '
add_drop "conntrack" '^conntrack-full '
add_drop "parents" '^zombies '
add_drop "forks" '^process-churn '
for f in fleet replay; do
	grep -Ev "$drop" "$work/$f.set" >"$work/$f.cmp"
done
[ -s "$work/replay.cmp" ] || fail "replay found nothing over the window, so parity would prove nothing"
grep -q "^cpu-bound-user $hog\$\|^cpu-contention $hog\$" "$work/replay.set" ||
	echo "note: the spinner itself is not among the findings on this machine now"
diff "$work/replay.cmp" "$work/fleet.cmp" >"$work/diff" ||
	fail "window $((t1 - S))..$t1: replay and fleet differ (< replay, > fleet): $(cat "$work/diff")"
echo "ok: window $((t1 - S))..$t1 (scrape $ts): both name $(tr '\n' ';' <"$work/fleet.cmp") (fleet alone, not recorded: $(grep -Ec "$drop" "$work/fleet.set"))"
