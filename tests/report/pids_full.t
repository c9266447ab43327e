#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a pids cgroup at its limit. report_pidfill runs in a v1 pids
# cgroup with pids.max 20 and forks children until fork() fails with
# EAGAIN, then tries again every 50 ms (each try refused).
# Oracle: the cgroup's own pids.current, pids.max and pids.events (the
# kernel's count of refused forks), read before and after the report.
# Expected: the first finding (past lib.sh's background ones) is
# pid-exhaustion, critical, naming the cgroup and the filler among its
# processes, with the kernel's task count and limit, and refusals no
# fewer than the kernel counted before the report.
. "$SRC/tests/report/lib.sh"
rs_require
rs_mkcgroup pids "triage-pids-$$"
echo 20 >"$RS_CG/pids.max" || fail "cannot set pids.max"
rs_start "${RS_IN_CGROUP[@]}" "$RS_CG" "$BUILD/workloads/report_pidfill" 600
filler=$(rs_said filler)
refused() { awk '$1 == "max" { print $2 }' "$RS_CG/pids.events"; }
c0=$(cat "$RS_CG/pids.current") r0=$(refused)
out=$RS_TMP/r.json
rs_report "$out" -d 2 --no-bpf
c1=$(cat "$RS_CG/pids.current") r1=$(refused)
[ "$c0" = 20 ] && [ "$c1" = 20 ] && [ "$r1" -gt "$r0" ] ||
	fail "premise: pids.current $c0 -> $c1 of 20, forks refused $r0 -> $r1 (want full throughout, refusals growing)"
echo "ok: premise: the kernel's pids.current is 20 of pids.max 20 throughout; forks refused $r0 -> $r1"
MINE=".kind == \"pid-exhaustion\" and .subject.cgroup == \"/triage-pids-$$\""
first="[.findings[] | select(($RS_BACKGROUND) | not)][0] | $MINE and .severity == \"critical\"
	and (.subject.pids | index($filler))
	and any(.evidence[]; .metric == \"tasks\" and .value == 20)
	and any(.evidence[]; .metric == \"pids_max\" and .value == 20)
	and any(.evidence[]; .metric == \"forks_refused\" and .value >= $r0 and .value <= $r1)"
jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
	"(\$o[0]) as \$o | $RS_DEFS $first" "$out" >/dev/null ||
	fail "the first finding is not a critical pid-exhaustion of /triage-pids-$$ naming $filler: $(jq -c '.findings[0]' "$out")"
echo "ok: first finding: pid-exhaustion, /triage-pids-$$ at 20 of 20, naming PID $filler"
rs_judge "$out" "$MINE" false "triage-pids-$$"
