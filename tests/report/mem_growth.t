#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a leak, an allocation and a mapped file, side by side in one window.
#   - report_leak grow 20: allocates and touches 2 MiB every 100 ms (a
#     steady 20 MiB/s, in huge pages: little CPU) inside a v1 memory
#     cgroup limited to 1 GiB;
#   - report_leak once 300 ... usr1: allocates and touches 200 MiB at
#     once when told (SIGUSR1, 1.2 s into the report's 3 s window), and
#     stops: not a leak;
#   - report_leak mapfile: maps a sparse file and reads 2 MiB more of it
#     every 100 ms: its RSS grows at the leak's pace, in file pages, while
#     its anonymous memory stays: not a leak either.
# Oracle: the kernel's memory of each (/proc/PID/status VmRSS, RssAnon)
# read just before and just after the report, and the cgroup's limit
# (memory.limit_in_bytes, which we set).
# Expected: the first finding (past lib.sh's background ones) is
# memory-growth naming the leaker and the cgroup, critical (the limit is
# seconds away, not 10 minutes), with a rate within 20% of the kernel's
# and RSS figures inside the kernel's (the report's window lies inside
# ours), the limit 1024 MiB; and no memory-growth finding names the
# one-time allocator, nor the mapper (whose RSS grew as fast as the
# leaker's, by the kernel's VmRSS, but not its RssAnon).
. "$SRC/tests/report/lib.sh"
rs_require
command -v python3 >/dev/null || skip "no python3 (scripts/deps.sh test installs it)"
rs_mkcgroup memory "triage-leak-$$"
echo $((1 << 30)) >"$RS_CG/memory.limit_in_bytes" || fail "cannot set the memory limit"
rs_start "${RS_IN_CGROUP[@]}" "$RS_CG" "$BUILD/workloads/report_leak" grow 20 700 600
leak=$(rs_said leaker)
rs_start "$BUILD/workloads/report_leak" once 200 600 usr1
once=$(rs_said leaker)
rs_favour "$once" # its one allocation must not be spread over the window by a loaded machine
rs_start "$BUILD/workloads/report_leak" mapfile "$RS_TMP/mapped" 20 160 600
mapper=$(rs_said leaker)
rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }
anon() { awk '$1 == "RssAnon:" { print $2 }' "/proc/$1/status"; }
now() { date +%s.%N; }
# both VmRSS every 50 ms through the run: the kernel's timelines of the leak and the one rise
# (one process, no fork a line: the sampler must not be a process-churn of its own)
python3 -c '
import sys, time
once, leak = sys.argv[1:3]
def field(pid, key):
    for line in open("/proc/%s/status" % pid):
        if line.startswith(key):
            return line.split()[1]
    return ""
while True:
    print(time.time(), field(once, "VmRSS:"), field(leak, "VmRSS:"), field(leak, "RssAnon:"), flush=True)
    time.sleep(0.05)
' "$once" "$leak" >"$RS_TMP/once.rss" &
sampler=$!
rs_undo "kill $sampler"
t0=$(now) l0=$(rss "$leak") o0=$(rss "$once") m0=$(rss "$mapper") a0=$(anon "$mapper")
out=$RS_TMP/r.json
( sleep 1.2; kill -USR1 "$once" ) &
rs_report "$out" -d 3 --no-bpf
t1=$(now) l1=$(rss "$leak") o1=$(rss "$once") m1=$(rss "$mapper") a1=$(anon "$mapper")
kill "$sampler" 2>/dev/null
rate=$(awk -v a="$l0" -v b="$l1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", (b - a) / 1024 / (e - s) }')
awk -v r="$rate" 'BEGIN { exit !(r >= 12) }' || fail "premise: the leaker grew only $rate MiB/s by the kernel's VmRSS"
echo "ok: premise: the kernel's VmRSS: leaker $l0 -> $l1 kB ($rate MiB/s)"

MINE=".kind == \"memory-growth\" and .subject.pid == $leak"
first="[.findings[] | select(($RS_BACKGROUND) | not)][0] | $MINE and .severity == \"critical\"
	and .subject.cgroup == \"/triage-leak-$$\""
jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
	"(\$o[0]) as \$o | $RS_DEFS $first" "$out" >/dev/null ||
	fail "the first finding is not a critical memory-growth of PID $leak in /triage-leak-$$: $(jq -c '.findings[0]' "$out")"
