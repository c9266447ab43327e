#!/usr/bin/env bash
# Scenario: the issue's fault and its look-alike, side by side in one window.
#   - the locker: report_mutex, 8 threads taking turns on one mutex held
#     across a 1 ms sleep (at any moment one sleeps holding it, the others
#     wait in futex);
#   - the sleeper: report_mutex ... timers, 8 threads each sleeping 1 ms on
#     its own timer in a loop: as many voluntary switches, as little CPU,
#     and no thread in futex.
# Oracle, the kernel's own counters over the report's run: each process's
# voluntary switches (voluntary_ctxt_switches of every /proc/PID/task/*/status),
# its CPU (lib.sh: /proc/PID/stat), and which of its threads sleep in a futex
# wait (/proc/PID/task/*/syscall, the architecture's futex numbers), read
# every 0.2 s through the run.
# Premise: both processes switched >= 500 times a second (LOCK_CSWCH_S) on
# < 10% of a CPU per thread (LOCK_THREAD_CPU_PCT); most of the locker's
# threads were in futex at every look, none of the sleeper's ever.
# Expected: the first finding past the background (lib.sh) is a warning
# lock-contention naming the locker, its switch rate within 30% of the
# kernel's (the same steady workload over a window inside the oracle's
# interval; the machine's other users move it a little) and a
# futex_waiting count above half its threads; no lock-contention names the
# sleeper.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
case $(uname -m) in
x86_64) futex_nrs='^(202|449) ' ;; # futex, futex_waitv
aarch64) futex_nrs='^(98|449) ' ;;
*) skip "the futex syscall numbers of $(uname -m) are not known to this test" ;;
esac
rs_start "$BUILD/workloads/report_mutex" 8 1000 30
locker=$(rs_said locker)
rs_start "$BUILD/workloads/report_mutex" 8 1000 30 timers
sleeper=$(rs_said locker)
[ -r "/proc/$locker/task/$locker/syscall" ] || skip "/proc/PID/task/TID/syscall cannot be read here"

# vcsw PID: voluntary switches of all its threads now.
vcsw() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s + 0 }'; }
# futex_look PID: "THREADS IN_FUTEX" now.
futex_look() {
	cat /proc/"$1"/task/*/syscall 2>/dev/null | awk -v re="$futex_nrs" '{ n++ } ($0 " ") ~ re { f++ } END { print n + 0, f + 0 }'
}
looks() { # PID FILE: a look every 0.2 s until killed
	while :; do
		futex_look "$1" >>"$2"
		sleep 0.2
	done
}
looks "$locker" "$RS_TMP/locker.looks" &
RS_EXTRA_PIDS=($!)
looks "$sleeper" "$RS_TMP/sleeper.looks" &
RS_EXTRA_PIDS+=($!)
rs_undo "kill ${RS_EXTRA_PIDS[*]}"
t0=$(date +%s.%N) l0=$(vcsw "$locker") s0=$(vcsw "$sleeper")
out=$RS_TMP/r.json
RS_WATCH="$locker $sleeper" rs_report "$out" -d 2 --no-bpf
t1=$(date +%s.%N) l1=$(vcsw "$locker") s1=$(vcsw "$sleeper")
futex_look "$locker" >>"$RS_TMP/locker.looks"
kill "${RS_EXTRA_PIDS[@]}" 2>/dev/null
wait "${RS_EXTRA_PIDS[@]}" 2>/dev/null

rate() { awk -v a="$1" -v b="$2" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.0f", (b - a) / (t1 - t0) }'; }
lrate=$(rate "$l0" "$l1")
srate=$(rate "$s0" "$s1")
lcpu=$(rs_oracle_get "$out" ".tasks[\"$locker\"] | .usr + .sys")
scpu=$(rs_oracle_get "$out" ".tasks[\"$sleeper\"] | .usr + .sys")
echo "kernel: locker $locker $lrate switches/s on $lcpu% CPU, futex looks: $(tr '\n' ';' <"$RS_TMP/locker.looks")"
echo "kernel: sleeper $sleeper $srate switches/s on $scpu% CPU, futex looks: $(tr '\n' ';' <"$RS_TMP/sleeper.looks")"
awk -v l="$lrate" -v s="$srate" -v lc="$lcpu" -v sc="$scpu" \
	'BEGIN { exit !(l >= 500 && s >= 500 && lc / 9 < 10 && sc / 9 < 10) }' ||
	fail "premise: want >= 500 switches/s on < 10% CPU per thread for both"
awk '$2 * 2 <= $1 { bad++ } END { exit !(NR >= 5 && !bad) }' "$RS_TMP/locker.looks" ||
	fail "premise: the locker did not have most threads in futex at every look"
awk '$2 > 0 { bad++ } END { exit !(NR >= 5 && !bad) }' "$RS_TMP/sleeper.looks" ||
	fail "premise: a sleeper thread was seen in futex"
echo "ok: premise: both switch >= 500/s on little CPU; the locker's threads are mostly in futex, the sleeper's never"

first="[.findings[] | select(($RS_BACKGROUND) | not)][0] | .kind == \"lock-contention\"
	and .subject.pid == $locker and .severity == \"warning\""
jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
	"(\$o[0]) as \$o | $RS_DEFS $first" "$out" >/dev/null ||
	fail "the first finding past the background is not lock-contention naming $locker: $(jq -c --slurpfile o "$out.oracle" \
		--argjson ours "$(rs_ours)" --argjson names '[]' "(\$o[0]) as \$o | $RS_DEFS [.findings[] | select(($RS_BACKGROUND) | not)][0]" "$out")"
echo "ok: first finding: lock-contention naming the locker $locker"
mine=".kind == \"lock-contention\" and .subject.pid == $locker"
jq -e --argjson k "$lrate" "[.findings[] | select($mine) | .evidence[]
	| select(.metric == \"cswch\" and ((.value - \$k) | fabs) <= 0.3 * \$k)] | length == 1" "$out" >/dev/null ||
	fail "its cswch is not within 30% of the kernel's $lrate/s: $(jq -c "[.findings[] | select($mine) | .evidence]" "$out")"
jq -e "[.findings[] | select($mine) | .evidence as \$e
	| (\$e[] | select(.metric == \"futex_waiting\") | .value) * 2 > (\$e[] | select(.metric == \"threads\") | .value)]
	| all and length == 1" "$out" >/dev/null || fail "its futex_waiting is not above half its threads"
echo "ok: its evidence: switch rate within 30% of the kernel's $lrate/s, most threads in futex"
jq -e "[.findings[] | select(.kind == \"lock-contention\" and .subject.pid == $sleeper)] | length == 0" "$out" >/dev/null ||
	fail "lock-contention names the sleeper $sleeper, whose threads sleep on timers"
echo "ok: no lock-contention names the sleeper $sleeper"
rs_judge "$out" "$mine" false
