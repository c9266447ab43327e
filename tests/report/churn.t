#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a fork storm. report_forks runs 4 loops that fork and exec
# /bin/true as fast as they can (each child lives about a millisecond),
# favoured (lib.sh's rs_favour) so that other engineers' builds on this
# shared machine leave it the CPU to storm with. The report runs with
# --no-bpf: the parents come from the samples (their reaped children's
# CPU). The eBPF path (sched_process_fork by parent) is not run here: its
# programs take 10-15 s to load on this loaded 2-CPU machine, and they slow
# the storm below the threshold; tests/unit/test_report_procs.c covers its
# words.
# Oracle: the kernel's /proc/stat "processes" counter, read around each
# report: its rate must be at or above CHURN_WARN_PER_S (250/s); and each
# spawner's reaped children's CPU (cutime + cstime in its /proc/PID/stat),
# the kernel's own account of the CPU the short-lived children used.
# Expected, each time: the first finding (past the background ones other
# engineers' work raises on this shared machine, lib.sh's rule) is
# process-churn, with a rate within the kernel's bounds (the report's
# window lies inside ours), naming the 4 spawners as the parents
# (subject.pid one of them), putting at least three quarters of the
# children's CPU (the kernel's) in its CPU too short-lived to sample.
# Tolerated besides: cpu findings of the loops, lib.sh's background ones.
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_forks" 4 0 30
read -r -d "" s1 s2 s3 s4 < <(rs_said spawner)
rs_favour "$s1" # the session's autogroup: every loop and its children
forks() { awk '$1 == "processes" { print $2 }' /proc/stat; }
reaped() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $14 + $15 }'; } # cutime + cstime
sum_reaped() { echo $(($(reaped "$s1") + $(reaped "$s2") + $(reaped "$s3") + $(reaped "$s4"))); }
churn='[.findings[] | select(.kind == "process-churn")][0]'
ev() { jq "$churn.evidence[] | select(.metric == \"$2\") | .value" "$1"; }

storm() { # MODE ARGS...: one report over the storm, and the checks
	local mode=$1 out=$RS_TMP/$1.json t0 t1 f0 f1 k0 k1 rate n kids u top
	shift
	t0=$(date +%s.%N) f0=$(forks) k0=$(sum_reaped)
	rs_report "$out" -d 2 "$@"
	f1=$(forks) k1=$(sum_reaped) t1=$(date +%s.%N)
	rate=$(awk -v a="$f0" -v b="$f1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.0f", (b - a) / (e - s) }')
	[ "$rate" -ge 250 ] || skip "the kernel counted only $rate new processes/s: this machine cannot make a fork storm now"
	echo "ok: $mode: premise: the kernel counted $rate new processes/s around the report"
	first="[.findings[] | select(($RS_BACKGROUND) | not)][0] | .kind == \"process-churn\"
		and any(.evidence[]; .metric == \"forks_per_s\" and .value >= 250)"
	jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
		"(\$o[0]) as \$o | $RS_DEFS $first" "$out" >/dev/null ||
		fail "$mode: the first finding is not process-churn at >= 250/s: $(jq -c '.findings[0]' "$out")"
	# the report's window lies inside ours: its count cannot exceed the kernel's
	n=$(ev "$out" forks_per_s)
	awk -v r="$n" -v a="$f0" -v b="$f1" -v d=2 'BEGIN { exit !(r * d <= b - a) }' ||
		fail "$mode: the report says $n/s over 2 s, more than the kernel's $((f1 - f0)) forks around it"
	echo "ok: $mode: first finding: process-churn at $n/s (kernel: $rate/s around it)"
	rs_expect_naming "$out" process-churn "$s1" "$s2" "$s3" "$s4"
	jq -e "$churn.subject.pid | IN($s1, $s2, $s3, $s4)" "$out" >/dev/null ||
		fail "$mode: process-churn's subject is not a spawner: $(jq -c "$churn.subject" "$out")"
	kids=$(awk -v k=$((k1 - k0)) -v hz="$(getconf CLK_TCK)" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.0f", 100 * k / hz / (e - s) }')
	[ "$kids" -ge 10 ] || fail "premise: the spawners reaped only $kids% of a CPU of children's time"
	u=$(ev "$out" unsampled_cpu)
	awk -v u="$u" -v k="$kids" 'BEGIN { exit !(u >= 0.75 * k) }' ||
		fail "$mode: the report puts $u% of a CPU in processes too short-lived to sample; the spawners reaped $kids% of children's CPU"
	echo "ok: $mode: the parents named: $s1 $s2 $s3 $s4; $u% of a CPU too short-lived to sample (the spawners reaped $kids%)"
	rs_judge "$out" '.kind == "process-churn"' '.kind == "cpu-saturated" or .kind == "cpu-bound-user" or .kind == "cpu-bound-kernel" or .kind == "cpu-contention"'
}
storm proc --no-bpf
