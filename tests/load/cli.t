#!/usr/bin/env bash
# test: shared -- a fixture root
# triage load's command line: exit codes for bad usage and missing data,
# hostile process names (escaped in JSON, harmless on a terminal), and
# --watch over a fixture root (a report at the end of the replay, exit 0).
set -u
FIX=$SRC/tests/fixtures/load/rd-vfork-frozen
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || { echo "jq is missing (scripts/deps.sh installs it)"; exit 77; }
tmp=$(mktemp -d "/tmp/triage-load-cli.$$.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

expect_status() { # want args...
	local want=$1 got
	shift
	"$TRIAGE" load "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" = "$want" ] || fail "triage load $*: exit $got, expected $want ($(cat "$tmp/err"))"
	if [ "$want" != 0 ]; then
		[ -s "$tmp/err" ] || fail "triage load $*: no message on stderr"
	fi
}
expect_status 2 --bogus
expect_status 2 5                    # INTERVAL needs --watch
expect_status 2 --watch 0
expect_status 2 --watch x
expect_status 2 --watch 1 0
expect_status 2 --watch 1 2 3
expect_status 2 --budget 0 --watch
expect_status 2 --budget 101 --watch
expect_status 2 --top 0 --watch
expect_status 0 --help
expect_status 2 --root "$tmp/does-not-exist" # a missing --root is 2 in every command (README)
mkdir "$tmp/empty"
expect_status 3 --root "$tmp/empty"
echo "ok: exit codes"

# A process name with a terminal escape, a quote, a backslash and a newline
# that would forge a line of its own.
cp -r "$FIX" "$tmp/hostile"
vt=$(awk '$3 == "vfork" { print $1; exit }' "$FIX/expected")
stat=$tmp/hostile/step1/proc/$vt/task/$vt/stat
evil=$'ev\e[31mil"\\\nFAKE 1 2 R'
rest=$(sed 's/^[^)]*) //' "$stat")
printf '%s (%s) %s\n' "$vt" "$evil" "$rest" >"$stat"
plain=$("$TRIAGE" load --root "$tmp/hostile") || fail "plain run failed"
if grep -q $'\e' <<<"$plain"; then fail "an escape byte reached the terminal output"; fi
if grep -q '^FAKE' <<<"$plain"; then fail "the name forged a line"; fi
json=$("$TRIAGE" load --json --root "$tmp/hostile") || fail "json run failed"
got=$(jq -r --argjson t "$vt" '.tasks[] | select(.tid == $t) | .comm' <<<"$json") || fail "invalid JSON"
[ "$got" = "$evil" ] || fail "the JSON name is not the original bytes: $(printf %q "$got")"
echo "ok: hostile names"

# --watch over a fixture: an interval longer than the replay, so one report at its end.
out=$("$TRIAGE" load --watch 1000 --json --root "$FIX") || fail "--watch over the fixture exited $?"
[ "$(wc -l <<<"$out")" = 1 ] || fail "expected one report line"
jq -e '.kernel[0] > 0 and (.reconstructed | length == 3)' <<<"$out" >/dev/null || fail "bad report: $out"
echo "ok: --watch over a fixture"
