#!/usr/bin/env bash
# test: shared -- two network namespaces named by its PID; the counts are its own frames
# triage u32 test -i: a dry run on live traffic. A veth pair between two
# namespaces; triage listens on the receiver's end for 2 s with the TLS and
# DNS recipes and a plain port rule, no rule installed; the sender injects
# a known set of frames (some for each rule, some for none) and the counts
# must be exactly the number of frames built to match each rule.
set -u
: "${TRIAGE:?}" "${SRC:?}"
skip() { echo "$1"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v python3 >/dev/null || skip "python3 not installed"

. "$SRC/tests/u32/lib.sh" --netns u32l
work=$(mktemp -d /tmp/u32-live.XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	u32_netns_del
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
u32_veth_pair

tls=$("$TRIAGE" u32 recipe tls-client-hello | sed 's/^iptables -I FORWARD //')
dns=$("$TRIAGE" u32 recipe dns-query www.example.com | sed 's/^iptables -I INPUT //')
# the sender builds its frames first, then waits for the go (a slow start
# of python would otherwise race the capture window)
mkfifo "$work/go"
ip netns exec "$TX" python3 - "$SRC/tests/u32" "$rxmac" "$work/go" <<'PY' &
import socket, sys
sys.path.insert(0, sys.argv[1])
import gen_captures as g
dst = bytes.fromhex(sys.argv[2].replace(":", ""))
frames = []
frames += [g.ipv4(6, g.tcp(g.tls_hello(1, 0x0301), sport=40000 + k)) for k in range(4)]  # TLS: 4
frames += [g.ipv4(6, g.tcp(g.tls_hello(2, 0x0301))) for _ in range(2)]  # ServerHello
frames += [g.ipv4(17, g.udp(g.dns("www.example.com", 1), sport=41000 + k)) for k in range(5)]  # DNS
frames += [g.ipv4(17, g.udp(g.dns("www.example.org", 1))) for _ in range(3)]  # port 53 only
frames += [g.ipv4(17, g.udp(g.dns("www.example.com", 1), dport=5353)) for _ in range(2)]  # none
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("u32tx", 0))
open(sys.argv[3]).read()  # the go
for ip in frames:
    s.send(dst + g.ETH_TX + b"\x08\x00" + ip)
PY
sender=$!
# -d 30 is only a bound: SIGTERM (as Ctrl-C) ends the run once all is sent
ip netns exec "$RX" "$TRIAGE" u32 test -i u32rx -d 30 --json \
	"$tls" -- "$dns" -- -p udp --dport 53 >"$work/out.json" 2>"$work/err" &
pid=$!
# triage says so on stderr once the capture is open
for _ in $(seq 500); do
	grep -q "listening on" "$work/err" && break
	sleep 0.02
done
grep -q "listening on" "$work/err" || { echo "triage never opened the capture"; cat "$work/err"; exit 1; }
echo go >"$work/go"
wait "$sender" || { echo "sender failed"; exit 1; }
kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" = 0 ] || { echo "triage u32 test -i failed ($rc)"; cat "$work/err"; exit 1; }
python3 - "$work/out.json" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))
got = [r["pkts"] for r in out["rules"]]
want = [4, 5, 8]  # TLS ClientHellos, DNS A www.example.com, everything to udp/53
flows = out["rules"][1]["top_flows"]
print("live dry run on %s: %s packets matched per rule, %d frames seen (want %s)"
      % (out["interface"], got, out["frames"], want))
ok = got == want and len(flows) == 5 and all(f["pkts"] == 1 for f in flows) \
    and flows[0]["flow"].startswith("udp 10.201.0.1:")
sys.exit(0 if ok else 1)
PY
