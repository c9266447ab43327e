#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a reader throttled by a v1 blkio cgroup. A 16 MiB file in the
# test's scratch dir is attached with `losetup --direct-io=on` (the first
# free loop device; detached at exit). report_dio reads the loop device
# with O_DIRECT, 4 KiB at a time from 2 threads, inside a v1 blkio cgroup
# of its own (triage_report_iostall_PID, removed at exit) whose
# blkio.throttle.read_bps_device holds reads of that loop device to 64 KiB/s.
# The throttle holds each read before it reaches the device, so the reader
# waits in D on I/O (PSI io) while the device itself is almost idle.
# Direct I/O matters: buffered reads would be served from the page cache
# after the first pass, and v1 blkio throttles only I/O that its task
# submits itself (v1 cannot charge page-cache writeback to a cgroup).
# Oracle: /proc/pressure/io over the run (lib.sh) and the cgroup's own
# blkio.throttle.io_service_bytes for the loop device, read around it.
# Premise: PSI io some >= 20% over the run, the reader read at most 64 KiB/s
# plus a quarter (the throttle's slice) and at least half of it (it always
# has a read waiting), and the kernel counted the loop device < 50% busy.
# Expected: the first finding past the background ones (lib.sh) is io-stall,
# warning or critical, naming the reader (subject.pid) and the cgroup
# (subject.cgroup), with its limit use within 20 points of the oracle's.
# Tolerated, because the fault causes it: load-uninterruptible naming only
# the reader and its threads (they wait in D for the throttle).
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
command -v losetup >/dev/null || skip "losetup is missing (util-linux)"
[ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"
dd if=/dev/zero of="$RS_TMP/disk.img" bs=1M count=16 status=none || fail "cannot write the backing file"
loopdev=$(losetup -f --show --direct-io=on "$RS_TMP/disk.img") || skip "no free loop device (losetup -f failed)"
rs_undo "losetup -d '$loopdev'"
dev=${loopdev#/dev/}
mm=$(cat "/sys/block/$dev/dev")
name=triage_report_iostall_$$
rs_mkcgroup blkio "$name"
limit=65536
echo "$mm $limit" >"$RS_CG/blkio.throttle.read_bps_device" || fail "cannot throttle $mm"
rs_start "${RS_IN_CGROUP[@]}" "$RS_CG" "$BUILD/workloads/report_dio" "$loopdev" 2 4 600
reader=$(rs_said reader)
rs_favour "$reader" # it gets a CPU as soon as a read completes: it waits on I/O, not for a CPU
# the reads the throttle let through to the loop device (cgroup's own counter)
served() { awk -v d="$mm" '$1 == d && $2 == "Read" { print $3 }' "$RS_CG/blkio.throttle.io_service_bytes"; }
t0=$(date +%s.%N) b0=$(served)
out=$RS_TMP/r.json
RS_WATCH=$reader rs_report "$out" -d 2 --no-bpf
t1=$(date +%s.%N) b1=$(served)

psi=$(rs_oracle_get "$out" '.psi_some_pct.io // empty')
[ -n "$psi" ] || skip "no /proc/pressure/io (PSI) on this kernel"
util=$(rs_oracle_get "$out" ".disk_util_pct[\"$dev\"] // 0")
rate=$(awk -v a="$b0" -v b="$b1" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.0f", (b - a) / (t1 - t0) }')
awk -v p="$psi" -v r="$rate" -v l="$limit" -v u="$util" 'BEGIN { exit !(p >= 20 && r <= l * 1.25 && r >= l / 2 && u < 50) }' ||
	fail "premise: PSI io some $psi% (want >= 20), reads $rate B/s against $limit (want 50-125%), $dev $util% busy (want < 50)"
echo "ok: premise: PSI io some $psi%, the cgroup read $rate B/s against its limit of $limit, $dev $util% busy"
use=$(awk -v r="$rate" -v l="$limit" 'BEGIN { printf "%.1f", 100 * r / l }')

mine=".kind == \"io-stall\" and (.severity | IN(\"warning\", \"critical\")) and .subject.pid == $reader
	and .subject.cgroup == \"/$name\""
first="[.findings[] | select(.severity != \"info\" and (($RS_BACKGROUND) | not))][0] | $mine"
jq -e --slurpfile o "$out.oracle" --argjson ours "$(rs_ours)" --argjson names '[]' \
	"(\$o[0]) as \$o | $RS_DEFS $first" "$out" >/dev/null ||
	fail "the first finding is not io-stall naming $reader and /$name: $(jq -c '[.findings[] | {kind, severity, subject}]' "$out")"
echo "ok: first finding: io-stall naming the reader $reader and the cgroup /$name"
jq -e "[.findings[] | select($mine) | .evidence[] | select(.metric == \"limit_use\" and ((.value - $use) | fabs) <= 20)] | length > 0" "$out" >/dev/null ||
	fail "io-stall's limit_use is not within 20 points of the cgroup's $use%: $(jq -c "[.findings[] | select($mine) | .evidence]" "$out")"
echo "ok: io-stall's limit use within 20 points of the cgroup's own $use%"
threads=$(ls "/proc/$reader/task" | jq -sc .)
tolerated=".kind == \"load-uninterruptible\" and (pids | all(. as \$p | $threads | index(\$p)))"
rs_judge "$out" "$mine" "$tolerated" "$dev" "/$name"
