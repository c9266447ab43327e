#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a full conntrack table. A network namespace of the test's own
# (triage_rs_PID_ct) gets an nftables output hook that needs conntrack
# (`ct state new`), and sends one UDP datagram from each of 300 fresh
# sockets to 127.0.0.1 (300 flows, unreplied: kept nf_conntrack_udp_timeout,
# 30 s, which the test raises to an hour in its namespace: on a loaded
# machine the report once finished after the entries expired). A child namespace
# cannot lower nf_conntrack_max (read-only there), so the test lowers the
# host's to 256 for the run and puts it back in the EXIT trap (the host's
# own namespace tracks nothing here: its count stays 0); each namespace's
# entries count against it, so this namespace's table fills at 256 and the
# kernel drops the rest ("nf_conntrack: table full, dropping packet").
# How the report sees it: /proc/sys/net/netfilter is per network namespace;
# the report runs inside it (`ip netns exec`, as in a container).
# Expected: the first warning or critical finding that is not background is
# a critical conntrack-full whose count and max are the kernel's.
# Premise, from the kernel: nf_conntrack_count == nf_conntrack_max == 256
# in the namespace before and after the report, and the namespace's
# /proc/net/stat/nf_conntrack counted drops.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
command -v ip >/dev/null || skip "ip (iproute2) is missing"
command -v nft >/dev/null || skip "nft is missing"
ctdir=/proc/sys/net/netfilter
[ -r $ctdir/nf_conntrack_max ] || skip "conntrack is not loaded (no $ctdir/nf_conntrack_max)"
ns=triage_rs_$$_ct max=256
ip netns add "$ns" || skip "cannot create network namespaces"
rs_undo "ip netns del '$ns'"
# One run at a time changes the host's max: two runs side by side (other
# engineers on this machine) would each save the other's 256 as "old" and
# leave it behind. The lock is released when the test's shell exits.
exec {lock}>/run/lock/triage_conntrack_max
flock -w 120 "$lock" || fail "another run held /run/lock/triage_conntrack_max for 2 minutes"
old=$(cat $ctdir/nf_conntrack_max)
rs_undo "echo $old >$ctdir/nf_conntrack_max"
in_ns() { ip netns exec "$ns" "$@"; }
in_ns ip link set lo up || fail "lo up in $ns"
in_ns nft add table inet triage_ct && in_ns nft add chain inet triage_ct out '{ type filter hook output priority 0; }' &&
	in_ns nft add rule inet triage_ct out ct state new counter || skip "nft cannot add a conntrack rule in a namespace"
echo $max >$ctdir/nf_conntrack_max || fail "cannot set nf_conntrack_max"
# the namespace's own timeout (gone with it): the entries outlive the report
in_ns sh -c "echo 3600 >$ctdir/nf_conntrack_udp_timeout" || fail "cannot set the namespace's nf_conntrack_udp_timeout"
in_ns bash -c 'for i in $(seq 300); do echo x >/dev/udp/127.0.0.1/$((20000 + i)); done' 2>/dev/null
ct() { in_ns cat $ctdir/nf_conntrack_count; }
drops() { # the drop column (hex, per CPU) of the namespace's conntrack statistics
	local s=0 h
	for h in $(in_ns awk 'NR > 1 { print $11 }' /proc/net/stat/nf_conntrack); do s=$((s + 16#$h)); done
	echo $s
}
c0=$(ct)
RS_WRAP="ip netns exec $ns" rs_report "$RS_TMP/r.json" -d 2 --no-bpf
out=$RS_TMP/r.json
c1=$(ct) dr=$(drops)
[ "$c0" = $max ] && [ "$c1" = $max ] && [ "${dr:-0}" -gt 0 ] ||
	fail "premise: the namespace's table held $c0 then $c1 of $max entries, $dr drops (want full, drops > 0)"
echo "ok: premise: $c1 of $max entries in $ns, $dr packets dropped"

mine=".kind == \"conntrack-full\" and .severity == \"critical\"
	and (.evidence[] | select(.metric == \"conntrack_count\") | .value) == $max
	and (.evidence[] | select(.metric == \"conntrack_max\") | .value) == $max"
rs_expect "$out" "critical conntrack-full, $max of $max entries" "$mine"
first=$(jq -c --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' "(\$o[0]) as \$o | $RS_DEFS
	[.findings[] | select(.severity == \"warning\" or .severity == \"critical\")
	| select(($mine) or (($RS_BACKGROUND) | not))][0].kind" "$out") || fail "jq failed"
[ "$first" = '"conntrack-full"' ] || fail "the first finding not in the background is $first"
echo "ok: conntrack-full comes first"
rs_judge "$out" "$mine" false
