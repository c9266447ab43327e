# A fleet on this machine, for tests/fleet/*.t: FLEET_N "hosts", each a
# `triage collect` in its own PID, mount, network and UTS namespaces (its
# own /proc, host name hostN and address on a bridge to this side), a real
# Prometheus scraping them with the shipped rules (`for:` shortened), a real
# Alertmanager sending to a webhook that records what it gets, and a real
# carbon-cache with graphite-web receiving the collectors' Graphite output.
# Everything binds loopback or the bridge's scratch subnet, and goes on exit
# (the processes by PID, then the namespaces, the bridge and $work).
#
#   . "$SRC/tests/fleet/lib.sh" NAME   then
#   fleet_start                     start it all (in parallel), wait until every
#                                   host is scraped and Graphite has its points
#   fleet_fill_fs N                 a full tmpfs inside host N's mount namespace;
#                                   sets $fleet_mnt (the finding's subject)
#   fleet_hog N [SECONDS]           a CPU spinner inside host N (named fleethog);
#                                   sets $fleet_hog_pid
#   fleet_kill_collector N          SIGKILL host N's collector
#   fleet_in N CMD...               run CMD in host N's namespaces
#   prom_query EXPR                 the query API's JSON for EXPR, now
#   prom_get EXPR SECONDS           EXPR's JSON once its result is not empty
#   prom_wait EXPR JQ SECONDS       wait until JQ is true of EXPR's result list
#   fleet_alerts                    the alerts the webhook received, one JSON
#                                   object a line (Alertmanager's webhook format)
#   fleet_alerts_wait JQ SECONDS    wait until some received alert satisfies JQ
#   graphite_render TARGET          graphite-web's /render?format=json of TARGET
# Variables: $fleet_prom, $fleet_am, $fleet_graphite (base URLs),
# $fleet_instance[N] (host N's Prometheus instance label), $fleet_pid[N]
# (host N's init, as this side sees it), $fleet_collector[N].
# FLEET_FOR overrides the rules' `for:` (default 0s; silent hosts 3s, past a slow scrape).
# shellcheck shell=bash
. "$SRC/tests/collect/lib.sh" "fleet-$1"
FLEET_N=${FLEET_N:-3}
FLEET_FOR=${FLEET_FOR:-0s}
PY=/usr/bin/python3
fleet_t0=$(date +%s.%N)
# "[+2.1s] what": where the time goes, in the test's log (stderr)
fleet_note() {
	echo "[+$(awk -v a="$fleet_t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')s] $*" >&2
}

fleet_need() {
	[ "$(id -u)" = 0 ] || skip "needs root (namespaces, veth, mounts)"
	local c
	for c in unshare nsenter ip prometheus prometheus-alertmanager carbon-cache curl jq; do
		command -v "$c" >/dev/null || skip "$c missing (scripts/deps.sh test)"
	done
	$PY -c 'import whisper, django, graphite' 2>/dev/null ||
		skip "graphite-web missing (apt-get install graphite-web)"
	[ -x "$BUILD/gen-rules" ] || fail "$BUILD/gen-rules missing: run make"
}

# A TCP port for Prometheus, Alertmanager or carbon, from this suite's own
# range (19300-19399: the collect tests use 19000-19099, plot and probe
# 19200-19219), claimed against every test running beside this one
# (claim_port, tests/lib.sh). The Python services bind port 0 and say which
# port they got (no race).
fleet_port() {
	claim_port 19300 19399
}

# Undone on exit, last first: the namespaces and the bridge.
fleet_undo=""
fleet_cleanup() {
	local u
	for p in $started; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	while IFS= read -r u; do [ -n "$u" ] && eval "$u"; done <<<"$fleet_undo"
	cleanup
}
trap fleet_cleanup EXIT
undo() { fleet_undo="$1"$'\n'"$fleet_undo"; }

