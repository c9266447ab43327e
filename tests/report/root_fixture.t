#!/usr/bin/env bash
# test: shared -- fixture roots
# triage report end to end over fixture roots (docs/fixtures.md) built here,
# two steps 10 s apart. The faulty root holds one fault per rule family;
# every expected value below follows from the numbers this script writes:
#   - PID 4711 relay: 950 user + 20 system ticks at hz 100 in 10 s = 95% + 2%
#     of one CPU, one thread on CPU 1 of 0-1, 164 involuntary switches/s
#     -> first finding cpu-bound-user, critical, profile command
#   - PID 500/501 in D on wait_for_vfork_done at both steps -> load-uninterruptible
#   - loop9: io_ticks +9500 ms in 10 s = 95% util, 5000 reads that took
#     40000 ms (await 8 ms) and time in queue +40000 ms (aqu-sz 4.0): busy
#     and queueing -> disk-saturated; and the
#     kernel log's "I/O error, dev loop9" inside the window -> disk-errors
#   - eth0: 50 rx drops in 10 s -> net-drops
#   - TCP: RetransSegs +100 of OutSegs +2000 = 5% -> tcp-retransmits warning
#   - cgroup v2 /capped: 80 of 100 periods throttled -> cpu-throttled, PIDs 600
#   - cgroup v2 /squeezed: memory.events high +25 -> memory-pressure, PID 700
#   - the same two faults in cgroup v1 files (a third root): throttled_time
#     +6e9 ns = 6 s, memory.failcnt +25
#   - kernel log: an OOM kill of PID 800 inside the window (in), one 400 s
#     before it (out: older than the 300 s look-back)
# The quiet root has the same tasks idle and no event: nothing warning or critical.
set -u
TRIAGE=${TRIAGE:-build/triage}
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/triage_report_fx.$$.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# stat_line PID COMM STATE UTIME STIME CPU NTHREADS MAJFLT
stat_line() {
	echo "$1 ($2) $3 1 $1 $1 0 -1 4194304 100 0 $8 0 $4 $5 0 0 20 0 $7 0 500 1000000 100 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 $6 0 0 0 0 0"
}
# task DIR PID COMM STATE UTIME STIME CPU VOL INVOL WAIT_NS MAJFLT
task() {
	local d=$1/$2
	mkdir -p "$d/task/$2"
	stat_line "$2" "$3" "$4" "$5" "$6" "$7" 1 "${11}" >"$d/stat"
	printf 'Name:\t%s\nState:\t%s\nTgid:\t%s\nPid:\t%s\nPPid:\t1\nUid:\t0\t0\t0\t0\nThreads:\t1\nCpus_allowed_list:\t0-1\nvoluntary_ctxt_switches:\t%s\nnonvoluntary_ctxt_switches:\t%s\n' \
		"$3" "$4" "$2" "$2" "$8" "$9" >"$d/status"
	echo "$(($5 + $6))0000000 ${10} 10" >"$d/schedstat"
	echo "0::/" >"$d/cgroup"
	[ "$4" = D ] && echo wait_for_vfork_done >"$d/wchan"
	for f in stat status schedstat cgroup; do cp "$d/$f" "$d/task/$2/$f"; done
	[ "$4" = D ] && cp "$d/wchan" "$d/task/$2/wchan"
	return 0
}

