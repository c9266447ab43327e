# test: exclusive -- counts the machine's BPF programs by name before and after
# triage probe syscalls: exact counts against a workload whose syscall counts
# are fixed by its arguments (100,000 getppid, 1,000 openat + 7 failing with
# ENOENT, 1,000 close), for a target that exits before the probe ends; clean
# detach on target exit, SIGINT and SIGTERM; exit 3 when unprivileged.
. "$SRC/tests/probe/lib.sh"
require_bpf

N_PPID=100000 N_OK=1000 N_MISSING=7
echo hello >"$SCRATCH/file"

# 1. Exact counts, JSON, the target exits first.
start_workload $N_PPID $N_OK $N_MISSING "$SCRATCH/file"
before=$(bpf_prog_ids '^sc_(enter|exit)$')
start_probe "$SCRATCH/nolat.json" "$SCRATCH/err.nolat" syscalls -p "$WPID" --json --no-latency
P_NOLAT=$PPID_PROBE
start_probe "$SCRATCH/out.json" "$SCRATCH/err" syscalls -p "$WPID" --json
ids=$(new_prog_ids '^sc_(enter|exit)$' "$before")
[ -n "$ids" ] || fail "no sc_enter/sc_exit programs loaded while attached"
kill -USR1 "$WPID"
wait_pid_rc "$PPID_PROBE"
[ "$RC" = 0 ] || { cat "$SCRATCH/err"; fail "probe exited $RC after the target exited"; }
J="$SCRATCH/out.json"
jq -e . "$J" >/dev/null || fail "invalid JSON"
count() { jq -r --arg n "$1" '[.reports[-1].syscalls[] | select(.name == $n) | .'"$2"'] | add // 0' "$J"; }
[ "$(count getppid count)" = $N_PPID ] || fail "getppid: $(count getppid count), expected $N_PPID"
[ "$(count openat count)" = $((N_OK + N_MISSING)) ] || fail "openat: $(count openat count)"
[ "$(count openat errors)" = $N_MISSING ] || fail "openat errors: $(count openat errors)"
[ "$(count openat errnos.ENOENT)" = $N_MISSING ] || fail "openat ENOENT: $(count openat errnos.ENOENT)"
[ "$(count close count)" = $N_OK ] || fail "close: $(count close count)"
[ "$(count exit_group count)" = 1 ] || fail "exit_group: $(count exit_group count)"
[ "$(count getppid returns)" = $N_PPID ] || fail "getppid latency samples: $(count getppid returns)"
jq -e '.reports[-1].target_exited == true and .reports[-1].final == true' "$J" >/dev/null ||
	fail "last report not marked final/target_exited"
jq -e '.reports[-1].syscalls[] | select(.name == "getppid") | .max_ns >= .avg_ns and .avg_ns > 0' \
	"$J" >/dev/null || fail "getppid latency makes no sense"
wait_pid_rc "$P_NOLAT"
[ "$RC" = 0 ] || fail "--no-latency probe exited $RC"
J="$SCRATCH/nolat.json"
[ "$(count getppid count)" = $N_PPID ] || fail "--no-latency getppid: $(count getppid count)"
[ "$(count openat errnos.ENOENT)" = $N_MISSING ] || fail "--no-latency ENOENT: $(count openat errnos.ENOENT)"
[ "$(count getppid returns)" = 0 ] || fail "--no-latency still timed calls"
# shellcheck disable=SC2086
expect_progs_gone $ids
echo "ok exact counts (also with --no-latency, two probes at once)"

# 2. Plain output with --hist.
start_workload 20000 10 0 "$SCRATCH/file"
start_probe "$SCRATCH/out.txt" "$SCRATCH/err" syscalls -p "$WPID" --hist
kill -USR1 "$WPID"
wait_pid_rc "$PPID_PROBE"
[ "$RC" = 0 ] || fail "plain run exited $RC"
grep -Eq '^getppid +20000 +0 ' "$SCRATCH/out.txt" || { cat "$SCRATCH/out.txt"; fail "no getppid row"; }
grep -q 'getppid latency:' "$SCRATCH/out.txt" || fail "no getppid histogram"
grep -Eq 'usecs +: count +distribution' "$SCRATCH/out.txt" || fail "no histogram header"
grep -q '(target exited)' "$SCRATCH/out.txt" || fail "target exit not reported"
echo "ok plain + hist"

# 2b. -C COMM: the same exact count by comm; the probe runs until SIGINT.
start_workload 30000 0 0 "$SCRATCH/file"
start_probe "$SCRATCH/comm.json" "$SCRATCH/err" syscalls -C probe_calls --json
P=$PPID_PROBE
kill -USR1 "$WPID"
wait_pid_rc "$WPID"
kill -INT "$P"
wait_pid_rc "$P"
[ "$RC" = 0 ] || fail "-C run exited $RC"
J="$SCRATCH/comm.json"
[ "$(count getppid count)" = 30000 ] || fail "-C: getppid $(count getppid count), expected 30000"
jq -e '.target.comm == "probe_calls"' "$J" >/dev/null || fail "-C: target not in JSON"
echo "ok -C comm"

