# test: shared -- usage, --help and --json of every command; no fixed names
# Every command: --help on stdout with status 0; an unknown option is a
# (u32 lint takes rules, so an unknown --option there is a rule to lint, not a usage error.)
# usage error (status 2, message on stderr, nothing on stdout); --json
# output is valid JSON. pidstat keeps sysstat's own codes (usage: 1).
set -u
fail=0
check() { # expected-status description command...
	local want=$1 what=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $what: status $rc, expected $want"; sed 's/^/  err: /' "$T/err" | head -3
		fail=1
	fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

helps=("load" "probe" "probe syscalls" "probe trace" "probe offcpu" "probe runq"
	"probe profile" "doctor" "u32" "u32 test" "u32 lint" "u32 explain" "u32 recipe" "version"
	"record" "replay" "plot")
for c in "${helps[@]}"; do
	# shellcheck disable=SC2086
	check 0 "triage $c --help" "$TRIAGE" $c --help
	[ -s "$T/out" ] || { echo "FAIL: triage $c --help printed nothing on stdout"; fail=1; }
done
check 0 "triage help" "$TRIAGE" help
check 2 "triage with no command" "$TRIAGE"
check 2 "an unknown command" "$TRIAGE" no-such-command
grep -q "not a triage command" "$T/err" || { echo "FAIL: unknown command message"; fail=1; }

for c in "load" "probe syscalls" "probe trace openat" "probe offcpu" "probe runq" "probe profile" \
	"doctor" "u32 test" "u32 explain" "u32 recipe" "version" "record" "replay" "plot"; do
	# shellcheck disable=SC2086
	check 2 "triage $c --no-such-option" "$TRIAGE" $c --no-such-option
	[ -s "$T/err" ] || { echo "FAIL: triage $c: no message for a bad option"; fail=1; }
	[ -s "$T/out" ] && { echo "FAIL: triage $c: a usage error wrote to stdout"; fail=1; }
done
check 1 "pidstat bad option (sysstat's status)" "$TRIAGE" pidstat --no-such-option
grep -q '^Usage: pidstat' "$T/err" || { echo "FAIL: pidstat usage text"; fail=1; }

for c in "version --json" "load --json" "doctor --json"; do
	# doctor exits 3 where some probe cannot work; its JSON must still be valid
	# shellcheck disable=SC2086
	"$TRIAGE" $c >"$T/out" 2>"$T/err"
	rc=$?
	case "$c:$rc" in
	*:0 | doctor*:3) ;;
	*) echo "FAIL: triage $c: status $rc"; fail=1 ;;
	esac
	# jq -e . accepts an empty input: require a document
	[ -s "$T/out" ] && jq -e . "$T/out" >/dev/null || { echo "FAIL: triage $c: not valid JSON"; fail=1; }
done
exit $fail
