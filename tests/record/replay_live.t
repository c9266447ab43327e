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
# The kinds of issue 28, made in the same fixture (the figures the kernel would
# give in those faults; each file below is what the report reads for one):
fault_step() { # STEP: the faults' files of one step
	local k=$1 d=$root/step$1 i
	# filesystem-full and inodes-full: / 100% used, /dev/shm with no inode free;
	# 8361 writes to / (an fdinfo open for writing on mount 26)
	mkdir -p "$d/proc/self" "$d/proc/sys/fs" "$d/proc/sys/kernel" "$d/proc/sys/net/netfilter" \
		"$d/proc/8361/fdinfo"
	printf '26 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw\n29 26 0:26 / /dev/shm rw - tmpfs tmpfs rw\n' \
		>"$d/proc/self/mountinfo"
	printf '/ 4096 1000000 0 0 655360 600000\n/dev/shm 4096 256 200 200 3000 0\n' \
		>"$d/statvfs"
	printf 'pos:\t0\nflags:\t0100001\nmnt_id:\t26\n' >"$d/proc/8361/fdinfo/7"
	# fd-exhaustion: 8362 has 60 descriptors open of a limit of 64; the system 9500 of 10000
	mkdir -p "$d/proc/8362/fd"
	for i in {0..59}; do : >"$d/proc/8362/fd/$i"; done
	printf 'Limit                     Soft Limit           Hard Limit           Units     \nMax open files            64                   64                   files     \n' \
		>"$d/proc/8362/limits"
	printf '9500\t0\t10000\n' >"$d/proc/sys/fs/file-nr"
	echo 10000 >"$d/proc/sys/fs/file-max"
	# pid-exhaustion: 150 tasks against threads-max 160
	printf '0.50 0.40 0.30 3/150 9100\n' >"$d/proc/loadavg"
	echo 32768 >"$d/proc/sys/kernel/pid_max"
	echo 160 >"$d/proc/sys/kernel/threads-max"
	# conntrack-full: 91.5% of the table
	echo $((240000 + k)) >"$d/proc/sys/net/netfilter/nf_conntrack_count"
	echo 262144 >"$d/proc/sys/net/netfilter/nf_conntrack_max"
	# process-churn: 2,000 forks a step (about 480/s over the window)
	sed -i "s/^processes .*/processes $((8440 + 2000 * k))/" "$d/proc/stat"
	# zombies: 60 children of 8364 that it never waits for (bash builtins: 300 files)
	mkdir -p "$d"/proc/{9001..9060}
	for i in {9001..9060}; do
		printf '%s\n' "$i (defunct) Z 8364 ${zstat#* S 8359 }" >"$d/proc/$i/stat"
		printf '%s\n' "${zstatus//@PID@/$i}" >"$d/proc/$i/status"
	done
	# udp-drops: 8363's socket (inode 31337) drops 1,000 datagrams a step
	mkdir -p "$d/proc/8363/fd" "$d/proc/8364/fd"
	ln -sfn 'socket:[31337]' "$d/proc/8363/fd/9"
	printf '   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n  371: 00000000:3039 00000000:0000 07 00000000:00001100 00:00000000 00000000  1000        0 31337 2 0000000000000000 %d\n' \
		$((1000 * k)) >"$d/proc/net/udp"
	awk -v k="$k" '$1 == "Udp:" && !n { for (i = 2; i <= NF; i++) h[i] = $i; n = 1; print; next }
		$1 == "Udp:" { for (i = 2; i <= NF; i++) if (h[i] == "RcvbufErrors" || h[i] == "InErrors") $i += 1000 * k }
		{ print }' "$d/proc/net/snmp" >"$d/snmp" && mv "$d/snmp" "$d/proc/net/snmp"
	# tcp-listen-overflows: 8364 listens on 127.0.0.1:8080 (inode 50001) with 2 in its queue
	ln -sfn 'socket:[50001]' "$d/proc/8364/fd/5"
	printf '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:1F90 00000000:0000 0A 00000000:00000002 00:00000000 00000000  1000        0 50001 1 0000000000000000 100 0 0 10 0\n' \
		>"$d/proc/net/tcp"
	awk -v k="$k" '$1 == "TcpExt:" && !n { for (i = 2; i <= NF; i++) h[i] = $i; n = 1; print; next }
		$1 == "TcpExt:" { for (i = 2; i <= NF; i++) if (h[i] == "ListenOverflows" || h[i] == "ListenDrops") $i += 300 * k }
		{ print }' "$d/proc/net/netstat" >"$d/netstat" && mv "$d/netstat" "$d/proc/net/netstat"
	# net-drops (softnet): CPU 1's backlog drops 40 packets a step
	printf '%08x 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n%08x %08x 00000010 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001\n' \
		$((1000 * k)) $((2000 * k)) $((40 * k)) >"$d/proc/net/softnet_stat"
	# cpu-steal on CPU 0 (the hypervisor takes 50 ticks a step) and irq-saturated on
	# CPU 1 (150 ticks of softirq a step, NET_RX below)
	awk -v k="$k" '$1 == "cpu" { $8 += 150 * k; $9 += 50 * k } $1 == "cpu0" { $9 += 50 * k }
		$1 == "cpu1" { $8 += 150 * k } { print }' "$d/proc/stat" >"$d/stat" && mv "$d/stat" "$d/proc/stat"
	# lock-contention: 8364's three threads switch 400 times a step each, use no
	# CPU (its busy thread's counters stay at step 1's), and all wait in a futex
	# on one word at the window's end
	[ "$k" = 1 ] || cp "$root/step1/proc/8364/stat" "$d/proc/8364/stat"
	[ "$k" = 1 ] || cp "$root/step1/proc/8364/task/8367/stat" "$d/proc/8364/task/8367/stat"
	for i in 8364 8367 8368; do
		for f in "$d/proc/8364/task/$i/status" $([ $i = 8364 ] && echo "$d/proc/8364/status"); do
			awk -v add=$((400 * k)) 'BEGIN { FS = OFS = "\t" }
				$1 == "voluntary_ctxt_switches:" { $2 += add } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
		done
		echo '202 0x7f12a0001000 0x80 0x2 0x0 0x0 0x0 0x7ffd1c0 0x7f12a3c4' >"$d/proc/8364/task/$i/syscall"
	done
	# the softirq vectors (which one runs on which CPU)
	printf '                    CPU0       CPU1       \n          HI:          1          0\n       TIMER:     %d      90000\n      NET_RX:     100     %d\n' \
		$((100000 + 250 * k)) $((5000 + 9000 * k)) >"$d/proc/softirqs"
}
zstat=$(<"$root/step1/proc/8365/stat")
zstatus=$(sed 's/^Name:.*/Name:\tdefunct/; s/^State:.*/State:\tZ (zombie)/; s/^Pid:.*/Pid:\t@PID@/;
	s/^PPid:.*/PPid:\t8364/' "$root/step1/proc/8365/status")
for k in $(seq "$steps"); do fault_step "$k"; done
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

# the premise for issue 28's kinds: each fires live, on what the fixture holds
for kind in filesystem-full inodes-full fd-exhaustion pid-exhaustion conntrack-full process-churn \
	zombies udp-drops tcp-listen-overflows net-drops lock-contention cpu-steal irq-saturated; do
	jq -e --arg k "$kind" '[.findings[] | select(.kind == $k)] | length > 0' "$work/live.json" >/dev/null ||
		fail "premise: the live report has no $kind: $(jq -c '[.findings[].kind]' "$work/live.json")"
done
# their subjects, as the fixture names them
jq -e '[.findings[] | select(.kind == "filesystem-full") | .subject | select(.mount == "/" and (.pids | index(8361)))] | length == 1' \
	"$work/live.json" >/dev/null || fail "premise: filesystem-full does not name / and its writer 8361"
jq -e '[.findings[] | select(.kind == "fd-exhaustion" and .subject.pid == 8362)] | length == 1' \
	"$work/live.json" >/dev/null || fail "premise: fd-exhaustion does not name 8362"
jq -e '[.findings[] | select(.kind == "zombies" and .subject.pid == 8364)] | length == 1' \
	"$work/live.json" >/dev/null || fail "premise: zombies does not name their parent 8364"
jq -e '[.findings[] | select(.kind == "udp-drops" and .subject.pid == 8363)] | length == 1' \
	"$work/live.json" >/dev/null || fail "premise: udp-drops does not name the receiver 8363"
jq -e '[.findings[] | select(.kind == "tcp-listen-overflows" and .subject.pid == 8364)] | length == 1' \
	"$work/live.json" >/dev/null || fail "premise: tcp-listen-overflows does not name the listener 8364"
jq -e '[.findings[] | select(.kind == "lock-contention" and .subject.pid == 8364)] | length == 1' \
	"$work/live.json" >/dev/null || fail "premise: lock-contention does not name 8364"
echo "ok: premise: the live report finds the fixture's faults, with their subjects"

# the mask: one line, naming only what a recording does not keep
mask=$(awk '/^Skipped/ { s = 1 } s && $1 == "source" { sub(/^  source +/, ""); print }' "$work/replay.txt")
[ "$mask" = "not recorded: cgroups, kernel log, eBPF" ] || fail "the mask line: '$mask'"
same_live_and_replay "$work"
n=$(jq '.findings | length' "$work/live.json")
echo "ok: $n findings, the checked lines and the skipped ones (but the mask's) byte-identical live and replayed"