# A 10.250.X.0/24 no interface of this machine has (X from our PID on),
# claimed so that a fleet test running beside this one cannot take it too
# before our bridge has it.
fleet_subnet() {
	local i x
	for ((i = 0; i < 250; i++)); do
		x=$((($$ + i) % 250))
		ip -4 -o addr show | grep -q " 10\.250\.$x\." && continue
		claim "net-10.250.$x" || continue
		echo "10.250.$x"
		return 0
	done
	return 1
}

# The bridge (.1 on this side) and one network namespace per host (.1N),
# each joined by a veth pair whose inner end is eth0.
fleet_net() {
	local n ns br="tfb$$"
	ip link add "$br" type bridge || skip "cannot make a bridge"
	undo "ip link del '$br' 2>/dev/null"
	ip addr add "$fleet_net.1/24" dev "$br" && ip link set "$br" up || fail "bridge address"
	for ((n = 1; n <= FLEET_N; n++)); do
		ns="tf$$-$n"
		ip netns add "$ns" || skip "cannot make network namespaces"
		undo "ip netns del '$ns' 2>/dev/null"
		ip link add "tf$$h$n" type veth peer name eth0 netns "$ns" || skip "no veth"
		ip link set "tf$$h$n" master "$br" up &&
			ip -n "$ns" addr add "$fleet_net.1$n/24" dev eth0 &&
			ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up ||
			fail "cannot set up host $n's network"
	done
}

# Host N: its own PID, mount and UTS namespaces inside its network one; PID
# 1 there is a shell that names the host and runs the collector.
fleet_start_host() {
	local n=$1
	mkdir -p "$work/host$n"
	ip netns exec "tf$$-$n" unshare --pid --mount --uts --fork --kill-child --mount-proc \
		bash -c 'hostname "$1"; shift; "$@" 2>"'"$work/host$n/collect.err"'" & echo $! >"'"$work/host$n/collector"'"; wait' \
		init "host$n" "$TRIAGE" collect -i 1 --listen "${fleet_instance[n]}" \
		--graphite "$fleet_net.1:$fleet_line" >"$work/host$n/init.out" 2>&1 &
	fleet_unshare[n]=$!
	started="$started $!"
}

# Host N's init and collector PIDs as this side sees them, once it runs.
fleet_host_pids() {
	local n=$1 i kids
	for ((i = 0; i < 200; i++)); do
		kids=$(cat "/proc/${fleet_unshare[n]}/task/${fleet_unshare[n]}/children" 2>/dev/null)
		[ -n "$kids" ] && [ -s "$work/host$n/collector" ] && break
		sleep 0.05
	done
	fleet_pid[n]=${kids%% *}
	[ -n "${fleet_pid[n]}" ] || fail "host $n did not start: $(cat "$work/host$n/init.out")"
	# the collector: the init's only child
	for ((i = 0; i < 100; i++)); do
		fleet_collector[n]=$(cat "/proc/${fleet_pid[n]}/task/${fleet_pid[n]}/children" 2>/dev/null)
		fleet_collector[n]=${fleet_collector[n]%% *}
		[ -n "${fleet_collector[n]}" ] && return 0
		sleep 0.05
	done
	fail "host $n's collector did not start: $(cat "$work/host$n/collect.err")"
}

fleet_in() {
	local n=$1
	shift
	nsenter -t "${fleet_pid[n]}" -p -m -u -n -- "$@"
}

