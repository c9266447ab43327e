#!/usr/bin/env bash
# test: shared -- a fixture root
# triage load --root over a captured fixture: 2 spinning threads, 3 vfork
# parents in D and a frozen sleeper (tests/fixtures/load/capture.sh). The
# truth about each task is the capture's "expected" file, written from what
# the workloads are; the kernel figures are the captured /proc/loadavg.
set -u
FIX=$SRC/tests/fixtures/load/rd-vfork-frozen
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || { echo "jq is missing (scripts/deps.sh installs it)"; exit 77; }
tmp_steps=$(mktemp "/tmp/triage-load-fixture.$$.XXXXXX")
trap 'rm -f "$tmp_steps"' EXIT

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

# --watch replays the fixture's steps. The oracle is the kernel's
# definition, computed here in awk: the tracker folds whenever the three
# figures of /proc/loadavg change between steps; each always-active task
# then holds 1 - (1884/2048)^F; the total starts from the step-1 text
# (the middle of the fixed-point range that prints as it) and folds with
# the mean of the kernel's runnable count less the reader over the
# period's steps, plus the fixture's D tasks that count (3 vfork parents).
nsteps=$(find "$FIX" -maxdepth 1 -name 'step*' -type d | wc -l)
[ "$nsteps" -ge 10 ] || fail "the fixture has only $nsteps steps"
for i in $(seq "$nsteps"); do
	echo "$(cut -d' ' -f1-3 "$FIX/step$i/proc/loadavg") $(cut -d' ' -f1 "$FIX/step$i/proc/uptime") $(cut -d' ' -f4 "$FIX/step$i/proc/loadavg" | cut -d/ -f1)"
done >"$tmp_steps"
changes=$(awk 'NR > 1 && ($1 != a || $2 != b || $3 != c) { n++ } { a = $1; b = $2; c = $3 } END { print n + 0 }' "$tmp_steps")
# A fold of our own (a "predicted" one) comes only at a step without a change
# 5.6 s or more after the last change; the count is exact when there is none.
maxgap=$(awk 'NR == 1 || $1 != a || $2 != b || $3 != c { t = $4 } $4 - t > g { g = $4 - t } { a = $1; b = $2; c = $3 } END { print g + 0 }' "$tmp_steps")
w=$("$TRIAGE" load --watch 1000 --json --top 1000 --root "$FIX") || fail "--watch replay exited $?"
[ "$(wc -l <<<"$w")" = 1 ] || fail "expected one report"
folds=$(jq .folds <<<"$w")
awk -v g="$maxgap" 'BEGIN { exit !(g < 5.6) }' || { echo "note: a $maxgap s gap allows predicted folds; exact fold count not checked"; changes=$folds; }
[ "$folds" = "$changes" ] || fail "--watch folded $folds times, the figures changed $changes times"
want=$(awk -v f="$folds" 'BEGIN { printf "%.4f", 1 - (1884 / 2048) ^ f }')
while read -r tid st reason counts; do
	key=$([ "$st" = R ] && echo runnable_1m || echo d_1m)
	got=$(jq --argjson t "$tid" --arg k "$key" '[.top_tasks[] | select(.tid == $t) | .[$k]] | add // 0' <<<"$w")
	[ "$counts" = yes ] || want_t=0
	awk -v g="$got" -v w="${want_t:-$want}" 'BEGIN { exit !(g - w < 0.001 && w - g < 0.001) }' ||
		fail "replay: task $tid $key $got, expected ${want_t:-$want}"
	unset want_t
done <"$FIX/expected"
nd=$(awk '$2 == "D" && $4 == "yes"' "$FIX/expected" | wc -l)
i=0
for e in 1884 2014 2037; do
	exp_total=$(awk -v e="$e" -v col=$((i + 1)) -v nd="$nd" '
		function pr(x,  y) { y = x + 10; return sprintf("%d.%02d", int(y / 2048), int((y % 2048) * 100 / 2048)) }
		function step(l, a,  num, q) { num = l * e + a * (2048 - e); q = int(num / 2048); if (a >= l && num % 2048) q++; return q }
		function fold() { x = step(x, int((sum * 2048 + int(n / 2)) / n) + nd * 2048); sum = 0; n = 0 }
		NR == 1 {
			v = $col; t = sprintf("%.2f", v); lo = -1
			for (y = int(v * 2048) - 40; y <= int(v * 2048) + 40; y++)
				if (y >= 0 && pr(y) == t) { if (lo < 0) lo = y; hi = y }
			x = lo + int((hi - lo) / 2)
		}
		NR > 1 && ($1 != a || $2 != b || $3 != c) { fold() }
		{ a = $1; b = $2; c = $3; sum += $5 - 1; n++ }
		END { printf "%.4f", x / 2048 }' "$tmp_steps")
	got=$(jq ".reconstructed[$i]" <<<"$w")
	awk -v g="$got" -v w="$exp_total" 'BEGIN { exit !(g - w < 0.0006 && w - g < 0.0006) }' ||
		fail "replay: reconstructed[$i] $got, expected $exp_total"
	i=$((i + 1))
done
echo "ok: replay of $nsteps steps, $folds folds, per-task shares $want, totals as the kernel's arithmetic"
