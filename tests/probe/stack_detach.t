# test: exclusive -- counts the machine's BPF programs by name before and after
# offcpu, runq and profile detach on SIGINT, SIGTERM and -d; refuse the
# unprivileged with exit 3; usage errors exit 2 and a missing pid exits 1.
. "$SRC/tests/probe/lib.sh"
. "$SRC/tests/probe/stack_lib.sh"
require_bpf
NAMES='^(offcpu_switch|runq_wakeup|runq_wakeup_new|runq_switch|profile_sample)$'

start_stack_workload probe_funcs half-sleep 100000 5
kill -USR1 "$WPID" # busy, then asleep, for the rest of the test

for run in "offcpu INT" "runq TERM" "profile INT" "offcpu TERM"; do
	set -- $run
	probe=$1 sig=$2
	before=$(bpf_prog_ids "$NAMES")
	start_probe "$SCRATCH/d.out" "$SCRATCH/d.err" "$probe" -p "$WPID"
	during=$(bpf_prog_ids "$NAMES")
	ours=$(comm -13 <(echo "$before") <(echo "$during"))
	[ -n "$ours" ] || fail "$probe: no BPF program of ours is loaded while it runs"
	sleep 0.3
	kill -"$sig" "$PPID_PROBE"
	wait_pid_rc "$PPID_PROBE" 30
	[ "$RC" = 0 ] || { cat "$SCRATCH/d.err"; fail "$probe: SIG$sig gave exit $RC"; }
	grep -q interrupted "$SCRATCH/d.out" || fail "$probe: no report after SIG$sig"
	expect_progs_gone $ours
	echo "ok $probe SIG$sig detaches (programs $(echo $ours))"
done

for probe in offcpu runq profile; do
	"$TRIAGE" probe "$probe" -p "$WPID" -d 0.3 >"$SCRATCH/d.out" 2>"$SCRATCH/d.err" ||
		fail "$probe -d 0.3 failed"
	grep -q 'duration elapsed' "$SCRATCH/d.out" || fail "$probe -d: $(cat "$SCRATCH/d.out")"
done
echo "ok -d"

if command -v setpriv >/dev/null; then
	for probe in offcpu runq profile; do
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$TRIAGE" probe "$probe" -p "$WPID" >/dev/null 2>"$SCRATCH/err"
		rc=$?
		[ $rc = 3 ] || { cat "$SCRATCH/err"; fail "$probe unprivileged: exit $rc, expected 3"; }
		grep -q 'CAP_BPF' "$SCRATCH/err" || fail "$probe unprivileged: message does not say why"
	done
	echo "ok unprivileged exit 3"
fi

start_stack_workload probe_crowd 2 60 # threads appear after SIGUSR1
CROWD=$WPID
kill -USR1 "$CROWD"
for i in $(seq 50); do [ "$(ls "/proc/$CROWD/task" | wc -l)" -ge 2 ] && break; sleep 0.1; done
for probe in offcpu runq profile; do
	"$TRIAGE" probe "$probe" -p 1 -C x >/dev/null 2>&1; [ $? = 2 ] || fail "$probe -p and -C: not exit 2"
	"$TRIAGE" probe "$probe" -p x >/dev/null 2>&1; [ $? = 2 ] || fail "$probe -p x: not exit 2"
	"$TRIAGE" probe "$probe" -p 1 extra >/dev/null 2>&1; [ $? = 2 ] || fail "$probe extra arg: not 2"
	"$TRIAGE" probe "$probe" -p 1 --folded --json >/dev/null 2>&1; [ $? = 2 ] ||
		fail "$probe --folded --json: not exit 2"
	"$TRIAGE" probe "$probe" -p 4194303 >/dev/null 2>"$SCRATCH/err"; rc=$?
	[ $rc = 1 ] && grep -q 'no such process' "$SCRATCH/err" || fail "$probe missing pid: exit $rc"
	tid=$(ls "/proc/$CROWD/task" | grep -vx "$CROWD" | head -n 1)
	"$TRIAGE" probe "$probe" -p "$tid" >/dev/null 2>"$SCRATCH/err"; rc=$?
	[ $rc = 2 ] && grep -q "thread of process $CROWD" "$SCRATCH/err" || fail "$probe -p TID: exit $rc"
	"$TRIAGE" probe "$probe" --help | grep -q "triage probe $probe" || fail "$probe --help"
done
# syscalls and trace share the check (pidfd_open of a thread used to fail as "no tracepoint").
tid=$(ls "/proc/$CROWD/task" | grep -vx "$CROWD" | head -n 1)
for probe in syscalls "trace openat"; do
	"$TRIAGE" probe $probe -p "$tid" -d 0.2 >/dev/null 2>"$SCRATCH/err"; rc=$?
	[ $rc = 2 ] && grep -q "thread of process $CROWD" "$SCRATCH/err" || fail "$probe -p TID: exit $rc"
done
"$TRIAGE" probe profile -p 1 -F 0 >/dev/null 2>&1; [ $? = 2 ] || fail "-F 0: not exit 2"
"$TRIAGE" probe offcpu -p 1 -F 99 >/dev/null 2>&1; [ $? = 2 ] || fail "offcpu -F: not exit 2"
"$TRIAGE" probe runq -p 1 --top 3 >/dev/null 2>&1; [ $? = 2 ] || fail "runq --top: not exit 2"
"$TRIAGE" probe profile -p 1 --per-thread >/dev/null 2>&1; [ $? = 2 ] || fail "profile --per-thread: not 2"
echo "ok usage"
