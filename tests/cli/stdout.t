# test: shared -- writes to /dev/full only
# A command whose output cannot be written fails (status 1) and says so
# once on stderr; pidstat mode, like sysstat's pidstat, does not check.
set -u
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -w /dev/full ] || { echo "no /dev/full"; exit 77; }

for c in "version" "version --json" "help" "load --help" "doctor --help" "u32 --help" \
	"probe --help" "probe offcpu --help"; do
	# shellcheck disable=SC2086
	"$TRIAGE" $c >/dev/full 2>"$T/err"
	rc=$?
	n=$(grep -c 'write error on stdout' "$T/err")
	if [ "$rc" != 1 ] || [ "$n" != 1 ]; then
		echo "FAIL: triage $c >/dev/full: status $rc, $n write-error lines (want 1, 1)"
		sed 's/^/  err: /' "$T/err" | head -3
		fail=1
	fi
done
"$TRIAGE" version >"$T/out" 2>"$T/err" || { echo "FAIL: triage version: status $?"; fail=1; }
[ -s "$T/out" ] && [ ! -s "$T/err" ] || { echo "FAIL: triage version to a file"; fail=1; }
exit $fail
