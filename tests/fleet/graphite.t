#!/usr/bin/env bash
# test: shared -- judges only its own collectors (-p its hog and sleeper), its own carbon and graphite-web on claimed ports, and the time it killed one
# triage fleet --graphite against a real carbon-cache (Debian
# graphite-carbon) and graphite-web (its render API, served by
# /usr/bin/python3's wsgiref), fed by two real collectors on loopback with
# the prefixes P.host-a and P.host-b. host-a watches a process at its
# descriptor limit (report_fdhog), host-b a sleeper; host-b's collector
# is then killed.
# Oracles: which process each collector was given (-p) for which host has
# which finding; the kernel's count of the hog's descriptors and its limit
# for its figure; the time this script killed host-b's collector.
. "$SRC/tests/collect/lib.sh" fleet-graphite
command -v carbon-cache >/dev/null || skip "carbon-cache missing (apt-get install graphite-carbon)"
/usr/bin/python3 -c 'import graphite.render' 2>/dev/null ||
	skip "graphite-web missing (apt-get install graphite-web)"
command -v jq >/dev/null || skip "jq missing"

line=$(free_port) pickle=$(free_port) query=$(free_port) web=$(free_port)
mkdir -p "$work/conf" "$work/data/whisper" "$work/log" "$work/run" "$work/py"
cat >"$work/conf/carbon.conf" <<CONF
[cache]
STORAGE_DIR = $work/data/
LOCAL_DATA_DIR = $work/data/whisper/
CONF_DIR = $work/conf/
LOG_DIR = $work/log/
PID_DIR = $work/run/
USER =
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = 10000
MAX_CREATES_PER_MINUTE = inf
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $line
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $pickle
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = $query
CARBON_METRIC_INTERVAL = 0
LOG_UPDATES = False
LOG_CREATES = False
LOG_CACHE_HITS = False
LOG_CACHE_QUEUE_SORTS = False
LOG_LISTENER_CONNECTIONS = False
CONF
printf '[all]\npattern = .*\nretentions = 1s:1h\n' >"$work/conf/storage-schemas.conf"
# graphite-web reads whisper and, for points not yet written, carbon's cache
cat >"$work/py/fleet_graphite_settings.py" <<CONF
SECRET_KEY = 'triage-test'
GRAPHITE_ROOT = '/usr/share/graphite-web'
STORAGE_DIR = '$work/data/'
WHISPER_DIR = '$work/data/whisper/'
LOG_DIR = '$work/log/'
INDEX_FILE = '$work/index'
CARBONLINK_HOSTS = ['127.0.0.1:$query']
DATABASES = {'default': {'NAME': '$work/graphite.db', 'ENGINE': 'django.db.backends.sqlite3'}}
CONF
carbon-cache --config="$work/conf/carbon.conf" --pidfile="$work/run/carbon.pid" \
	--logdir="$work/log" --nodaemon start >"$work/carbon.out" 2>&1 &
started="$started $!"
PYTHONPATH="$work/py" GRAPHITE_SETTINGS_MODULE=fleet_graphite_settings \
	DJANGO_SETTINGS_MODULE=graphite.settings /usr/bin/python3 - "$web" >"$work/web.out" 2>&1 <<'PY' &
import sys
from wsgiref.simple_server import make_server, WSGIRequestHandler
from graphite.wsgi import application
class Quiet(WSGIRequestHandler):
    def log_message(self, *a):
        pass
make_server("127.0.0.1", int(sys.argv[1]), application, handler_class=Quiet).serve_forever()
PY
started="$started $!"

"$BUILD/workloads/report_fdhog" 256 600 >"$work/fdhog.out" & # killed at exit: outlives a slow run
started="$started $!"
for ((i = 0; i < 100; i++)); do grep -q ready "$work/fdhog.out" && break; sleep 0.1; done
hogpid=$(awk '$1 == "hog" { print $2 }' "$work/fdhog.out")
[ -n "$hogpid" ] || fail "report_fdhog did not start"
hog=report_fdhog
named calm sleep 600
calmpid=$wpid
wait_port "$line" 30 || { cat "$work/carbon.out"; fail "carbon-cache did not listen"; }
prefix=t$$
"$TRIAGE" collect -i 1 --graphite "127.0.0.1:$line" --prefix "$prefix.host-a" -p "$hogpid" \
	2>"$work/a.err" &
started="$started $!"
"$TRIAGE" collect -i 1 --graphite "127.0.0.1:$line" --prefix "$prefix.host-b" -p "$calmpid" \
	2>"$work/b.err" &