fleet_start_carbon() {
	mkdir -p "$work/carbon/conf" "$work/carbon/data/whisper" "$work/carbon/log" "$work/carbon/run"
	cat >"$work/carbon/conf/carbon.conf" <<-CONF
		[cache]
		STORAGE_DIR = $work/carbon/data/
		LOCAL_DATA_DIR = $work/carbon/data/whisper/
		CONF_DIR = $work/carbon/conf/
		LOG_DIR = $work/carbon/log/
		PID_DIR = $work/carbon/run/
		USER =
		MAX_CACHE_SIZE = inf
		MAX_UPDATES_PER_SECOND = 10000
		MAX_CREATES_PER_MINUTE = inf
		LINE_RECEIVER_INTERFACE = $fleet_net.1
		LINE_RECEIVER_PORT = $fleet_line
		ENABLE_UDP_LISTENER = False
		PICKLE_RECEIVER_INTERFACE = 127.0.0.1
		PICKLE_RECEIVER_PORT = $(fleet_port)
		CACHE_QUERY_INTERFACE = 127.0.0.1
		CACHE_QUERY_PORT = $fleet_cacheq
		CARBON_METRIC_INTERVAL = 0
	CONF
	printf '[all]\npattern = .*\nretentions = 1s:1h\n' >"$work/carbon/conf/storage-schemas.conf"
	carbon-cache --config="$work/carbon/conf/carbon.conf" --pidfile="$work/carbon/run/carbon.pid" \
		--logdir="$work/carbon/log" --nodaemon start >"$work/carbon.out" 2>&1 &
	started="$started $!"
}

# graphite-web's Django application under wsgiref, over carbon's whisper
# files and its cache (so points not yet written are seen too).
fleet_start_graphite_web() {
	# graphite-web serves only a whisper directory that exists when it starts
	mkdir -p "$work/gweb/log" "$work/carbon/data/whisper"
	cat >"$work/gweb/triage_graphite_settings.py" <<-PY
		SECRET_KEY = 'triage-fleet-test'
		STORAGE_DIR = '$work/gweb'
		WHISPER_DIR = '$work/carbon/data/whisper'
		LOG_DIR = '$work/gweb/log'
		INDEX_FILE = '$work/gweb/index'
		CONF_DIR = '$work/gweb'
		DATABASES = {'default': {'NAME': '$work/gweb/graphite.db', 'ENGINE': 'django.db.backends.sqlite3'}}
		CARBONLINK_HOSTS = ['127.0.0.1:$fleet_cacheq']
		TAGDB = ''
		# no caching: a query made before carbon created a file must not
		# hide it for minutes (graphite-web caches finds and renders)
		FIND_CACHE_DURATION = 0
		DEFAULT_CACHE_DURATION = 0
		CACHES = {'default': {'BACKEND': 'django.core.cache.backends.dummy.DummyCache'}}
	PY
	cat >"$work/gweb/serve.py" <<-'PY'
		import os, sys
		sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
		os.environ['GRAPHITE_SETTINGS_MODULE'] = 'triage_graphite_settings'
		os.environ['DJANGO_SETTINGS_MODULE'] = 'graphite.settings'
		from django.core.wsgi import get_wsgi_application
		from wsgiref.simple_server import make_server, WSGIRequestHandler
		class Quiet(WSGIRequestHandler):
		    def log_message(self, *args):
		        pass
		server = make_server('127.0.0.1', 0, get_wsgi_application(), handler_class=Quiet)
		with open(sys.argv[1] + '.tmp', 'w') as f:
		    f.write('%d\n' % server.server_port)
		os.rename(sys.argv[1] + '.tmp', sys.argv[1])
		server.serve_forever()
	PY
	$PY "$work/gweb/serve.py" "$work/gweb.port" >"$work/gweb.out" 2>&1 &
	started="$started $!"
}

# The webhook: each POST body (one Alertmanager notification) as a line.
fleet_start_webhook() {
	cat >"$work/webhook.py" <<-'PY'
		import json, os, sys
		from http.server import HTTPServer, BaseHTTPRequestHandler
		out = open(sys.argv[2], 'a')
		class Hook(BaseHTTPRequestHandler):
		    def do_POST(self):
		        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
		        out.write(json.dumps(json.loads(body)) + '\n')
		        out.flush()
		        self.send_response(200)
		        self.end_headers()
		    def log_message(self, *args):
		        pass
		server = HTTPServer(('127.0.0.1', 0), Hook)
		with open(sys.argv[1] + '.tmp', 'w') as f:
		    f.write('%d\n' % server.server_port)
		os.rename(sys.argv[1] + '.tmp', sys.argv[1])
		server.serve_forever()
	PY
	: >"$work/alerts.jsonl"
	$PY "$work/webhook.py" "$work/webhook.port" "$work/alerts.jsonl" >"$work/webhook.out" 2>&1 &
	started="$started $!"
}

