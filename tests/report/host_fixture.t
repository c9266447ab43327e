#!/usr/bin/env bash
# test: shared -- fixture roots
# cpu-steal, irq-saturated and conntrack-full over fixture roots (docs/fixtures.md):
# faults this machine cannot make (no hypervisor steal, no NIC to flood, the
# conntrack table is shared with everyone). Two steps 10 s apart, 2 CPUs at
# hz 100 (1000 ticks per CPU per step); every expected value follows from
# the numbers written here:
#   steal: CPU 0 steal +300, CPU 1 +100 ticks -> 400 of 2000 = 20% of the
#          CPUs' time (warning, >= 10%, < 30%), most from CPU 0 (30%)
#   irq:   CPU 1 hardirq +50, softirq +800 -> 85% in interrupts (warning,
#          >= 50%, < 90%); /proc/softirqs NET_RX on CPU 1 +500000 = 50000/s,
#          TIMER +1000; ksoftirqd/1 (PID 24) system time +400 ticks = 40%
#   conntrack: nf_conntrack_count 65536 of nf_conntrack_max 65536 -> critical
#   softnet: /proc/net/softnet_stat CPU 1 dropped +300 (30/s; warning at >= 5
#          and >= 1/s), time_squeeze +40, processed +50000; CPU 0 none
#   kmsg:  dev/kmsg (Linux 6.x records, this test's own values): a hung task
#          (dd, PID 4242) reported at 880 s (122 s) and 1003 s (245 s, in the
#          window) with its dumps and the rw-semaphore owner (flush, 4240);
#          "VFS: file-max limit 8192 reached" twice in the window (info);
#          "nf_conntrack: table full, dropping packet" at 950 s (warning)
#          -> one critical kernel-errors naming 4242 and its owner, a
#          critical system-wide fd-exhaustion, a warning conntrack-full
# The quiet root has none of these (and no conntrack module): nothing at
# warning or critical.
set -u
TRIAGE=${TRIAGE:-build/triage}
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/triage_report_hostfx.$$.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# task DIR PID COMM UTIME STIME: one sleeping single-threaded task
task() {
	local d=$1/$2
	mkdir -p "$d/task/$2"
	echo "$2 ($3) S 2 0 0 0 -1 4194304 100 0 0 0 $4 $5 0 0 20 0 1 0 500 0 0 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0" >"$d/stat"
	printf 'Name:\t%s\nState:\tS\nTgid:\t%s\nPid:\t%s\nPPid:\t2\nUid:\t0\t0\t0\t0\nThreads:\t1\nCpus_allowed_list:\t0-1\nvoluntary_ctxt_switches:\t10\nnonvoluntary_ctxt_switches:\t0\n' \
		"$3" "$2" "$2" >"$d/status"
	echo "$(($4 + $5))0000000 0 10" >"$d/schedstat"
	echo "0::/" >"$d/cgroup"
	for f in stat status schedstat cgroup; do cp "$d/$f" "$d/task/$2/$f"; done
}

# cpu_line NAME USER SYSTEM IDLE IRQ SOFTIRQ STEAL
cpu_line() { echo "$1 $2 0 $3 $4 0 $5 $6 $7 0 0"; }

