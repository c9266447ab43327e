#!/usr/bin/env bash
# Runs every test against each build (plain, then ASan+UBSan):
#   - unit programs  <build>/unit/*
#   - fuzz corpora   <build>/fuzz/<name> over tests/fuzz/corpus/<name>
#   - shell tests    tests/**/*.t, run with TRIAGE=<build>/triage
# A shell test exits 0 to pass, 77 to skip (its last stdout line says why),
# anything else to fail. TESTS=regex runs a subset; TRIAGE_BUILDS picks builds;
# TEST_TIMEOUT (default 600 s) bounds each test.
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILDS=${TRIAGE_BUILDS:-"build build-san"}
FILTER=${TESTS:-.}
TEST_TIMEOUT=${TEST_TIMEOUT:-600} # seconds per test program
pass=0 fail=0 skip=0
failed_names=()

run_one() { # name build cmd...
	local name=$1 build=$2; shift 2
	[[ "$name" =~ $FILTER ]] || return 0
	local log="$ROOT/$build/test-logs/${name//\//_}.log" rc start end
	mkdir -p "$(dirname "$log")"
	start=$(date +%s)
	# A hung test fails (status 124) instead of hanging the suite.
	timeout -k 10 "$TEST_TIMEOUT" "$@" >"$log" 2>&1 </dev/null
	rc=$?
	[ "$rc" = 124 ] && echo "timed out after ${TEST_TIMEOUT}s" >>"$log"
	end=$(date +%s)
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS %-50s %3ss\n' "$name" $((end - start)) ;;
	77) skip=$((skip + 1)); printf 'SKIP %-50s %s\n' "$name" "$(tail -n 1 "$log")" ;;
	*) fail=$((fail + 1)); failed_names+=("$name")
	   printf 'FAIL %-50s rc=%s\n' "$name" "$rc"
	   tail -n 40 "$log" | sed 's/^/    | /' ;;
	esac
}

for build in $BUILDS; do
	tag=""
	[ "$build" = build-san ] && tag="@san"
	if [ ! -x "$build/triage" ]; then
		echo "FAIL $build/triage is missing: run make first"
		fail=$((fail + 1))
		continue
	fi
	export TRIAGE="$ROOT/$build/triage" BUILD="$ROOT/$build" SRC="$ROOT"
	export TRIAGE_SAN=$([ -n "$tag" ] && echo 1 || echo 0)
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
	for t in "$build"/unit/*; do
		[ -x "$t" ] && [ -f "$t" ] && [[ "$t" != *.d ]] || continue
		run_one "unit/$(basename "$t")$tag" "$build" "$t"
	done
	for t in "$build"/fuzz/*; do
		[ -x "$t" ] && [ -f "$t" ] && [[ "$t" != *.d ]] || continue
		n=$(basename "$t")
		[ -d "tests/fuzz/corpus/$n" ] || continue
		run_one "fuzz/$n$tag" "$build" "$t" "tests/fuzz/corpus/$n"
	done
	while IFS= read -r t; do
		run_one "${t#tests/}$tag" "$build" bash "$t"
	done < <(find tests -name '*.t' -type f | sort)
done

if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failed: ${failed_names[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
