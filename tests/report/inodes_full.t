#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: an ext4 with space left and no inode: `mkfs.ext4 -N 16` on a
# 16 MiB loop device, mounted under the test's scratch dir. report_fsfill
# creates empty files until creat() fails with ENOSPC, then tries one more
# every 50 ms (holding none open: it is named by no subject).
# Oracle: the kernel's statvfs (`stat -f`) before and after the report:
# no free inode, and most of the space free (< 50% used).
# Expected: the first finding is a critical inodes-full whose subject names
# the mount and fstype ext4; no filesystem-full about it.
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
command -v losetup >/dev/null || skip "losetup is missing (util-linux)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is missing (e2fsprogs)"
[ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"

truncate -s 16M "$RS_TMP/ext4.img" || fail "cannot make the backing file"
mkfs.ext4 -q -F -N 16 "$RS_TMP/ext4.img" || fail "mkfs.ext4 failed"
loopdev=$(losetup -f --show "$RS_TMP/ext4.img") || skip "no free loop device (losetup -f failed)"
rs_undo "losetup -d '$loopdev'"
mnt=$RS_TMP/ext4
mkdir "$mnt"
mount "$loopdev" "$mnt" || fail "cannot mount $loopdev"
rs_undo "umount -l '$mnt'"

# inodes MNT: "free-inodes used-space-%" as statvfs gives them.
inodes() { stat -f -c '%d %b %a' "$1" | awk '{ printf "%d %.0f\n", $1, 100 * ($2 - $3) / $2 }'; }
rs_start "$BUILD/workloads/report_fsfill" inodes "$mnt" 30
before=$(inodes "$mnt")
out=$RS_TMP/r.json
rs_report "$out" -d 2 --no-bpf # no eBPF part explains a full filesystem
after=$(inodes "$mnt")
awk -v b="$before" -v a="$after" 'BEGIN { split(b, x); split(a, y); exit !(x[1] == 0 && y[1] == 0 && y[2] < 50) }' ||
	fail "premise: statvfs of $mnt says free inodes and space used% '$before' before, '$after' after (want 0 inodes, < 50%)"
echo "ok: premise: statvfs of $mnt: no free inode before or after, space ${after#* }% used"
first=".findings[0] | .kind == \"inodes-full\" and .severity == \"critical\"
	and .subject.mount == \"$mnt\" and .subject.fstype == \"ext4\""
jq -e "$first" "$out" >/dev/null ||
	fail "the first finding is not a critical inodes-full of $mnt: $(jq -c '.findings[0]' "$out")"
echo "ok: first finding: critical inodes-full of $mnt"
jq -e "[.findings[] | select(.kind == \"filesystem-full\" and .subject.mount == \"$mnt\")] | length == 0" "$out" >/dev/null ||
	fail "filesystem-full about $mnt, whose space is not full"
echo "ok: no filesystem-full about it"
rs_judge "$out" ".kind == \"inodes-full\" and .subject.mount == \"$mnt\"" false "$mnt"