cb=$!
started="$started $cb"
wait_port "$web" 60 || { cat "$work/web.out"; fail "graphite-web did not listen"; }
url="http://127.0.0.1:$web"
# carbon and graphite-web add a second or so each way: the store's interval
# for fleet is 2 s (stale after 4 s without a point)
fleet() { date +%s.%N >>"$work/calls"; "$TRIAGE" fleet --graphite "$url" --prefix "$prefix.*" -i 2 "$@"; }

for ((i = 0; i < 300; i++)); do
	fleet --json >"$work/now.json" 2>"$work/fleet.err" &&
		jq -e --arg s "$hog" '.hosts == 2 and any(.findings[].entries[]; .subject == $s)' \
			"$work/now.json" >/dev/null && break
	sleep 0.1
done
[ $i -lt 300 ] || fail "no finding for $hog through Graphite: $(cat "$work/fleet.err" "$work/now.json")"
fleet --json >"$work/now.json" || fail "fleet exited $?"
fleet >"$work/now.txt" || fail "fleet (plain) exited $?"
fds=$(find "/proc/$hogpid/fd" -mindepth 1 | wc -l)
lim=$(awk '/^Max open files/ { print $4 }' "/proc/$hogpid/limits")
want=$(awk -v f="$fds" -v l="$lim" 'BEGIN { printf "%.2f", 100 * f / l }')
jq -e '.store == "graphite" and .hosts == 2 and .hosts_stopped == 0' "$work/now.json" >/dev/null ||
	fail "hosts: $(jq -c . "$work/now.json")"
got=$(jq -r --arg s "$hog" '.findings[] | select(.kind == "fd-exhaustion") | .entries[] |
	select(.subject == $s) | "\(.host) \(.value)"' "$work/now.json")
[ "$(echo "$got" | wc -l)" = 1 ] && [ "${got% *}" = host-a ] ||
	fail "fd-exhaustion for $hog: '$got' (only host-a watches it)"
awk -v g="${got#* }" -v w="$want" 'BEGIN { exit !(g - w < 0.01 && w - g < 0.01) }' ||
	fail "fleet says $hog holds ${got#* }% of its descriptors, the kernel $fds of $lim"
grep -qF "$hog on host-a (" "$work/now.txt" || fail "plain: $(cat "$work/now.txt")"

t_kill=$(date +%s.%N)
kill -9 "$cb"
for ((i = 0; i < 200; i++)); do
	fleet --json >"$work/stopped.json" &&
		jq -e '.hosts_stopped == 1' "$work/stopped.json" >/dev/null && break
	sleep 0.1
done
jq -e '.hosts == 2 and .findings[0].kind == "stopped-reporting" and
	[.findings[0].entries[].host] == ["host-b"]' "$work/stopped.json" >/dev/null ||
	fail "stopped: $(jq -c . "$work/stopped.json")"
# stopped: no point for two intervals (4 s) before the view's instant, the
# last one from before the kill, and the one graphite-web holds last for
# host-b (its own render of the series fleet reads a host's samples from,
# asked just before and just after the view: carbon may still be taking in
# points sent before the kill). Not "a second or two before the kill": on
# a loaded machine the collector, carbon or graphite-web can fall behind
# by tens of seconds (the soak at load 20: 25 s), and the last point is
# then older.
store_last() {
	curl -s --get "$url/render" --data-urlencode format=json \
		--data-urlencode "from=$(($(date +%s) - 600))" --data-urlencode "until=$(($(date +%s) + 1))" \
		--data-urlencode "target=$prefix.host-b.report.findings.critical" |
		jq -r '[.[].datapoints[] | select(.[0] != null) | .[1]] | max // empty'
}
s0=$(store_last)
fleet --json >"$work/stopped.json" || fail "fleet exited $?"
s1=$(store_last)
last=$(jq -r '.findings[0].entries[] | select(.host == "host-b") | .last_seen' "$work/stopped.json")
at=$(jq -r '.at' "$work/stopped.json")
awk -v l="$last" -v k="$t_kill" -v a="$at" -v s0="$s0" -v s1="$s1" \
	'BEGIN { exit !(l <= k && a - l > 4 && s0 != "" && s0 <= l && l <= s1) }' ||
	fail "host-b's last point $last (graphite-web's last: $s0 before, $s1 after), killed at $t_kill, view at $at: $(jq -c . "$work/stopped.json")"
echo "ok: $hog on host-a only at ${got#* }% (kernel: $fds of $lim) through Graphite; host-b stopped: last point $last, killed at $t_kill"
