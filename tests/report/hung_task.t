#!/usr/bin/env bash
# test: exclusive -- a live scenario: judges every process on the machine
# Scenario: a hung task waiting on an rw-semaphore that another hung task
# holds. A 32 MiB ext4 image on a loop device; a v1 blkio cgroup of the
# test's own throttles writes to that loop device to 4 KiB/s. In it,
# hung_holder (a copy of dd) writes 256 KiB to a new file with O_DIRECT:
# ext4 holds the file's i_rwsem for writing while the write is in flight,
# so it waits in D (an uninterruptible I/O wait) for ~64 s. hung_waiter (dd
# again) then writes 4 KiB further into the same file with O_DIRECT and
# blocks in D on that i_rwsem. The test lowers kernel.hung_task_timeout_secs
# to 1 (and hung_task_warnings to unlimited) until the kernel has reported
# the waiter at least twice, then puts both back before the report's
# window: the reports then stay as the kernel logged them. The EXIT trap
# puts the sysctls back, lifts the throttle (the writes finish and the
# killed writers exit), removes the cgroup, unmounts and detaches.
# Oracle: the kernel log itself: how many times it reported each task
# ("INFO: task hung_waiter:PID blocked for more than N seconds"), the
# longest N, and the owner it named ("... blocked on an rw-semaphore likely
# owned by task hung_holder:PID"), on kernels with
# CONFIG_DETECT_HUNG_TASK_BLOCKER (else the owner part is skipped).
# Expected: one kernel-errors finding per hung task whatever the number of
# reports, each with the kernel's count and longest time; the waiter's
# names the holder (subject.pids, the sentence, the next command); no
# finding for the dumps' lines ("Not tainted", the hint).
# Tolerated, because the fault causes it: load-uninterruptible naming the
# two writers (in D all window long).
# Tolerated besides: lib.sh's background findings.
. "$SRC/tests/report/lib.sh"
rs_require
sys=/proc/sys/kernel
[ -w $sys/hung_task_timeout_secs ] && [ -w $sys/hung_task_warnings ] ||
	skip "no hung-task detector here (kernel.hung_task_timeout_secs)"
command -v mkfs.ext4 >/dev/null && command -v losetup >/dev/null || skip "mkfs.ext4 or losetup is missing"
[ -e /dev/loop-control ] || skip "no loop device support (/dev/loop-control)"
dd=$(command -v dd) || skip "dd is missing"
timeout0=$(cat $sys/hung_task_timeout_secs) warnings0=$(cat $sys/hung_task_warnings)
restore() { echo "$timeout0" >$sys/hung_task_timeout_secs && echo "$warnings0" >$sys/hung_task_warnings; }
rs_undo restore
truncate -s 32M "$RS_TMP/fs.img" && mkfs.ext4 -q -F "$RS_TMP/fs.img" || fail "mkfs.ext4"
loopdev=$(losetup -f --show "$RS_TMP/fs.img") || skip "no free loop device (losetup -f failed)"
rs_undo "losetup -d '$loopdev'"
mnt=$RS_TMP/mnt
mkdir "$mnt" && mount "$loopdev" "$mnt" || fail "mount $loopdev"
rs_undo "umount '$mnt'"
rs_mkcgroup blkio "triage_rs_$$_hung"
majmin=$(cat "/sys/block/${loopdev#/dev/}/dev")
echo "$majmin 4096" >"$RS_CG/blkio.throttle.write_bps_device" || skip "cannot throttle $loopdev"
rs_undo "echo '$majmin 0' >'$RS_CG/blkio.throttle.write_bps_device'" # runs before the cgroup's removal
cp "$dd" "$RS_TMP/hung_holder" && cp "$dd" "$RS_TMP/hung_waiter" || fail "copy dd"

# in_d PID: waits (5 s at most) until the kernel shows PID in D
in_d() {
	local st=
	for _ in $(seq 100); do
		st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
		[ "$st" = D ] && return 0
		sleep 0.05
	done
	fail "premise: $2 ($1) is in state '$st', not D"
}
announce='echo "$0 $$"; echo ready; exec "$@"'
rs_start "${RS_IN_CGROUP[@]}" "$RS_CG" bash -c "$announce" holder "$RS_TMP/hung_holder" \
	if=/dev/zero of="$mnt/f" bs=256k count=1 oflag=direct status=none
holder=$(rs_said holder)
in_d "$holder" hung_holder
rs_start bash -c "$announce" waiter "$RS_TMP/hung_waiter" \
	if=/dev/zero of="$mnt/f" bs=4k count=1 seek=100 oflag=direct conv=notrunc status=none
waiter=$(rs_said waiter)
in_d "$waiter" hung_waiter
echo "ok: premise: hung_holder $holder and hung_waiter $waiter in D"

