#!/usr/bin/env bash
# test: shared -- signals its own report
# Ctrl-C (SIGINT) or SIGTERM ends the report's window early, and the report
# still comes out, as docs/report.md promises: exit 0, valid JSON, a window
# shorter than the -d asked for, and the whole run over before -d ran out.
# No sleep as synchronisation: we signal once the stop signals are armed,
# from which point they are taken by the window's clock instead of killing
# or being lost (a background job starts with SIGINT ignored).
set -u
TRIAGE=${TRIAGE:-build/triage}
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/triage_report_stop.$$.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Armed: SigBlk has SIGINT (2) and SIGTERM (15), or pid waits in
# sigtimedwait(), which shows them unblocked while it waits for them.
armed() {
	local blk wchan
	blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$blk" ] && (((0x$blk & 0x4002) == 0x4002)) && return 0
	wchan=$(cat "/proc/$1/wchan" 2>/dev/null)
	[[ $wchan == do_sigtimedwait* ]]
}

window=10
for sig in INT TERM; do
	t0=$(date +%s%N)
	"$TRIAGE" report -d "$window" --no-bpf --json >"$tmp/$sig.json" 2>"$tmp/$sig.err" &
	pid=$!
	for ((i = 0; i < 2000; i++)); do
		armed "$pid" && break
		kill -0 "$pid" 2>/dev/null || fail "SIG$sig: report ended before arming: $(cat "$tmp/$sig.err")"
		sleep 0.005
	done
	armed "$pid" || fail "SIG$sig: the stop signals were never blocked"
	kill -"$sig" "$pid"
	wait "$pid"; rc=$?
	pid=
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$rc" = 0 ] || fail "SIG$sig: exit $rc, wanted 0: $(cat "$tmp/$sig.err")"
	jq -e . "$tmp/$sig.json" >/dev/null || fail "SIG$sig: not JSON: $(head -c 300 "$tmp/$sig.json")"
	jq -e --argjson d "$window" '.window.seconds < $d and (.headline | length) > 0' \
		"$tmp/$sig.json" >/dev/null || fail "SIG$sig: window not cut short: $(jq -c .window "$tmp/$sig.json")"
	# a run that ignored the signal lasts the whole window: -d s at least
	[ "$ms" -lt $((window * 1000)) ] || fail "SIG$sig: took ${ms} ms, the whole ${window} s window"
	echo "ok: SIG$sig ended the ${window} s window after ${ms} ms with a report ($(jq -c .window.seconds "$tmp/$sig.json") s)"
done
