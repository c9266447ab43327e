#!/usr/bin/env bash
# test: shared -- reads the checked-in and generated rule files and runs promtool on them
# contrib/prometheus/triage.rules.yml: the checked-in file is what the build
# generates from the kinds table (make rules refreshes it); every kind of
# the table (read from src/report/kinds.c itself, not through our code) has
# its alert at each severity; Prometheus's promtool accepts the file and
# passes its unit tests (contrib/prometheus/triage.rules.test.yml, over
# series captured from a real collector).
. "$SRC/tests/lib.sh" "rules-file.$$"
rules=$SRC/contrib/prometheus/triage.rules.yml
[ -f "$BUILD/triage.rules.yml" ] || fail "$BUILD/triage.rules.yml missing: run make"
diff -u "$rules" "$BUILD/triage.rules.yml" >"$work/diff" ||
	fail "contrib/prometheus/triage.rules.yml differs from the generated one (run make rules): $(head -20 "$work/diff")"
# the kinds: the quoted names of the table's ROW( entries
grep -o 'ROW(RK_[A-Z_]*, *"[a-z-]*"' "$SRC/src/report/kinds.c" | sed 's/.*"\(.*\)"/\1/' >"$work/kinds"
nkinds=$(wc -l <"$work/kinds")
[ "$nkinds" -ge 20 ] || fail "read only $nkinds kinds from src/report/kinds.c"
while read -r kind; do
	for sev in 3:critical 2:warning 1:info; do
		grep -qF "expr: triage_report_finding_severity{job=\"triage\",rule=\"$kind\"} == ${sev%%:*}" "$rules" ||
			fail "no $kind alert at severity ${sev#*:}"
	done
done <"$work/kinds"
alerts=$(grep -c '^      - alert: Triage' "$rules")
[ "$alerts" = $((3 * nkinds + 2)) ] || fail "$alerts alerts for $nkinds kinds (want 3 each, and 2 silent-host alerts)"
command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"
promtool check rules "$rules" >"$work/check" 2>&1 || fail "promtool check rules: $(cat "$work/check")"
promtool test rules "$SRC/contrib/prometheus/triage.rules.test.yml" >"$work/test" 2>&1 ||
	fail "promtool test rules: $(cat "$work/test")"
echo "ok: $alerts alerts for $nkinds kinds, checked and unit-tested by promtool"
