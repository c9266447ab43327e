#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a UDP receiver that cannot keep up. In a network namespace of
# the test's own (triage_rs_PID_udp), report_udp binds 0.0.0.0:5000 with a
# 4 KB SO_RCVBUF and reads one datagram every 100 ms; a sender in the same
# namespace sends it 5,000 1000-byte datagrams a second. The kernel drops
# almost all of them for the full buffer (Udp RcvbufErrors and the
# socket's drops column). The report runs on the host, as an operator's
# would: it finds the namespace through its processes.
# Expected: the first warning or critical finding not in the background is
# a critical udp-drops naming the receiver's PID and port 5000, its drop
# count no more than the namespace's RcvbufErrors over the run.
# Premise, from the kernel: the namespace's /proc/net/snmp counted
# RcvbufErrors at 100 a second or more over the run.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
command -v ip >/dev/null || skip "ip (iproute2) is missing"
ns=triage_rs_$$_udp port=5000
ip netns add "$ns" || skip "cannot create network namespaces"
rs_undo "ip netns del '$ns'"
in_ns() { ip netns exec "$ns" "$@"; }
in_ns ip link set lo up || fail "lo up in $ns"
rcvbuf_errors() { in_ns awk '$1 == "Udp:" { if (!n) { for (i = 2; i <= NF; i++) h[$i] = i; n = 1 } else print $h["RcvbufErrors"] }' /proc/net/snmp; }
rs_start ip netns exec "$ns" "$BUILD/workloads/report_udp" recv $port 4096 30
RECEIVER=$(rs_said receiver)
rs_start ip netns exec "$ns" "$BUILD/workloads/report_udp" send 127.0.0.1 $port 5000 30
t0=$(date +%s.%N) e0=$(rcvbuf_errors)
rs_report "$RS_TMP/r.json" -d 2 --no-bpf
out=$RS_TMP/r.json
t1=$(date +%s.%N) e1=$(rcvbuf_errors)
awk -v a="$e0" -v b="$e1" -v s="$(awk -v x="$t0" -v y="$t1" 'BEGIN { print y - x }')" 'BEGIN { exit !(b - a >= 100 * s) }' ||
	fail "premise: RcvbufErrors in $ns grew from $e0 to $e1 (want 100 a second or more)"
echo "ok: premise: RcvbufErrors in $ns grew by $((e1 - e0))"

mine=".kind == \"udp-drops\" and .severity == \"critical\" and .subject.pid == $RECEIVER
	and (.evidence[] | select(.metric == \"port\") | .value) == $port
	and (.evidence[] | select(.metric == \"socket_drops\") | .value) > 0
	and (.evidence[] | select(.metric == \"rcvbuf_errors\") | .value) as \$n | \$n > 0 and \$n <= $((e1 - e0))"
rs_expect "$out" "critical udp-drops naming receiver $RECEIVER on port $port" "$mine"
first=$(jq -c --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' "(\$o[0]) as \$o | $RS_DEFS
	[.findings[] | select(.severity == \"warning\" or .severity == \"critical\")
	| select(($mine) or (($RS_BACKGROUND) | not))][0].kind" "$out") || fail "jq failed"
[ "$first" = '"udp-drops"' ] || fail "the first finding not in the background is $first"
echo "ok: udp-drops comes first"
rs_judge "$out" "$mine" false