# step ROOT N FAULTY: one snapshot; N=1 at uptime 1000 s, N=2 at 1010 s.
step() {
	local p=$1/step$2/proc k=$(($2 - 1)) bad=$3 relay_u relay_s
	mkdir -p "$p/net" "$p/pressure"
	echo "$((1000 + 10 * k)).00 1500.00" >"$p/uptime"
	echo "$((1700000000 + 10 * k))" >"$1/step$2/time"
	if [ "$bad" = 1 ]; then busy=$((1000 * k)); else busy=$((50 * k)); fi
	# per CPU: CPU 1 carries the relay; 1000 ticks per CPU per 10 s
	printf 'cpu  %d 0 %d %d 0 0 0 0 0 0\ncpu0 %d 0 %d %d 0 0 0 0 0 0\ncpu1 %d 0 %d %d 0 0 0 0 0 0\nctxt 100\nprocs_running 1\nprocs_blocked 0\n' \
		$((busy + 10 * k)) $((5 * k)) $((2000 * k - busy - 15 * k)) \
		$((10 * k)) $((5 * k)) $((1000 * k - 15 * k)) \
		"$busy" 0 $((1000 * k - busy)) >"$p/stat"
	echo "1.00 0.50 0.20 2/120 900" >"$p/loadavg"
	printf 'MemTotal: 8000000 kB\nMemFree: 6000000 kB\nMemAvailable: 7000000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n' >"$p/meminfo"
	printf 'pswpin 0\npswpout 0\npgmajfault 10\noom_kill %d\n' $((bad * k)) >"$p/vmstat"
	printf '   7       9 loop9 %d 0 %d %d 0 0 0 0 0 %d %d\n 254       0 vda 10 0 80 5 0 0 0 0 0 5 5\n' \
		$((bad * 5000 * k + 1)) $((bad * 40000 * k + 8)) $((bad * 40000 * k)) $((bad * 9500 * k)) $((bad * 40000 * k)) >"$p/diskstats"
	printf 'Inter-|   Receive |  Transmit\n face |bytes packets errs drop fifo frame compressed multicast|bytes\n  eth0: %d 100 0 %d 0 0 0 0 %d 100 0 0 0 0 0 0\n' \
		$((10240 * k)) $((bad * 50 * k)) $((20480 * k)) >"$p/net/dev"
	printf 'Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts\nTcp: 1 200 120000 -1 1 1 0 0 1 100 %d %d 0 0\n' \
		$((1000 + 2000 * k)) $((bad * 100 * k)) >"$p/net/snmp"
	printf 'TcpExt: ListenOverflows ListenDrops\nTcpExt: 0 0\n' >"$p/net/netstat"
	for res in cpu memory io; do
		echo "some avg10=0.00 avg60=0.00 avg300=0.00 total=$((1000 * k))" >"$p/pressure/$res"
		echo "full avg10=0.00 avg60=0.00 avg300=0.00 total=0" >>"$p/pressure/$res"
	done
	if [ "$bad" = 1 ]; then relay_u=$((100 + 950 * k)) relay_s=$((10 + 20 * k)); else relay_u=100 relay_s=10; fi
	task "$p" 4711 relay R $relay_u $relay_s 1 $((71 * 10 * k)) $((bad * 1640 * k)) $((bad * 500000000 * k)) 0
	task "$p" 42 sshd S 5 5 0 3 0 0 0
	if [ "$bad" = 1 ]; then
		task "$p" 500 vforker D 1 1 0 1 0 0 0
		task "$p" 501 vforker D 1 1 1 1 0 0 0
	fi
	if [ "${CGV:-2}" = 1 ]; then cgroup_v1 "$1/step$2/sys/fs/cgroup" "$k" "$bad"; else cgroup_v2 "$1/step$2/sys/fs/cgroup" "$k" "$bad"; fi
}

# cgroup_v2 DIR K FAULTY: /capped (quota 0.2 CPU) and /squeezed (memory.events)
cgroup_v2() {
	local cg=$1 k=$2 bad=$3
	mkdir -p "$cg/capped" "$cg/squeezed"
	echo "cpu memory" >"$cg/cgroup.controllers"
	echo "20000 100000" >"$cg/capped/cpu.max"
	printf 'usage_usec 1\nnr_periods %d\nnr_throttled %d\nthrottled_usec %d\n' \
		$((100 * k)) $((bad * 80 * k)) $((bad * 6000000 * k)) >"$cg/capped/cpu.stat"
	echo 600 >"$cg/capped/cgroup.procs"
	echo "max 100000" >"$cg/squeezed/cpu.max"
	printf 'low 0\nhigh %d\nmax 0\noom 0\noom_kill 0\n' $((bad * 25 * k)) >"$cg/squeezed/memory.events"
	echo 700 >"$cg/squeezed/cgroup.procs"
}

# cgroup_v1 DIR K FAULTY: the same faults in v1 files (cpu: ns, memory: failcnt)
cgroup_v1() {
	local cg=$1 k=$2 bad=$3
	mkdir -p "$cg/cpu/capped" "$cg/memory/squeezed"
	echo 20000 >"$cg/cpu/capped/cpu.cfs_quota_us"
	echo 100000 >"$cg/cpu/capped/cpu.cfs_period_us"
	printf 'nr_periods %d\nnr_throttled %d\nthrottled_time %d\n' \
		$((100 * k)) $((bad * 80 * k)) $((bad * 6000000000 * k)) >"$cg/cpu/capped/cpu.stat"
	echo 600 >"$cg/cpu/capped/cgroup.procs"
	echo -1 >"$cg/cpu/cpu.cfs_quota_us"
	echo 104857600 >"$cg/memory/squeezed/memory.limit_in_bytes"
	echo $((bad * 25 * k)) >"$cg/memory/squeezed/memory.failcnt"
	printf 'oom_kill_disable 0\nunder_oom 0\noom_kill 0\n' >"$cg/memory/squeezed/memory.oom_control"
	echo 700 >"$cg/memory/squeezed/cgroup.procs"
	echo 9223372036854771712 >"$cg/memory/memory.limit_in_bytes"
}

