#!/usr/bin/env bash
# test: shared -- judges only its own tasks: their states and reasons, and shares that hold at any CPU share (a spinner is runnable in every sample whether it runs or waits; its spinners run at nice 19, so they take little from tests beside it); the verdict lists every D reason, its own vfork parents among them
# The issue's first done-criterion, live: with 2 spinning threads and 3
# vfork parents held in D (plus one sleeper frozen by the cgroup freezer),
# `triage load` names all of them with the right state and reason, and the
# frozen one as not counted. Then `--watch` attributes the load: a task that
# was runnable (or in D) in every sample has, after F folds, the share
# 1 - (1884/2048)^F of one task, which this test computes itself; tolerance
# 0.02 per task (the per-task fixed point rounds at 2^-21).
set -u
. "$SRC/tests/load/lib.sh"
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || { echo "jq is missing (scripts/deps.sh installs it)"; exit 77; }

LOAD_NICE=19 load_start load_spin 2 600 || exit 1
spin_out=$LOAD_LAST_OUT
load_start load_dstate vfork 3 600 || exit 1
vfork_out=$LOAD_LAST_OUT
load_start load_dstate sleep 1 600 || exit 1
sleeper=$(awk '$1 == "sleep" { print $2 }' "$LOAD_LAST_OUT")

# The truth, from what the workloads are: tid state reason counts.
{
	awk '$1 == "spin" { print $2, $3, "R", "cpu", "true" }' "$spin_out"
	awk '$1 == "vfork" { print $2, $2, "D", "vfork", "true" }' "$vfork_out"
} >"$LOAD_TMP/truth"
frozen=""
if [ "$(id -u)" = 0 ] && load_freeze "$sleeper"; then
	frozen=$sleeper
	[ "$LOAD_FREEZE_KIND" = v1 ] && echo "$sleeper $sleeper D freezer false" >>"$LOAD_TMP/truth"
else
	echo "note: no writable cgroup freezer; the frozen-task check is left out"
fi
# Wait until the kernel shows the states the truth says (vfork takes a moment).
for _ in $(seq 50); do
	ok=1
	while read -r pid tid st _; do
		[ "$(task_state "$pid" "$tid")" = "$st" ] || ok=0
	done <"$LOAD_TMP/truth"
	[ $ok = 1 ] && break
	sleep 0.1
done
[ $ok = 1 ] || fail "the workloads did not reach their states"

json=$("$TRIAGE" load --json) || fail "triage load --json exited $?"
plain=$("$TRIAGE" load) || fail "triage load exited $?"
while read -r pid tid st reason counts; do
	t=$(jq -c --argjson tid "$tid" '.tasks[] | select(.tid == $tid)' <<<"$json")
	[ -n "$t" ] || fail "task $tid ($st) is not listed"
	[ "$(jq -r .pid <<<"$t")" = "$pid" ] || fail "task $tid: wrong pid"
	[ "$(jq -r .state <<<"$t")" = "$st" ] || fail "task $tid: state $(jq -r .state <<<"$t"), expected $st"
	[ "$(jq -r .counts <<<"$t")" = "$counts" ] || fail "task $tid: counts should be $counts"
	if [ "$st" = D ]; then
		[ "$(jq -r .reason <<<"$t")" = "$reason" ] || fail "task $tid: reason $(jq -r .reason <<<"$t"), expected $reason"
		grep -Eq "^ *$pid +$tid +D .* $reason " <<<"$plain" || fail "plain output lacks D task $tid ($reason)"
	else
		grep -Eq "^ *$pid +$tid +R " <<<"$plain" || fail "plain output lacks R task $tid"
	fi
	echo "ok: $tid $st $reason counts=$counts"
done <"$LOAD_TMP/truth"
if [ -n "$frozen" ] && [ "$LOAD_FREEZE_KIND" = v2 ]; then
	# The v2 freezer parks tasks in an interruptible sleep: not listed, or not counted.
	jq -e --argjson t "$frozen" '[.tasks[] | select(.tid == $t and .counts)] | length == 0' <<<"$json" >/dev/null ||
		fail "the v2-frozen task is counted"
fi
grep -q "vfork parents waiting for their children" <<<"$plain" || fail "the verdict does not name the vfork wait"

# Attribution over 3 intervals of 5 s.
w=$("$TRIAGE" load --watch 5 3 --json --top 100000 >"$LOAD_TMP/watch.json") &&
	w=$(tail -n 1 "$LOAD_TMP/watch.json") || fail "--watch exited $?"
folds=$(jq .folds <<<"$w")
[ "$folds" -ge 2 ] || fail "only $folds folds in 15 s"
want=$(awk -v f="$folds" 'BEGIN { printf "%.4f", 1 - (1884 / 2048) ^ f }')
echo "after $folds folds each always-active task should hold $want"
while read -r pid tid st reason counts; do
	[ "$counts" = true ] || continue
	key=$([ "$st" = R ] && echo runnable_1m || echo d_1m)
	got=$(jq --argjson t "$tid" --arg k "$key" '[.top_tasks[] | select(.tid == $t) | .[$k]] | add // 0' <<<"$w")
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g - w < 0.02 && w - g < 0.02) }' ||
		fail "task $tid: $key $got, expected $want ± 0.02"
	if [ "$st" = D ]; then
		r=$(jq -r --argjson t "$tid" '.top_tasks[] | select(.tid == $t) | .reason' <<<"$w")
		[ "$r" = "$reason" ] || fail "task $tid: --watch reason $r, expected $reason"
	fi
	echo "ok: $tid $key $got"
done <"$LOAD_TMP/truth"
if [ -n "$frozen" ]; then
	got=$(jq --argjson t "$frozen" '[.top_tasks[] | select(.tid == $t) | .d_1m + .runnable_1m] | add // 0' <<<"$w")
	[ "$got" = 0 ] || fail "the frozen task got a share of $got"
	echo "ok: frozen task $frozen has no share"
fi
vf=$(jq '.d_reasons_1m.vfork' <<<"$w")
awk -v g="$vf" -v w="$want" 'BEGIN { exit !(g >= 3 * w - 0.06) }' || fail "vfork D share $vf < 3 x $want"
echo "ok: vfork share $vf"
