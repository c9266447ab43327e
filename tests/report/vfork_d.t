#!/usr/bin/env bash
# Scenario: three processes held in D inside vfork() (report_vfork: each
# vfork child announces its parent, then sleeps before it execs).
# Expected: a warning or critical load-uninterruptible finding whose subject
# names all three parents (subject.pid or subject.pids, over one or more
# findings). Before the report, the test checks the kernel shows each parent
# in state D (the vfork wait is killable, shown as D, and counted in the
# load average). The report runs with -p on the parents.
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

rs_expect_naming "$out" load-uninterruptible $held
mine=$MINE
jq -e "[.findings[] | select($mine) | .summary | test(\"vfork\")] | any" "$out" >/dev/null ||
	fail "the finding does not say the parents wait in vfork"
echo "ok: the summary says vfork"
rs_judge "$out" "$mine" false
