#!/usr/bin/env bash
# test: shared -- checks the JSON's keys and types, not its findings
# triage report on the live machine, checked against the JSON contract of
# docs/report.md (not against what it finds: the scenario tests do that):
# every key and type against the core's JSON Schema (--json-schema, which
# docs/report.md's key table must match), kinds from the kinds table, findings sorted by
# severity, --no-bpf listed as skipped, the CPU count the kernel reports.
set -u
TRIAGE=${TRIAGE:-build/triage}
command -v jq >/dev/null || { echo "jq is missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/triage_report_live.$$.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$TRIAGE" report -d 1 --no-bpf --json >"$tmp/r.json" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] || fail "exit $rc: $(cat "$tmp/err")"
jq -e . "$tmp/r.json" >/dev/null || fail "not JSON"

# the one list of keys: the core's schema (triage report --json-schema)
"$TRIAGE" report --json-schema >"$tmp/schema.json" || fail "--json-schema"
jq -e '.properties.findings.items.properties.subject.properties.exited.type == "boolean"' \
	"$tmp/schema.json" >/dev/null || fail "the schema has no subject.exited"
here=$(dirname "$0")
bad=$(jq -r --slurpfile schema "$tmp/schema.json" '$schema[0] as $schema | '"$(cat "$here/schema_check.jq")" "$tmp/r.json") ||
	fail "jq could not check the document"
[ -z "$bad" ] || fail "the document does not follow the schema: $bad"
# the check itself: a finding with every subject key passes, an unknown key does not
good='{"kind":"cpu-bound-user","severity":"critical","subject":{"pid":7,"exited":true,"tid":7,"comm":"x","cgroup":"/a","mount":"/m","device":"d","fstype":"ext4","interface":"i","cpu":0,"pids":[7]},"summary":"s","evidence":[{"metric":"cpu","value":1.5,"unit":"%"}],"next":null,"details":["d"]}'
for subject in '{"pid":7,"exitted":true}' '{"pid":"7"}'; do
	jq --argjson g "$good" --argjson s "$subject" '.findings += [$g, ($g | .subject = $s)]' "$tmp/r.json" >"$tmp/bad.json"
	bad=$(jq -r --slurpfile schema "$tmp/schema.json" '$schema[0] as $schema | '"$(cat "$here/schema_check.jq")" "$tmp/bad.json")
	n=$(jq '.findings | length' "$tmp/bad.json")
	want=".findings[$((n - 1))].subject"
	[ "${bad:0:${#want}}" = "$want" ] && [ "$(echo "$bad" | wc -l)" = 1 ] ||
		fail "subject $subject: the schema check says '$bad'"
done
# docs/report.md's key table is the schema's
jq -r -f "$here/schema.jq" "$tmp/schema.json" >"$tmp/keys.want"
sed -n '/^### Keys/,/^##/p' "${SRC:-.}/docs/report.md" | grep '^| `' >"$tmp/keys.doc"
diff -u "$tmp/keys.doc" "$tmp/keys.want" >"$tmp/keys.diff" || fail "docs/report.md's keys differ from --json-schema: $(cat "$tmp/keys.diff")"
check() { jq -e "$1" "$tmp/r.json" >/dev/null || fail "$2: $(head -c 600 "$tmp/r.json")"; }
check '(.window | (.start | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")) and (.end | test("Z$")) and .seconds > 0)
	and (.headline | length) > 0
	and all(.findings[]; (.summary | length) > 0)' "header"
check '.host.cpus == '"$(getconf _NPROCESSORS_ONLN)" "host.cpus is the online CPU count"
check '[.findings[].severity | {"critical": 0, "warning": 1, "info": 2}[.]] as $s | $s == ($s | sort)' "sorted by severity"
check 'any(.skipped[]; .what == "ebpf" and (.why | contains("--no-bpf")))' "--no-bpf is listed"
echo "ok: the JSON follows docs/report.md"

# -p: only our own shell is sampled; it is idle, so it is named by no finding.
"$TRIAGE" report -d 1 --no-bpf --json -p $$ >"$tmp/p.json" || fail "-p run"
jq -e --argjson me $$ '[.findings[] | select(.subject.pid == $me)] | length == 0' "$tmp/p.json" >/dev/null ||
	fail "an idle shell got a finding: $(jq -c .findings "$tmp/p.json")"
echo "ok: -p"