fleet_start_alertmanager() {
	cat >"$work/alertmanager.yml" <<-CONF
		route:
		  receiver: record
		  group_by: ['alertname', 'instance', 'subject']
		  group_wait: 0s
		  group_interval: 1s
		  repeat_interval: 1h
		receivers:
		  - name: record
		    webhook_configs:
		      - url: 'http://127.0.0.1:$fleet_hport/'
		        send_resolved: true
	CONF
	prometheus-alertmanager --config.file="$work/alertmanager.yml" \
		--storage.path="$work/am" --web.listen-address="127.0.0.1:$fleet_amport" \
		--cluster.listen-address= >"$work/alertmanager.out" 2>&1 &
	started="$started $!"
}

fleet_start_prometheus() {
	local n
	"$BUILD/gen-rules" --for "critical=$FLEET_FOR" --for "warning=$FLEET_FOR" \
		--for "info=$FLEET_FOR" --for silent=3s >"$work/triage.rules.yml" || fail "gen-rules failed"
	{
		cat <<-CONF
			global:
			  scrape_interval: 1s
			  evaluation_interval: 1s
			rule_files: ['$work/triage.rules.yml']
			alerting:
			  alertmanagers:
			    - static_configs:
			        - targets: ['127.0.0.1:$fleet_amport']
			scrape_configs:
			  - job_name: triage
			    static_configs:
		CONF
		for ((n = 1; n <= FLEET_N; n++)); do
			printf "      - targets: ['%s']\n        labels: {host: host%d}\n" \
				"${fleet_instance[n]}" "$n"
		done
	} >"$work/prometheus.yml"
	prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
		--web.listen-address="127.0.0.1:$fleet_pport" >"$work/prometheus.out" 2>&1 &
	started="$started $!"
}

# Waits up to $3 s for $1 on $2 (a service's port), else fails with its log.
fleet_wait_port() {
	local host=$1 port=$2 secs=$3 log=$4 i
	for ((i = 0; i < secs * 20; i++)); do
		(exec 3<>"/dev/tcp/$host/$port") 2>/dev/null && return 0
		sleep 0.05
	done
	tail -5 "$log"
	fail "nothing listens on $host:$port after ${secs}s ($log)"
}

# The port a Python service wrote to $1, waiting up to $2 s; fails with $3.
fleet_port_file() {
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		[ -s "$1" ] && cat "$1" && return 0
		sleep 0.05
	done
	tail -5 "$3" >&2
	fail "no port in $1 after $2 s ($3)"
}

fleet_start() {
	local n
	fleet_need
	fleet_net=$(fleet_subnet) || fail "no free 10.250.x.0/24"
	for ((n = 1; n <= FLEET_N; n++)); do fleet_instance[n]="$fleet_net.1$n:9977"; done
	fleet_line=$(fleet_port) fleet_cacheq=$(fleet_port)
	fleet_amport=$(fleet_port) fleet_pport=$(fleet_port)
	fleet_prom="http://127.0.0.1:$fleet_pport"
	fleet_am="http://127.0.0.1:$fleet_amport"
	# what binds loopback first (graphite-web, a Python start, the slowest),
	# then the network while they start, then carbon on it and the hosts
	fleet_start_graphite_web
	fleet_start_webhook
	fleet_hport=$(fleet_port_file "$work/webhook.port" 30 "$work/webhook.out") || exit 1
	fleet_start_alertmanager
	fleet_start_prometheus
	fleet_note "loopback services started"
	fleet_net
	fleet_note "network up"
	fleet_start_carbon
	for ((n = 1; n <= FLEET_N; n++)); do fleet_start_host "$n"; done
	for ((n = 1; n <= FLEET_N; n++)); do fleet_host_pids "$n"; done
	fleet_note "started; waiting for the services"
	fleet_wait_port 127.0.0.1 "$fleet_amport" 30 "$work/alertmanager.out"
	fleet_wait_port 127.0.0.1 "$fleet_pport" 30 "$work/prometheus.out"
	fleet_wait_port "$fleet_net.1" "$fleet_line" 60 "$work/carbon.out"
	fleet_gport=$(fleet_port_file "$work/gweb.port" 60 "$work/gweb.out") || exit 1
	fleet_graphite="http://127.0.0.1:$fleet_gport"
	fleet_note "every service listens"
	prom_wait "up{job=\"triage\"} == 1" "length == $FLEET_N" 30 ||
		fail "Prometheus does not scrape all $FLEET_N hosts: $(prom_query up)"
	fleet_note "Prometheus scrapes $FLEET_N hosts"
}

