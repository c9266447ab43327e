#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a TCP listener whose accept queue overflows. In a network
# namespace of the test's own (triage_rs_PID_lo), report_listen listens on
# 0.0.0.0:8080 with backlog 1 and never accepts; clients in the same
# namespace start 200 connects a second. Once two connections wait, the
# kernel drops every further SYN (TcpExt ListenOverflows), and the clients
# send their SYNs again (TCPSynRetrans, counted in RetransSegs too).
# The report runs on the host, as an operator's would: it finds the
# namespace through its processes.
# Expected: the first warning or critical finding not in the background is
# a critical tcp-listen-overflows naming the listener's PID and port 8080,
# its accept queue above its backlog; no tcp-retransmits finding about
# that namespace (its SYNs were dropped by the server, not lost on the
# way), and none anywhere claiming more than 100%.
# Premise, from the kernel: the namespace's /proc/net/netstat counted
# ListenOverflows at least once a second over the run.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
command -v ip >/dev/null || skip "ip (iproute2) is missing"
ns=triage_rs_$$_lo port=8080
ip netns add "$ns" || skip "cannot create network namespaces"
rs_undo "ip netns del '$ns'"
in_ns() { ip netns exec "$ns" "$@"; }
in_ns ip link set lo up || fail "lo up in $ns"
overflows() { in_ns awk '$1 == "TcpExt:" { if (!n) { for (i = 2; i <= NF; i++) h[$i] = i; n = 1 } else print $h["ListenOverflows"] }' /proc/net/netstat; }
rs_start ip netns exec "$ns" "$BUILD/workloads/report_listen" server $port 1 30
LISTENER=$(rs_said listener)
rs_start ip netns exec "$ns" "$BUILD/workloads/report_listen" clients 127.0.0.1 $port 200 30
t0=$(date +%s.%N) o0=$(overflows)
rs_report "$RS_TMP/r.json" -d 2 --no-bpf
out=$RS_TMP/r.json
t1=$(date +%s.%N) o1=$(overflows)
awk -v a="$o0" -v b="$o1" -v s="$(awk -v x="$t0" -v y="$t1" 'BEGIN { print y - x }')" 'BEGIN { exit !(b - a >= s) }' ||
	fail "premise: ListenOverflows in $ns grew from $o0 to $o1 (want at least one a second)"
echo "ok: premise: ListenOverflows in $ns grew by $((o1 - o0))"

mine=".kind == \"tcp-listen-overflows\" and .severity == \"critical\" and .subject.pid == $LISTENER
	and (.evidence[] | select(.metric == \"port\") | .value) == $port
	and ((.evidence[] | select(.metric == \"accept_queue\") | .value)
		> (.evidence[] | select(.metric == \"backlog\") | .value))
	and (.evidence[] | select(.metric == \"listen_overflows\") | .value) as \$n | \$n > 0 and \$n <= $((o1 - o0))"
rs_expect "$out" "critical tcp-listen-overflows naming listener $LISTENER on port $port" "$mine"
first=$(jq -c --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' "(\$o[0]) as \$o | $RS_DEFS
	[.findings[] | select(.severity == \"warning\" or .severity == \"critical\")
	| select(($mine) or (($RS_BACKGROUND) | not))][0].kind" "$out") || fail "jq failed"
[ "$first" = '"tcp-listen-overflows"' ] || fail "the first finding not in the background is $first"
echo "ok: tcp-listen-overflows comes first"
jq -e --argjson l "$LISTENER" '[.findings[] | select(.kind == "tcp-retransmits")
	| select((.subject.pids // []) | index($l)) ] | length == 0' "$out" >/dev/null ||
	fail "tcp-retransmits took the listener's namespace's SYN retransmits for loss"
jq -e '[.findings[] | select(.kind == "tcp-retransmits") | .evidence[] | select(.metric == "retrans" and .value > 100)]
	| length == 0' "$out" >/dev/null || fail "a tcp-retransmits finding claims more than 100%"
echo "ok: no tcp-retransmits finding about the namespace, none above 100%"
rs_judge "$out" "$mine" false
