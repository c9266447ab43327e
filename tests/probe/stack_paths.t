# test: exclusive -- profiles against the workload's own clocks
# Top stacks merged by function (perf report's default, -g function): a
# workload reaches one hot function through two known paths (via_alpha three
# times for each via_beta) and the report's top stacks must be those two
# paths, not one path split by instruction offset. Oracles: the workload's
# call structure and its own clocks around each path (CPU time for profile,
# wall time asleep for offcpu).
. "$SRC/tests/probe/lib.sh"
. "$SRC/tests/probe/stack_lib.sh"
require_bpf

# stack_block FILE N: the frame lines of stack #N of a plain report.
stack_block() {
	awk -v n="$2" '/^#[0-9]+ / { cur = substr($1, 2) + 0; next }
		/^[^ ]/ { cur = 0 } cur == n' "$1"
}
# stack_value FILE N FIELD_REGEX: the number before FIELD in stack #N's header.
stack_value() {
	sed -n "s/^#$2 .*: \\([0-9.]*\\) $3.*/\\1/p" "$1"
}

# 1. profile: #1 and #2 are via_alpha and via_beta into hash_block, without offsets.
start_stack_workload probe_paths cpu 1.5
run_probe_on_trigger "$SCRATCH/p.txt" "$SCRATCH/p.err" profile -p "$WPID" -F 199 --top 3
wait "$WPID"
P="$SCRATCH/p.txt"
alpha_ns=$(wl_value alpha_ns) beta_ns=$(wl_value beta_ns)
one=$(stack_block "$P" 1) two=$(stack_block "$P" 2)
echo "#1:" $one
echo "#2:" $two
echo "$one" | grep -qx '    hash_block \[probe_paths\]' && echo "$one" | grep -qx '    via_alpha \[probe_paths\]' ||
	fail "#1 is not hash_block through via_alpha: $(cat "$P")"
echo "$two" | grep -qx '    hash_block \[probe_paths\]' && echo "$two" | grep -qx '    via_beta \[probe_paths\]' ||
	fail "#2 is not hash_block through via_beta (a path split by offset?): $(cat "$P")"
! grep -q '^    .*+0x' "$P" || fail "offsets in the report without -v: $(grep -m3 '+0x' "$P")"
s1=$(stack_value "$P" 1 samples) s2=$(stack_value "$P" 2 samples)
self=$(awk '$3 == "hash_block" && $4 == "[probe_paths]" { print $1 }' "$P")
echo "hash_block: $self self samples; via_alpha $s1, via_beta $s2; workload: alpha $alpha_ns ns, beta $beta_ns ns of CPU"
# Every sample in hash_block came through one of the two paths: the two stacks hold all of them.
[ "$((s1 + s2))" = "$self" ] || fail "the paths' samples $s1 + $s2 are not hash_block's $self"
# Their split is the workload's own (3:1 by design, measured with its thread CPU clock).
awk -v a="$s1" -v b="$s2" -v x="$alpha_ns" -v y="$beta_ns" \
	'BEGIN { d = a / (a + b) - x / (x + y); exit !(d < 0.1 && d > -0.1) }' ||
	fail "via_alpha has $s1 of $((s1 + s2)) samples; the workload spent $alpha_ns of $((alpha_ns + beta_ns)) ns there"
echo "ok profile: two paths, $s1 + $s2 = $self samples"

# 2. offcpu: the same two paths into nanosleep, each with the time the workload slept
#    there (nap_in_known_function itself is hidden: libc's nanosleep keeps no frame pointer).
start_stack_workload probe_paths sleep 15 10
run_probe_on_trigger "$SCRATCH/o.txt" "$SCRATCH/o.err" offcpu -p "$WPID" --top 2
wait "$WPID"
O="$SCRATCH/o.txt"
alpha_ns=$(wl_value alpha_ns) beta_ns=$(wl_value beta_ns)
one=$(stack_block "$O" 1) two=$(stack_block "$O" 2)
echo "$one" | grep -qx '    via_alpha \[probe_paths\]' ||
	fail "offcpu #1 is not nanosleep through via_alpha: $(cat "$O")"
echo "$two" | grep -qx '    via_beta \[probe_paths\]' ||
	fail "offcpu #2 is not nanosleep through via_beta: $(cat "$O")"
[ "$one" != "$two" ] || fail "offcpu #1 and #2 print the same"
! grep -q '^    .*+0x' "$O" || fail "offsets in the offcpu report without -v"
m1=$(stack_value "$O" 1 ms) m2=$(stack_value "$O" 2 ms)
echo "offcpu: via_alpha $m1 ms, via_beta $m2 ms; workload slept $alpha_ns and $beta_ns ns"
within "$m1" "$(awk -v n="$alpha_ns" 'BEGIN { print n / 1e6 }')" 10 ||
	fail "via_alpha off-CPU $m1 ms vs $alpha_ns ns asleep"
within "$m2" "$(awk -v n="$beta_ns" 'BEGIN { print n / 1e6 }')" 10 ||
	fail "via_beta off-CPU $m2 ms vs $beta_ns ns asleep"
echo "ok offcpu: two paths, $m1 and $m2 ms"

# 3. -v keeps the addresses: offsets are shown.
start_stack_workload probe_paths sleep 2 10
run_probe_on_trigger "$SCRATCH/v.txt" "$SCRATCH/v.err" offcpu -p "$WPID" --top 2 -v
grep -qE '^    via_alpha\+0x[0-9a-f]+ \[probe_paths\]$' "$SCRATCH/v.txt" ||
	fail "-v shows no offsets: $(cat "$SCRATCH/v.txt")"
echo "ok -v shows offsets"
