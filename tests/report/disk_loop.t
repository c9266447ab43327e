#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: reads saturating a loop device. A 64 MiB file in the test's
# scratch dir is attached with `losetup --direct-io=on` (the first free loop
# device; detached at exit). report_dio reads the loop device with O_DIRECT
# from 4 threads, back to back. The reader runs in a v1 blkio cgroup of its
# own (triage_report_dio_PID) whose throttle lets it read 4 MiB/s from the
# disk under the backing file: the loop driver issues the backing reads on
# behalf of the reader's cgroup, so each loop request stays in flight until
# the throttle lets its backing read through (about 64 reads/s of 64 KiB,
# each waiting ~60 ms). The loop device is then busy all the time with 4
# requests queued, at almost no CPU cost, whatever the machine's load.
# Expected: a warning or critical disk-saturated finding whose subject.device
# is that loop device, with a utilisation figure within 15 points of the
# kernel's (/proc/diskstats io_ticks over the same run).
# Premise: the kernel counted the loop device >= 90% busy over the run.
# Tolerated, because the fault causes it: load-uninterruptible naming only
# the reader and its threads -- they wait for their reads in D, which is
# what a saturated disk does to its readers.
# Tolerated besides: lib.sh's background findings (other devices).
. "$SRC/tests/report/lib.sh"
rs_require
command -v losetup >/dev/null || skip "losetup is missing (util-linux)"
[ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"
dd if=/dev/zero of="$RS_TMP/disk.img" bs=1M count=64 status=none || fail "cannot write the backing file"
# The whole disk under the backing file, for the throttle.
st=$(stat -c %d "$RS_TMP/disk.img")
blk=/sys/dev/block/$((st >> 8)):$((st & 255))
[ -e "$blk/dev" ] || skip "the scratch dir $RS_TMP is not on a block device"
[ -e "$blk/partition" ] && blk=$blk/..
disk=$(cat "$blk/dev")
loopdev=$(losetup -f --show --direct-io=on "$RS_TMP/disk.img") || skip "no free loop device (losetup -f failed)"
rs_undo "losetup -d '$loopdev'"
dev=${loopdev#/dev/}
[ "$(cat "/sys/block/$dev/loop/dio" 2>/dev/null)" = 1 ] || skip "$dev does not do direct I/O to its backing file"
rs_mkcgroup blkio "triage_report_dio_$$"
echo "$disk $((4 << 20))" >"$RS_CG/blkio.throttle.read_bps_device" || fail "cannot throttle $disk"
rs_start "${RS_IN_CGROUP[@]}" "$RS_CG" "$BUILD/workloads/report_dio" "$loopdev" 4 64 30
reader=$(rs_said reader)
RS_WATCH=$reader rs_report "$RS_TMP/r.json" -d 4
out=$RS_TMP/r.json

util=$(rs_oracle_get "$out" ".disk_util_pct[\"$dev\"]")
awk -v u="$util" 'BEGIN { exit !(u >= 90) }' || fail "premise: $dev was $util% busy (want >= 90%)"
echo "ok: premise: the kernel counted $dev $util% busy"

mine=".kind == \"disk-saturated\" and .subject.device == \"$dev\" and (.severity | IN(\"warning\", \"critical\"))"
rs_expect "$out" "disk-saturated naming $dev" "$mine"
rs_evidence_near "$out" "$mine" util "$util" 15 "$dev utilisation"
threads=$(ls "/proc/$reader/task" | jq -sc .) # the reader and its threads
tolerated=".kind == \"load-uninterruptible\" and (pids | all(. as \$p | $threads | index(\$p)))"
rs_judge "$out" "$mine" "$tolerated" "$dev"
