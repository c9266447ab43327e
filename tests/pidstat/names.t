#!/usr/bin/env bash
# test: shared -- names of its own process
# Attacker-controlled names: a comm holding ESC and a newline must come out
# escaped in plain output (no raw control byte, no forged line) and as a
# valid JSON string; the real pidstat prints such names raw.
set -u
export LC_ALL=C TZ=UTC
wl="$BUILD/workloads/pidstat_evilname"
[ -x "$wl" ] || { echo "workload missing"; exit 1; }
tmp=$(mktemp -d /tmp/pidstat-names.XXXXXX)
"$wl" >"$tmp/pid" &
wpid=$!
trap 'kill $wpid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/pid" ] && break; sleep 0.1; done
fail=0

"$TRIAGE" pidstat -p "$wpid" >"$tmp/plain" || { echo "pidstat failed"; fail=1; }
lines=$(wc -l <"$tmp/plain")
[ "$lines" = 4 ] || { echo "FAIL: expected 4 lines (banner, blank, header, row), got $lines"; fail=1; }
if LC_ALL=C grep -q $'\033' "$tmp/plain"; then echo "FAIL: raw ESC in plain output"; fail=1; fi
grep -qF 'x\x1b[2J\x0aAverage:' "$tmp/plain" || { echo "FAIL: name not escaped as expected"; cat -A "$tmp/plain"; fail=1; }

# -t puts the name in the thread row and the orphan prefix paths too
"$TRIAGE" pidstat -t -C Average -p "$wpid" >"$tmp/threads" || { echo "FAIL: pidstat -t failed"; fail=1; }
[ -s "$tmp/threads" ] || { echo "FAIL: pidstat -t printed nothing"; fail=1; }
if LC_ALL=C grep -q $'\033' "$tmp/threads"; then echo "FAIL: raw ESC with -t"; fail=1; fi

"$TRIAGE" pidstat -o JSON -t -p "$wpid" 1 1 >"$tmp/json" || { echo "FAIL: pidstat -o JSON failed"; fail=1; }
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["sysstat"]["hosts"][0]["statistics"][0]["task-cpu-load"]
want = "x\x1b[2J\nAverage:"
assert rows and rows[0]["cmd"] == want, rows
assert rows[1]["leader"] == want, rows
PY

# the real pidstat prints the name raw: our plain output differs only there
if [ -x /usr/bin/pidstat ]; then
	/usr/bin/pidstat -p "$wpid" >"$tmp/real"
	[ "$(wc -l <"$tmp/real")" = 5 ] || { echo "NOTE: real pidstat line count changed"; }
fi
[ $fail = 0 ] && echo "names are escaped"
exit $fail
