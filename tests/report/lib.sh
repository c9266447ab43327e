# Shared by tests/report/*.t, the live scenarios of `triage report`
# (tests/report/README.md explains the method). Sourced; provides:
#   rs_start CMD...     start a workload in its own session, wait for "ready"
#   rs_report OUT ARGS  run `triage report ARGS --json` into OUT, with the
#                       kernel's own counters read around it (the oracle)
#   rs_expect / rs_judge  assert the expected finding, and that every
#                       warning or critical finding is explained
# Everything a test creates is undone by the EXIT trap, newest first.
# shellcheck shell=bash
set -u
RS_TMP=$(mktemp -d "/tmp/triage-report-test.$$.XXXXXX")
RS_SESSIONS=() # session leaders we started (each workload runs under setsid)
RS_UNDO=()     # shell commands run at exit, last first
RS_FDS=()

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }

rs_cleanup() {
	local i p fd
	for p in "${RS_SESSIONS[@]}"; do kill -9 -- "-$p" 2>/dev/null; done
	for fd in "${RS_FDS[@]}"; do exec {fd}<&-; done
	for ((i = ${#RS_UNDO[@]} - 1; i >= 0; i--)); do eval "${RS_UNDO[i]}" 2>/dev/null; done
	rm -rf "$RS_TMP"
}
trap rs_cleanup EXIT
rs_undo() { RS_UNDO+=("$1"); }

rs_require() { # root and jq; every scenario needs both
	command -v jq >/dev/null || fail "jq is missing (scripts/deps.sh installs it)"
	[ "$(id -u)" = 0 ] || skip "report scenarios need root (cgroups, namespaces, loop devices)"
}

# rs_start CMD...: runs CMD in a session of its own with stdout on a fifo and
# reads its announcements until "ready" (30 s at most: a workload that never
# gets ready fails the test). Sets RS_LEADER and RS_SAID (the lines before
# "ready"). CMD may be a wrapper that execs the workload (ip netns exec,
# RS_IN_CGROUP), so the leader's PID is the workload's.
rs_start() {
	local fifo="$RS_TMP/fifo.${#RS_SESSIONS[@]}" line fd
	mkfifo "$fifo" || fail "mkfifo"
	setsid "$@" >"$fifo" 2>>"$RS_TMP/workload.err" </dev/null &
	RS_LEADER=$!
	RS_SESSIONS+=("$RS_LEADER")
	disown "$RS_LEADER" # no "Killed" notice from bash at cleanup
	exec {fd}<"$fifo"
	RS_FDS+=("$fd")
	RS_SAID=""
	while IFS= read -r -t 30 -u "$fd" line; do
		[ "$line" = ready ] && return 0
		RS_SAID+="$line"$'\n'
	done
	cat "$RS_TMP/workload.err"
	fail "workload '$*' did not get ready (said: ${RS_SAID//$'\n'/; })"
}

# rs_favour PID: nice -10 for the session's autogroup (and the task). With
# sched_autogroup_enabled, each session is one scheduling group and a
# task's own nice only counts inside it; other engineers' builds on this
# 2-CPU machine are other groups. Favouring ours keeps a scenario's premise
# (a hog gets its CPU) whatever the machine's load; the tests still check
# the premise with the kernel's own figures.
rs_favour() {
	[ -w "/proc/$1/autogroup" ] && echo -10 >"/proc/$1/autogroup"
	renice -n -10 -p "$1" >/dev/null
}

# rs_hog_scenario MODE KIND SYS_TEST: a favoured report_hog MODE, the report
# over 4 s, the premise and the expected finding. Premise, from the kernel:
# the hog wanted a CPU all the time (on CPU + run-queue wait >= 90% of the
# run, /proc/PID/stat and schedstat), got >= 50% of one (the favour usually
# gets it 90-95%; on a loaded machine it got 77% once), and SYS_TEST holds
# (an awk condition on u and s, its user and system %). Expected: KIND
# naming the hog, warning or critical, with a cpu figure within 15 points of
# the kernel's. Sets HOG, OUT, MINE (its jq predicate) and HOG_USR,
# HOG_SYS; the caller judges the rest.
rs_hog_scenario() {
	local mode=$1 kind=$2 cond=$3
	rs_start "$BUILD/workloads/report_hog" "$mode" 600
	HOG=$(rs_said hog)
	rs_favour "$HOG"
	OUT=$RS_TMP/r.json
	RS_WATCH=$HOG rs_report "$OUT" -d 4
	HOG_USR=$(rs_oracle_get "$OUT" ".tasks[\"$HOG\"].usr")
	HOG_SYS=$(rs_oracle_get "$OUT" ".tasks[\"$HOG\"].sys")
	HOG_WAIT=$(rs_oracle_get "$OUT" ".tasks[\"$HOG\"].wait")
	awk -v u="$HOG_USR" -v s="$HOG_SYS" -v w="$HOG_WAIT" "BEGIN { exit !(u + s + w >= 90 && u + s >= 50 && ($cond)) }" ||
		fail "premise: the kernel charged the hog usr $HOG_USR% sys $HOG_SYS% wait $HOG_WAIT% (want on CPU + wait >= 90%, on CPU >= 50%, $cond)"
	echo "ok: premise: the kernel charged the hog usr $HOG_USR% sys $HOG_SYS% and it waited $HOG_WAIT% for a CPU"
	MINE=".kind == \"$kind\" and .subject.pid == $HOG and (.severity | IN(\"warning\", \"critical\"))"
	rs_expect "$OUT" "$kind naming the hog $HOG" "$MINE"
	rs_evidence_near "$OUT" "$MINE" cpu "$(awk -v u="$HOG_USR" -v s="$HOG_SYS" 'BEGIN { print u + s }')" 15 "hog CPU"
}

# rs_said WORD: the PIDs the last workload announced as "WORD PID".
rs_said() { awk -v w="$1" '$1 == w { print $2 }' <<<"$RS_SAID"; }

# "${RS_IN_CGROUP[@]}" DIR CMD...: execs CMD inside the v1 cgroup DIR (a
# command, not a function, so rs_start can run it under setsid).
RS_IN_CGROUP=(bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"')

# rs_mkcgroup CONTROLLER NAME: makes the v1 cgroup RS_CG, removed at exit.
# Skips when the controller is not mounted as v1 here. (Not for $(...): the
# undo must be registered in this shell.)
rs_mkcgroup() {
	RS_CG="/sys/fs/cgroup/$1/$2"
	[ -f "/sys/fs/cgroup/$1/cgroup.procs" ] && [ -w "/sys/fs/cgroup/$1" ] ||
		skip "no writable cgroup v1 $1 controller at /sys/fs/cgroup/$1"
	mkdir "$RS_CG" || fail "mkdir $RS_CG"
	# A killed task leaves the cgroup once reaped: wait for that (cgroupfs
	# files have size 0, so read them), then remove it.
	rs_undo "for _ in \$(seq 50); do [ -z \"\$(cat '$RS_CG/cgroup.procs')\" ] && break; sleep 0.1; done; rmdir '$RS_CG'"
}

# --- the oracle: the kernel's own counters, read around the report run ---

# rs_counters FILE: the kernel's counters the oracle compares, one per line:
# "now T", "stat cpuN busy total" (jiffies; "cpu" is all CPUs), "psi RES some
# TOTAL_US", "disk DEV IO_MS", "retrans N" (Tcp RetransSegs of the reader's
# network namespace), "kmsg_oom PID", "kmsg_errors N", and "task PID UTIME
# STIME RUNQ_NS" for each PID in RS_WATCH. A script file, so a wrapper (ip
# netns exec) can run it.
cat >"$RS_TMP/counters.sh" <<'EOS'
{
	echo "now $(date +%s.%N)"
	awk '/^cpu/ { b = $2 + $3 + $4 + $7 + $8 + $9; print "stat", $1, b, b + $5 + $6 }' /proc/stat
	for r in cpu memory io; do
		[ -r "/proc/pressure/$r" ] && awk -v r="$r" '{ sub("total=", "", $5); print "psi", r, $1, $5 }' "/proc/pressure/$r"
	done
	awk '{ print "disk", $3, $13 }' /proc/diskstats
	awk '$1 == "Tcp:" && $13 ~ /^[0-9]+$/ { print "retrans", $13 }' /proc/net/snmp
	# PIDs the kernel log says an OOM killer killed, and its error lines, of
	# the last 6 minutes (the report looks at the window and the 5 before)
	up=$(cut -d' ' -f1 /proc/uptime)
	dmesg 2>/dev/null | awk -v up="$up" -F'[][]' 'up - $2 <= 360 { print }' >"$1.kmsg"
	sed -n 's/.*Killed process \([0-9]*\) .*/kmsg_oom \1/p' "$1.kmsg"
	# the kinds the report counts as errors: crashes (segfault, "traps: ...
	# general protection"), hung tasks, lockups, I/O errors
	grep -Ec 'segfault|general protection|hung_task|blocked for more than|soft lockup|hard LOCKUP|I/O error|Buffer I/O' "$1.kmsg" |
		sed 's/^/kmsg_errors /'
	# the full tables' lines (fd-exhaustion, conntrack-full read them)
	echo "kmsg_tables $(grep -Ec 'VFS: file-max limit|nf_conntrack: table full' "$1.kmsg")"
	# packets the CPUs' backlogs dropped (softnet_stat's second column, hex)
	s=0
	while read -r _ d _; do s=$((s + 16#$d)); done </proc/net/softnet_stat
	echo "softnet_drops $s"
	awk '$1 == "processes" { print "forks", $2 }' /proc/stat
	# utime, stime (fields 14, 15) and the run-queue delay of all threads of
	# each watched process, with bash builtins alone: four processes forked
	# per PID took 7 s each side with the zombie scenario's 500 children
	shopt -s nullglob
	close=') '
	for p in ${RS_WATCH:-}; do
		read -r st 2>/dev/null <"/proc/$p/stat" || continue
		read -ra f <<<"${st##*"$close"}"
		w=0
		for t in /proc/"$p"/task/*/schedstat; do
			read -r _ d _ 2>/dev/null <"$t" && w=$((w + d))
		done
		echo "task $p ${f[11]} ${f[12]} $w"
	done
} >"$1"
EOS
rs_counters() { RS_WATCH="${RS_WATCH:-}" ${RS_WRAP:-} bash "$RS_TMP/counters.sh" "$1"; }

# rs_oracle BEFORE AFTER: one JSON object of what the kernel counted between
# the two readings: {"seconds", "cpu_busy_pct": {"cpu": all CPUs, "cpu0"...},
# "psi_some_pct": {"cpu","memory","io"}, "disk_util_pct": {dev...},
# "retrans_per_s", "tasks": {PID: {"usr", "sys", "wait"}} (% of one CPU;
# wait is the run-queue delay of all its threads; for the PIDs in RS_WATCH and every process of ours),
# "kmsg_oom_pids": [PIDs the kernel log says were OOM-killed],
# "kmsg_error_lines": N (hung tasks, soft lockups, segfaults, I/O errors),
# "kmsg_table_lines": N (file-max reached, conntrack table full), all three
# over the last 6 minutes, "softnet_drops": packets the CPUs' backlogs
# dropped between the readings, "forks": new processes between them}.
rs_oracle() {
	awk -v hz="$(getconf CLK_TCK)" '
	FNR == 1 { f++ }
	$1 == "now" { t[f] = $2 }
	$1 == "stat" { b[f, $2] = $3; j[f, $2] = $4; cpus[$2] }
	$1 == "psi" && $3 == "some" { p[f, $2] = $4; res[$2] }
	$1 == "disk" { d[f, $2] = $3; devs[$2] }
	$1 == "retrans" { r[f] = $2 }
	$1 == "kmsg_oom" && f == 2 { oom = oom (oom == "" ? "" : ",") $2 }
	$1 == "kmsg_errors" && f == 2 { kerr = $2 }
	$1 == "kmsg_tables" && f == 2 { ktab = $2 }
	$1 == "softnet_drops" { sn[f] = $2 }
	$1 == "forks" { fk[f] = $2 }
	$1 == "task" { u[f, $2] = $3; k[f, $2] = $4; w[f, $2] = $5; if (f == 2) tasks[$2] }
	END {
		s = t[2] - t[1]
		printf "{\"seconds\":%.3f,\"cpu_busy_pct\":{", s
		n = 0
		for (c in cpus) {
			dt = j[2, c] - j[1, c]
			printf "%s\"%s\":%.1f", n++ ? "," : "", c, (dt > 0 ? 100 * (b[2, c] - b[1, c]) / dt : 0)
		}
		printf "},\"psi_some_pct\":{"
		n = 0
		for (x in res) printf "%s\"%s\":%.2f", n++ ? "," : "", x, (p[2, x] - p[1, x]) / 1e4 / s
		printf "},\"disk_util_pct\":{"
		n = 0
		for (x in devs) printf "%s\"%s\":%.1f", n++ ? "," : "", x, (d[2, x] - d[1, x]) / 10 / s
		printf "},\"retrans_per_s\":%.1f,\"tasks\":{", (r[2] - r[1]) / s
		n = 0
		for (x in tasks)
			if ((1, x) in u)
				printf "%s\"%s\":{\"usr\":%.1f,\"sys\":%.1f,\"wait\":%.1f}", n++ ? "," : "", x,
					(u[2, x] - u[1, x]) / hz / s * 100, (k[2, x] - k[1, x]) / hz / s * 100,
					(w[2, x] - w[1, x]) / 1e7 / s
		printf "},\"kmsg_oom_pids\":[%s],\"kmsg_error_lines\":%d,\"kmsg_table_lines\":%d,\"softnet_drops\":%d,\"forks\":%d}\n",
			oom, kerr, ktab, sn[2] - sn[1], fk[2] - fk[1]
	}' "$1" "$2"
}

# rs_report OUT ARGS...: runs `$TRIAGE report ARGS --json` (under $RS_WRAP,
# e.g. "ip netns exec NS", when set), checks the status and the schema's
# top level, and writes the kernel's counters for the same interval to
# OUT.oracle. Sets RS_TRIAGE_PID (ours, like the workloads).
rs_report() {
	local out=$1 rc watch
	shift
	# the kernel's figures for every process of ours, not only RS_WATCH's:
	# a finding about waiting for a CPU that names one of ours is then
	# judged on the kernel's run-queue count for it (RS_BACKGROUND)
	watch=$(rs_our_processes)
	RS_WATCH="${RS_WATCH:-} $watch" rs_counters "$out.before"
	${RS_WRAP:-} "$TRIAGE" report "$@" --json >"$out" 2>"$out.err" &
	RS_TRIAGE_PID=$!
	wait "$RS_TRIAGE_PID"
	rc=$?
	RS_WATCH="${RS_WATCH:-} $watch" rs_counters "$out.after"
	rs_oracle "$out.before" "$out.after" >"$out.oracle"
	[ "$rc" = 0 ] || { cat "$out.err"; fail "triage report $* exited $rc"; }
	jq -e 'has("host") and has("kernel") and has("window") and (.findings | type == "array")
		and has("checked") and has("skipped")' "$out" >/dev/null ||
		fail "report JSON lacks the schema's top level: $(head -c 400 "$out")"
	echo "kernel counters over the run: $(cat "$out.oracle")"
	jq -r '.findings[] | "finding: \(.severity) \(.kind) \(.subject | tostring): \(.summary)"' "$out"
}

# rs_our_processes: the processes (not threads) of the sessions we started
# and the helpers we run (RS_EXTRA_PIDS), one line.
rs_our_processes() {
	local s
	{
		echo "${RS_EXTRA_PIDS[@]:-}"
		for s in "${RS_SESSIONS[@]}"; do ps -e -o pid=,sid= | awk -v s="$s" '$2 == s { print $1 }'; done
	} | tr ' ' '\n' | grep -E '^[0-9]+$' | sort -un | tr '\n' ' '
}

# rs_ours: every PID in the sessions we started, plus this shell and the
# triage run, as a JSON array (read after the report, while they live).
rs_ours() {
	local s
	{
		echo $$ "${RS_TRIAGE_PID:-}" "${RS_EXTRA_PIDS[@]:-}"
		for s in "${RS_SESSIONS[@]}"; do ps -e -L -o lwp=,sid= | awk -v s="$s" '$2 == s { print $1 }'; done
	} | tr ' ' '\n' | grep -E '^[0-9]+$' | sort -un | jq -sc .
}

# --- assertions ---

# rs_expect OUT WHAT JQ_PREDICATE: at least one finding satisfies the
# predicate (evaluated on the finding, with $o = the oracle object).
rs_expect() {
	local out=$1 what=$2 pred=$3
	jq -e --slurpfile o "$out.oracle" "(\$o[0]) as \$o | [.findings[] | select($pred)] | length > 0" \
		"$out" >/dev/null || fail "no finding: $what"
	echo "ok: $what"
}

# rs_expect_naming OUT KIND PIDS...: warning or critical KIND findings that
# name any of PIDS together name all of them (in subject.pid or .pids, over
# one finding or several). Sets MINE to their jq predicate.
rs_expect_naming() {
	local out=$1 kind=$2 want
	shift 2
	want=$(printf '%s\n' "$@" | jq -sc .)
	MINE=".kind == \"$kind\" and (.severity | IN(\"warning\", \"critical\"))
		and ($(rs_subject_pids) | any(. as \$p | $want | index(\$p)))"
	jq -e "[.findings[] | select($MINE) | $(rs_subject_pids)[]] as \$named
		| $want | all(. as \$h | \$named | index(\$h))" "$out" >/dev/null ||
		fail "$kind does not name all of $*"
	echo "ok: $kind names $*"
}

# The generic background rule: a warning or critical finding that the
# scenario's fault does not explain is tolerated when the kernel's own
# counters over the same run back it and it names nothing of ours wrongly.
# Other engineers build and test on this 2-CPU machine at the same time;
# their work is real, and so are findings about it.
#   - cpu-saturated when all CPUs together were >= 80% busy, or tasks waited
#     for a CPU >= 10% of the time (PSI cpu some); the report lists the top
#     consumers in it, ours among them (a hog does load the machine);
#   - cpu-contention when all CPUs were >= 80% busy and every PID it names
#     is either not ours, or ours with the kernel's schedstat showing it
#     waited >= 10% of the run in the run queue (rs_report reads it for
#     every process of ours: the workloads and the test's own helpers);
#   - per-task kinds (cpu-bound-*, cpu-contention, lock-contention,
#     load-uninterruptible, cpu-throttled, swapping, memory-growth: a
#     compiler's heap grows for seconds) naming only PIDs that are not ours;
#     so too fd-exhaustion, tcp-listen-overflows, udp-drops, zombies and
#     pid-exhaustion (a pids cgroup not ours)
#     naming some PID and only PIDs not ours (another test's fault, found
#     through its process);
#   - process-churn whose first parent (the subject's pid: the one that
#     spawned most) is not ours, when the kernel counted new processes
#     during the run (another user's make, its compilers too short-lived to
#     sample); the test's own shell may be listed after it, having started
#     a jq or two;
#   - single-cpu-hot when some CPU was >= 90% busy;
#   - disk-saturated on a device the kernel counted >= 50% busy;
#   - memory-pressure when PSI memory some was >= 1%;
#   - io-stall when PSI io some was >= 10% (another user's throttled or
#     network I/O);
#   - tcp-retransmits when RetransSegs grew during the run, or when it is
#     about another network namespace, found through processes not ours
#     (another test's namespace pair: the oracle reads only the host's
#     /proc/net/snmp, and the finding names whose namespace it is);
#   - oom-kill naming a PID that the kernel log says was killed in the last
#     6 minutes, kernel-errors when the kernel log holds such lines: the
#     log's recent past is in the report's scope (e.g. the OOM scenario's
#     run on the other build a minute ago); fd-exhaustion naming no process
#     and conntrack-full when it holds "file-max limit"/"table full" lines;
#   - net-drops naming a CPU when the CPUs' backlogs dropped packets during
#     the run (softnet_stat; another test's loopback flood).
# None of the others may name our cgroups, devices or interfaces (NAMES).
# The two CPU kinds may: a contention finding about our process carries
# its cgroup, and the kernel's own counters (busy CPUs, our PIDs' run-queue
# wait) are what make it background.
# jq helpers for every predicate (the tests' own too): pids (all PIDs and
# TIDs a finding names), foreign_pid (a PID not ours), waited (a process of
# ours the kernel shows >= 10% in the run queue), named_ours.
RS_DEFS='
	def pids: [.subject.pid?, .subject.tid?, (.subject.pids? // [])[]] | map(select(. != null));
	def foreign_pid: . as $x | $ours | index($x) | not;
	def waited: ($o.tasks[tostring].wait // 0) >= 10;
	def named_ours: ([.subject | (.cgroup?, .device?, .interface?) // empty | tostring]
		| any(. as $s | $names | any(. as $n | $s | contains($n))));'
RS_BACKGROUND='
	(.kind == "cpu-saturated" and ($o.cpu_busy_pct.cpu >= 80 or ($o.psi_some_pct.cpu // 0) >= 10))
	or (.kind == "cpu-contention" and $o.cpu_busy_pct.cpu >= 80 and (pids | all(foreign_pid or waited)))
	or (.kind == "process-churn" and (named_ours | not) and $o.forks > 0
		and (.subject.pid? // null) != null and (.subject.pid | foreign_pid))
	or ((named_ours | not) and (pids | all(foreign_pid)) and (
			(.kind | IN("cpu-bound-user", "cpu-bound-kernel", "cpu-contention", "lock-contention", "load-uninterruptible", "cpu-throttled", "swapping", "memory-growth"))
			or ((.kind | IN("fd-exhaustion", "tcp-listen-overflows", "udp-drops", "zombies", "pid-exhaustion")) and (pids | length > 0))
			or (.kind == "single-cpu-hot" and ([$o.cpu_busy_pct | to_entries[] | select(.key != "cpu") | .value] | max) >= 90)
			or (.kind == "disk-saturated" and ($o.disk_util_pct[.subject.device // ""] // 0) >= 50)
			or (.kind == "memory-pressure" and ($o.psi_some_pct.memory // 0) >= 1)
			or (.kind == "io-stall" and ($o.psi_some_pct.io // 0) >= 10)
			or (.kind == "tcp-retransmits" and ($o.retrans_per_s > 0 or (pids | length > 0)))
			or (.kind == "oom-kill" and (.subject.pid? as $v | $o.kmsg_oom_pids | index($v)))
			or (.kind == "kernel-errors" and $o.kmsg_error_lines > 0)
			or (.kind == "fd-exhaustion" and (pids | length == 0) and $o.kmsg_table_lines > 0)
			or (.kind == "conntrack-full" and $o.kmsg_table_lines > 0)
			or (.kind == "net-drops" and .subject.cpu? != null and $o.softnet_drops > 0)))'

# rs_judge OUT EXPECTED TOLERATED NAMES...: every warning or critical finding
# is expected (the scenario's fault), tolerated by the scenario (TOLERATED,
# with the reason stated in the test), or background (RS_BACKGROUND). NAMES
# are our cgroups/devices/interfaces: a finding naming one must be expected
# or tolerated. Prints each background finding it lets through.
rs_judge() {
	local out=$1 expected=$2 tolerated=$3 ours names bad bg
	shift 3
	ours=$(rs_ours)
	names=$(printf '%s\n' "$@" | jq -Rsc 'split("\n") | map(select(length > 0))')
	local args=(--slurpfile o "$out.oracle" --argjson ours "$ours" --argjson names "$names")
	local sev='select(.severity == "warning" or .severity == "critical")'
	bad=$(jq -c "${args[@]}" "(\$o[0]) as \$o | $RS_DEFS .findings[] | $sev
		| select((($expected) or ($tolerated) or ($RS_BACKGROUND)) | not)" "$out") ||
		fail "jq failed on the judgement"
	[ -z "$bad" ] || fail "unexplained warning/critical findings (ours: $ours): $bad"
	bg=$(jq -c "${args[@]}" "(\$o[0]) as \$o | $RS_DEFS .findings[] | $sev
		| select((($expected) or ($tolerated)) | not)" "$out")
	[ -z "$bg" ] || echo "note: background findings tolerated (not ours, backed by the kernel's counters): $bg"
	echo "ok: no unexplained warning or critical finding"
}

# rs_pid_in ARRAY_JSON: jq predicate "the finding's subject names one of these PIDs".
rs_subject_pids() { echo '([.subject.pid?, (.subject.pids? // [])[]] | map(select(. != null)))'; }

# rs_evidence_near OUT SELECT METRIC WANT TOL WHAT: the finding(s) SELECT
# picks carry the percentage METRIC in their evidence within TOL points of
# WANT (the kernel's figure for the same run).
rs_evidence_near() {
	local out=$1 sel=$2 metric=$3 want=$4 tol=$5 what=$6
	jq -e --arg m "$metric" --argjson w "$want" --argjson t "$tol" "[.findings[] | select($sel) | .evidence[]
		| select(.metric == \$m and (.unit | startswith(\"%\")) and ((.value - \$w) | fabs) <= \$t)]
		| length > 0" "$out" >/dev/null ||
		fail "$what: no evidence $metric within $tol of $want: $(jq -c "[.findings[] | select($sel) | .evidence]" "$out")"
	echo "ok: $what: evidence $metric within $tol points of the kernel's $want%"
}

# rs_oracle_get OUT JQ: a value from the oracle object.
rs_oracle_get() { jq -r "$2" "$1.oracle"; }
