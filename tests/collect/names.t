#!/usr/bin/env bash
# test: shared -- claimed free ports; its spinner's finding may be cpu-bound, contention or saturation
# Process names built to attack ('a.b c', 'x<newline>y 1 2', '"}{', terminal
# escapes) neither forge Graphite lines nor break the Prometheus exposition
# (promtool check metrics is the oracle); usage errors; SIGTERM exits 0.
. "$SRC/tests/collect/lib.sh" names
command -v curl >/dev/null || skip "curl missing"
command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"
command -v jq >/dev/null || skip "jq missing"

# the distinguishing suffix of a name the sanitiser changes: "_" and the
# FNV-1a 64 of its bytes, computed here by Python (see docs/collect.md)
fnv() {
	/usr/bin/python3 -c 'import sys
h = 0xcbf29ce484222325
for c in sys.argv[1].encode("utf-8", "surrogateescape"):
    h = ((h ^ c) * 0x100000001b3) % (1 << 64)
print("_%016x" % h)' "$1"
}
names=('a.b c' $'x\ny 1 2' '"}{' $'\e[2J\e]0;t\a')
graphite=("a_b_c$(fnv 'a.b c')" "x_y_1_2$(fnv $'x\ny 1 2')" "___$(fnv '"}{')" "__2J__0_t_$(fnv $'\e[2J\e]0;t\a')")
prom=('a.b c' 'x\ny 1 2' '\"}{' "?[2J?]0;t?$(fnv $'\e[2J\e]0;t\a')")
pids=""
for n in "${names[@]}"; do
	named "$n" sleep 300
	pids="$pids${pids:+,}$wpid"
done

# Graphite: every line is "path value timestamp", the path only [A-Za-z0-9_-] parts
"$TRIAGE" collect --once -p "$pids" --prefix 'T.h' >"$work/once" || fail "--once exited $?"
bad=$(grep -cvE '^T\.h(\.[A-Za-z0-9_-]+)+ -?[0-9.e+-]+ [0-9]+$' "$work/once")
[ "$bad" = 0 ] || fail "$bad malformed lines: $(grep -vE '^T\.h(\.[A-Za-z0-9_-]+)+ ' "$work/once" | head -3 | od -c | head)"
ts=$(awk '{ print $3 }' "$work/once" | sort -u)
[ "$(echo "$ts" | wc -l)" = 1 ] || fail "one sample, several timestamps: $ts"
[ $((ts % 10)) = 0 ] || fail "timestamp $ts not aligned to the 10 s interval"
for g in "${graphite[@]}"; do
	n=$(grep -c "^T\.h\.process\.$g\.[a-z_]*\(\.[a-z]*\)\? " "$work/once")
	[ "$n" = 10 ] || fail "group $g: $n lines, want the 10 per-group metrics"
done
[ "$(grep -c '^T\.h\.process\.' "$work/once")" = 40 ] || fail "process lines other than the 4 groups'"

# --once --json: one JSON document; the hostile names come back byte for byte
"$TRIAGE" collect --once --json -p "$pids" --prefix 'T.h' >"$work/once.json" || fail "--once --json exited $?"
for n in "${names[@]}"; do
	got=$(jq -r --arg n "$n" '[.metrics[] | select(.name == "triage_process_procs" and .labels.group == $n)] | length' "$work/once.json")
	[ "$got" = 1 ] || fail "--once --json: group '$n' $got times"
done
[ "$(jq '[.metrics[] | select(.graphite | test("^T\\.h(\\.[A-Za-z0-9_-]+)+$") | not)] | length' "$work/once.json")" = 0 ] ||
	fail "--once --json: a graphite path with a forged component"

# a spinner whose name holds every attack at once: the report's finding names it
evil=$'\e]0;t\a"}{\nx 1'
named "$evil" spin 300
spinner=$wpid

# Prometheus: promtool accepts the exposition; the values are escaped, not cut.
# --listen PORT alone binds 127.0.0.1.
port=$(free_port)
"$TRIAGE" collect -i 1 --listen "$port" -p "$pids,$spinner" 2>"$work/err" &
collector=$!
started="$started $collector"
wait_port "$port" 10 || fail "not listening: $(cat "$work/err")"
# /healthz turns from 503 to ok when the first sample is published: its
# groups are in /metrics from then on
for ((i = 0; i < 300; i++)); do
	[ "$(curl -s "http://127.0.0.1:$port/healthz")" = ok ] && break
	kill -0 "$collector" 2>/dev/null || fail "collector died: $(cat "$work/err")"
	sleep 0.1
done
curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" || fail "scrape failed"
promtool check metrics <"$work/metrics" >"$work/promtool" 2>&1 || fail "promtool: $(cat "$work/promtool")"
for v in "${prom[@]}"; do
	grep -qF "triage_process_cpu_seconds_total{group=\"$v\",mode=\"user\"}" "$work/metrics" ||
		fail "no escaped group '$v'"
done
! grep -q $'\e' "$work/metrics" || fail "an escape byte reached the exposition"
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' \
	-D "$work/om.h" "http://127.0.0.1:$port/metrics" >"$work/om" || fail "OpenMetrics scrape failed"
grep -qi '^content-type: application/openmetrics-text' "$work/om.h" || fail "OpenMetrics content type"
[ "$(tail -n 1 "$work/om")" = "# EOF" ] || fail "OpenMetrics without # EOF"
[ "$(curl -sf "http://127.0.0.1:$port/healthz")" = ok ] || fail "/healthz"
# bound to loopback only: /proc/net/tcp lists the listener as 0100007F:PORT (state 0A)
hexport=$(printf '%04X' "$port")
grep -q "^ *[0-9]*: 0100007F:$hexport 00000000:0000 0A" /proc/net/tcp ||
	fail "--listen $port is not bound to 127.0.0.1: $(grep ":$hexport " /proc/net/tcp)"
# /report: the report core's JSON over the last interval. The spinner
# never sleeps: a finding names it (cpu-bound-user, or cpu-contention or
# cpu-saturated when this shared machine starves it), and its name comes
# back byte for byte, as the subject's comm or inside the summary.
for ((i = 0; i < 50; i++)); do
	curl -sf "http://127.0.0.1:$port/report" >"$work/report" &&
		jq -e --argjson p "$spinner" '.findings[] | select(.subject.pid == $p or (.subject.pids // [] | index($p)))' \
			"$work/report" >/dev/null && break
	sleep 0.1
done
[ $i -lt 50 ] || fail "no finding about the spinner in /report: $(head -c 600 "$work/report")"
jq -e --arg n "$evil" --argjson p "$spinner" \
	'[.findings[] | select(.subject.comm == $n or (.summary | contains($n)))] | length >= 1' \
	"$work/report" >/dev/null || fail "the spinner's finding lost its name: $(jq -c '.findings' "$work/report" | head -c 600)"
! grep -q $'\e' "$work/report" || fail "an escape byte reached /report"
[ "$(wc -l <"$work/report")" = 1 ] || fail "/report: a raw newline in the JSON"
# the same findings as metrics: promtool-clean, and a finding whose subject
# is the spinner is a series with the name escaped as a label value
curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics2" || fail "scrape failed"
promtool check metrics <"$work/metrics2" >"$work/promtool" 2>&1 || fail "promtool with findings: $(cat "$work/promtool")"
# (/report and /metrics are fetched back to back, so from one window most of
# the time: a finding may come and go between windows on a loaded machine)
named_seen=0
evil_mark=$(fnv "$evil")
for ((i = 0; i < 50; i++)); do
	curl -sf "http://127.0.0.1:$port/report" >"$work/report2" || fail "/report failed"
	if jq -e --arg n "$evil" '[.findings[] | select(.subject.comm == $n)] | length >= 1' "$work/report2" >/dev/null; then
		named_seen=1
		curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics2" || fail "scrape failed"
		grep -qF "subject=\"?]0;t?\\\"}{\\nx 1$evil_mark\"}" "$work/metrics2" && break
	fi
	sleep 0.2
done
[ $named_seen = 0 ] || [ $i -lt 50 ] || fail "no finding series for the spinner: $(grep finding "$work/metrics2")"
kill -TERM "$collector"
wait "$collector"
[ $? = 0 ] || fail "SIGTERM: want status 0"

# /report before the first window ends: 503, and /healthz ok (a sample was taken)
port2=$(free_port)
"$TRIAGE" collect -i 60 --listen "$port2" -p "$spinner" 2>"$work/err2" &
started="$started $!"
wait_port "$port2" 10 || fail "not listening: $(cat "$work/err2")"
# /healthz turns ok once the first sample is published, which may come a
# moment after the listener opens (seen on a busy machine): wait for it as
# above; the first 60 s window is far from over then
for ((i = 0; i < 300; i++)); do
	[ "$(curl -s "http://127.0.0.1:$port2/healthz")" = ok ] && break
	sleep 0.1
done
[ "$(curl -sf "http://127.0.0.1:$port2/healthz")" = ok ] || fail "/healthz at start"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port2/report")" = 503 ] || fail "/report before a window: want 503"

# usage errors: status 2, one line naming the token, then where help is
for args in "" "--once --group nope" "--once -i 0" "--graphite nohost" "--once --top 0" "--once extra" \
	"--listen ::1:80" "--listen 1.2.3:80" "--bogus" "--once -i" "--listen 9977 --json"; do
	# shellcheck disable=SC2086
	"$TRIAGE" collect $args >/dev/null 2>"$work/usage"
	[ $? = 2 ] || fail "'collect $args': want status 2"
	[ "$(wc -l <"$work/usage")" = 2 ] || fail "'collect $args': want two lines: $(cat "$work/usage")"
	grep -q "^triage collect: .*" "$work/usage" || fail "'collect $args': $(cat "$work/usage")"
	[ "$(tail -n 1 "$work/usage")" = "see 'triage collect --help'" ] || fail "'collect $args': no help pointer"
done
"$TRIAGE" collect --listen 1.2.3:80 2>&1 | grep -qF "'1.2.3:80'" || fail "the bad token is not named"
"$TRIAGE" collect --help | grep -q '^Usage: triage collect' || fail "--help"
echo "ok: hostile names stay one component / one escaped label / exact JSON strings in /report and --once --json; promtool clean"
