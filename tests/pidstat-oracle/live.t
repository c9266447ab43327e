#!/usr/bin/env bash
# test: exclusive -- live workloads against sysstat, values within tolerances
# Live oracle test: the project's own workloads (tests/workloads/pidstat_*)
# measured by `triage pidstat` and by sysstat's pidstat side by side, with
# the same options. live_driver.py stops the workloads around every read
# of both tools, so the two see the same counters, and starts a thread,
# ends a thread and ends a process only while both samplers are between
# the same two reads (checked through /proc, not assumed). compare_live.py
# then wants the same rows, headers and layout, the driven tasks exactly
# where the driver put them, and values within its stated tolerances;
# `--whole` against the sum of sysstat's per-thread rows. No retry: any
# difference fails. PID reuse cannot be arranged live in reasonable time;
# golden.t covers it with the edge-reuse fixture.
set -u
: "${TRIAGE:?}" "${BUILD:?}" "${SRC:?}"
. "$SRC/tests/pidstat-oracle/lib.sh"
oracle_require
W=$BUILD/workloads
for w in user sys cswitch threads ctl; do
	[ -x "$W/pidstat_$w" ] || { echo "workload $W/pidstat_$w is not built (make all)"; exit 77; }
done
command -v "$PY" >/dev/null || { echo "python3 is needed to drive and compare"; exit 77; }
command -v cc >/dev/null || { echo "cc is needed to look up syscall numbers"; exit 77; }
[ -r /proc/self/syscall ] || { echo "no /proc/PID/syscall (CONFIG_HAVE_ARCH_TRACEHOOK)"; exit 77; }

TMP=$(mktemp -d /tmp/triage-live.$$.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

"$PY" "$SRC/tests/pidstat-oracle/live_driver.py" "$W" "$TRIAGE" "$ORACLE_PIDSTAT" "$TMP" 4 ||
	{ echo "live: FAIL: the run could not be driven"; exit 1; }
if ! "$PY" "$SRC/tests/pidstat-oracle/compare_live.py" "$TMP"; then
	cat "$TMP/plan.json"
	for f in a b c; do
		echo "--- $f.sysstat"; cat "$TMP/$f.sysstat"
		echo "--- $f.triage"; cat "$TMP/$f.triage"
	done | head -n 200
	echo "live: FAIL"
	exit 1
fi
echo "live: agreement"
