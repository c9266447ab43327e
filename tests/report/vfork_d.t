#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: three processes held in D inside vfork() (report_vfork: each
# vfork child announces its parent, then sleeps before it execs).
# Expected: a warning or critical load-uninterruptible finding whose subject
# names all three parents (subject.pid or subject.pids, over one or more
# findings). Before the report, the test checks the kernel shows each parent
# in state D (the vfork wait is killable, shown as D, and counted in the
# load average), and again after it (so they were held through the
# window); the finding's d_tasks_whole_window must count all three. The
# report runs with -p on the parents.
# Tolerated besides: lib.sh's background findings (e.g. other users' tasks
# in D, named by PID, not ours).
. "$SRC/tests/report/lib.sh"
rs_require
rs_start "$BUILD/workloads/report_vfork" 3 30
held=$(rs_said held | tr '\n' ' ')
[ "$(wc -w <<<"$held")" = 3 ] || fail "expected 3 held parents, got: $held"
# The child runs only once the parent is suspended in vfork(), but the
# parent's state letter is set as it goes to sleep: wait for D (bounded).
for p in $held; do
	for _ in $(seq 100); do
		st=$(sed 's/.*) //' "/proc/$p/stat" | cut -d' ' -f1)
		[ "$st" = D ] && break
		sleep 0.05
	done
	[ "$st" = D ] || fail "parent $p is in state $st, not D"
done
echo "ok: parents $held in D"
rs_report "$RS_TMP/r.json" -d 3 -p "$(tr ' ' ',' <<<"${held% }")"
out=$RS_TMP/r.json
for p in $held; do # D before and after: held through the window (the children sleep 30 s)
	st=$(sed 's/.*) //' "/proc/$p/stat" | cut -d' ' -f1)
	[ "$st" = D ] || fail "premise: parent $p left D during the run (state $st)"
done

rs_expect_naming "$out" load-uninterruptible $held
mine=$MINE
jq -e "[.findings[] | select($mine) | .summary | test(\"vfork\")] | any" "$out" >/dev/null ||
	fail "the finding does not say the parents wait in vfork"
echo "ok: the summary says vfork"
jq -e "[.findings[] | select($mine) | .evidence[] | select(.metric == \"d_tasks_whole_window\") | .value] | add >= 3" \
	"$out" >/dev/null || fail "evidence d_tasks_whole_window does not count the 3 parents"
echo "ok: d_tasks_whole_window counts the 3 parents"
rs_judge "$out" "$mine" false
