#!/usr/bin/env bash
# test: shared -- fixture roots
# pid-exhaustion and process-churn's parents over fixture roots
# (docs/fixtures.md). pid-exhaustion: the host's sysctl
# caps (kernel.pid_max, kernel.threads-max) cannot be lowered on a shared
# machine, and this machine's cgroups are v1, so the v2 pids controller is
# a fixture too. Two steps 10 s apart; /proc/loadavg says 120 tasks. Every
# expected value follows from the numbers written here:
#   pidmax:  pid_max 130 -> 120 of 130 = 92% (warning: >= 90%, < 100%)
#   threads: threads-max 120 -> 120 of 120 (critical: fork fails)
#   cgv2:    v2 cgroup /app with pids.current 19 of pids.max 20 (95%,
#            warning), pids.events max 7, cgroup.procs 42
#   churn:   /proc/stat processes +3000 in 10 s (300/s, warning); PID 77
#            bash's reaped children's CPU (cutime + cstime) +600 ticks =
#            60% of one CPU, its own CPU 0; PID 78 true, its child, only in
#            step 2 (born in the window: its 10 ticks of CPU count as
#            sampled); host busy 300 of 2000 ticks = 30% of one CPU, less
#            those 10 ticks (1%): 29% too short-lived to sample
#   quiet:   pid_max 4194304, threads-max 95000, /app without a limit
set -u
TRIAGE=${TRIAGE:-build/triage}
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/triage_report_pidsfx.$$.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# task P PID COMM PPID CUTIME: one sleeping single-threaded task (utime, stime 5)
task() {
	local d=$1/$2
	mkdir -p "$d/task/$2"
	echo "$2 ($3) S $4 $2 $2 0 -1 4194304 100 0 0 0 5 5 $5 0 20 0 1 0 500 0 0 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0" >"$d/stat"
	printf 'Name:\t%s\nState:\tS\nTgid:\t%s\nPid:\t%s\nPPid:\t%s\nThreads:\t1\n' "$3" "$2" "$2" "$4" >"$d/status"
	echo "100000000 0 10" >"$d/schedstat"
	echo "0::/app" >"$d/cgroup"
	for f in stat status schedstat cgroup; do cp "$d/$f" "$d/task/$2/$f"; done
}

# step ROOT N CASE
step() {
	local s=$1/step$2 k=$(($2 - 1)) c=$3 p=$1/step$2/proc pmax=4194304 tmax=95000 cg np=500
	[ "$c" = churn ] && np=$((500 + 3000 * k))
	mkdir -p "$p/net" "$p/sys/kernel" "$p/42/task/42"
	echo "$((1000 + 10 * k)).00 1500.00" >"$p/uptime"
	echo "$((1700000000 + 10 * k))" >"$s/time"
	{
		echo "cpu $((200 * k)) 0 $((100 * k)) $((1700 * k)) 0 0 0 0 0 0"
		echo "cpu0 $((100 * k)) 0 $((50 * k)) $((850 * k)) 0 0 0 0 0 0"
		echo "cpu1 $((100 * k)) 0 $((50 * k)) $((850 * k)) 0 0 0 0 0 0"
		printf 'ctxt 100\nprocesses %d\nprocs_running 1\nprocs_blocked 0\n' "$np"
	} >"$p/stat"
	echo "0.50 0.50 0.20 1/120 900" >"$p/loadavg"
	printf 'MemTotal: 8000000 kB\nMemFree: 6000000 kB\nMemAvailable: 7000000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n' >"$p/meminfo"
	printf 'pswpin 0\npswpout 0\npgmajfault 10\noom_kill 0\n' >"$p/vmstat"
	[ "$c" = pidmax ] && pmax=130
	[ "$c" = threads ] && tmax=120
	echo "$pmax" >"$p/sys/kernel/pid_max"
	echo "$tmax" >"$p/sys/kernel/threads-max"
	task "$p" 42 sshd 1 0
	if [ "$c" = churn ]; then
		task "$p" 77 bash 42 $((600 * k))
		[ "$k" = 1 ] && task "$p" 78 true 77 0
	fi
	cg=$s/sys/fs/cgroup
	mkdir -p "$cg/app"
	echo "cpu memory pids" >"$cg/cgroup.controllers"
	echo 42 >"$cg/app/cgroup.procs"
	echo 19 >"$cg/app/pids.current"
	if [ "$c" = cgv2 ]; then echo 20; else echo max; fi >"$cg/app/pids.max"
	echo "max 7" >"$cg/app/pids.events"
}

report() { # CASE: the report over that root, as JSON in $tmp/CASE.json
	local r=$tmp/$1
	mkdir -p "$r/sys/devices/system/cpu/cpu0" "$r/sys/devices/system/cpu/cpu1" "$r/dev"
	printf 'hz=100\npagesize=4096\nsysname=Linux\nrelease=6.1.0-fixture\nnodename=fixturehost\nmachine=x86_64\nepoch=1700000000\n' >"$r/meta"
	step "$r" 1 "$1"
	step "$r" 2 "$1"
	: >"$r/dev/kmsg"
	"$TRIAGE" report --root "$r" --json >"$r.json" 2>"$r.err" ||
		fail "report over the $1 root exited $?: $(cat "$r.err")"
}
q() { # CASE JQ WHAT
	jq -e "$2" "$tmp/$1.json" >/dev/null ||
		fail "$1: $3: $(jq -c '[.findings[] | {kind, severity, subject, summary, evidence}]' "$tmp/$1.json")"
}
ev() { echo "(.evidence[] | select(.metric == \"$1\") | .value) == $2"; }
problems='[.findings[] | select(.severity != "info")]'

report pidmax
q pidmax ".findings[0] | .kind == \"pid-exhaustion\" and .severity == \"warning\" and .subject.pid == null
	and $(ev tasks 120) and $(ev pid_max 130)" "first finding: pid-exhaustion against pid_max, 120 of 130"
q pidmax "$problems | length == 1" "the only problem"
echo "ok: pid_max"

report threads
q threads ".findings[0] | .kind == \"pid-exhaustion\" and .severity == \"critical\"
	and $(ev tasks 120) and $(ev threads_max 120) and (.summary | contains(\"EAGAIN\"))" \
	"first finding: pid-exhaustion against threads-max, critical"
echo "ok: threads-max"

report cgv2
q cgv2 ".findings[0] | .kind == \"pid-exhaustion\" and .severity == \"warning\" and .subject.cgroup == \"/app\"
	and .subject.pids == [42] and $(ev tasks 19) and $(ev pids_max 20) and $(ev forks_refused 7)
	and .next == \"ps -L -o pid,ppid,tid,stat,comm -p \\\"\$(paste -sd, /sys/fs/cgroup/app/cgroup.procs)\\\"\"" \
	"first finding: pid-exhaustion of the v2 cgroup /app, 19 of 20"
echo "ok: v2 pids cgroup"

report churn
q churn ".findings[0] | .kind == \"process-churn\" and .severity == \"warning\" and .subject.pid == 77
	and .subject.comm == \"bash\" and (.subject.pids | index(77)) and $(ev forks_per_s 300)
	and $(ev parent_children_cpu 60) and $(ev unsampled_cpu 29)
	and .next == \"triage probe trace execve -C bash -d 5\"" \
	"first finding: process-churn at 300/s, naming PID 77 bash, whose children used 60% of a CPU"
echo "ok: churn's parent"

report quiet
q quiet "$problems | length == 0" "the quiet root raises nothing"
echo "ok: quiet"
