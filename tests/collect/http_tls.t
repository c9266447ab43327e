#!/usr/bin/env bash
# test: shared -- claimed free ports, its own certificate and Prometheus
# node_exporter's web configuration file (--web.config.file): TLS and basic
# authentication, checked with a real Prometheus (Debian prometheus) that
# scrapes the collector over https with a user and password, and with curl
# for the refusals: no or a wrong password is 401 with a Basic challenge,
# plain HTTP to the TLS port gets no HTTP answer. A bad file is one line
# naming the file and the key, exit 2. Throwaway self-signed certificate
# (openssl) and bcrypt hash (python3's crypt, the system's libcrypt) made
# in the test's directory.
. "$SRC/tests/collect/lib.sh" http_tls
command -v prometheus >/dev/null || skip "prometheus missing (apt-get install prometheus)"
command -v openssl >/dev/null || skip "openssl missing"
command -v curl >/dev/null || skip "curl missing"
command -v jq >/dev/null || skip "jq missing"
cd "$work" || fail "no work directory"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
	-keyout key.pem -out cert.pem -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	2>openssl.err || fail "openssl: $(cat openssl.err)"
pass="tls-$$-$RANDOM"
hash=$(python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))' "$pass")
# shellcheck disable=SC2016 # a literal $2: bcrypt's prefix
case $hash in '$2'*) ;; *) skip "python3's crypt makes no bcrypt hash: '$hash'" ;; esac
# relative file names are read beside the config, as node_exporter does
cat >web.yml <<CONF
tls_server_config:
  cert_file: cert.pem
  key_file: key.pem
basic_auth_users:
  prom: '$hash'
CONF

# a bad file: one line with the file and the key, exit 2, nothing served
printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  client_auth_type: RequireAndVerifyClientCert\n' >bad.yml
mport=$(free_port) pport=$(free_port)
"$TRIAGE" collect --listen "127.0.0.1:$mport" --web.config.file "$work/bad.yml" >out 2>err
rc=$?
[ "$rc" = 2 ] || fail "bad web config: exit $rc, want 2: $(cat err)"
# shellcheck disable=SC2015 # fail exits
[ "$(wc -l <err)" = 1 ] && grep -q "$work/bad.yml: unknown key 'tls_server_config.client_auth_type'" err ||
	fail "bad web config said: $(cat err)"

"$TRIAGE" collect -i 1 --listen "127.0.0.1:$mport" --web.config.file "$work/web.yml" 2>collect.err &
started="$started $!"
wait_port "$mport" 10 || fail "collector not listening: $(cat collect.err)"
url="https://127.0.0.1:$mport"
for ((i = 0; i < 100; i++)); do
	[ "$(curl -s --cacert cert.pem -u "prom:$pass" -o /dev/null -w '%{http_code}' "$url/healthz")" = 200 ] && break
	sleep 0.1
done
[ $i -lt 100 ] || fail "no 200 over TLS with the password: $(cat collect.err)"

code=$(curl -s --cacert cert.pem -u "prom:wrong" -o /dev/null -w '%{http_code}' "$url/metrics")
[ "$code" = 401 ] || fail "wrong password: $code, want 401"
curl -s --cacert cert.pem -o /dev/null -D hdr "$url/metrics"
grep -qi '^www-authenticate: basic realm="triage"' hdr || fail "no password: $(head -1 hdr), no Basic challenge"
curl -s --cacert cert.pem -u "nobody:$pass" -o /dev/null -w '%{http_code}' "$url/metrics" | grep -qx 401 ||
	fail "unknown user not refused"
code=$(curl -s --max-time 5 -o plain.out -w '%{http_code}' "http://127.0.0.1:$mport/metrics")
# shellcheck disable=SC2015 # fail exits
[ "$code" = 000 ] && ! grep -qs triage_ plain.out || fail "plain HTTP to the TLS port answered $code: $(head -c 200 plain.out)"

cat >prometheus.yml <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: triage
    scheme: https
    tls_config:
      ca_file: $work/cert.pem
    basic_auth:
      username: prom
      password: '$pass'
    static_configs:
      - targets: ['127.0.0.1:$mport']
CONF
prometheus --config.file=prometheus.yml --storage.tsdb.path=tsdb \
	--web.listen-address="127.0.0.1:$pport" >prometheus.out 2>&1 &
started="$started $!"
wait_port "$pport" 30 || { tail prometheus.out; fail "prometheus did not listen"; }
api="http://127.0.0.1:$pport/api/v1/query"
query() { curl -s --get "$api" --data-urlencode "query=$1"; }
for ((i = 0; i < 300; i++)); do
	[ "$(query 'up{job="triage"}' | jq -r '.data.result[0].value[1] // empty')" = 1 ] && break
	sleep 0.1
done
[ $i -lt 300 ] || fail "prometheus never scraped over TLS: $(query 'up') $(curl -s "http://127.0.0.1:$pport/api/v1/targets" | jq -c '.data.activeTargets[0].lastError')"
# the host's own figures came through: the kernel's CPU count is the oracle
ncpu=$(query 'count(count by (cpu) (triage_cpu_seconds_total{job="triage"}))' | jq -r '.data.result[0].value[1] // empty')
[ "$ncpu" = "$(grep -c '^cpu[0-9]' /proc/stat)" ] || fail "prometheus saw $ncpu CPUs over TLS, /proc/stat has $(grep -c '^cpu[0-9]' /proc/stat)"
# a flood of wrong passwords: each refused (401, or 429 once the bcrypt
# checks run out, 4 a second); the scraper's cached password still passes
codes=$(for ((i = 0; i < 10; i++)); do echo "url = \"$url/metrics\""; echo "output = /dev/null"; done |
	curl -s --cacert cert.pem -u "prom:guess" -K - -w '%{http_code}\n' | sort | uniq -c | tr -s ' \n' ' ')
# "N code" pairs: only 401 and 429, ten in all
echo "$codes" | awk '{ for (i = 1; i < NF; i += 2) { if ($(i + 1) != 401 && $(i + 1) != 429) exit 1; n += $i }
	exit n != 10 }' || fail "ten wrong passwords answered: $codes"
code=$(curl -s --cacert cert.pem -u "prom:$pass" -o /dev/null -w '%{http_code}' "$url/metrics")
[ "$code" = 200 ] || fail "the right password during the flood: $code"
echo "wrong passwords: $codes(count code)"
echo "ok: prometheus scraped over TLS with basic auth (up 1, $ncpu CPUs as /proc/stat); wrong password 401, plain HTTP refused, bad config exit 2"
