#!/usr/bin/env bash
# Benchmark: what fd-exhaustion's once-a-window descriptor count costs, by
# each /proc door (bench/fd_doors.c): the stat of /proc/PID/fd that the
# report uses (Linux 6.2+ gives the count as the directory's size), against
# listing /proc/PID/fd (the fallback on older kernels), both with the
# /proc/PID/limits read. Machine: 2,000 extra sleeping threads
# (pidstat_sleepers) and one process holding FDS descriptors
# (report_fdhog), besides whatever else runs. Measured in this process's
# CPU time per pass over every process, so other users' load does not
# count; the anchor is the report's own CPU budget over a 10 s window
# (3% of one CPU = 300 ms). Not a test.
#
#   bench/fd_doors.sh            (uses build/; run `make` first)
#   BENCH_FDS=100000 BENCH_ROUNDS=50 bench/fd_doors.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
FDHOG=$PWD/build/workloads/report_fdhog
FDS=${BENCH_FDS:-10000}
ROUNDS=${BENCH_ROUNDS:-20}
bench_need "make" "$SLEEPERS" "$FDHOG"
[ -f build/libtriage.a ] || { echo "bench: build/libtriage.a is missing (make)" >&2; exit 1; }
bench_need "" cc
bench_scratch fd_doors
cc -O2 -std=gnu11 -Isrc -o "$TMP/fd_doors" bench/fd_doors.c build/libtriage.a
ulimit -n $((FDS + 64)) 2>/dev/null || { echo "bench: cannot raise the fd limit to $FDS" >&2; exit 1; }
table=$TMP/table
{
	echo "## fd_doors: counting every process's descriptors once (fd-exhaustion)"
	echo
	echo "bench/fd_doors.sh on $(nproc) CPUs ($(date -u +%F), kernel $(uname -r)): one pass over"
	echo "every process, reading /proc/PID/limits and counting /proc/PID/fd, by a stat of"
	echo "the directory (the report's door) or by listing it (the fallback before Linux"
	echo "6.2); CPU time of the measuring process per pass, the mean of $ROUNDS passes."
	echo "The report does one pass a window: at 10 s, 3% of one CPU is 300 ms."
	echo
	echo "| extra threads | held descriptors | processes | descriptors counted | stat µs/pass | list µs/pass | list / stat | stat, % of a 10 s window's budget |"
	echo "|---|---|---|---|---|---|---|---|"
} >"$table"
for fds in 0 "$FDS"; do
	start_sleepers 2000
	if [ "$fds" != 0 ]; then
		mkfifo "$TMP/hog"
		"$FDHOG" "$fds" 3600 >"$TMP/hog" &
		bench_started $!
		while read -r line; do [ "$line" = ready ] && break; done <"$TMP/hog" &
		wait $!
	fi
	read -r _ procs _ counted _ _ _ st _ wk <<<"$("$TMP/fd_doors" "$ROUNDS")"
	echo "bench: $fds held: $procs processes, $counted descriptors, stat $st us, list $wk us" >&2
	awk -v f="$fds" -v p="$procs" -v c="$counted" -v s="$st" -v w="$wk" \
		'BEGIN { printf "| 2000 | %d | %d | %d | %d | %d | %.1f | %.2f%% |\n", f, p, c, s, w, w / s, 100 * s / 300000 }' >>"$table"
	stop_sleepers
	for p in $BENCH_PIDS; do kill "$p" 2>/dev/null || true; done
	BENCH_PIDS="" && rm -f "$TMP/hog"
done
cat "$table"
bench_write_section fd_doors "$table"
