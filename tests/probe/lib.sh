# Helpers for the probe shell tests (sourced), on tests/lib.sh: each test
# gets its own scratch dir ($work, here also $SCRATCH); processes it starts
# ($started) are killed by pid at exit.
# shellcheck shell=bash
. "$SRC/tests/lib.sh" triage-probe-test
SCRATCH=$work

# Skips only when BPF is truly unavailable: a build without it, no root,
# or a kernel without BTF.
require_bpf() {
	# jq first: without it the feature check below would skip for the wrong reason
	command -v jq >/dev/null || fail "jq is missing (scripts/deps.sh installs it)"
	"$TRIAGE" version --json | jq -e '.features.bpf' >/dev/null ||
		skip "triage was built without BPF (clang/bpftool/libbpf-dev missing at build time)"
	[ "$(id -u)" = 0 ] || skip "probe tests need root"
	[ -r /sys/kernel/btf/vmlinux ] || skip "kernel has no BTF (/sys/kernel/btf/vmlinux)"
}

# start_workload ARGS...: runs $BUILD/workloads/probe_calls, waits until it is
# ready (pid in $SCRATCH/ready) and sets WPID.
start_workload() {
	rm -f "$SCRATCH/ready"
	"$BUILD/workloads/probe_calls" "$SCRATCH/ready" "$@" &
	WPID=$!
	started="$started $WPID"
	wait_for_file "$SCRATCH/ready" || fail "workload did not start"
}

# wait_for_file FILE [PATTERN]: up to 20 s until FILE exists (and matches).
wait_for_file() {
	for _ in $(seq 200); do
		if [ -s "$1" ] && { [ $# -lt 2 ] || grep -q "$2" "$1"; }; then return 0; fi
		sleep 0.1
	done
	return 1
}

# start_probe OUT ERR ARGS...: runs triage probe ARGS in the background and
# waits for its "Tracing" line (the probes are attached); sets PPID_PROBE.
start_probe() {
	local out=$1 err=$2
	shift 2
	: >"$err" # truncate before the fork: a stale "Tracing" line must not count
	"$TRIAGE" probe "$@" >"$out" 2>"$err" &
	PPID_PROBE=$!
	started="$started $PPID_PROBE"
	if ! wait_for_file "$err" '^Tracing'; then
		cat "$err"
		fail "probe $* did not attach"
	fi
}

# run_probe_until_workload_exits OUT ERR ARGS...: attaches triage probe ARGS
# (system-wide runs end on SIGINT, not with the target), starts the workload
# $WPID with SIGUSR1, waits for it to exit, then stops the probe with SIGINT;
# fails unless the probe then exits 0.
run_probe_until_workload_exits() {
	local out=$1 err=$2
	shift 2
	start_probe "$out" "$err" "$@"
	kill -USR1 "$WPID"
	wait "$WPID"
	kill -INT "$PPID_PROBE"
	wait_pid_rc "$PPID_PROBE" 60
	[ "$RC" = 0 ] || { cat "$err"; fail "probe $* exited $RC"; }
}

# running PID: alive and not a zombie.
running() {
	local st
	st=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# wait_pid_rc PID [SECONDS]: waits for a child to exit (default 60 s), sets RC.
wait_pid_rc() {
	local pid=$1 limit=${2:-60}
	for _ in $(seq $((limit * 10))); do
		running "$pid" || break
		sleep 0.1
	done
	running "$pid" && fail "pid $pid still running after ${limit}s"
	wait "$pid"
	RC=$?
}

# bpf_prog_ids NAME_REGEX: ids of loaded BPF programs whose name matches.
bpf_prog_ids() {
	bpftool prog list -j | jq -r --arg re "$1" '.[] | select((.name // "") | test($re)) | .id' | sort -n
}

# new_prog_ids NAME_REGEX BEFORE: ids matching now that were not in BEFORE (an
# earlier bpf_prog_ids), so programs of other users of this machine, loaded
# before our probe, are not taken for ours.
new_prog_ids() {
	comm -13 <(echo "$2") <(bpf_prog_ids "$1")
}

# expect_progs_gone IDS...: each id must disappear (the kernel frees programs
# after an RCU grace period, so allow a few seconds).
expect_progs_gone() {
	local id left
	for _ in $(seq 50); do
		left=""
		for id in "$@"; do
			bpftool prog show id "$id" >/dev/null 2>&1 && left="$left $id"
		done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	fail "BPF programs still loaded after the probe exited:$left"
}
