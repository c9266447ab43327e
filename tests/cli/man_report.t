#!/usr/bin/env bash
# test: shared -- renders the report's man page into its own scratch dir
# man triage-report carries every kind of finding (what raises it, its
# thresholds, severity, subject, next command) and every key of the JSON
# document. The page is generated from docs/report.md (scripts/report-man.awk);
# this holds it to the binary's own kinds and schema (src/report/kinds.c,
# src/report/schema.c, through --json-schema) and each threshold's value in
# it to src/report/thresholds.h, so a page that drifts from them fails.
[ "${TRIAGE_SAN:-0}" = 1 ] && { echo "documentation test: run on the plain build only"; exit 77; }
command -v scdoc >/dev/null || { echo "scdoc missing (scripts/deps.sh test)"; exit 77; }
command -v man >/dev/null || { echo "man missing (scripts/deps.sh test)"; exit 77; }
. "$SRC/tests/lib.sh" cli-man-report
# one paragraph a line: a threshold and its value are never split
export LC_ALL=C MANROFFOPT=-rHY=0 MANWIDTH=2000
make --no-print-directory -s -C "$SRC" OUTPUT="$work/out" man >"$work/log" 2>&1 ||
	fail "make man: $(tail -3 "$work/log")"
man -l "$work/out/man/triage-report.1" >"$work/page" 2>"$work/warn" || fail "man -l: $(cat "$work/warn")"
"$TRIAGE" report --json-schema >"$work/schema.json" || fail "report --json-schema"
section() { sed -n "/^$1\$/,/^[A-Z]/p" "$work/page" | sed '$d'; }
section FINDINGS >"$work/findings"
section JSON >"$work/json"

# Every kind the code has, in its order, each with its four parts.
jq -r '.properties.findings.items.properties.kind.enum[]' "$work/schema.json" >"$work/kinds.want"
[ "$(wc -l <"$work/kinds.want")" -ge 20 ] || fail "too few kinds in the schema"
sed -n 's/^       \([a-z][a-z-]*\) ([a-z-]*)$/\1/p' "$work/findings" >"$work/kinds.page"
diff -u "$work/kinds.want" "$work/kinds.page" >"$work/diff" || fail "the page's kinds differ from the code's: $(cat "$work/diff")"
for part in "Raised when: " "Severity: \(critical\|warning\|info\)" "Subject: " "Next: "; do
	n=$(grep -c "^           $part" "$work/findings")
	[ "$n" = "$(wc -l <"$work/kinds.want")" ] || fail "'$part' in $n entries, not one for each kind"
done

# Every threshold the page names exists in thresholds.h; a plain value
# ("(90%)", "(5)", "(1000: ...)") is the one defined there (a percentage
# may be defined as a fraction: 50% as 0.50).
grep -o '[A-Z][A-Z0-9]*_[A-Z0-9_]* ([0-9.]*[%);,:]' "$work/findings" | sort -u >"$work/named"
[ "$(wc -l <"$work/named")" -ge 40 ] || fail "too few thresholds with a value: $(wc -l <"$work/named")"
checked=0
while read -r name value; do
	value=${value#(}
	pct=0
	[ "${value: -1}" = % ] && pct=1 # a share may be defined as a fraction
	value=${value%?}
	def=$(sed -n "s/^#define $name \([0-9.]*\).*/\1/p" "$SRC/src/report/thresholds.h")
	[ -n "$def" ] || fail "$name is not defined in src/report/thresholds.h"
	awk -v a="$value" -v b="$def" -v pct=$pct 'BEGIN { exit !(a == b + 0 || (pct && a == b * 100)) }' ||
		fail "the page gives $name as $value, thresholds.h as $def"
	checked=$((checked + 1))
done <"$work/named"
# and it names every threshold docs/report.md's kinds table names
sed -n '/^## Findings/,/^## /p' "$SRC/docs/report.md" | grep '^| <a id="kind-' |
	grep -o '`[A-Z][A-Z0-9]*_[A-Z0-9_]*`' | tr -d '`' | sort -u >"$work/doc.names"
grep -o '[A-Z][A-Z0-9]*_[A-Z0-9_]*' "$work/findings" | sort -u >"$work/page.names"
missing=$(comm -23 "$work/doc.names" "$work/page.names")
[ -z "$missing" ] || fail "docs/report.md names thresholds the page lacks: $missing"

# Every key of the schema, with its type and whether it is always there.
jq -r -f "$SRC/tests/report/schema.jq" "$work/schema.json" |
	sed 's/^| `\(.*\)` | \(.*\) | \(.*\) |$/\1 \2 \3/' >"$work/keys.want"
[ "$(wc -l <"$work/keys.want")" -ge 30 ] || fail "too few keys in the schema"
sed -n '/^           key  *type  *always$/,/^$/p' "$work/json" | sed '1d;/^$/d' |
	sed 's/^ *//; s/  */ /g; s/ $//' >"$work/keys.page"
diff -u "$work/keys.want" "$work/keys.page" >"$work/diff" || fail "the page's keys differ from --json-schema: $(cat "$work/diff")"
echo "ok: man triage-report: $(wc -l <"$work/kinds.want") kinds, $checked threshold values, $(wc -l <"$work/keys.want") keys"
