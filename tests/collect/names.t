#!/usr/bin/env bash
# Process names built to attack ('a.b c', 'x<newline>y 1 2', '"}{', terminal
# escapes) neither forge Graphite lines nor break the Prometheus exposition
# (promtool check metrics is the oracle); usage errors; SIGTERM exits 0.
. "$SRC/tests/collect/lib.sh" names
command -v curl >/dev/null || skip "curl missing"
command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"

names=('a.b c' $'x\ny 1 2' '"}{' $'\e[2J\e]0;t\a')
graphite=(a_b_c x_y_1_2 ___ __2J__0_t_)
prom=('a.b c' 'x\ny 1 2' '\"}{' '?[2J?]0;t?')
pids=""
for n in "${names[@]}"; do
	named "$n" sleep 60
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

# Prometheus: promtool accepts the exposition; the values are escaped, not cut
port=$(free_port)
"$TRIAGE" collect -i 1 --listen "127.0.0.1:$port" -p "$pids" 2>"$work/err" &
collector=$!
started="$started $collector"
wait_port "$port" 10 || fail "not listening: $(cat "$work/err")"
sleep 1.2
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
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/nope")" = 404 ] || fail "404"
# a second collector on the same port: a runtime failure, not a silent one
"$TRIAGE" collect --listen "127.0.0.1:$port" -p "$pids" 2>/dev/null
[ $? = 1 ] || fail "port in use: want status 1"
kill -TERM "$collector"
wait "$collector"
[ $? = 0 ] || fail "SIGTERM: want status 0"

# usage errors
for args in "" "--once --group nope" "--once -i 0" "--graphite nohost" "--once --top 0" "--once extra"; do
	# shellcheck disable=SC2086
	"$TRIAGE" collect $args >/dev/null 2>&1
	[ $? = 2 ] || fail "'collect $args': want status 2"
done
"$TRIAGE" collect --help | grep -q '^Usage: triage collect' || fail "--help"
echo "ok: hostile names stay one component / one escaped label; promtool clean"
