#!/usr/bin/env bash
# test: shared -- one workload of its own, strace and the probe on it
# triage probe trace prints negative arguments as strace does (the oracle,
# attached to the same process for the same calls): wait4(-1, ...),
# kill(-PID, 0), lseek(fd, -3, SEEK_END) and lseek(fd, -1, SEEK_SET), not
# 4294967295 or 18446744073709551613. Compared: each call's name, its
# numeric arguments (pid, fd, offset) and its return value with errno;
# strace names flags (WNOHANG, SEEK_END) where trace prints numbers.
. "$SRC/tests/probe/lib.sh"
require_bpf
command -v strace >/dev/null || fail "strace is missing (scripts/deps.sh installs it)"
printf '0123456789' >"$SCRATCH/file" # 10 bytes: SEEK_END - 3 is 7
rm -f "$SCRATCH/ready"
"$BUILD/workloads/probe_signed" "$SCRATCH/ready" "$SCRATCH/file" &
WPID=$!
started="$started $WPID"
wait_for_file "$SCRATCH/ready" || fail "workload did not start"
strace -p "$WPID" -e trace=wait4,kill,lseek -o "$SCRATCH/strace.out" 2>"$SCRATCH/strace.err" &
SPID=$!
started="$started $SPID"
wait_for_file "$SCRATCH/strace.err" 'attached' || fail "strace did not attach"
start_probe "$SCRATCH/trace.txt" "$SCRATCH/err" trace wait4,kill,lseek -p "$WPID"
kill -USR1 "$WPID"
wait_pid_rc "$PPID_PROBE" 20
[ "$RC" = 0 ] || { cat "$SCRATCH/err"; fail "trace exited $RC"; }
wait_pid_rc "$SPID" 20

# name, then the arguments that are numbers, then "= ret [ERRNO]"
fields() {
	sed -E -n 's/^(wait4|kill)\((-?[0-9]+),.*\) += (-?[0-9]+( E[A-Z]+)?).*$/\1 \2 = \3/p;
		s/^(lseek)\(([0-9]+), (-?[0-9]+),.*\) += (-?[0-9]+( E[A-Z]+)?).*$/\1 \2 \3 = \4/p'
}
fields <"$SCRATCH/strace.out" >"$SCRATCH/want"
sed -E 's/^.*: ((wait4|kill|lseek)\(.*) <[0-9.]+ us>$/\1/;t;d' "$SCRATCH/trace.txt" | fields >"$SCRATCH/got"
cat >"$SCRATCH/known" <<EOT
wait4 -1 = -1 ECHILD
kill -$WPID = 0
lseek FD -3 = 7
lseek FD -1 = -1 EINVAL
EOT
# the workload's own calls, as it makes them, are what strace saw
sed -E 's/^lseek [0-9]+ /lseek FD /' "$SCRATCH/want" | diff -u "$SCRATCH/known" - ||
	fail "strace did not see the workload's calls: $(cat "$SCRATCH/strace.out")"
diff -u "$SCRATCH/want" "$SCRATCH/got" || fail "trace's arguments differ from strace's: $(cat "$SCRATCH/trace.txt")"
echo "ok: $(wc -l <"$SCRATCH/got") calls with negative arguments as strace prints them"
