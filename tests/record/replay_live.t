#!/bin/bash
# test: shared -- a fixture root and network namespaces named by its PID
# One window, two ways: a live 'triage report' and 'triage replay ... report'
# of what 'triage record' kept of the same window must say the same thing,
# byte for byte, for every finding, every checked line and every skipped
# line, but for what the replay's one "not recorded" line names.
#
# The same window for both: a fixture root (docs/fixtures.md), where every
# stepN/ is one sample for the live report and one interval for the
# recorder. Its tasks are tests/fixtures/pidstat/workloads (captured from
# real workloads: a spinner, threads, I/O); its TCP counters are this
# machine's, read from a live workload as tests/report/tcp_retrans.t makes
# it: TCP between two network namespaces of the test's own, joined by a veth
# pair, where the server's iptables drops 10% of the incoming data segments,
# so the client's kernel retransmits. Every step's stepN/proc/net/snmp and
# netstat are the client namespace's files, read 0.5 s apart.
#
# Oracle for the TCP figures: the kernel's own counters in those files (the
# last step less the first). Premise: the live report finds tcp-retransmits.
. "$SRC/tests/record/lib.sh" replay_live
command -v jq >/dev/null || skip "no jq (scripts/deps.sh test installs it)"
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, iptables)"
command -v ip >/dev/null || skip "ip (iproute2) is missing"
command -v iptables >/dev/null || skip "iptables is missing"
nc=triage_rl_$$_c ns=triage_rl_$$_s port=5002
undo() {
	local p
	for p in $started; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	ip netns del "$nc" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	cleanup
}
trap undo EXIT
ip netns add "$nc" || skip "cannot create network namespaces"
ip netns add "$ns" || fail "ip netns add $ns"
ip link add name trlc0 netns "$nc" type veth peer name trls0 netns "$ns" || skip "no veth support"
ip -n "$nc" addr add 10.98.0.1/24 dev trlc0 && ip -n "$nc" link set trlc0 up && ip -n "$nc" link set lo up &&
	ip -n "$ns" addr add 10.98.0.2/24 dev trls0 && ip -n "$ns" link set trls0 up && ip -n "$ns" link set lo up ||
	fail "cannot set up the veth pair"
ip netns exec "$ns" iptables -A INPUT -p tcp --dport "$port" ! --syn -m statistic --mode random \
	--probability 0.1 -j DROP || skip "iptables cannot add a statistic rule in a namespace"

ip netns exec "$ns" "$BUILD/workloads/report_tcp" server "$port" 30 >"$work/server" &
started="$started $!"
for _ in $(seq 50); do grep -q ready "$work/server" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/server" || fail "the server did not get ready"
ip netns exec "$nc" "$BUILD/workloads/report_tcp" client 10.98.0.2 "$port" 500 30 >"$work/client" &
started="$started $!"
for _ in $(seq 50); do grep -q ready "$work/client" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/client" || fail "the client did not get ready"

# the fixture: the captured tasks, this workload's TCP counters at every step
root=$work/root
cp -r "$SRC/tests/fixtures/pidstat/workloads" "$root"
steps=$(find "$root" -maxdepth 1 -name 'step*' | wc -l)
[ "$steps" -ge 3 ] || fail "the fixture has $steps steps"
for k in $(seq "$steps"); do
	mkdir -p "$root/step$k/proc/net"
	ip netns exec "$nc" cat /proc/net/snmp >"$root/step$k/proc/net/snmp"
	ip netns exec "$nc" cat /proc/net/netstat >"$root/step$k/proc/net/netstat"
	[ "$k" = "$steps" ] || sleep 0.5
