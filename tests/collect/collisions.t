#!/usr/bin/env bash
# test: shared -- claimed free ports; names of its own processes
# Names that sanitise alike cannot merge two groups' series (issue 27):
# processes named 'a.b c' and 'a_b_c', 'kworker/0:0' and 'kworker_0_0',
# 'x<0x01>y' and 'x?y' (set with prctl by the named workload) make six
# groups, six sets of Graphite paths and six sets of /metrics series, no
# path or series twice. The names in /proc are the oracle for what the
# groups are; promtool check metrics checks the exposition (it does not
# flag duplicate series: we count them).
. "$SRC/tests/collect/lib.sh" collisions
command -v curl >/dev/null || skip "curl missing"
names=('a.b c' 'a_b_c' 'kworker/0:0' 'kworker_0_0' $'x\x01y' 'x?y')
pids=""
for n in "${names[@]}"; do
	rm -f "$work/named.pid" # named() waits for this file: not the last one's
	named "$n" sleep 300
	[ "$(tr -d '\n' <"/proc/$wpid/comm")" = "$n" ] || fail "the workload is not named '$n' in /proc"
	pids="$pids${pids:+,}$wpid"
done
"$TRIAGE" collect --once -p "$pids" --prefix T >"$work/once" || fail "--once exited $?"
groups=$(grep '^T\.process\.' "$work/once" | cut -d. -f3 | sort -u | wc -l)
[ "$groups" = 6 ] || fail "$groups Graphite groups for 6 names: $(grep '^T\.process\.[^.]*\.procs ' "$work/once")"
dup=$(awk '{ print $1 }' "$work/once" | sort | uniq -d | head -3)
[ -z "$dup" ] || fail "Graphite paths twice in one batch: $dup"

port=$(free_port)
"$TRIAGE" collect -i 1 --listen "$port" -p "$pids" 2>"$work/err" &
collector=$!
started="$started $collector"
wait_port "$port" 10 || fail "not listening: $(cat "$work/err")"
for ((i = 0; i < 300; i++)); do
	[ "$(curl -s "http://127.0.0.1:$port/healthz")" = ok ] && break
	sleep 0.1
done
curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" || fail "scrape failed"
series=$(grep -c '^triage_process_procs{' "$work/metrics")
[ "$series" = 6 ] || fail "$series triage_process_procs series for 6 names: $(grep '^triage_process_procs{' "$work/metrics")"
dup=$(grep -v '^#' "$work/metrics" | sed 's/ [^ ]*$//' | sort | uniq -d | head -3)
[ -z "$dup" ] || fail "series twice in /metrics: $dup"
if command -v promtool >/dev/null; then
	promtool check metrics <"$work/metrics" >"$work/promtool" 2>&1 || fail "promtool: $(cat "$work/promtool")"
	checked="promtool clean"
else
	checked="promtool not installed"
fi
kill -TERM "$collector"
wait "$collector" || fail "collector exited $? on SIGTERM"
echo "ok: 6 names that sanitise alike in pairs: 6 Graphite groups, 6 /metrics series, none twice ($checked)"