# 3. SIGINT and SIGTERM end the probe with its totals and detach everything.
for sig in INT TERM; do
	start_workload 0 0 0 "$SCRATCH/file" # waits for SIGUSR1: stays idle
	before=$(bpf_prog_ids '^sc_(enter|exit)$')
	start_probe "$SCRATCH/out.$sig" "$SCRATCH/err" syscalls -p "$WPID" --json
	ids=$(new_prog_ids '^sc_(enter|exit)$' "$before")
	[ -n "$ids" ] || fail "nothing attached"
	kill -"$sig" "$PPID_PROBE"
	wait_pid_rc "$PPID_PROBE" 20
	[ "$RC" = 0 ] || fail "SIG$sig: exit $RC"
	jq -e '.reports | length == 1' "$SCRATCH/out.$sig" >/dev/null || fail "SIG$sig: no final report"
	# shellcheck disable=SC2086
	expect_progs_gone $ids
	kill "$WPID"
	echo "ok SIG$sig detaches"
done

# 4. -d and interval/count end the probe by themselves.
start_workload 0 0 0 "$SCRATCH/file"
"$TRIAGE" probe syscalls -p "$WPID" -d 0.5 --json >"$SCRATCH/d.json" 2>"$SCRATCH/err" ||
	fail "-d 0.5 failed"
# -d counts from the attach: the report covers the whole 0.5 s (the load time is not eaten).
jq -e '.reports[-1].elapsed_s >= 0.499' "$SCRATCH/d.json" >/dev/null ||
	fail "-d 0.5 covered $(jq '.reports[-1].elapsed_s' "$SCRATCH/d.json") s"
"$TRIAGE" probe trace openat -p "$WPID" -d 0.5 --json >"$SCRATCH/d.json" 2>"$SCRATCH/err" ||
	fail "trace -d 0.5 failed"
jq -e '.elapsed_s >= 0.499' "$SCRATCH/d.json" >/dev/null ||
	fail "trace -d 0.5 covered $(jq '.elapsed_s' "$SCRATCH/d.json") s"
"$TRIAGE" probe syscalls -p "$WPID" --json 0.3 2 >"$SCRATCH/iv.json" 2>"$SCRATCH/err" ||
	fail "interval run failed"
jq -e '.reports | length == 2 and .[0].final == false and .[1].final == true' \
	"$SCRATCH/iv.json" >/dev/null || fail "interval 0.3 count 2: $(cat "$SCRATCH/iv.json")"
echo "ok -d and interval"

# 5. Unprivileged: exit 3 with a message that says what is missing.
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$TRIAGE" probe syscalls -p "$WPID" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	[ $rc = 3 ] || { cat "$SCRATCH/err"; fail "unprivileged: exit $rc, expected 3"; }
	grep -q 'CAP_BPF' "$SCRATCH/err" || fail "unprivileged: message does not say what is missing"
	echo "ok unprivileged exit 3"
fi
kill "$WPID"

# 6. Usage errors and a missing process.
"$TRIAGE" probe trace openat >/dev/null 2>&1; [ $? = 2 ] || fail "trace without a target: not exit 2"
"$TRIAGE" probe syscalls -p 0 >/dev/null 2>&1; [ $? = 2 ] || fail "-p 0: not exit 2"
"$TRIAGE" probe syscalls -p 1 -C x >/dev/null 2>&1; [ $? = 2 ] || fail "-p and -C: not exit 2"
"$TRIAGE" probe syscalls -C 0123456789abcdefg >/dev/null 2>&1; [ $? = 2 ] || fail "long comm: not 2"
"$TRIAGE" probe syscalls -p 1 1 2 3 >/dev/null 2>&1; [ $? = 2 ] || fail "extra args: not exit 2"
"$TRIAGE" probe syscalls -p 4194303 >/dev/null 2>"$SCRATCH/err"; rc=$?
[ $rc = 1 ] && grep -q 'no such process' "$SCRATCH/err" || fail "missing pid: exit $rc"
echo "ok usage"

# 7. No -p/-C: every process, with a per-process table naming the workload,
# whose getppid count is still exact.
start_workload $N_PPID $N_OK $N_MISSING "$SCRATCH/file"
run_probe_until_workload_exits "$SCRATCH/all.json" "$SCRATCH/err.all" syscalls --json -d 60
J="$SCRATCH/all.json"
jq -e '.target.all == true' "$J" >/dev/null || fail "system-wide JSON does not say all"
lost=$(jq '.reports[-1].processes_lost_calls' "$J")
[ "$lost" = 0 ] || skip "per-process rows overflowed ($lost calls): this machine started too many processes"
jq -e --argjson p "$WPID" --argjson n $N_PPID '.reports[-1].processes[] | select(.pid == $p)
	| .top_syscall == "getppid" and .top_count == $n and .calls > $n' "$J" >/dev/null ||
	fail "workload $WPID not listed with $N_PPID getppid: $(jq -c --argjson p "$WPID" \
		'.reports[-1].processes[] | select(.pid == $p)' "$J")"
jq -e --argjson n $N_PPID '.reports[-1].syscalls[] | select(.name == "getppid") | .count >= $n' \
	"$J" >/dev/null || fail "system-wide getppid total below the workload's"
echo "ok system-wide"
