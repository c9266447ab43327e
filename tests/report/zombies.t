#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a parent that never waits. report_zombies forks 500 children
# that exit at once and keeps them unreaped (waitid WNOWAIT) until killed.
# Oracle: the kernel's /proc: the processes in state Z whose PPID is the
# parent, counted before and after the report (500 both times).
# Expected: the first finding (past the background ones other engineers'
# work raises on this shared machine, lib.sh's rule) is a warning zombies naming the parent (pid,
# comm) with the kernel's count as evidence.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_zombies" 500 600 # killed at exit (lib.sh), never outlived by a slow run
parent=$(rs_said parent)
# zombies PID: the kernel's count of PID's children in state Z.
zombies() {
	# one cat and one awk read every stat (a process gone meanwhile is skipped); the comm may hold ") "
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v p="$parent" '{ s = $0; sub(/.*\) /, "", s); split(s, f, " ")
		if (f[1] == "Z" && f[2] == p) n++ } END { print n + 0 }'
}
before=$(zombies)
out=$RS_TMP/r.json
rs_report "$out" -d 2 --no-bpf
after=$(zombies)
[ "$before" = 500 ] && [ "$after" = 500 ] ||
	fail "premise: the kernel shows $before zombies under $parent before, $after after (want 500)"
echo "ok: premise: the kernel shows 500 zombie children of $parent before and after"
comm=$(cut -d' ' -f2 "/proc/$parent/stat" | tr -d '()')
first="[.findings[] | select(($RS_BACKGROUND) | not)][0] | .kind == \"zombies\" and .subject.pid == $parent and .subject.comm == \"$comm\"
	and any(.evidence[]; .metric == \"zombies\" and .value == 500)"
jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
	"(\$o[0]) as \$o | $RS_DEFS $first" "$out" >/dev/null ||
	fail "the first finding is not zombies of $parent ($comm) with 500: $(jq -c '.findings[0]' "$out")"
echo "ok: first finding: zombies naming $parent $comm, 500 zombie children"
rs_judge "$out" ".kind == \"zombies\" and .subject.pid == $parent" false