# A tmpfs of 1 MiB filled to the last byte, mounted in host N's mount
# namespace only: the other hosts (and this side) never see it.
fleet_fill_fs() {
	local n=$1
	fleet_mnt="$work/host$n/full$$"
	mkdir -p "$fleet_mnt"
	fleet_in "$n" sh -c "mount -t tmpfs -o size=1m fleetfull '$fleet_mnt' &&
		{ dd if=/dev/zero of='$fleet_mnt/fill' bs=64k 2>/dev/null; true; }" ||
		fail "cannot fill a tmpfs in host $n"
}

# A CPU spinner named fleethog inside host N for at most $2 s (default 30);
# $fleet_hog_pid is its PID as this side sees it (kill it when done; it is
# killed at exit anyway).
fleet_hog() {
	local i
	fleet_in "$1" "$BUILD/workloads/collect_named" fleethog spin "${2:-30}" >/dev/null &
	started="$started $!"
	for ((i = 0; i < 100; i++)); do
		fleet_hog_pid=$(cat "/proc/$!/task/$!/children" 2>/dev/null)
		fleet_hog_pid=${fleet_hog_pid%% *}
		# killed at exit too (nsenter's death does not take it along)
		[ -n "$fleet_hog_pid" ] && started="$started $fleet_hog_pid" && return 0
		sleep 0.05
	done
	fail "the hog did not start in host $1"
}

# SIGKILL host N's collector; returns once the kernel says it is dead (gone,
# or a zombie its init has not reaped yet), 1 if it never does.
fleet_kill_collector() {
	local pid=${fleet_collector[$1]} i state
	kill -9 "$pid" || fail "host $1's collector was not running"
	for ((i = 0; i < 100; i++)); do
		state=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$pid/stat" 2>/dev/null)
		case $state in "" | Z | X) return 0 ;; esac
		sleep 0.05
	done
	return 1
}

prom_query() {
	curl -s --get "$fleet_prom/api/v1/query" --data-urlencode "query=$1"
}

# The query API's JSON for EXPR once its result is not empty (up to $2 s),
# else the last answer: a failed scrape on a loaded machine marks a host's
# series stale until the next one, so a series seen a moment ago can be
# missing now.
prom_get() {
	local i ans
	for ((i = 0; i < $2 * 5; i++)); do
		ans=$(prom_query "$1")
		jq -e '.data.result | length > 0' <<<"$ans" >/dev/null 2>&1 && break
		sleep 0.2
	done
	echo "$ans"
}

# Waits up to $3 s until jq's $2 holds for EXPR's result list; 1 if never.
prom_wait() {
	local i
	for ((i = 0; i < $3 * 5; i++)); do
		prom_query "$1" | jq -e ".data.result | $2" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

fleet_alerts() {
	jq -c '.alerts[]' "$work/alerts.jsonl"
}

fleet_alerts_wait() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		fleet_alerts | jq -e "select($1)" 2>/dev/null | grep -q . && return 0
		sleep 0.2
	done
	return 1
}

graphite_render() {
	curl -s --get "$fleet_graphite/render" --data-urlencode "target=$1" \
		--data-urlencode format=json --data-urlencode from=-60s
}
