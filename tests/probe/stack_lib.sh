# Helpers of the offcpu/runq/profile tests (sourced after tests/probe/lib.sh).
# shellcheck shell=bash

# start_stack_workload NAME ARGS...: runs $BUILD/workloads/NAME with stdout in
# $SCRATCH/NAME.out, waits for its "ready" line; sets WPID and WOUT.
start_stack_workload() {
	local name=$1
	shift
	WOUT="$SCRATCH/$name.out"
	: >"$WOUT"
	"$BUILD/workloads/$name" "$@" >"$WOUT" &
	WPID=$!
	started="$started $WPID"
	wait_for_file "$WOUT" '^ready' || fail "workload $name did not start"
}

# wl_value KEY: the number after KEY= in the workload's output.
wl_value() {
	sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$WOUT" | head -n 1
}

# within A B PCT: |A - B| <= PCT% of B (integers or decimals).
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}

# check_folded FILE: every line is "frame;frame;... COUNT" with no blank frames.
check_folded() {
	[ -s "$1" ] || fail "folded output is empty"
	if grep -vqE '^[^; ]+(;[^; ]+)* [1-9][0-9]*$' "$1"; then
		grep -vE '^[^; ]+(;[^; ]+)* [1-9][0-9]*$' "$1" | head -n 3
		fail "not valid folded format"
	fi
}

# run_probe_on_trigger OUT ERR ARGS...: attaches triage probe ARGS, starts the
# workload with SIGUSR1, and waits for the probe to end with the target; sets RC.
run_probe_on_trigger() {
	local out=$1 err=$2
	shift 2
	start_probe "$out" "$err" "$@"
	kill -USR1 "$WPID"
	wait_pid_rc "$PPID_PROBE" 60
	[ "$RC" = 0 ] || { cat "$err"; fail "probe $* exited $RC"; }
	grep -q 'target exited' "$out" || fail "probe $* did not end with the target's exit"
}
