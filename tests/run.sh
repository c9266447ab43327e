#!/usr/bin/env bash
# Runs every test against each build (plain and ASan+UBSan):
#   - unit programs  <build>/unit/*  (source: tests/unit/<name>.c)
#   - fuzz corpora   <build>/fuzz/<name> over tests/fuzz/corpus/<name>
#   - shell tests    tests/**/*.t, run with TRIAGE=<build>/triage
# A test exits 0 to pass, 77 to skip (its last stdout line says why),
# anything else to fail. TESTS=regex runs a subset (matched against the name
# as printed, e.g. 'report/' or '@san$'); TRIAGE_BUILDS picks builds;
# TEST_TIMEOUT (default 600 s) bounds each test (a shared one: POOL_TIMEOUT,
# default TEST_TIMEOUT x (TEST_JOBS + 1) / 2); TEST_CLASS=shared or
# exclusive runs only the tests of that class.
#
# Scheduling (docs/testing.md, "Running tests side by side"): a test that
# declares `test: shared` in a comment among its first 30 lines (a .t file,
# or a unit program's .c) may run beside other shared tests; every other
# test is exclusive and runs with nothing else of the suite running. Fuzz
# corpus replays are pure parsers and always shared. The shared tests of all
# builds run first, TEST_JOBS at a time (default 4) in one pool, those
# marked `test: shared, slow` started first; then the exclusive ones, one by
# one, in the order of the listing. TEST_JOBS=1 runs everything one at a time.
# Each result line is printed when its test ends; the summary at the end is
# in the listing's order.
set -u
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILDS=${TRIAGE_BUILDS:-"build build-san"}
FILTER=${TESTS:-.}
TEST_TIMEOUT=${TEST_TIMEOUT:-600} # seconds per test program
TEST_JOBS=${TEST_JOBS:-4}
[[ "$TEST_JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "TEST_JOBS must be a positive number" >&2; exit 2; }
# A shared test shares the CPUs with up to TEST_JOBS - 1 others: its bound
# (a guard against hangs, not a measure) grows with the pool it runs in.
POOL_TIMEOUT=${POOL_TIMEOUT:-$((TEST_TIMEOUT * (TEST_JOBS + 1) / 2))}

# The tests run Debian's python3, the one scripts/deps.sh installs modules
# for (python3-whisper, graphite-web, django). A version manager's shim
# first on PATH (pyenv's: a bash script that runs several more before
# python) lacks those modules and costs about half a CPU-second a start
# (0.53 s measured), and the tests start python from 62 places, some in
# loops, directly and through `#!/usr/bin/env python3` scripts.
pybin=""
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	pybin=$(mktemp -d /tmp/triage-tests-python.XXXXXX)
	ln -s /usr/bin/python3 "$pybin/python3"
	PATH=$pybin:$PATH
	trap 'rm -rf "$pybin"' EXIT
fi

# The listing: one entry per test, in this order (build by build: units,
# fuzz corpora, shell tests). Fields by index: name, build, class
# (shared, slow or exclusive; slow is shared, started first) and the
# command, NUL-free words joined by a tab.
t_name=() t_build=() t_class=() t_cmd=() t_rc=() t_secs=()
broken=() # builds that are missing: one failure each

# The declared class of every test source, read in one pass: "shared",
# "slow" (shared, started first) or "exclusive" (also when nothing is said).
declare -A declared=()
while IFS=$'\t' read -r file class; do
	declared[$file]=$class
done < <(find tests \( -path 'tests/unit/test_*.c' -o -name '*.t' \) -type f | sort |
	xargs -r awk 'FNR > 30 { nextfile }
		/^[[:space:]]*(#|\/\*|\*|\/\/)[[:space:]]*test:[[:space:]]*(shared|exclusive)/ {
			c = $0 ~ /test:[[:space:]]*shared, slow/ ? "slow" : $0 ~ /test:[[:space:]]*shared/ ? "shared" : "exclusive"
			print FILENAME "\t" c; nextfile }')

add() { # name build class cmd...
	[[ "$1" =~ $FILTER ]] || return 0
	case ${TEST_CLASS:-}:$3 in
	shared:exclusive | exclusive:shared | exclusive:slow) return 0 ;;
	esac
	local IFS=$'\t'
	t_name+=("$1") t_build+=("$2") t_class+=("$3")
	shift 3
	t_cmd+=("$*")
}

for build in $BUILDS; do
	tag=""
	[ "$build" = build-san ] && tag="@san"
	if [ ! -x "$build/triage" ]; then
		broken+=("$build")
		continue
	fi
	for t in "$build"/unit/*; do
		[ -x "$t" ] && [ -f "$t" ] && [[ "$t" != *.d ]] || continue
		n=${t##*/}
		add "unit/$n$tag" "$build" "${declared[tests/unit/$n.c]:-exclusive}" "$ROOT/$t"
	done
	for t in "$build"/fuzz/*; do
		[ -x "$t" ] && [ -f "$t" ] && [[ "$t" != *.d ]] || continue
		n=${t##*/}
		[ -d "tests/fuzz/corpus/$n" ] || continue
		add "fuzz/$n$tag" "$build" shared "$ROOT/$t" "$ROOT/tests/fuzz/corpus/$n"
	done
	while IFS= read -r t; do
		add "${t#tests/}$tag" "$build" "${declared[$t]:-exclusive}" bash "$ROOT/$t"
	done < <(find tests -name '*.t' -type f | sort)
