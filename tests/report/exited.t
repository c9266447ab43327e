#!/usr/bin/env bash
# test: shared -- a fixture root
# A process that burnt a CPU and exited before the window ended is still the
# window's answer (triage replay --from --to report over "the bad five
# minutes" must name it). A fixture root of three steps (docs/fixtures.md):
# uptime 1000 s, 1010 s, 1011 s, so the window is 11 s. Expected values follow
# from the numbers written here:
#   - PID 4711 relay: 950 user + 20 system ticks at hz 100 between steps 1
#     and 2, then gone at step 3: 970 / 100 / 11 s = 88.2% of one CPU
#     -> cpu-bound-user, subject.exited true, no probe suggested for its PID
#   - PID 4712 spinner: the same 970 ticks, spread over the whole window, and
#     alive at the end -> cpu-bound-user, no exited key, the profile command
#   - PID 42 sshd: idle throughout -> no finding
set -u
TRIAGE=${TRIAGE:-build/triage}
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/triage_report_exited.$$.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# proc DIR PID COMM UTIME STIME: one single-threaded process, in R when busy
proc() {
	local d=$1/$2 state=S
	[ "$4" -gt 100 ] && state=R
	mkdir -p "$d/task/$2"
	echo "$2 ($3) $state 1 $2 $2 0 -1 4194304 100 0 0 0 $4 $5 0 0 20 0 1 0 500 1000000 100 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0" >"$d/stat"
	printf 'Name:\t%s\nState:\t%s\nTgid:\t%s\nPid:\t%s\nPPid:\t1\nUid:\t0\t0\t0\t0\nThreads:\t1\nCpus_allowed_list:\t0-1\nvoluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n' \
		"$3" "$state" "$2" "$2" >"$d/status"
	echo "$(($4 + $5))0000000 0 10" >"$d/schedstat"
	echo "0::/" >"$d/cgroup"
	for f in stat status schedstat cgroup; do cp "$d/$f" "$d/task/$2/$f"; done
}

# step N UPTIME BUSY RELAY SPIN: the host at UPTIME s with BUSY ticks spent,
# the relay's and the spinner's utime (RELAY 0: the relay has exited)
step() {
	local p=$tmp/root/step$1/proc idle=$((2 * $2 * 100 - $3))
	mkdir -p "$p"
	echo "$2.00 1500.00" >"$p/uptime"
	echo "$((1700000000 + $2 - 1000))" >"$tmp/root/step$1/time"
	printf 'cpu  %d 0 0 %d 0 0 0 0 0 0\ncpu0 %d 0 0 %d 0 0 0 0 0 0\ncpu1 %d 0 0 %d 0 0 0 0 0 0\nctxt 100\nprocs_running 1\nprocs_blocked 0\n' \
		"$3" "$idle" $(($3 / 2)) $((idle / 2)) $(($3 / 2)) $((idle / 2)) >"$p/stat"
	echo "1.00 0.50 0.20 2/120 900" >"$p/loadavg"
	printf 'MemTotal: 8000000 kB\nMemFree: 6000000 kB\nMemAvailable: 7000000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n' >"$p/meminfo"
	printf 'pswpin 0\npswpout 0\npgmajfault 10\noom_kill 0\n' >"$p/vmstat"
	[ "$4" != 0 ] && proc "$p" 4711 relay "$4" $((10 + 2 * ($4 - 100) / 95))
	proc "$p" 4712 spinner "$5" $((10 + 2 * ($5 - 100) / 95))
	proc "$p" 42 sshd 5 5
}

mkdir -p "$tmp/root/sys/devices/system/cpu/cpu0" "$tmp/root/sys/devices/system/cpu/cpu1" "$tmp/root/dev"
printf 'hz=100\npagesize=4096\nsysname=Linux\nrelease=6.1.0-fixture\nnodename=fixturehost\nmachine=x86_64\nepoch=1700000000\n' >"$tmp/root/meta"
: >"$tmp/root/dev/kmsg"
# relay: 100 -> 1050 user (and 10 -> 30 system) in 10 s, gone after; spinner: the same over 11 s
step 1 1000 0 100 100
step 2 1010 1940 1050 982
step 3 1011 1940 0 1050

"$TRIAGE" report --root "$tmp/root" --json >"$tmp/r.json" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] || fail "report exited $rc: $(cat "$tmp/err")"
q() { jq -e "$1" "$tmp/r.json" >/dev/null || fail "$2: $(jq -c '[.findings[] | {kind, subject, next, evidence}]' "$tmp/r.json")"; }
q '.window.seconds == 11' "an 11 s window"
q '[.findings[] | select(.subject.pid == 4711)] | length == 1' "one finding for the exited relay"
q '.findings[] | select(.subject.pid == 4711) | .kind == "cpu-bound-user" and .subject.exited == true
	and .next == null' "the relay: cpu-bound-user, exited, no probe of a dead PID"
q '.findings[] | select(.subject.pid == 4711) | .evidence[] | select(.metric == "cpu")
	| (.value - 970 / 11) | fabs < 0.05' "the relay's CPU: 970 ticks in 11 s"
q '.findings[] | select(.subject.pid == 4712) | .kind == "cpu-bound-user"
	and (.subject | has("exited") | not) and .next == "triage probe profile -p 4712 -d 10"' \
	"the spinner, alive: no exited key, the profile command"
q '[.findings[] | select(.subject.pid == 42)] | length == 0' "nothing about the idle sshd"

"$TRIAGE" report --root "$tmp/root" >"$tmp/r.txt" 2>"$tmp/err" || fail "plain report failed: $(cat "$tmp/err")"
grep -q 'PID 4711 relay used 88% of one CPU.*it exited before the window ended\.' "$tmp/r.txt" ||
	fail "the plain sentence does not say the relay exited: $(grep 4711 "$tmp/r.txt")"
grep -q 'probe profile -p 4711' "$tmp/r.txt" && fail "a probe of the exited relay's PID is suggested"
echo "ok: the exited relay is found over the 11 s window, with its 88% and no probe of its PID"