# step ROOT N FAULT: snapshot N (1 or 2) with FAULT one of quiet, steal, irq, conntrack
step() {
	local s=$1/step$2 k=$(($2 - 1)) fault=$3
	local p=$s/proc st0=0 st1=0 hi1=0 si1=0 netrx=0 kd=0 sd=0 sq=0 sp=0
	mkdir -p "$p/net" "$p/pressure"
	echo "$((1000 + 10 * k)).00 1500.00" >"$p/uptime"
	echo "$((1700000000 + 10 * k))" >"$s/time"
	[ "$fault" = steal ] && st0=$((300 * k)) st1=$((100 * k))
	[ "$fault" = irq ] && hi1=$((50 * k)) si1=$((800 * k)) netrx=$((500000 * k)) kd=$((400 * k))
	[ "$fault" = softnet ] && sd=$((300 * k)) sq=$((40 * k)) sp=$((50000 * k))
	# per CPU: 100 user + 50 system ticks per step, the rest idle
	local u=$((100 * k)) y=$((50 * k))
	local i0=$((1000 * k - u - y - st0)) i1=$((1000 * k - u - y - hi1 - si1 - st1))
	{
		cpu_line cpu $((2 * u)) $((2 * y)) $((i0 + i1)) "$hi1" "$si1" $((st0 + st1))
		cpu_line cpu0 "$u" "$y" "$i0" 0 0 "$st0"
		cpu_line cpu1 "$u" "$y" "$i1" "$hi1" "$si1" "$st1"
		printf 'ctxt 100\nprocesses 500\nprocs_running 1\nprocs_blocked 0\n'
	} >"$p/stat"
	printf '                    CPU0       CPU1\n          HI:          1          0\n       TIMER:     %d     %d\n      NET_TX:         10          3\n      NET_RX:       5000    %d\n       BLOCK:         20         30\n' \
		$((100000 + 1000 * k)) $((90000 + 1000 * k)) $((9000000 + netrx)) >"$p/softirqs"
	echo "0.50 0.50 0.20 1/120 900" >"$p/loadavg"
	printf 'MemTotal: 8000000 kB\nMemFree: 6000000 kB\nMemAvailable: 7000000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n' >"$p/meminfo"
	printf 'pswpin 0\npswpout 0\npgmajfault 10\noom_kill 0\n' >"$p/vmstat"
	printf ' 254       0 vda 10 0 80 5 0 0 0 0 0 5 5\n' >"$p/diskstats"
	printf 'Inter-|   Receive |  Transmit\n face |bytes packets errs drop fifo frame compressed multicast|bytes\n  eth0: %d 100 0 0 0 0 0 0 %d 100 0 0 0 0 0 0\n' \
		$((10240 * k)) $((20480 * k)) >"$p/net/dev"
	printf 'Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts\nTcp: 1 200 120000 -1 1 1 0 0 1 100 %d 0 0 0\n' \
		$((1000 + 2000 * k)) >"$p/net/snmp"
	printf 'TcpExt: ListenOverflows ListenDrops\nTcpExt: 0 0\n' >"$p/net/netstat"
	# softnet_stat: hex, the CPU in the 13th column (Linux 5.10+)
	printf '%08x %08x %08x 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 %08x\n' \
		1000 0 3 0 $((2000 + sp)) "$sd" $((5 + sq)) 1 >"$p/net/softnet_stat"
	for res in cpu memory io; do
		printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=%d\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
			$((1000 * k)) >"$p/pressure/$res"
	done
	if [ "$fault" = conntrack ]; then
		mkdir -p "$p/sys/net/netfilter"
		echo 65536 >"$p/sys/net/netfilter/nf_conntrack_max"
		echo $((65000 + 536 * k)) >"$p/sys/net/netfilter/nf_conntrack_count"
	fi
	task "$p" 18 ksoftirqd/0 0 5
	task "$p" 24 ksoftirqd/1 0 $((5 + kd))
	task "$p" 42 sshd 5 5
	mkdir -p "$s/sys/fs/cgroup"
	echo "cpu memory" >"$s/sys/fs/cgroup/cgroup.controllers"
}

mkroot() { # DIR FAULT
	mkdir -p "$1/sys/devices/system/cpu/cpu0" "$1/sys/devices/system/cpu/cpu1" "$1/dev"
	printf 'hz=100\npagesize=4096\nsysname=Linux\nrelease=6.1.0-fixture\nnodename=fixturehost\nmachine=x86_64\nepoch=1700000000\n' >"$1/meta"
	step "$1" 1 "$2"
	step "$1" 2 "$2"
	: >"$1/dev/kmsg"
	[ "$2" = kmsg ] && kmsg >"$1/dev/kmsg"
	return 0
}

kmsg() { # the kernel log of the kmsg fault: PRIO,SEQ,MICROSECONDS,FLAGS;TEXT
	local t
	for t in 880 1003; do
		echo "3,${t}0,${t}000000,-;INFO: task dd:4242 blocked for more than $((t == 880 ? 122 : 245)) seconds."
		echo "3,${t}1,${t}000100,-;      Not tainted 6.18.4-fixture #1"
		echo "3,${t}2,${t}000200,-;\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message."
		echo "6,${t}3,${t}000300,-;task:dd              state:D stack:0     pid:4242  tgid:4242  ppid:4200   task_flags:0x400000 flags:0x00004002"
		echo "6,${t}4,${t}000400,-;Call Trace:"
		echo "6,${t}5,${t}000500,-; <TASK>"
		echo "6,${t}6,${t}000600,-; rwsem_down_write_slowpath+0x2b1/0x6c0"
		echo "6,${t}7,${t}000700,-; </TASK>"
		echo "3,${t}8,${t}000800,-;INFO: task dd:4242 <writer> blocked on an rw-semaphore likely owned by task flush:4240 <writer>"
	done
	echo "4,9500,950000000,-;nf_conntrack: table full, dropping packet"
	echo "4,9600,960000000,-;e1000e 0000:00:19.0 eth0: Detected Hardware Unit Hang"
	echo "6,10050,1005000000,-;VFS: file-max limit 8192 reached"
	echo "6,10060,1006000000,-;VFS: file-max limit 8192 reached"
}

