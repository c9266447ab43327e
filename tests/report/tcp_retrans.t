#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: TCP between two network namespaces of the test's own
# (triage_rs_PID_c and _s, joined by a veth pair that exists only inside
# them), where the server side's iptables drops 10% of the incoming data
# segments at random (`-m statistic --mode random --probability 0.1`, in the
# server's namespace only; SYNs are spared so connecting never waits for a
# retry). report_tcp's client sends 500 segments of 1000 bytes a second with
# TCP_NODELAY; the client's kernel retransmits what was dropped.
# How the report sees it: /proc/net/snmp is per network namespace. Run 1:
# the report runs inside the client's namespace (`ip netns exec`), where
# the retransmits are counted as its own; the kernel's counters for the
# oracle are read there too. Run 2: the report runs in the test's own
# (host) namespace, where nothing is retransmitted, and must find the
# client's namespace through the client process (/proc/PID/net).
# Expected: run 1, a warning or critical tcp-retransmits finding whose
# subject, if it names PIDs, names only the client/server, and whose
# retrans_segs over the report's window is within 35% (+3) of the rate the
# kernel counted around the run; run 2, a warning or critical
# tcp-retransmits finding whose subject.pid is the client.
# Premise, from the kernel over run 1: RetransSegs in the client's
# namespace grew by >= 10/s (the drop rate alone predicts ~50/s), and the
# iptables rule's own packet counter shows drops.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
command -v ip >/dev/null || skip "ip (iproute2) is missing"
command -v iptables >/dev/null || skip "iptables is missing"
nc=triage_rs_$$_c ns=triage_rs_$$_s port=5001
ip netns add "$nc" || skip "cannot create network namespaces"
rs_undo "ip netns del '$nc'"
ip netns add "$ns" || fail "ip netns add $ns"
rs_undo "ip netns del '$ns'"
ip link add name trc0 netns "$nc" type veth peer name trs0 netns "$ns" || skip "no veth support"
ip -n "$nc" addr add 10.99.0.1/24 dev trc0 && ip -n "$nc" link set trc0 up && ip -n "$nc" link set lo up &&
	ip -n "$ns" addr add 10.99.0.2/24 dev trs0 && ip -n "$ns" link set trs0 up && ip -n "$ns" link set lo up ||
	fail "cannot set up the veth pair"
rule=(INPUT -p tcp --dport "$port" ! --syn -m statistic --mode random --probability 0.1 -j DROP)
ip netns exec "$ns" iptables -A "${rule[@]}" ||
	skip "iptables cannot add a statistic rule in a namespace (xt_statistic missing?)"
drops() { ip netns exec "$ns" iptables -L INPUT -v -x -n | awk '$3 == "DROP" { print $1 }'; }

rs_start ip netns exec "$ns" "$BUILD/workloads/report_tcp" server "$port" 30
server=$(rs_said server)
rs_start ip netns exec "$nc" "$BUILD/workloads/report_tcp" client 10.99.0.2 "$port" 500 30
client=$(rs_said client)
d0=$(drops)
RS_WATCH="$client $server" RS_WRAP="ip netns exec $nc" rs_report "$RS_TMP/r.json" -d 4
out=$RS_TMP/r.json
d1=$(drops)

rate=$(rs_oracle_get "$out" .retrans_per_s)
awk -v r="$rate" -v d=$((d1 - d0)) 'BEGIN { exit !(r >= 10 && d > 0) }' ||
	fail "premise: $rate retransmits/s in $nc, iptables dropped $((d1 - d0)) (want >= 10/s and > 0)"
echo "ok: premise: $rate retransmits/s in $nc; the rule dropped $((d1 - d0)) segments"

mine=".kind == \"tcp-retransmits\" and (.severity | IN(\"warning\", \"critical\"))
	and ($(rs_subject_pids) | all(. == $client or . == $server))
	and ((.subject.interface // \"trc0\") | IN(\"trc0\", \"lo\"))"
rs_expect "$out" "tcp-retransmits in the client's namespace" "$mine"
jq -e --argjson r "$rate" ".window.seconds as \$s | [.findings[] | select($mine) | .evidence[]
	| select(.metric == \"retrans_segs\") | .value / \$s | . - \$r | fabs <= 0.35 * \$r + 3] | any" "$out" >/dev/null ||
	fail "retrans_segs over the window is not within 35% of the kernel's $rate/s: $(jq -c '[.window, (.findings[] | select(.kind == "tcp-retransmits") | .evidence)]' "$out")"
echo "ok: retrans_segs per second of the window within 35% of the kernel's $rate/s"
rs_judge "$out" "$mine" false trc0 trs0

# Run 2, from the host's namespace.
RS_WATCH="$client $server" rs_report "$RS_TMP/host.json" -d 3
out=$RS_TMP/host.json
mine=".kind == \"tcp-retransmits\" and (.severity | IN(\"warning\", \"critical\")) and .subject.pid == $client"
rs_expect "$out" "tcp-retransmits found from the host, naming the client $client" "$mine"
rs_judge "$out" "$mine" false trc0 trs0
