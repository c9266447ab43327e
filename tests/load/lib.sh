# Shared by tests/load/*.t: start the project's workloads, freeze a task,
# and clean up only what we started.
# shellcheck shell=bash
LOAD_TMP=$(mktemp -d "/tmp/triage-load-test.$$.XXXXXX")
LOAD_PIDS=()
LOAD_FRZ=""

load_cleanup() {
	if [ -n "$LOAD_FRZ" ] && [ -d "$LOAD_FRZ" ]; then
		echo THAWED >"$LOAD_FRZ/freezer.state" 2>/dev/null
		[ -f "$LOAD_FRZ/cgroup.freeze" ] && echo 0 >"$LOAD_FRZ/cgroup.freeze" 2>/dev/null
	fi
	# Each workload runs in its own session: kill its whole group.
	for p in "${LOAD_PIDS[@]}"; do kill -9 -- "-$p" 2>/dev/null; done

	# A killed task leaves its cgroup only once it is reaped: wait for that.
	# (cgroup files report size 0 whatever they hold, so read, not test -s.)
	if [ -n "$LOAD_FRZ" ] && [ -d "$LOAD_FRZ" ]; then
		for _ in $(seq 50); do
			read -r _ <"$LOAD_FRZ/cgroup.procs" 2>/dev/null || break
			sleep 0.1
		done
		rmdir "$LOAD_FRZ" 2>/dev/null
	fi
	rm -rf "$LOAD_TMP"
}
trap load_cleanup EXIT

# load_start NAME ARGS...: runs $BUILD/workloads/NAME in its own session,
# output in $LOAD_TMP/NAME.out, and waits for its "ready" line. With
# LOAD_NICE=N it runs at nice N, its session's autogroup too (with
# sched_autogroup_enabled a task's nice counts only inside its session):
# spinners that stay runnable without taking CPUs from tests beside them.
load_start() {
	local name=$1 out
	shift
	out="$LOAD_TMP/$name.$#.$RANDOM.out"
	setsid ${LOAD_NICE:+nice -n "$LOAD_NICE"} "$BUILD/workloads/$name" "$@" >"$out" 2>&1 </dev/null &
	LOAD_PIDS+=($!)
	disown $! # no "Killed" notice from bash at cleanup
	for _ in $(seq 100); do
		if grep -q '^ready' "$out"; then
			LOAD_LAST_OUT=$out
			# once ready, its session (and so its autogroup) is made
			[ -z "${LOAD_NICE:-}" ] || [ ! -w "/proc/${LOAD_PIDS[-1]}/autogroup" ] ||
				echo "$LOAD_NICE" >"/proc/${LOAD_PIDS[-1]}/autogroup"
			return 0
		fi
		sleep 0.05
	done
	echo "workload $name did not become ready"
	return 1
}

# The state letter of a task, or "-" once it is gone.
task_state() { # pid tid
	local s
	s=$(cat "/proc/$1/task/$2/stat" 2>/dev/null) || { echo -; return; }
	s=${s##*) }
	echo "${s%% *}"
}

# load_freeze PID: freezes PID in a cgroup of its own. Sets LOAD_FREEZE_KIND
# to v1 (shown D, not counted) or v2; returns 1 if no freezer is usable.
load_freeze() {
	local pid=$1
	if [ -w /sys/fs/cgroup/freezer ]; then
		LOAD_FRZ=/sys/fs/cgroup/freezer/triage_load_test_$$
		mkdir "$LOAD_FRZ" && echo "$pid" >"$LOAD_FRZ/cgroup.procs" &&
			echo FROZEN >"$LOAD_FRZ/freezer.state" || return 1
		LOAD_FREEZE_KIND=v1
	else
		local v2=/sys/fs/cgroup
		[ -f $v2/cgroup.controllers ] || v2=/sys/fs/cgroup/unified
		[ -w "$v2" ] || return 1
		LOAD_FRZ=$v2/triage_load_test_$$
		mkdir "$LOAD_FRZ" && echo "$pid" >"$LOAD_FRZ/cgroup.procs" &&
			[ -f "$LOAD_FRZ/cgroup.freeze" ] && echo 1 >"$LOAD_FRZ/cgroup.freeze" || return 1
		LOAD_FREEZE_KIND=v2
	fi
	return 0
}
