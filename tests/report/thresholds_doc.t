#!/usr/bin/env bash
# test: shared -- reads two files of the tree
# Every threshold a rule uses (src/report/thresholds.h) is listed in
# docs/report.md, where the kinds table gives its value and its reason
# (issue 28: "thresholds named in thresholds.h and listed with the
# reasoning in docs/report.md"); the kinds themselves are diffed against the
# code's table by tests/unit/test_report.c (kinds_table_matches_the_docs).
# The collection's own constants (REPORT_*: sampling budget, default
# window, kernel log span) are no rule's threshold.
set -u
src=${SRC:-.}
h=$src/src/report/thresholds.h doc=$src/docs/report.md
[ -r "$h" ] && [ -r "$doc" ] || { echo "FAIL: $h or $doc missing"; exit 1; }
names=$(awk '$1 == "#define" && $2 ~ /^[A-Z][A-Z0-9_]+$/ && $2 !~ /^(TRIAGE_|REPORT_)/ { print $2 }' "$h")
[ "$(wc -w <<<"$names")" -ge 40 ] || { echo "FAIL: only $(wc -w <<<"$names") thresholds read from $h"; exit 1; }
missing=""
for n in $names; do grep -q "\`$n\`" "$doc" || missing+=" $n"; done
[ -z "$missing" ] || { echo "FAIL: thresholds.h names that docs/report.md does not list:$missing"; exit 1; }
echo "ok: all $(wc -w <<<"$names") thresholds of thresholds.h are in docs/report.md"
