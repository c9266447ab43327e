# test: exclusive -- counts the machine's BPF programs by name before and after
# triage probe trace: the openat calls of a workload, live, with the path,
# flags and return value decoded exactly as strace (the oracle, attached to
# the same process at the same time) prints them; errno names; exit_group
# shown although it never returns; clean detach; usage errors.
. "$SRC/tests/probe/lib.sh"
require_bpf
command -v strace >/dev/null || fail "strace is missing (scripts/deps.sh installs it)"

# A path that needs escaping: a space, a quote and a backslash.
F="$SCRATCH/my \"file\\"
echo hello >"$F"

start_workload 5 3 2 "$F"
strace -p "$WPID" -e trace=openat,close -o "$SCRATCH/strace.out" 2>"$SCRATCH/strace.err" &
SPID=$!
started="$started $SPID"
wait_for_file "$SCRATCH/strace.err" 'attached' || fail "strace did not attach"
before=$(bpf_prog_ids '^tr_(enter|exit)$')
start_probe "$SCRATCH/trace.txt" "$SCRATCH/err" trace openat,close,exit_group -p "$WPID"
P0=$PPID_PROBE
start_probe "$SCRATCH/trace.json" "$SCRATCH/err2" trace openat -p "$WPID" --json
ids=$(new_prog_ids '^tr_(enter|exit)$' "$before")
[ -n "$ids" ] || fail "no tr_enter/tr_exit programs loaded while attached"
P1=$PPID_PROBE
kill -USR1 "$WPID"
wait_pid_rc "$P1"
[ "$RC" = 0 ] || { cat "$SCRATCH/err2"; fail "json trace exited $RC"; }
wait_pid_rc "$SPID"
sleep 0.2
for i in $(seq 100); do grep -q 'target exited' "$SCRATCH/err" && break; sleep 0.1; done
grep -q 'target exited' "$SCRATCH/err" || { cat "$SCRATCH/err"; fail "plain trace did not end"; }
wait_pid_rc "$P0" 20
[ "$RC" = 0 ] || { cat "$SCRATCH/err"; fail "plain trace exited $RC"; }

# Same calls, same decoding as strace.
grep -E '^(openat|close)\(' "$SCRATCH/strace.out" | sed -E 's/\) += /) = /' >"$SCRATCH/want"
sed -E 's/^.*: ((openat|close)\(.*) <[0-9.]+ us>$/\1/;t;d' "$SCRATCH/trace.txt" >"$SCRATCH/got"
[ "$(wc -l <"$SCRATCH/want")" = 8 ] || { cat "$SCRATCH/strace.out"; fail "strace saw $(wc -l <"$SCRATCH/want") calls, expected 8"; }
diff -u "$SCRATCH/want" "$SCRATCH/got" || fail "trace output differs from strace"
grep -q 'exit_group(0) = ?$' "$SCRATCH/trace.txt" || fail "no exit_group line"
echo "ok matches strace"

J="$SCRATCH/trace.json"
jq -e . "$J" >/dev/null || fail "invalid JSON"
jq -e --arg f "$F" '[.events[] | select(.syscall == "openat" and .paths[0] == $f and .ret >= 0)] | length == 3' \
	"$J" >/dev/null || fail "JSON: 3 successful openat of the file expected"
jq -e --arg f "$F.missing" '[.events[] | select(.paths[0] == $f and .errno == "ENOENT" and .ret == -2)] | length == 2' \
	"$J" >/dev/null || fail "JSON: 2 ENOENT openat expected"
jq -e '.lost == 0 and .target_exited == true and (.events | length == 5)' "$J" >/dev/null ||
	fail "JSON: lost events, or no target_exited"
# shellcheck disable=SC2086
expect_progs_gone $ids
echo "ok json"

# Ctrl-C detaches.
start_workload 0 0 0 "$F"
before=$(bpf_prog_ids '^tr_(enter|exit)$')
start_probe "$SCRATCH/t2" "$SCRATCH/err3" trace openat -p "$WPID"
ids=$(new_prog_ids '^tr_(enter|exit)$' "$before")
kill -INT "$PPID_PROBE"
wait_pid_rc "$PPID_PROBE" 20
[ "$RC" = 0 ] || fail "SIGINT: exit $RC"
# shellcheck disable=SC2086
expect_progs_gone $ids
echo "ok SIGINT detaches"

"$TRIAGE" probe trace -p "$WPID" >/dev/null 2>&1; [ $? = 2 ] || fail "no syscall list: not 2"
"$TRIAGE" probe trace openat,nosuchcall -p "$WPID" >/dev/null 2>"$SCRATCH/e"; rc=$?
[ $rc = 2 ] && grep -q "unknown syscall: 'nosuchcall'" "$SCRATCH/e" || fail "unknown syscall: $rc"
"$TRIAGE" probe trace openat >/dev/null 2>&1; [ $? = 2 ] || fail "no target: not 2"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$TRIAGE" probe trace openat -p "$WPID" >/dev/null 2>&1
[ $? = 3 ] || fail "unprivileged: not exit 3"
kill "$WPID"
echo "ok usage"
