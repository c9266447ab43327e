#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a fork storm. report_forks runs 2 loops that fork and exec
# /bin/true as fast as they can (each child lives about a millisecond).
# Oracle: the kernel's /proc/stat "processes" counter, read before and
# after the report: its rate must be at or above CHURN_WARN_PER_S (250/s).
# Expected: the first finding (past the background ones other engineers'
# work raises on this shared machine, lib.sh's rule) is process-churn, with a rate within the
# kernel's bounds (the report's window lies inside ours).
# Tolerated besides: cpu findings of the loops, lib.sh's background ones.
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_forks" 2 0 30
forks() { awk '$1 == "processes" { print $2 }' /proc/stat; }
t0=$(date +%s.%N)
f0=$(forks)
out=$RS_TMP/r.json
rs_report "$out" -d 2 --no-bpf
f1=$(forks)
t1=$(date +%s.%N)
rate=$(awk -v a="$f0" -v b="$f1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.0f", (b - a) / (e - s) }')
[ "$rate" -ge 250 ] || { echo "the kernel counted only $rate new processes/s: this machine cannot make a fork storm"; exit 77; }
echo "ok: premise: the kernel counted $rate new processes/s around the report"
first="[.findings[] | select(($RS_BACKGROUND) | not)][0] | .kind == \"process-churn\"
	and any(.evidence[]; .metric == \"forks_per_s\" and .value >= 250)"
jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
	"(\$o[0]) as \$o | $RS_DEFS $first" "$out" >/dev/null ||
	fail "the first finding is not process-churn at >= 250/s: $(jq -c '.findings[0]' "$out")"
# the report's window lies inside ours: its count cannot exceed the kernel's
n=$(jq '[.findings[] | select(.kind == "process-churn")][0].evidence[] | select(.metric == "forks_per_s") | .value' "$out")
awk -v r="$n" -v a="$f0" -v b="$f1" -v d=2 'BEGIN { exit !(r * d <= b - a) }' ||
	fail "the report says $n/s over 2 s, more than the kernel's $((f1 - f0)) forks around it"
echo "ok: first finding: process-churn at $n/s (kernel: $rate/s around it)"
rs_judge "$out" '.kind == "process-churn"' '.kind == "cpu-saturated" or .kind == "cpu-bound-user" or .kind == "cpu-bound-kernel" or .kind == "cpu-contention"'
