#!/usr/bin/env bash
# test: shared -- usage and error output, against sysstat run the same way
# Command-line behaviour against the real sysstat pidstat, live: usage
# errors (stderr text and exit code), -V, a closed stdout, a PID that does
# not exist. Expected output is whatever /usr/bin/pidstat prints right now.
set -u
REAL=/usr/bin/pidstat
[ -x "$REAL" ] || { echo "sysstat's pidstat is not installed"; exit 77; }
"$REAL" -V 2>/dev/null | grep -q 'sysstat version 12.6.1' ||
	{ echo "the oracle is not sysstat 12.6.1"; exit 77; }
export LC_ALL=C TZ=UTC
tmp=$(mktemp -d /tmp/pidstat-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# invoked through a symlink named pidstat so argv[0] (in the usage text) matches
ln -s "$TRIAGE" "$tmp/pidstat"
ours="$tmp/pidstat"
fail=0

check() { # description, then args (eval'd)
	local what=$1 args=$2 rr rg
	(cd "$tmp" && eval "$REAL $args") >"$tmp/r.out" 2>"$tmp/r.err"
	rr=$?
	(cd "$tmp" && eval "$ours $args") >"$tmp/g.out" 2>"$tmp/g.err"
	rg=$?
	sed -i "s#$REAL#pidstat#g" "$tmp/r.err"
	sed -i "s#$ours#pidstat#g" "$tmp/g.err"
	# triage adds what it found wrong after sysstat's bytes (tests/cli/errors.t)
	sed -i "/^triage pidstat: /d; /^see 'triage pidstat --help'\$/d" "$tmp/g.err"
	if [ "$rr" != "$rg" ] || ! cmp -s "$tmp/r.err" "$tmp/g.err" || ! cmp -s "$tmp/r.out" "$tmp/g.out"; then
		echo "FAIL $what: rc $rr vs ours $rg"
		diff "$tmp/r.err" "$tmp/g.err" | head -5
		diff "$tmp/r.out" "$tmp/g.out" | head -5
		fail=1
	fi
}

for a in "-p abc" "-p 0" "-p" "-x" "-up 1" "--help" "--" "-u 0 3" "-u 1 0" "-u -1" \
	"-u 1.5" "1 2 3" "-T foo" "-C ''" "--dec=3" "--dec=12" "--dec" "--human=1" "-e" \
	"-U 123 1 1" "-T CHILD -d" "-T CHILD -w -s" "-p 1,x" "-G" "-x -V" "-V -x" "-V" "-uV"; do
	check "pidstat $a" "$a"
done

# closed stdout: sysstat's "stdout: Bad file descriptor" and status 6
check "closed stdout, since boot" "-p 1 >&-"
check "closed stdout, one interval" "-p 1 1 1 >&-"

# a PID that does not exist: banner, header, exit after one interval, no Average
"$REAL" -p 999999 1 1 >"$tmp/r.out" 2>&1; rr=$?
"$ours" -p 999999 1 1 >"$tmp/g.out" 2>&1; rg=$?
norm() { sed -E "s/^[0-9]{2}:[0-9]{2}:[0-9]{2}/TIME/; s/[0-9]{2}\/[0-9]{2}\/[0-9]{2}/DATE/; /^triage pidstat: no such process: '999999'\$/d" "$1"; }
if [ "$rr" != "$rg" ] || ! diff <(norm "$tmp/r.out") <(norm "$tmp/g.out"); then
	echo "FAIL -p 999999 1 1: rc $rr vs $rg"
	fail=1
fi
# -e: a child that exits (or fails to exec) during the first interval leaves
# only the banner; exec failure is reported by the child; status 0 either
# way. When the child exits is chosen here, not left to a sleep:
# - a child that runs is held on a FIFO until the tool is blocked in its
#   interval wait (pause for sysstat, rt_sigtimedwait or ppoll for triage, read from
#   /proc/PID/syscall): past its read 0 and long before read 1;
# - a child that fails to exec cannot be held. sysstat installs its SIGCHLD
#   handler after the fork, and a child gone before that leaves it printing
#   samples of the zombie, or waiting forever (a race in 12.6.1, spec §5.1).
#   So both tools run SCHED_FIFO on one CPU with the child reset to
#   SCHED_OTHER: the child cannot run until the parent blocks, which it
#   first does in its interval wait, after the handler is in place.
# A timeout keeps a hung tool from hanging the suite.
waits=$(printf '#include <sys/syscall.h>\n' | cc -E -dM - 2>/dev/null |
	awk '$2 ~ /^__NR_(pause|ppoll|rt_sigtimedwait)$/ { printf "%s%s", sep, $3; sep = "|" }')
in_wait() {
	local nr
	read -r nr _ 2>/dev/null <"/proc/$1/syscall" && [[ "$nr" =~ ^($waits)$ ]]
}
printf '#!/bin/sh\nread x <"$1"\n' >"$tmp/hold"
chmod +x "$tmp/hold"

# run_e OUT TOOL ARGS...: TOOL ARGS in the background, stdout/stderr in
# OUT.out/.err; with HOLD=1 the child (hold, on $tmp/fifo) is released once
# TOOL waits. The test keeps the FIFO open both ways, so neither side's open
# blocks, and closing it lets a child that was never released go. Status in RC.
run_e() {
	local out=$1 p i
	shift
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	exec 9<>"$tmp/fifo"
	"$@" >"$out.out" 2>"$out.err" 9>&- &
	p=$!
	if [ "${HOLD:-0}" = 1 ]; then
		for i in $(seq 2000); do
			in_wait $p && break
			kill -0 $p 2>/dev/null || break
			sleep 0.01
		done
		in_wait $p && echo go >&9
	fi
	for i in $(seq 200); do kill -0 $p 2>/dev/null || break; sleep 0.1; done
	kill -KILL $p 2>/dev/null && echo "FAIL: $* still running after 20 s"
	wait $p
	RC=$?
	exec 9>&-
}

compare_e() { # description
	if [ "$rr" != "$rg" ] || ! cmp -s "$tmp/r.err" "$tmp/g.err" ||
		! diff <(norm "$tmp/r.out") <(norm "$tmp/g.out") >/dev/null; then
		echo "FAIL -e case '$1': rc $rr vs $rg"
		diff "$tmp/r.err" "$tmp/g.err" | head -3
		diff <(norm "$tmp/r.out") <(norm "$tmp/g.out") | head -5
		fail=1
	fi
}

if [ -z "$waits" ] || [ ! -r /proc/self/syscall ]; then
	echo "note: no syscall numbers or /proc/PID/syscall: the held -e cases are not run"
else
	for a in "1 -e" "-T CHILD -d -e"; do
		HOLD=1 run_e "$tmp/r" "$REAL" $a "$tmp/hold" "$tmp/fifo"; rr=$RC
		HOLD=1 run_e "$tmp/g" "$ours" $a "$tmp/hold" "$tmp/fifo"; rg=$RC
		compare_e "$a HOLD"
	done
fi
if chrt --reset-on-fork -f 1 taskset -c 0 true 2>/dev/null; then
	a="1 1 -e /nonexistent/prog"
	run_e "$tmp/r" chrt --reset-on-fork -f 1 taskset -c 0 "$REAL" $a; rr=$RC
	run_e "$tmp/g" chrt --reset-on-fork -f 1 taskset -c 0 "$ours" $a; rg=$RC
	compare_e "$a"
else
	echo "note: SCHED_FIFO not allowed here: the exec-failure -e case is not run"
fi
[ $fail = 0 ] && echo "all command-line cases agree with $REAL"
exit $fail