done
tcp() { # STEP FIELD: a Tcp: counter of that step's snmp
	awk -v f="$2" '$1 == "Tcp:" && !n { for (i = 2; i <= NF; i++) h[i] = $i; n = 1; next }
		$1 == "Tcp:" { for (i = 2; i <= NF; i++) if (h[i] == f) print $i }' "$root/step$1/proc/net/snmp"
}
re=$(($(tcp "$steps" RetransSegs) - $(tcp 1 RetransSegs)))
out=$(($(tcp "$steps" OutSegs) - $(tcp 1 OutSegs)))
echo "the kernel: $re of $out segments retransmitted between the first and last step"

# live, over the window
"$TRIAGE" report --root "$root" --no-bpf >"$work/live.txt" 2>"$work/err" || fail "report: $(cat "$work/err")"
"$TRIAGE" report --root "$root" --no-bpf --json >"$work/live.json" || fail "report --json"
# recorded, then replayed
db=$work/r.db
"$TRIAGE" record -o "$db" --root "$root" 2>"$work/err" || fail "record: $(cat "$work/err")"
[ "$(q "$db" 'SELECT count(*) FROM interval')" = "$steps" ] || fail "not one interval per step"
"$TRIAGE" replay "$db" report >"$work/replay.txt" 2>"$work/err" || fail "replay: $(cat "$work/err")"
"$TRIAGE" replay "$db" report --json >"$work/replay.json" || fail "replay --json"

# the premise, against the kernel's counters
jq -e --argjson re "$re" --argjson out "$out" '[.findings[] | select(.kind == "tcp-retransmits")
	| select(any(.evidence[]; .metric == "retrans_segs" and .value == $re)
		and any(.evidence[]; .metric == "out_segs" and .value == $out))] | length == 1' \
	"$work/live.json" >/dev/null ||
	fail "premise: no tcp-retransmits finding of $re of $out segments: $(jq -c '.findings[] | [.kind, .evidence]' "$work/live.json")"
echo "ok: premise: the live report finds tcp-retransmits, $re of $out, the kernel's figures"

# the mask: one line, naming what a recording does not keep
mask=$(awk '/^Skipped/ { s = 1 } s && $1 == "source" { sub(/^  source +/, ""); print }' "$work/replay.txt")
[ "$mask" = "not recorded: cgroups, kernel log, eBPF, softirqs, conntrack table, filesystems, descriptors, parents, forks, futex waits, softnet backlog, pid_max and threads-max, listening sockets, UDP counters and sockets" ] || fail "the mask line: '$mask'"
# what the live report skipped for the parts the mask names
masked='^  (cgroups|kernel-log|softirqs|softnet|filesystem|fd|pids|ebpf[a-z-]*) '
section() { # FILE FIRST-LINE: the lines of one section
	awk -v h="$2" '$0 == h { s = 1; print; next } s && /^$/ { exit } s' "$1"
}
for part in "host " Findings "Checked, fine"; do
	if [ "$part" = "host " ]; then
		sed -n '1p' "$work/live.txt" >"$work/a"
		sed -n '1p' "$work/replay.txt" >"$work/b"
	else
		section "$work/live.txt" "$part" >"$work/a"
		section "$work/replay.txt" "$part" >"$work/b"
	fi
	diff -u --label live --label replay "$work/a" "$work/b" || fail "$part differs"
done
section "$work/live.txt" Skipped | grep -Ev "$masked" >"$work/a"
section "$work/replay.txt" Skipped | grep -v '^  source ' >"$work/b"
diff -u --label live --label replay "$work/a" "$work/b" || fail "the skipped lines differ beyond the mask"
# the same in JSON: findings and checked equal as data
for key in headline findings checked; do
	cmp -s <(jq -S ".$key" "$work/live.json") <(jq -S ".$key" "$work/replay.json") ||
		fail "JSON .$key differs: $(diff <(jq -S ".$key" "$work/live.json") <(jq -S ".$key" "$work/replay.json") | head -10)"
done
n=$(jq '.findings | length' "$work/live.json")
echo "ok: $n findings, the checked lines and the skipped ones (but the mask's) byte-identical live and replayed"
