#!/usr/bin/env bash
# test: shared -- a scratch copy of the binary with capabilities, run as nobody
# Least privilege (issue 13 part 3). A copy of the binary given the file
# capabilities of 'make install-caps', run as nobody: doctor finds them,
# report, load and a probe work. The same binary without capabilities: each
# probe and doctor exit 3 naming CAP_BPF and CAP_PERFMON, report says what
# it skipped and why, the rest does what it can (exit 0). Paths the user
# gives stay the user's: with the capabilities, nobody still cannot read a
# root-only rules file, capture or --root tree.
. "$SRC/tests/pkg/lib.sh" caps
command -v setcap >/dev/null || skip "setcap missing (apt-get install libcap2-bin)"
command -v setpriv >/dev/null || skip "setpriv missing (util-linux)"
[ "$(id -u)" = 0 ] || skip "needs root to set file capabilities and switch users"
id nobody >/dev/null 2>&1 || skip "no user nobody"
grp=$(id -gn nobody)
chmod 755 "$work"
mkdir -m 755 "$work/capbin"
cp "$TRIAGE" "$work/capbin/triage"
cp "$TRIAGE" "$work/plain"
chmod 755 "$work/capbin/triage" "$work/plain"
# the Makefile's own target, on the copy (it picks the set for this kernel)
make -s -C "$SRC" install-caps DESTDIR="$work" BINDIR=/capbin >"$work/setcap.log" 2>&1 ||
	skip "setcap failed here (no xattrs on $work?): $(cat "$work/setcap.log")"
caps=$(getcap "$work/capbin/triage")
echo "capabilities: ${caps#* }"
capped=$work/capbin/triage
# LeakSanitizer cannot ptrace a process that file capabilities made undumpable
export ASAN_OPTIONS=detect_leaks=0
as_nobody() {
	(cd / && setpriv --reuid=nobody --regid="$grp" --clear-groups --inh-caps=-all "$@")
}
sleep 120 &
target=$!
started="$started $target"

# with the capabilities
as_nobody "$capped" doctor >"$work/doctor" 2>&1
grep -q '^  ok      privileges .*uid [0-9]*; has CAP_BPF, CAP_PERFMON' "$work/doctor" ||
	fail "doctor with caps: $(grep privileges "$work/doctor")"
as_nobody "$capped" report -d 1 --json >"$work/report.json" 2>"$work/report.err" ||
	fail "report with caps: exit $?: $(cat "$work/report.err")"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/report.json" || fail "report JSON"
as_nobody "$capped" report -d 1 >"$work/report" 2>&1 || fail "report with caps: exit $?"
! grep -q 'needs root' "$work/report" || fail "report with caps skips: $(grep 'needs root' "$work/report")"
as_nobody "$capped" probe syscalls -p "$target" -d 1 >"$work/probe" 2>&1 ||
	fail "probe syscalls with caps: exit $?: $(cat "$work/probe")"
grep -q "^pid $target:" "$work/probe" || fail "probe output: $(head -3 "$work/probe")"
as_nobody "$capped" load >/dev/null 2>"$work/load.err" || fail "load with caps: $(cat "$work/load.err")"
echo "ok: with capabilities, nobody runs doctor, report, load and probe syscalls"

# the user's paths stay the user's
printf 'r -m u32 --u32 "0>>24=0x45"\n' >"$work/secret.rules"
chmod 600 "$work/secret.rules"
mkdir -m 700 "$work/secret-root"
as_nobody "$capped" u32 lint --rules "$work/secret.rules" >/dev/null 2>"$work/err"
rc=$?
[ $rc != 0 ] && grep -q 'Permission denied' "$work/err" || fail "root-only rules file: exit $rc: $(cat "$work/err")"
as_nobody "$capped" u32 test --rules "$work/secret.rules" "$work/secret.rules" >/dev/null 2>"$work/err"
[ $? != 0 ] && grep -q 'Permission denied' "$work/err" || fail "root-only file as capture: $(cat "$work/err")"
as_nobody "$capped" report -d 1 --root "$work/secret-root" >/dev/null 2>"$work/err"
rc=$?
[ $rc != 0 ] && grep -qi 'permission denied' "$work/err" || fail "root-only --root: exit $rc: $(cat "$work/err")"
as_nobody "$capped" load --root "$work/secret-root" >/dev/null 2>"$work/err"
rc=$?
[ $rc != 0 ] && grep -qi 'permission denied' "$work/err" || fail "load --root: exit $rc: $(cat "$work/err")"
echo "ok: root-only files and trees stay closed to nobody despite the capabilities"

# without capabilities: say what is missing, exit 3; do the rest
as_nobody "$work/plain" doctor >"$work/doctor" 2>&1
rc=$?
[ $rc = 3 ] || fail "doctor without caps: exit $rc, want 3"
grep -q 'missing privileges .*lacks CAP_BPF, CAP_PERFMON.*(tracing: CAP_BPF and CAP_PERFMON missing)' \
	"$work/doctor" || fail "doctor does not name the capabilities: $(grep -A1 privileges "$work/doctor")"
for p in "syscalls -p $target" "trace openat -p $target" "offcpu" "runq" "profile"; do
	# shellcheck disable=SC2086
	as_nobody "$work/plain" probe $p -d 1 >/dev/null 2>"$work/err"
	rc=$?
	[ $rc = 3 ] || fail "probe $p without caps: exit $rc, want 3"
	grep -q 'CAP_BPF and CAP_PERFMON' "$work/err" || fail "probe $p: $(cat "$work/err")"
done
as_nobody "$work/plain" report -d 1 >"$work/report" 2>&1 || fail "report without caps: exit $?"
grep -q 'ebpf .*CAP_BPF and CAP_PERFMON' "$work/report" || fail "report does not say eBPF was skipped"
if [ "$(cat /proc/sys/kernel/dmesg_restrict)" = 1 ]; then
	grep -q 'kernel-log .*CAP_SYSLOG' "$work/report" || fail "report does not say why the kernel log was skipped"
fi
for c in "load" "pidstat -p $target" "collect --once -p $target" "u32 lint 0>>24=0x45" "version"; do
	# shellcheck disable=SC2086
	as_nobody "$work/plain" $c >/dev/null 2>"$work/err" || fail "'$c' without caps: exit $?: $(cat "$work/err")"
done
echo "ok: without capabilities, probes and doctor exit 3 naming CAP_BPF and CAP_PERFMON; the rest works"
