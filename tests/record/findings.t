#!/bin/bash
# test: exclusive -- its premise is a hog found CPU-bound in two windows: CPU-share sensitive
# The findings stored while recording are the report's over each window:
# the recorder feeds the report's sampler from its own task reads (one read
# an interval), and `triage replay --from --to report` reads the same
# window back from the file through the replay source. The replay is the
# oracle (tests/record/replay_pidstat.t holds it to the live report): for
# every window, the stored rules and sentences equal the replay's, byte
# for byte. A spinning process (report_hog user) and a process with
# threads (pidstat_threads: its process row's switches are its threads'
# sums) give the windows findings to compare. pidstat_threads runs at nice
# 10, which the report reads at each window's end with the busiest
# processes' placement: the recording keeps it (placement.nice), so a
# niced process is said alike stored and replayed.
. "$SRC/tests/record/lib.sh" findings
command -v jq >/dev/null || skip "no jq (scripts/deps.sh test installs it)"
"$BUILD/workloads/report_hog" user 60 >"$work/hog" &
started="$started $!"
nice -n 10 "$BUILD/workloads/pidstat_threads" 60 >/dev/null 2>&1 &
threads=$!
started="$started $threads"
for _ in $(seq 50); do grep -q ready "$work/hog" 2>/dev/null && break; sleep 0.1; done
hog=$(awk '$1 == "hog" { print $2; exit }' "$work/hog")
[ -n "$hog" ] || fail "the hog did not start"
db=$work/r.db
"$TRIAGE" record -o "$db" -i 0.5 -d 6 --window 2 2>"$work/err" || fail "record: $(cat "$work/err")"
# the premise: the hog was found in some window
[ "$(q "$db" "SELECT count(*) FROM finding WHERE subject LIKE 'PID $hog %'")" -gt 0 ] ||
	fail "no finding names the hog (PID $hog): $(q "$db" 'SELECT rule, subject FROM finding')"
windows=$(q "$db" "SELECT DISTINCT printf('%.6f %.6f', ts_start, ts_end) FROM finding ORDER BY 1")
n=0
while read -r a b; do
	# every interval of the window, and no neighbour (they are 0.5 s apart)
	from=$(awk -v t="$a" 'BEGIN { printf "%.3f", t - 0.001 }')
	to=$(awk -v t="$b" 'BEGIN { printf "%.3f", t + 0.001 }')
	q "$db" "SELECT rule || ' | ' || sentence FROM finding
		WHERE printf('%.6f', ts_start) = '$a' AND printf('%.6f', ts_end) = '$b'" |
		sort >"$work/stored"
	"$TRIAGE" replay "$db" --from "@$from" --to "@$to" report --json >"$work/replay.json" \
		2>"$work/replay.err" || fail "replay $from..$to: $(cat "$work/replay.err")"
	jq -r '.findings[] | .kind + " | " + .summary' "$work/replay.json" | sort >"$work/replayed"
	diff -u --label "stored $a..$b" --label "replay report" "$work/stored" "$work/replayed" ||
		fail "window $a..$b: the stored findings differ from the replay's"
	n=$((n + 1))
done <<<"$windows"
[ "$n" -ge 2 ] || fail "only $n windows with findings"
echo "ok: $n windows, stored findings identical to replay report's"
# the nice it was started at, kept with its placement at every window's end
kept=$(q "$db" "SELECT group_concat(DISTINCT coalesce(nice, 'NULL')) FROM placement WHERE tgid = $threads")
[ "$kept" = 10 ] || fail "placement.nice of pidstat_threads (PID $threads, nice 10): '$kept'"
echo "ok: the niced process's nice (10) kept at each window's end"
