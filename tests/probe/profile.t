# test: exclusive -- samples against the workload's CPU time
# triage probe profile against a workload that spins in a known function.
# Oracles: the workload's CPU time (samples expected = CPU seconds x HZ) and
# nm's symbol table of the workload binary.
. "$SRC/tests/probe/lib.sh"
. "$SRC/tests/probe/stack_lib.sh"
require_bpf
BIN="$BUILD/workloads/probe_funcs"

start_stack_workload probe_funcs burn 1.5
# -v: stacks by address, with offsets (checked against nm below)
run_probe_on_trigger "$SCRATCH/p.json" "$SCRATCH/p.err" profile -p "$WPID" -F 199 --json --top 5 -v
wait "$WPID"
J="$SCRATCH/p.json"
cpu_ns=$(wl_value cpu_ns)
samples=$(jq '[.stacks[].samples] | add' "$J")
all=$(jq '.samples' "$J")
expect=$(awk -v c="$cpu_ns" 'BEGIN { printf "%d", c / 1e9 * 199 }')
echo "samples $all (top stacks $samples), expected about $expect from ${cpu_ns} ns of CPU at 199 Hz"
within "$all" "$expect" 25 || fail "$all samples for $cpu_ns ns of CPU at 199 Hz (expected ~$expect ±25%)"
jq -e '.functions[0].function == "burn_cycles_in_known_function" and
	.functions[0].module == "probe_funcs"' "$J" >/dev/null ||
	fail "top function is not burn_cycles_in_known_function: $(jq -c .functions "$J")"
jq -e '.functions[0].samples >= 0.5 * .samples' "$J" >/dev/null ||
	fail "burn_cycles_in_known_function has under half the samples"
# The offset inside the function is within its size according to nm.
size=$((16#$(nm -S "$BIN" | awk '$4 == "burn_cycles_in_known_function" { print $2 }')))
jq -e --argjson size "$size" '[.stacks[].user[] | select(.symbol == "burn_cycles_in_known_function")
	| .offset < $size] | length > 0 and all' "$J" >/dev/null ||
	fail "offsets beyond the function's nm size $size"
jq -e '.stacks[0].user | map(.symbol) | index("main") != null' "$J" >/dev/null ||
	fail "main missing from the hottest stack"
echo "ok top function and sample count"

start_stack_workload probe_funcs burn 0.5
start_probe "$SCRATCH/f.txt" "$SCRATCH/f.err" profile -p "$WPID" --folded
kill -USR1 "$WPID"
wait_pid_rc "$PPID_PROBE" 60
[ "$RC" = 0 ] || fail "folded run exited $RC"
check_folded "$SCRATCH/f.txt"
sort -t' ' -k2,2nr "$SCRATCH/f.txt" | head -n 1 |
	grep -qE '^probe_funcs;(.*;)?main;burn_cycles_in_known_function [0-9]+$' ||
	fail "hottest folded stack: $(sort -t' ' -k2,2nr "$SCRATCH/f.txt" | head -n 1)"
echo "ok folded"

# Threads created after the probe attached are sampled too (per-CPU events).
# Each spins for 0.3 s of its own CPU (about 30 samples at the default
# 99 Hz), not of wall time, which a busy machine could leave nearly empty.
start_stack_workload probe_crowd 4 0.3 cpu
run_probe_on_trigger "$SCRATCH/c.json" "$SCRATCH/c.err" profile -p "$WPID" --json --top 1000
wait "$WPID"
# the workload names its 4 threads; without them the loop below checks nothing
[ "$(grep -c '^tid=' "$WOUT")" = 4 ] || fail "probe_crowd reported $(grep -c '^tid=' "$WOUT") threads, not 4"
for tid in $(sed -n 's/^tid=\([0-9]*\).*/\1/p' "$WOUT"); do
	jq -e --argjson t "$tid" '[.stacks[] | select(.tid == $t) | .samples] | add > 0' \
		"$SCRATCH/c.json" >/dev/null || fail "no samples for thread $tid started after attach"
done
echo "ok new threads sampled"

# start_thread is a local symbol of libc: only its build-id debug file
# (libc6-dbg) names it; readelf gives the build id, the path is Debian's.
libc=$(awk '$6 ~ /\/libc\.so\.6$/ { print $6; exit }' /proc/self/maps)
bid=$(readelf -n "$libc" 2>/dev/null | sed -n 's/.*Build ID: //p')
if [ -n "$bid" ] && [ -r "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ]; then
	jq -e '[.stacks[].user[] | select(.module == "libc.so.6") | .symbol] | index("start_thread")' \
		"$SCRATCH/c.json" >/dev/null || fail "start_thread not resolved through libc's debug file"
	echo "ok start_thread resolved through the build-id debug file"
else
	echo "note: libc6-dbg is not installed; start_thread check not run"
fi

# No -p: every task. The spinner's samples are under its pid, its hottest
# stack in the function it spins in. It keeps spinning until the report is
# written (user frames are symbolized from a live process's maps).
start_stack_workload probe_funcs burn 60
start_probe "$SCRATCH/all.json" "$SCRATCH/all.err" profile --json --top 100000 -d 60
kill -USR1 "$WPID"
sleep 1
kill -INT "$PPID_PROBE"
wait_pid_rc "$PPID_PROBE" 60
[ "$RC" = 0 ] || { cat "$SCRATCH/all.err"; fail "system-wide profile exited $RC"; }
J="$SCRATCH/all.json"
jq -e --argjson p "$WPID" '[.stacks[] | select(.pid == $p)] | max_by(.samples)
	| .user[0].symbol == "burn_cycles_in_known_function"' "$J" >/dev/null ||
	fail "system-wide: hottest stack of $WPID: $(jq -c --argjson p "$WPID" \
		'[.stacks[] | select(.pid == $p)] | max_by(.samples)' "$J")"
echo "ok system-wide"
