#!/usr/bin/env bash
# triage load --root over a captured fixture: 2 spinning threads, 3 vfork
# parents in D and a frozen sleeper (tests/fixtures/load/capture.sh). The
# truth about each task is the capture's "expected" file, written from what
# the workloads are; the kernel figures are the captured /proc/loadavg.
set -u
FIX=$SRC/tests/fixtures/load/rd-vfork-frozen
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || { echo "jq is missing (scripts/deps.sh installs it)"; exit 77; }

json=$(LC_ALL=C "$TRIAGE" load --json --root "$FIX") || fail "triage load --json exited $?"
plain=$(LC_ALL=C "$TRIAGE" load --root "$FIX") || fail "triage load exited $?"

read -r l1 l5 l15 rt _ <"$FIX/step1/proc/loadavg"
[ "$(jq -r '.loadavg["1m"]' <<<"$json")" = "$l1" ] || fail "1m is not $l1"
[ "$(jq -r '.loadavg["5m"]' <<<"$json")" = "$l5" ] || fail "5m is not $l5"
[ "$(jq -r '.loadavg["15m"]' <<<"$json")" = "$l15" ] || fail "15m is not $l15"
[ "$(jq -r '"\(.loadavg.runnable)/\(.loadavg.total)"' <<<"$json")" = "$rt" ] || fail "runnable/total is not $rt"
ncpu=$(find "$FIX/sys/devices/system/cpu" -maxdepth 1 -name 'cpu[0-9]*' | wc -l)
[ "$(jq -r .ncpu <<<"$json")" = "$ncpu" ] || fail "ncpu is not $ncpu"

n=0
while read -r tid state reason counts; do
	n=$((n + 1))
	t=$(jq -c --argjson tid "$tid" '.tasks[] | select(.tid == $tid)' <<<"$json")
	[ -n "$t" ] || fail "task $tid is not listed"
	[ "$(jq -r .state <<<"$t")" = "$state" ] || fail "task $tid: state $(jq -r .state <<<"$t"), expected $state"
	want_counts=$([ "$counts" = yes ] && echo true || echo false)
	[ "$(jq -r .counts <<<"$t")" = "$want_counts" ] || fail "task $tid: counts should be $want_counts"
	if [ "$state" = D ]; then
		[ "$(jq -r .reason <<<"$t")" = "$reason" ] || fail "task $tid: reason $(jq -r .reason <<<"$t"), expected $reason"
		grep -Eq "^ *[0-9]+ +$tid +D .* $reason " <<<"$plain" || fail "plain output lacks D task $tid ($reason)"
	else
		grep -Eq "^ *[0-9]+ +$tid +R " <<<"$plain" || fail "plain output lacks R task $tid"
	fi
done <"$FIX/expected"
[ "$n" -ge 6 ] || fail "the fixture's expected list is short ($n)"

# Counts and verdict agree with the truth.
nr=$(awk '$2 == "R"' "$FIX/expected" | wc -l)
nd=$(awk '$2 == "D" && $4 == "yes"' "$FIX/expected" | wc -l)
nf=$(awk '$4 == "no"' "$FIX/expected" | wc -l)
[ "$(jq .counts.d_counted <<<"$json")" -ge "$nd" ] || fail "d_counted below $nd"
[ "$(jq .counts.frozen <<<"$json")" = "$nf" ] || fail "frozen is not $nf"
[ "$(jq .d_reasons.vfork <<<"$json")" = "$nd" ] || fail "vfork count is not $nd"
jq -e '.verdict | length >= 3' <<<"$json" >/dev/null || fail "verdict too short"
grep -Eq "$nd vfork parents waiting for their children" <<<"$plain" || fail "verdict does not name the vfork wait"
grep -q "not disk I/O" <<<"$plain" || fail "verdict does not rule out disk I/O"
grep -q "frozen task shows D but does not count" <<<"$plain" || fail "verdict does not explain the frozen task"
[ "$(jq .counts.runnable <<<"$json")" -ge "$nr" ] || fail "runnable below $nr"
echo "ok: $n tasks named with state, reason and counting"
