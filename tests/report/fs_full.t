#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a filesystem 100% full and a writer that keeps failing. Two
# runs: an ext4 of 16 MiB on a loop device (its backing file in the test's
# scratch dir), then a tmpfs of 2 MiB, each mounted under the scratch dir.
# report_fsfill writes a file there until write() fails with ENOSPC, then
# tries 4 KiB more every 50 ms, holding the file open.
# Oracle: the kernel's statvfs (`stat -f`) of the mount before and after the
# report: no block left that non-root may use (bavail 0), and the writer
# (root) itself got ENOSPC (report_fsfill says ready only then; ext4 keeps
# a few blocks even from root, so bfree need not be 0).
# Expected: the first finding is a critical filesystem-full whose subject
# names the mount, its fstype and the writer's PID among its pids.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
command -v losetup >/dev/null || skip "losetup is missing (util-linux)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is missing (e2fsprogs)"
[ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"

# free_blocks MNT: bavail as statvfs gives it.
free_blocks() { stat -f -c '%a' "$1"; }

# run_scenario MNT FSTYPE: the writer on MNT, the report, the assertions.
run_scenario() {
	local mnt=$1 fstype=$2 out=$RS_TMP/r.$2.json writer before after first
	rs_start "$BUILD/workloads/report_fsfill" space "$mnt" 30
	writer=$(rs_said writer)
	before=$(free_blocks "$mnt")
	rs_report "$out" -d 2 --no-bpf # no eBPF part explains a full filesystem
	after=$(free_blocks "$mnt")
	[ "$before" = 0 ] && [ "$after" = 0 ] ||
		fail "premise: statvfs of $mnt says bavail $before before, $after after (want 0)"
	echo "ok: premise: statvfs of $mnt: bavail 0 before and after the report"
	first=".findings[0] | .kind == \"filesystem-full\" and .severity == \"critical\"
		and .subject.mount == \"$mnt\" and .subject.fstype == \"$fstype\"
		and (.subject.pids | index($writer))"
	jq -e "$first" "$out" >/dev/null ||
		fail "the first finding is not a critical filesystem-full of $mnt naming $writer: $(jq -c '.findings[0]' "$out")"
	echo "ok: first finding: critical filesystem-full of $mnt ($fstype) naming the writer $writer"
	rs_judge "$out" ".kind == \"filesystem-full\" and .subject.mount == \"$mnt\"" false "$mnt"
	kill -9 -- "-$RS_LEADER" 2>/dev/null
}

truncate -s 16M "$RS_TMP/ext4.img" || fail "cannot make the backing file"
mkfs.ext4 -q -F "$RS_TMP/ext4.img" || fail "mkfs.ext4 failed"
loopdev=$(losetup -f --show "$RS_TMP/ext4.img") || skip "no free loop device (losetup -f failed)"
rs_undo "losetup -d '$loopdev'"
mkdir "$RS_TMP/ext4" "$RS_TMP/tmpfs"
mount "$loopdev" "$RS_TMP/ext4" || fail "cannot mount $loopdev"
rs_undo "umount -l '$RS_TMP/ext4'"
run_scenario "$RS_TMP/ext4" ext4
umount -l "$RS_TMP/ext4" || fail "cannot unmount $RS_TMP/ext4" # one full filesystem at a time

mount -t tmpfs -o size=2m triage-fs-full "$RS_TMP/tmpfs" || fail "cannot mount a tmpfs"
rs_undo "umount -l '$RS_TMP/tmpfs'"
run_scenario "$RS_TMP/tmpfs" tmpfs
