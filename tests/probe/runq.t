# test: exclusive -- run-queue delay against schedstat, more threads than CPUs
# triage probe runq with more spinning threads than CPUs. Oracle: each
# thread's run_delay from /proc/thread-self/schedstat (the kernel's own
# sched_info accounting of time spent waiting on a run queue).
. "$SRC/tests/probe/lib.sh"
. "$SRC/tests/probe/stack_lib.sh"
require_bpf
n=$(($(nproc) * 2 + 2))

start_stack_workload probe_crowd "$n" 1.5
run_probe_on_trigger "$SCRATCH/r.json" "$SCRATCH/r.err" runq -p "$WPID" --json
wait "$WPID"
J="$SCRATCH/r.json"
[ "$(grep -c '^tid=' "$WOUT")" = "$n" ] || fail "workload reported $(grep -c '^tid=' "$WOUT") threads, not $n"
sum_ours=0 sum_kernel=0
while IFS=' ' read -r tidf delayf; do
	tid=${tidf#tid=} kernel=${delayf#run_delay_ns=}
	ours=$(jq --argjson t "$tid" '.threads[] | select(.tid == $t) | .total_ns' "$J")
	waits=$(jq --argjson t "$tid" '.threads[] | select(.tid == $t) | .waits' "$J")
	[ -n "$ours" ] && [ "$ours" -gt 0 ] && [ "$waits" -gt 0 ] ||
		fail "thread $tid: no run-queue latency reported"
	echo "tid $tid: ours $ours ns in $waits waits, kernel run_delay $kernel ns"
	within "$ours" "$kernel" 25 || fail "thread $tid: $ours ns vs kernel $kernel ns (>25% off)"
	sum_ours=$((sum_ours + ours)) sum_kernel=$((sum_kernel + kernel))
done < <(grep '^tid=' "$WOUT")
within "$sum_ours" "$sum_kernel" 10 || fail "total $sum_ours ns vs kernel $sum_kernel ns (>10% off)"
jq -e --argjson s "$sum_ours" '.all.total_ns >= $s and (.all.hist_us | length) > 0' "$J" >/dev/null ||
	fail "the all-threads row or histogram is wrong"
echo "ok per-thread totals match run_delay (ours $sum_ours ns, kernel $sum_kernel ns)"

start_stack_workload probe_crowd "$n" 0.5
run_probe_on_trigger "$SCRATCH/r.txt" "$SCRATCH/r.err" runq -p "$WPID" --per-thread
grep -qE '^ +all ' "$SCRATCH/r.txt" && grep -q 'usecs' "$SCRATCH/r.txt" ||
	fail "plain report: $(cat "$SCRATCH/r.txt")"
# --per-thread: one histogram per spinning thread, after the all-threads one.
[ "$(grep -cE '^tid [0-9]+ \(probe_crowd\):$' "$SCRATCH/r.txt")" -ge "$n" ] ||
	fail "--per-thread: $(cat "$SCRATCH/r.txt")"
echo "ok plain"

# No -p: every task; the workload's threads are there under its pid, and
# still match the kernel's run_delay.
start_stack_workload probe_crowd "$n" 1
run_probe_until_workload_exits "$SCRATCH/all.json" "$SCRATCH/all.err" runq --json -d 60
J="$SCRATCH/all.json"
sum_ours=0 sum_kernel=0
while IFS=' ' read -r tidf delayf; do
	tid=${tidf#tid=} kernel=${delayf#run_delay_ns=}
	ours=$(jq --argjson t "$tid" --argjson p "$WPID" \
		'.threads[] | select(.tid == $t and .pid == $p) | .total_ns' "$J")
	[ -n "$ours" ] || fail "system-wide: no row for thread $tid of pid $WPID"
	sum_ours=$((sum_ours + ours)) sum_kernel=$((sum_kernel + kernel))
done < <(grep '^tid=' "$WOUT")
within "$sum_ours" "$sum_kernel" 10 || fail "system-wide total $sum_ours ns vs kernel $sum_kernel ns"
jq -e --argjson s "$sum_ours" '.all.total_ns >= $s' "$J" >/dev/null || fail "all-threads row below the workload's"
echo "ok system-wide (ours $sum_ours ns, kernel $sum_kernel ns)"