# reports COMM PID: the kernel's hung-task reports of that task so far
reports() { dmesg | grep -c "INFO: task $1:$2 blocked for more than"; }
echo 1 >$sys/hung_task_timeout_secs && echo -1 >$sys/hung_task_warnings || fail "cannot set the hung-task sysctls"
for _ in $(seq 80); do
	[ "$(reports hung_waiter "$waiter")" -ge 2 ] && [ "$(reports hung_holder "$holder")" -ge 2 ] && break
	sleep 0.1
done
restore || fail "cannot put the hung-task sysctls back"
nw=$(reports hung_waiter "$waiter") nh=$(reports hung_holder "$holder")
[ "$nw" -ge 2 ] && [ "$nh" -ge 2 ] || fail "premise: the kernel reported the waiter $nw and the holder $nh times in 8 s (want 2 each)"

out=$RS_TMP/r.json
RS_WATCH="$holder $waiter" rs_report "$out" -d 2 --no-bpf
# The oracle, read after the report (a check the detector was in when the
# timeout went back may have logged once more before the window).
nw=$(reports hung_waiter "$waiter") nh=$(reports hung_holder "$holder")
# longest COMM PID: the longest "blocked for more than N seconds" of its reports
longest() { dmesg | sed -n "s/.*INFO: task $1:$2 blocked for more than \([0-9]*\) seconds.*/\1/p" | sort -n | tail -1; }
lw=$(longest hung_waiter "$waiter") lh=$(longest hung_holder "$holder")
owner=$(dmesg | sed -n "s/.*INFO: task hung_waiter:$waiter .*blocked on an rw-semaphore likely owned by task hung_holder:\([0-9]*\).*/\1/p" | tail -1)
echo "ok: premise: the kernel reported hung_waiter $nw times (longest $lw s), hung_holder $nh times (longest $lh s); owner named: '${owner:-none}'"
one() { # PID: its kernel-errors findings
	jq -c --argjson p "$1" '[.findings[] | select(.kind == "kernel-errors" and .subject.pid == $p)]' "$out"
}
jq -e --argjson n "$nw" --argjson l "$lw" 'length == 1 and (.[0] | (.evidence[] | select(.metric == "reports") | .value) == $n
	and (.evidence[] | select(.metric == "blocked") | .value) == $l)' <<<"$(one "$waiter")" >/dev/null ||
	fail "not one kernel-errors finding for hung_waiter with $nw reports, $lw s: $(one "$waiter")"
jq -e --argjson n "$nh" --argjson l "$lh" 'length == 1 and (.[0] | (.evidence[] | select(.metric == "reports") | .value) == $n
	and (.evidence[] | select(.metric == "blocked") | .value) == $l)' <<<"$(one "$holder")" >/dev/null ||
	fail "not one kernel-errors finding for hung_holder with $nh reports, $lh s: $(one "$holder")"
echo "ok: one kernel-errors finding per hung task: waiter $nw reports, holder $nh, as the kernel logged"
if [ -n "$owner" ]; then
	[ "$owner" = "$holder" ] || fail "premise: the kernel named $owner as the owner, not the holder $holder"
	jq -e --argjson h "$holder" '.[0] | .subject.pids == [$h] and .next == "cat /proc/\($h)/stack"
		and (.summary | contains("rw-semaphore that PID \($h) hung_holder likely holds"))' <<<"$(one "$waiter")" >/dev/null ||
		fail "the waiter's finding does not name the owner $holder: $(one "$waiter")"
	echo "ok: the waiter's finding names the rw-semaphore's owner, hung_holder $holder"
else
	echo "note: this kernel names no lock owner (no CONFIG_DETECT_HUNG_TASK_BLOCKER): owner not checked"
fi
jq -e '[.findings[] | select(.kind == "kernel-errors") | .summary | select(test("Not tainted|disables this message"))] | length == 0' "$out" >/dev/null ||
	fail "a dump line is a finding"
echo "ok: no finding for the dumps' lines"
# The throttle that makes the writers hang also stalls them on I/O: io-stall
# naming this test's blkio cgroup and only its writers is the same fault seen
# through PSI, so it is tolerated (any other cgroup or PID is not).
rs_judge "$out" ".kind == \"kernel-errors\" and (.subject.pid == $holder or .subject.pid == $waiter)" \
	"(.kind == \"load-uninterruptible\" and (pids | all(. == $holder or . == $waiter)))
	 or (.kind == \"io-stall\" and .subject.cgroup == \"/triage_rs_$$_hung\" and (pids | all(. == $holder or . == $waiter)))" \
	"$RS_CG" "${loopdev#/dev/}"