report() { # FAULT: the report over that root, as JSON in $tmp/FAULT.json
	mkroot "$tmp/$1" "$1"
	"$TRIAGE" report --root "$tmp/$1" --json >"$tmp/$1.json" 2>"$tmp/$1.err" ||
		fail "report over the $1 root exited $?: $(cat "$tmp/$1.err")"
}
q() { # FAULT JQ WHAT
	jq -e "$2" "$tmp/$1.json" >/dev/null ||
		fail "$1: $3: $(jq -c '[.findings[] | {kind, severity, subject, summary}]' "$tmp/$1.json")"
}
problems='[.findings[] | select(.severity != "info")]'

report steal
q steal '.window.seconds == 10 and .host.cpus == 2' "a 10 s window on 2 CPUs"
q steal '.findings[0] | .kind == "cpu-steal" and .severity == "warning" and .subject.cpu == 0
	and .next == "mpstat -P ALL 1 5"' "first finding: cpu-steal, CPU 0"
q steal '.findings[0] | (.evidence[] | select(.metric == "steal") | .value) == 20
	and (.evidence[] | select(.metric == "cpu_steal") | .value) == 30' "steal 20%, CPU 0 30%"
q steal "$problems | length == 1" "steal is the only problem"
echo "ok: steal"

report irq
q irq '.findings[0] | .kind == "irq-saturated" and .severity == "warning" and .subject.cpu == 1
	and .subject.pid == 24 and .subject.comm == "ksoftirqd/1"
	and .next == "mpstat -I SCPU -P 1 1 5"' "first finding: irq-saturated, CPU 1, its ksoftirqd"
q irq '.findings[0] | (.evidence[] | select(.metric == "irq") | .value) == 85
	and (.evidence[] | select(.metric == "softirq") | .value) == 80
	and (.evidence[] | select(.metric == "top_vector_runs") | .value) == 50000
	and (.evidence[] | select(.metric == "ksoftirqd_cpu") | .value) == 40
	and (.summary | contains("softirq NET_RX ran most"))' "85% in interrupts, NET_RX 50000/s, ksoftirqd 40%"
q irq "$problems | map(.kind) | index(\"cpu-steal\") == null" "no steal"
echo "ok: irq"

report conntrack
q conntrack '.findings[0] | .kind == "conntrack-full" and .severity == "critical"
	and (.evidence[] | select(.metric == "conntrack_count") | .value) == 65536
	and (.evidence[] | select(.metric == "conntrack_max") | .value) == 65536' "first finding: conntrack-full, critical"
echo "ok: conntrack"

report softnet
q softnet '.findings[0] | .kind == "net-drops" and .severity == "warning" and .subject.cpu == 1
	and (.evidence[] | select(.metric == "backlog_drops") | .value) == 300
	and (.evidence[] | select(.metric == "time_squeeze") | .value) == 40
	and (.evidence[] | select(.metric == "drop_rate") | .value) == 30' "first finding: net-drops, CPU 1, 300 dropped"
q softnet "$problems | length == 1" "CPU 1's backlog is the only problem"
echo "ok: softnet"

report kmsg
q kmsg '[.findings[] | select(.kind == "kernel-errors")] | length == 1' "one kernel-errors finding for the hung task's two reports"
q kmsg '.findings[] | select(.kind == "kernel-errors") | .severity == "critical" and .subject.pid == 4242
	and .subject.pids == [4240] and .next == "cat /proc/4240/stack"
	and (.evidence[] | select(.metric == "reports") | .value) == 2
	and (.evidence[] | select(.metric == "blocked") | .value) == 245
	and (.summary | contains("PID 4240 flush"))' "kernel-errors: dd 4242, 2 reports, 245 s, owner flush 4240"
q kmsg '.findings[] | select(.kind == "fd-exhaustion") | .severity == "critical" and (.subject.pid == null)
	and (.evidence[] | select(.metric == "logged") | .value) == 2' "fd-exhaustion: the system, critical, logged twice"
q kmsg '.findings[] | select(.kind == "conntrack-full") | .severity == "warning"
	and (.evidence[] | select(.metric == "age") | .value) == 60' "conntrack-full: a warning, 60 s before the end"
q kmsg "$problems | length == 3" "nothing else (no finding for the dump's lines or the plain warning)"
echo "ok: kmsg"

report quiet
q quiet "$problems | length == 0" "the quiet root raises nothing"
q quiet '[.skipped[].what] | index("softirqs") == null' "softirqs were read"
q quiet '[.skipped[].what] | index("softnet") == null' "softnet_stat was read"
echo "ok: quiet"
