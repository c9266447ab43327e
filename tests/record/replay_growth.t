#!/bin/bash
# test: exclusive -- its fixture root is captured from the whole machine: a neighbour's forks (process-churn, which a recording cannot hold) would differ live and replayed
# One window, two ways, for a kind issue 28 added that a recording holds:
# a live 'triage report' and 'triage replay ... report' of what 'triage
# record' kept of the same window say the same thing, byte for byte, in
# every finding, every checked line and every skipped line, but for what
# the replay's one "not recorded" line names (tests/record/replay_live.t
# does the same for tcp-retransmits and the CPU kinds).
#
# The same window for both: a fixture root (docs/fixtures.md) captured by
# tests/tools/capture-proc.sh from a live workload, four steps 1 s apart:
# report_leak allocating and touching 2 MiB every 100 ms.
#
# Oracle for the premise: the kernel's anonymous memory of the leaker
# (status RssAnon, what memory-growth judges) in the first and the last
# step, and its RSS (stat field 24, in pages of meta's pagesize) in the
# last; the live report must find memory-growth naming it, with those
# figures, and the replay (schema 6 records RssAnon) the same.
. "$SRC/tests/record/lib.sh" replay_growth || exit 1
command -v jq >/dev/null || skip "no jq (scripts/deps.sh test installs it)"
command -v python3 >/dev/null || skip "no python3 (scripts/deps.sh test installs it)"
"$BUILD/workloads/report_leak" grow 20 700 30 >"$work/leak" &
started="$started $!"
for _ in $(seq 50); do grep -q ready "$work/leak" 2>/dev/null && break; sleep 0.1; done
leak=$(awk '$1 == "leaker" { print $2 }' "$work/leak")
[ -n "$leak" ] || fail "the leaker did not start: $(cat "$work/leak")"
root=$work/root
"$SRC/tests/tools/capture-proc.sh" "$root" 4 "$leak" || fail "capture-proc.sh failed"
pagesize=$(sed -n 's/^pagesize=//p' "$root/meta")
rss() { # STEP: the leaker's RSS in kB in that step
	awk -v ps="$pagesize" '{ sub(/.*\) /, ""); print $22 * ps / 1024 }' "$root/step$1/proc/$leak/stat"
}
anon() { awk '$1 == "RssAnon:" { print $2 }' "$root/step$1/proc/$leak/status"; } # STEP: kB
mib() { awk -v k="$1" 'BEGIN { printf "%.4f", k / 1024 }'; }
[ -n "$(anon 1)" ] || skip "no RssAnon in /proc/PID/status (Linux 4.5+)"
a0=$(mib "$(anon 1)") a1=$(mib "$(anon 4)") r1=$(mib "$(rss 4)")
echo "the kernel: RssAnon of $leak from $a0 MiB to $a1 MiB over the steps, RSS $r1 MiB at the last"

"$TRIAGE" report --root "$root" --no-bpf >"$work/live.txt" 2>"$work/err" || fail "report: $(cat "$work/err")"
"$TRIAGE" report --root "$root" --no-bpf --json >"$work/live.json" || fail "report --json"
db=$work/r.db
"$TRIAGE" record -o "$db" --root "$root" 2>"$work/err" || fail "record: $(cat "$work/err")"
[ "$(q "$db" 'SELECT count(*) FROM interval')" = 4 ] || fail "not one interval per step"
"$TRIAGE" replay "$db" report >"$work/replay.txt" 2>"$work/err" || fail "replay: $(cat "$work/err")"
"$TRIAGE" replay "$db" report --json >"$work/replay.json" || fail "replay --json"

# the premise, against the kernel's figures
# (the JSON has 2 decimals: a figure is the kernel's within half of the last)
jq -e --argjson p "$leak" --argjson a "$a0" --argjson b "$a1" --argjson r "$r1" 'def near($x): (. - $x | fabs) <= 0.0051;
	[.findings[] | select(.kind == "memory-growth" and .subject.pid == $p)
	| select(any(.evidence[]; .metric == "anon_start" and (.value | near($a)))
		and any(.evidence[]; .metric == "anon_end" and (.value | near($b)))
		and any(.evidence[]; .metric == "rss_end" and (.value | near($r))))] | length == 1' \
	"$work/live.json" >/dev/null ||
	fail "premise: no memory-growth finding of $leak from $a0 to $a1 MiB anonymous, $r1 MiB RSS: $(jq -c '.findings[] | [.kind, .evidence]' "$work/live.json")"
echo "ok: premise: the live report finds memory-growth of $leak, $a0 to $a1 MiB anonymous, $r1 MiB RSS, the kernel's figures"

# the mask: one line, naming what a recording does not keep; the rest byte-identical
grep -q '^  source     not recorded: ' "$work/replay.txt" || fail "the mask line: $(grep '^  source' "$work/replay.txt")"
same_live_and_replay "$work"
echo "ok: memory-growth, the checked lines and the skipped ones (but the mask's) byte-identical live and replayed"