mkroot() { # DIR FAULTY
	local r=$1
	mkdir -p "$r/sys/devices/system/cpu/cpu0" "$r/sys/devices/system/cpu/cpu1" "$r/dev"
	printf 'hz=100\npagesize=4096\nsysname=Linux\nrelease=6.1.0-fixture\nnodename=fixturehost\nmachine=x86_64\nepoch=1700000000\n' >"$r/meta"
	step "$r" 1 "$2"
	step "$r" 2 "$2"
	: >"$r/dev/kmsg"
	if [ "$2" = 1 ]; then
		# uptime 1000-1010 s is the window; 600 s is 400 s before it
		printf '3,10,600000000,-;Out of memory: Killed process 799 (old) total-vm:1kB\n' >>"$r/dev/kmsg"
		printf '6,11,1005000000,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/box,task_memcg=/box,task=bloat,pid=800,uid=0\n' >>"$r/dev/kmsg"
		printf '3,12,1005000100,-;Memory cgroup out of memory: Killed process 800 (bloat) total-vm:1kB\n' >>"$r/dev/kmsg"
		printf '3,13,1006000000,-;I/O error, dev loop9, sector 8 op 0x0:(READ) flags 0x0\n' >>"$r/dev/kmsg"
	fi
}

mkroot "$tmp/bad" 1
mkroot "$tmp/quiet" 0
CGV=1 mkroot "$tmp/v1" 1

"$TRIAGE" report --root "$tmp/bad" --json >"$tmp/bad.json" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] || fail "report over the faulty root exited $rc: $(cat "$tmp/err")"
jq -e . "$tmp/bad.json" >/dev/null || fail "not JSON: $(head -c 300 "$tmp/bad.json")"
q() { jq -e "$1" "$tmp/bad.json" >/dev/null || fail "$2: $(jq -c '[.findings[] | {kind, severity, subject}]' "$tmp/bad.json")"; }
q '.window.seconds == 10 and .host.cpus == 2 and .host.hostname == "fixturehost" and .kernel.release == "6.1.0-fixture"' "header"
q '.window.start == "2023-11-14T22:13:20Z"' "window start from meta epoch"
q '.findings[0] | .kind == "cpu-bound-user" and .severity == "critical" and .subject.pid == 4711
	and .subject.comm == "relay" and .next == "triage probe profile -p 4711 -d 10"' "first finding: the relay"
q '.findings[0].summary | contains("97% of one CPU") and contains("ran on CPU 1 only, allowed on all") and contains("164 involuntary")' "relay sentence"
q '[.findings[] | select(.kind == "load-uninterruptible") | .subject.pids] == [[500, 501]]' "D tasks"
q 'any(.findings[]; .kind == "disk-saturated" and .subject.device == "loop9" and (.evidence[] | select(.metric == "util") | .value) == 95)' "loop9 saturated"
q 'any(.findings[]; .kind == "disk-errors" and .subject.device == "loop9" and .severity == "critical")' "loop9 I/O error"
q 'any(.findings[]; .kind == "net-drops" and .subject.interface == "eth0")' "eth0 drops"
# 100 retransmitted in 10 s beside 2,000 new segments: the kernel counts a
# segment in OutSegs only when it is new (it advances snd_nxt), so 100 of
# 2,100 sent were sent again: 4.76%
q 'any(.findings[]; .kind == "tcp-retransmits" and .severity == "warning" and ((.evidence[] | select(.metric == "retrans") | .value) * 100 | round) == 476)' "retransmits 4.76%"
q 'any(.findings[]; .kind == "cpu-throttled" and .subject.cgroup == "/capped" and .subject.pid == 600
	and (.evidence[] | select(.metric == "throttled_periods") | .value) == 80)' "v2 throttling"
q 'any(.findings[]; .kind == "memory-pressure" and .subject.cgroup == "/squeezed" and .subject.pid == 700)' "v2 memory.events"
q '[.findings[] | select(.kind == "oom-kill")] | length == 1 and .[0].subject.pid == 800 and .[0].subject.cgroup == "/box"
	and .[0].severity == "critical"' "one OOM kill in the window, the old one left out"
