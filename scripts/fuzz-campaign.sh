#!/usr/bin/env bash
# Runs a libFuzzer campaign over each fuzz target, one job at a time, at
# low priority, and prints one table row per target (docs/testing.md):
#   scripts/fuzz-campaign.sh [target...]     default: every tests/fuzz/fuzz_*.c
# Env: FUZZ_RUNS (default 10000000) and FUZZ_SECONDS (default 1800) stop each
# target at whichever comes first; FUZZ_OUT (default build-fuzz/campaign)
# keeps the grown corpora, logs and crash artefacts; FUZZ_NICE (default 19)
# is the niceness. Beside nice-0 work a nice-19 target can starve past the
# 30-s per-input timeout and report a "timeout" no input causes (with
# autogroup off); a higher priority keeps it honest. Builds with `make fuzz`.
# A crash stops that target (libFuzzer's own rule) and is listed; minimise
# it, fix it, and copy it into tests/fuzz/corpus/<target>/ (replayed by make test).
set -u
cd "$(dirname "$0")/.."
RUNS=${FUZZ_RUNS:-10000000}
SECS=${FUZZ_SECONDS:-1800}
NICE=${FUZZ_NICE:-19}
OUT=${FUZZ_OUT:-build-fuzz/campaign}
if [ $# -gt 0 ]; then
	targets=("$@")
else
	targets=()
	for f in tests/fuzz/fuzz_*.c; do targets+=("$(basename "$f" .c)"); done
fi
make --no-print-directory -j"$(nproc)" all >/dev/null || exit 1
make --no-print-directory -j"$(nproc)" fuzz >/dev/null || exit 1
mkdir -p "$OUT"
printf '| target | executions | cov | ft | corpus | crashes | time (s) | exec/s |\n'
printf '|---|---:|---:|---:|---:|---|---:|---:|\n'
for t in "${targets[@]}"; do
	bin=build-fuzz/$t
	[ -x "$bin" ] || { echo "no $bin" >&2; continue; }
	work=$OUT/$t
	mkdir -p "$work/corpus" "$work/artifacts"
	log=$work/log
	start=$(date +%s)
	# Seeds come from the committed corpus; new units go to the work corpus.
	nice -n "$NICE" "$bin" -runs="$RUNS" -max_total_time="$SECS" -timeout=30 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
		"$work/corpus" "tests/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
	crashes=$(find "$work/artifacts" -type f | wc -l)
	[ "$rc" = 0 ] || crashes="$crashes (exit $rc, see $log)"
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$t" "${execs:-?}" "${cov:-?}" \
		"${ft:-?}" "${corp:-?}" "$crashes" "$secs" "${speed:-?}"
done