echo "ok: first finding: memory-growth, PID $leak, cgroup /triage-leak-$$, critical"
# the mapper: its RSS grew as a leak's (the kernel's VmRSS), its RssAnon did not
mrate=$(awk -v a="$m0" -v b="$m1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", (b - a) / 1024 / (e - s) }')
awk -v r="$mrate" -v a="$a0" -v b="$a1" 'BEGIN { exit !(r >= 12 && b - a < 1024) }' ||
	fail "premise: the mapper's VmRSS grew $mrate MiB/s, its RssAnon $a0 -> $a1 kB"
echo "ok: premise: the mapper's VmRSS $m0 -> $m1 kB ($mrate MiB/s), RssAnon $a0 -> $a1 kB"
jq -e "[.findings[] | select(.kind == \"memory-growth\" and .subject.pid == $mapper)] | length == 0" "$out" >/dev/null ||
	fail "memory-growth names the mapper $mapper, whose growth is a mapped file's pages: $(jq -c ".findings[] | select(.subject.pid == $mapper)" "$out")"
echo "ok: no memory-growth for the mapper $mapper"
ev() { jq -r "[.findings[] | select($MINE)][0].evidence[] | select(.metric == \"$1\") | .value" "$out"; }
got=$(ev anon_growth) s0=$(ev anon_start) s1=$(ev anon_end) lim=$(ev limit) ttl=$(ev time_to_limit)
# the kernel's rate over the report's own span: from when the leaker's
# RssAnon first reached the report's start figure to when it first reached
# its end figure (the leak's pace varies on a loaded machine: a rate over a
# longer span is no oracle for this one)
krate=$(awk -v a="$s0" -v b="$s1" '$4 / 1024 >= a - 0.01 && !ta { ta = $1 } $4 / 1024 >= b - 0.01 && !tb { tb = $1 }
	END { if (ta && tb > ta) printf "%.1f", (b - a) / (tb - ta); else print 0 }' "$RS_TMP/once.rss")
awk -v g="$got" -v r="$krate" 'BEGIN { exit !(r > 0 && g >= 0.8 * r && g <= 1.2 * r) }' ||
	fail "the report's rate $got MiB/s is not within 20% of the kernel's $krate MiB/s over the same RssAnon span"
# the leak is all anonymous: RssAnon inside the kernel's VmRSS figures too
awk -v a="$s0" -v b="$s1" -v k0="$l0" -v k1="$l1" 'BEGIN { exit !(a >= k0 / 1024 - 1 && b <= k1 / 1024 + 1) }' ||
	fail "the report's anonymous memory $s0 -> $s1 MiB is not inside the kernel's RSS $((l0 / 1024)) -> $((l1 / 1024)) MiB"
[ "$lim" = 1024 ] || fail "the limit is $lim MiB, not the cgroup's 1024"
awk -v t="$ttl" -v g="$got" -v b="$s1" 'BEGIN { exit !(t > 0 && t <= (1024 - b) / g + 1) }' ||
	fail "time to the limit $ttl s is not what ${s1} MiB of 1024 at $got MiB/s leaves"
echo "ok: $got MiB/s (kernel: $krate over the same span), anonymous $s0 -> $s1 MiB, the 1024 MiB limit in $ttl s"
# the allocator: its one rise must have been quick (the kernel's VmRSS
# timeline) for the window to see it as one: a loaded machine can spread
# a 300 MiB allocation over seconds, and then it did grow in most samples
rise=$(awk -v a="$o0" -v b="$o1" '$2 > a + (b - a) / 10 && !s { s = $1 } $2 >= a + (b - a) * 9 / 10 && !e { e = $1 }
	END { printf "%.2f", e - s }' "$RS_TMP/once.rss")
if [ $((o1 - o0)) -ge $((150 * 1024)) ] && awk -v r="$rise" 'BEGIN { exit !(r < 1) }'; then
	echo "ok: premise: the allocator's VmRSS went $o0 -> $o1 kB within $rise s, during the run"
	jq -e "[.findings[] | select(.kind == \"memory-growth\" and .subject.pid == $once)] | length == 0" "$out" >/dev/null ||
		fail "memory-growth names the allocate-once process $once"
	echo "ok: no memory-growth for the allocate-once process $once"
else
	echo "note: the allocator's VmRSS went $o0 -> $o1 kB over $rise s: not one quick allocation inside the run on this loaded machine, so the allocate-once check is not made"
fi
rs_judge "$out" "$MINE or (.kind == \"memory-growth\" and .subject.pid == $once)" false "triage-leak-$$"