q '[.findings[].severity] as $s | $s == ($s | sort_by({"critical": 0, "warning": 1, "info": 2}[.]))' "sorted by severity"
q 'any(.skipped[]; .what == "ebpf")' "ebpf listed as skipped"
echo "ok: faulty root"

"$TRIAGE" report --root "$tmp/quiet" --json >"$tmp/quiet.json" || fail "quiet root"
jq -e '[.findings[] | select(.severity != "info")] | length == 0' "$tmp/quiet.json" >/dev/null ||
	fail "quiet root has problems: $(jq -c '.findings' "$tmp/quiet.json")"
jq -e '.headline | startswith("OK:")' "$tmp/quiet.json" >/dev/null || fail "quiet headline"
jq -e '[.checked[].resource] | index("cpu") and index("disk") and index("memory")' "$tmp/quiet.json" >/dev/null ||
	fail "quiet checked list: $(jq -c .checked "$tmp/quiet.json")"
echo "ok: quiet root"

# cgroup v1 trees: the same throttling (throttled_time in ns) and limit hits (memory.failcnt).
"$TRIAGE" report --root "$tmp/v1" --json >"$tmp/v1.json" || fail "v1 root"
jq -e 'any(.findings[]; .kind == "cpu-throttled" and .subject.cgroup == "/capped" and .subject.pid == 600
	and (.evidence[] | select(.metric == "throttled_time") | .value) == 6)' "$tmp/v1.json" >/dev/null ||
	fail "v1 throttling: $(jq -c '[.findings[] | select(.kind == "cpu-throttled")]' "$tmp/v1.json")"
jq -e 'any(.findings[]; .kind == "memory-pressure" and .subject.cgroup == "/squeezed" and .subject.pid == 700)' \
	"$tmp/v1.json" >/dev/null || fail "v1 memory.failcnt: $(jq -c '[.findings[].kind]' "$tmp/v1.json")"
echo "ok: cgroup v1 root"

# Plain text: the headline first; colour only when asked for, never with NO_COLOR on auto.
"$TRIAGE" report --root "$tmp/bad" --color=never >"$tmp/plain" || fail "plain run"
head -n 1 "$tmp/plain" | grep -q '^CRITICAL: PID 4711 relay used 97% of one CPU' ||
	fail "plain headline: $(head -n 1 "$tmp/plain")"
grep -q $'\033' "$tmp/plain" && fail "escape bytes with --color=never"
"$TRIAGE" report --root "$tmp/bad" --color=always >"$tmp/color" || fail "colour run"
grep -q $'\033\[1;31mcritical' "$tmp/color" || fail "no colour with --color=always"
NO_COLOR=1 "$TRIAGE" report --root "$tmp/bad" >"$tmp/auto" || fail "auto run"
grep -q $'\033' "$tmp/auto" && fail "escape bytes with NO_COLOR (not a terminal either)"
echo "ok: plain text and colours"

# A process name with escapes cannot reach the terminal; JSON keeps it escaped.
sed -i 's/(relay)/(ev\x1b[31mil)/' "$tmp/bad/step1/proc/4711/stat" "$tmp/bad/step2/proc/4711/stat" \
	"$tmp/bad/step1/proc/4711/task/4711/stat" "$tmp/bad/step2/proc/4711/task/4711/stat"
"$TRIAGE" report --root "$tmp/bad" --color=never >"$tmp/evil" || fail "evil run"
grep -q $'\033' "$tmp/evil" && fail "a process name wrote an escape to the terminal"
grep -q 'ev\\x1b\[31mil' "$tmp/evil" || fail "the sanitised name is missing: $(grep -m1 4711 "$tmp/evil")"
"$TRIAGE" report --root "$tmp/bad" --json | jq -e '.findings[0].subject.comm == "ev\u001b[31mil"' >/dev/null ||
	fail "JSON comm not the raw name"
echo "ok: names sanitised"

# Usage errors.
"$TRIAGE" report -d 0 >/dev/null 2>&1; [ $? = 2 ] || fail "-d 0 is a usage error"
"$TRIAGE" report --color=sometimes >/dev/null 2>&1; [ $? = 2 ] || fail "bad --color is a usage error"
"$TRIAGE" report -p 12,x >/dev/null 2>&1; [ $? = 2 ] || fail "bad -p is a usage error"
"$TRIAGE" report --root "$tmp/nonexistent" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "a missing root exits 2 (a usage fault, the README's exit-status table), not $rc"
echo "ok: usage errors"
