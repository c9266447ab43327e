#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: churn below the fork-storm rate, each child busier. A shell loop
# of the test's own (its PID known) runs awk over and over, each awk
# counting to 100,000 (10-20 ms of CPU) and exiting: some 30-80 new
# processes a second, under process-churn's CHURN_WARN_PER_S (250), but
# most of a CPU going to processes that live and die between two of the
# report's samples. The loop logs $EPOCHREALTIME after each child (a
# builtin: one fork per iteration, the child's).
# Two reports: with eBPF (sched_process_fork counted by parent) and with
# --no-bpf (the parents' reaped children's CPU).
# Oracle: the kernel's /proc/stat "processes" counter around each report
# (its rate must stay under 250/s: this scenario is the unsampled-CPU
# trigger, not the rate), the loop's reaped children's CPU (cutime + cstime
# in its /proc/PID/stat, the kernel's account of the children), and the
# loop's own log of the children it started.
# Expected, each time: the first finding past lib.sh's background ones is a
# warning process-churn whose forks_per_s is under 250, naming the loop
# among the parents, putting at least three quarters of the loop's
# children's CPU in its CPU too short-lived to sample. With eBPF the
# sentence gives the loop's forks a second, and their count over the window
# is at most the children the loop logged around the report; with --no-bpf,
# the loop's children's CPU. (Another user's make may be named first: its
# compilers are short-lived too.)
# Tolerated besides: cpu findings naming the loop or its children (it keeps
# a CPU busy), lib.sh's background ones.
. "$SRC/tests/report/lib.sh"
rs_require
log=$RS_TMP/children
# shellcheck disable=SC2016 # expanded by the loop's shell
rs_start timeout 120 bash -c 'echo "loop $$"; echo ready; exec >/dev/null
	while :; do awk "BEGIN { for (i = 0; i < 100000; i++) x += i }"; echo "$EPOCHREALTIME" >>"$0"; done' "$log"
loop=$(rs_said loop)
[ -n "$loop" ] || fail "the loop did not say its PID"
rs_favour "$loop"
forks() { awk '$1 == "processes" { print $2 }' /proc/stat; }
reaped() { sed 's/.*) //' "/proc/$loop/stat" | awk '{ print $14 + $15 }'; } # cutime + cstime
logged() { wc -l <"$log"; }
churn='[.findings[] | select(.kind == "process-churn")][0]'
ev() { jq "$churn.evidence[] | select(.metric == \"$2\") | .value" "$1"; }

run() { # MODE ARGS...: one report over the loop, and the checks
	local mode=$1 out=$RS_TMP/$1.json t0 t1 f0 f1 k0 k1 c0 c1 rate kids u n w
	shift
	t0=$(date +%s.%N) f0=$(forks) k0=$(reaped) c0=$(logged)
	rs_report "$out" "$@"
	f1=$(forks) k1=$(reaped) c1=$(logged) t1=$(date +%s.%N)
	rate=$(awk -v a="$f0" -v b="$f1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.0f", (b - a) / (e - s) }')
	[ "$rate" -lt 250 ] || skip "the kernel counted $rate new processes/s: another fork storm hides this scenario's trigger"
	kids=$(awk -v k=$((k1 - k0)) -v hz="$(getconf CLK_TCK)" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.0f", 100 * k / hz / (e - s) }')
	# the trigger wants 25% of a CPU; the favoured loop gets 50-90% on a busy machine
	[ "$kids" -ge 30 ] || skip "the loop's children got only $kids% of a CPU: this machine is too busy to run the scenario now"
	echo "ok: $mode: premise: $rate new processes/s, the loop's $((c1 - c0)) children used $kids% of a CPU around the report"
	jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
		"(\$o[0]) as \$o | $RS_DEFS [.findings[] | select(($RS_BACKGROUND) | not)][0]
		| .kind == \"process-churn\" and .severity == \"warning\"" "$out" >/dev/null ||
		fail "$mode: the first finding is not a warning process-churn: $(jq -c '.findings[0]' "$out")"
	n=$(ev "$out" forks_per_s)
	awk -v r="$n" -v d="$(jq .window.seconds "$out")" -v a="$f0" -v b="$f1" 'BEGIN { exit !(r < 250 && r * d <= b - a) }' ||
		fail "$mode: forks_per_s $n: not under 250, or more than the kernel's $((f1 - f0)) around the report"
	rs_expect_naming "$out" process-churn "$loop"
	u=$(ev "$out" unsampled_cpu)
	awk -v u="$u" -v k="$kids" 'BEGIN { exit !(u >= 0.75 * k) }' ||
		fail "$mode: the report puts $u% of a CPU in processes too short-lived to sample; the loop reaped $kids%"
	echo "ok: $mode: process-churn at $n new processes/s, $u% of a CPU too short-lived to sample (the loop reaped $kids%)"
	if [ "$mode" = bpf ]; then
		jq -e '[.skipped[] | select(.what | IN("ebpf", "ebpf-forks"))] | length == 0' "$out" >/dev/null ||
			skip "the /proc path passed; eBPF was not verified: $(jq -c '.skipped' "$out")"
		w=$(jq -r "$churn.summary" "$out" | sed -n "s/.*PID $loop [^(]*(\([0-9]*\) forks\/s).*/\1/p")
		[ -n "$w" ] || fail "bpf: the sentence does not give the loop's forks a second: $(jq -r "$churn.summary" "$out")"
		awk -v r="$w" -v d="$(jq .window.seconds "$out")" -v c=$((c1 - c0)) 'BEGIN { exit !(r > 0 && r * d <= c + 1) }' ||
			fail "bpf: eBPF counted $w forks/s for the loop; it logged $((c1 - c0)) children around the report"
		echo "ok: bpf: eBPF named the loop $loop at $w forks/s (it logged $((c1 - c0)) children around the report)"
	else
		jq -e "$churn.summary | contains(\"PID $loop bash (its children used \")" "$out" >/dev/null ||
			fail "proc: the sentence does not give the loop's children's CPU: $(jq -r "$churn.summary" "$out")"
		echo "ok: proc: the loop $loop named by its reaped children's CPU"
	fi
	rs_judge "$out" '.kind == "process-churn"' "(.kind | IN(\"cpu-saturated\", \"cpu-bound-user\", \"cpu-bound-kernel\", \"cpu-contention\"))"
}
run proc -d 2 --no-bpf
# The eBPF programs load while the window runs: give the forks counter time to attach.
run bpf -d 4