done

pass=0 fail=0 skip=0
declare -A job_of=() # PID of a running test -> its index
running=0

# start I: runs test I in the background, its output in its log.
start() {
	local i=$1 build=${t_build[$1]} log san=0 limit
	local -a cmd
	IFS=$'\t' read -r -a cmd <<<"${t_cmd[$i]}"
	log="$ROOT/$build/test-logs/${t_name[$i]//\//_}.log"
	mkdir -p "$(dirname "$log")"
	[ "$build" = build-san ] && san=1
	t_secs[$i]=$EPOCHREALTIME
	limit=$TEST_TIMEOUT
	[ "${t_class[$i]}" = exclusive ] || limit=$POOL_TIMEOUT
	(
		export TRIAGE="$ROOT/$build/triage" BUILD="$ROOT/$build" SRC="$ROOT" TRIAGE_SAN=$san
		export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
		export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
		# A background job starts with SIGINT and SIGQUIT ignored; a test
		# gets them as a foreground command would. A hung test fails
		# (status 124) instead of hanging the suite.
		exec env --default-signal=SIGINT,SIGQUIT \
			timeout -k 10 "$limit" "${cmd[@]}" >"$log" 2>&1 </dev/null
	) &
	job_of[$!]=$i
	running=$((running + 1))
}

# finish I RC: counts test I and prints its result line (and a failure's tail).
finish() {
	local i=$1 rc=$2 name=${t_name[$1]} log secs
	log="$ROOT/${t_build[$i]}/test-logs/${name//\//_}.log"
	secs=$(awk -v a="${t_secs[$i]}" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
	t_secs[$i]=$secs t_rc[$i]=$rc
	[ "$rc" = 124 ] && echo "timed out after ${secs}s" >>"$log"
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS %-50s %3ss\n' "$name" "$secs" ;;
	77) skip=$((skip + 1)); printf 'SKIP %-50s %s\n' "$name" "$(tail -n 1 "$log")" ;;
	*) fail=$((fail + 1))
	   printf 'FAIL %-50s rc=%s %ss\n' "$name" "$rc" "$secs"
	   tail -n 40 "$log" | sed 's/^/    | /' ;;
	esac
}

# reap: waits for one running test to end and finishes it.
reap() {
	local pid rc
	wait -n -p pid
	rc=$?
	if [ -z "${pid:-}" ] && [ "$rc" = 127 ]; then
		# no child left to wait for: a status was lost (never seen; counted as failures)
		for pid in "${!job_of[@]}"; do finish "${job_of[$pid]}" 255; done
		job_of=() running=0
		return 0
	fi
	[ -n "${pid:-}" ] && [ -n "${job_of[$pid]:-}" ] || return 0
	finish "${job_of[$pid]}" "$rc"
	unset "job_of[$pid]"
	running=$((running - 1))
}

for b in "${broken[@]}"; do
	echo "FAIL $b/triage is missing: run make first"
	fail=$((fail + 1))
done

suite_start=$EPOCHREALTIME
# Phase 1: the shared tests of every build in one pool, the slow ones first.
pool=()
for i in "${!t_name[@]}"; do [ "${t_class[$i]}" = slow ] && pool+=("$i"); done
for i in "${!t_name[@]}"; do [ "${t_class[$i]}" = shared ] && pool+=("$i"); done
for i in "${pool[@]}"; do
	while [ "$running" -ge "$TEST_JOBS" ]; do reap; done
	start "$i"
done
while [ "$running" -gt 0 ]; do reap; done
pool_end=$EPOCHREALTIME

# Phase 2: the exclusive tests, each alone.
nexcl=0
for i in "${!t_name[@]}"; do
	[ "${t_class[$i]}" = exclusive ] || continue
	nexcl=$((nexcl + 1))
	start "$i"
	while [ "$running" -gt 0 ]; do reap; done
done

# The summary, in the listing's order; durations per build for a later look.
failed_names=("${broken[@]/%//triage}")
for b in $BUILDS; do
	[ -d "$b/test-logs" ] && : >"$b/test-logs/durations.tsv"
done
for i in "${!t_name[@]}"; do
	case ${t_rc[$i]:-} in 0 | 77 | "") ;; *) failed_names+=("${t_name[$i]}") ;; esac
	[ -n "${t_rc[$i]:-}" ] && printf '%s\t%s\t%s\t%s\n' "${t_name[$i]}" "${t_class[$i]}" \
		"${t_rc[$i]}" "${t_secs[$i]}" >>"${t_build[$i]}/test-logs/durations.tsv"
done
# CPU time of everything the tests ran and waited for (times' second line)
cpu_file=$(mktemp)
times >"$cpu_file"
awk -v a="$suite_start" -v p="$pool_end" -v b="$EPOCHREALTIME" -v np="${#pool[@]}" \
	-v ne="$nexcl" -v j="$TEST_JOBS" 'function s(t, m) { split(t, m, /[ms]/); return m[1] * 60 + m[2] }
	NR == 2 { cpu = s($1) + s($2) }
	END { printf "wall time %.0fs: %d shared tests, %d at a time, %.0fs; %d exclusive tests, %.0fs; CPU %.0fs\n",
		b - a, np, j, p - a, ne, b - p, cpu }' "$cpu_file"
rm -f "$cpu_file"
if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failed: ${failed_names[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
