#!/usr/bin/env bash
# test: exclusive -- compares with the whole machine's /proc/loadavg and measures the sampler's CPU share
# The issue's second done-criterion: on a steady workload (2 spinning
# threads, 3 vfork parents in D) `triage load --watch` rebuilds the kernel's
# 1-minute load within 10% of /proc/loadavg after a minute. Both figures
# are read at the same moment (the report carries the /proc/loadavg read
# just before its last scan). Everyone's tasks on this machine count on
# both sides, so the comparison stays fair on a shared box.
# Also checks the CPU the sampler costs, measured from outside (bash's
# `time`: user+sys over wall), against its default budget of 2% of one CPU
# (allowed: 3%, for start-up and the reports).
set -u
if [ "${TRIAGE_SAN:-0}" = 1 ]; then
	echo "skipped under ASan: a 65-second timing test runs once, in the plain build"
	exit 77
fi
. "$SRC/tests/load/lib.sh"
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || { echo "jq is missing (scripts/deps.sh installs it)"; exit 77; }

load_start load_spin 2 90 || exit 1
load_start load_dstate vfork 3 90 || exit 1

# /proc/loadavg is itself an estimate: the kernel adds one point sample of
# nr_running + nr_uninterruptible every 5 s to its 1-minute EWMA, whose
# weights give it a standard error of about 0.2 x the spread (sd) of those
# counts. On a machine whose task counts swing (a parallel build next door)
# that noise alone exceeds the 10% this test allows, so it watches the
# instantaneous counts (/proc/stat, twice a second) during the minute and
# skips, saying so, when 3 standard errors of the kernel's own figure
# (0.6 x sd) pass 10% of the mean.
# The kernel counts every task in R or in D (a vfork parent waiting for its
# child included, which /proc/stat's procs_blocked, I/O waits only, leaves
# out), so the watcher counts the states of every thread, with bash builtins
# (a forked awk would itself count as running), less itself.
count_r_and_d() {
	local f s n=0
	for f in /proc/[0-9]*/task/[0-9]*/stat; do
		{ read -r s <"$f"; } 2>/dev/null || continue
		s=${s##*) }
		case ${s%% *} in R | D) n=$((n + 1)) ;; esac
	done
	echo $((n - 1))
}
nr_log="$LOAD_TMP/nr_running"
(while :; do
	count_r_and_d
	sleep 0.5
done >"$nr_log") &
nr_mon=$!
trap 'kill "$nr_mon" 2>/dev/null; load_cleanup' EXIT

TIMEFORMAT='%U %S %R'
{ time "$TRIAGE" load --watch 62 1 --json >"$LOAD_TMP/watch.json" 2>"$LOAD_TMP/watch.err"; } 2>"$LOAD_TMP/time" ||
	fail "--watch exited $?: $(cat "$LOAD_TMP/watch.err")"
kill "$nr_mon" 2>/dev/null
w=$(tail -n 1 "$LOAD_TMP/watch.json")
jq -c '{elapsed_s, kernel, reconstructed, error_1m_pct, runnable, d, before_start, folds, predicted_folds, sampling}' <<<"$w"
err=$(jq .error_1m_pct <<<"$w")
elapsed=$(jq .elapsed_s <<<"$w")
awk -v e="$elapsed" 'BEGIN { exit !(e >= 60) }' || fail "the report came after $elapsed s, not 60"
read -r nr_mean nr_sd nr_n < <(awk '{ s += $1; q += $1 * $1; n++ }
	END { m = s / n; v = q / n - m * m; printf "%.2f %.2f %d\n", m, sqrt(v > 0 ? v : 0), n }' "$nr_log")
echo "tasks in R or D during the minute: mean $nr_mean, sd $nr_sd over $nr_n readings"
if awk -v m="$nr_mean" -v sd="$nr_sd" 'BEGIN { exit !(0.6 * sd > 0.10 * m) }'; then
	echo "the machine's task counts swung (sd $nr_sd around $nr_mean): /proc/loadavg's own 5-second sampling cannot be compared within 10%; skipped"
	exit 77
fi
awk -v e="$err" 'BEGIN { exit !(e < 10 && e > -10) }' || fail "1-minute error $err% is outside ±10%"
echo "ok: 1-minute reconstruction within $err% of /proc/loadavg after $elapsed s"

read -r u s r <"$LOAD_TMP/time"
cpu=$(awk -v u="$u" -v s="$s" -v r="$r" 'BEGIN { printf "%.2f", 100 * (u + s) / r }')
echo "sampler CPU measured from outside: $cpu% of one CPU (user $u s, sys $s s, wall $r s); rate $(jq .sampling.rate_hz <<<"$w") Hz"
awk -v c="$cpu" 'BEGIN { exit !(c <= 3) }' || fail "the sampler used $cpu% of a CPU (budget 2%)"
