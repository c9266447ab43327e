#!/usr/bin/env bash
# triage report on the live machine, checked against the JSON contract of
# docs/report.md (not against what it finds: the scenario tests do that):
# every key and type, kinds from the documented list, findings sorted by
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

kinds=$(sed -n '/^## Findings/,/^## eBPF/s/^| <a id="kind-[a-z-]*"><\/a>`\([a-z-]*\)` | .*/"\1"/p' "${SRC:-.}/docs/report.md" | paste -sd, -)
[ -n "$kinds" ] || fail "no kinds found in docs/report.md"
check() { jq -e --argjson kinds "[$kinds]" "$1" "$tmp/r.json" >/dev/null || fail "$2: $(head -c 600 "$tmp/r.json")"; }
check '(.host | (.hostname | type) == "string" and (.cpus | type) == "number")
	and (.kernel.release | type) == "string"
	and (.window | (.start | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")) and (.end | test("Z$")) and .seconds > 0)
	and (.headline | type) == "string" and (.headline | length) > 0' "header"
check '.host.cpus == '"$(getconf _NPROCESSORS_ONLN)" "host.cpus is the online CPU count"
check 'all(.findings[]; (.kind as $k | $kinds | index($k))
	and (.severity | IN("critical", "warning", "info"))
	and (.subject | type) == "object"
	and all(.subject | keys[]; IN("pid", "tid", "comm", "cgroup", "device", "interface", "cpu", "pids"))
	and (.summary | length) > 0
	and all(.evidence[]; (.metric | type) == "string" and (.value | type) == "number" and (.unit | type) == "string")
	and ((.next == null) or (.next | type) == "string"))' "findings"
check '[.findings[].severity | {"critical": 0, "warning": 1, "info": 2}[.]] as $s | $s == ($s | sort)' "sorted by severity"
check 'all(.checked[]; (.resource | type) == "string" and (.summary | type) == "string")
	and all(.skipped[]; (.what | type) == "string" and (.why | type) == "string")' "checked and skipped"
check 'any(.skipped[]; .what == "ebpf" and (.why | contains("--no-bpf")))' "--no-bpf is listed"
echo "ok: the JSON follows docs/report.md"

# -p: only our own shell is sampled; it is idle, so it is named by no finding.
"$TRIAGE" report -d 1 --no-bpf --json -p $$ >"$tmp/p.json" || fail "-p run"
jq -e --argjson me $$ '[.findings[] | select(.subject.pid == $me)] | length == 0' "$tmp/p.json" >/dev/null ||
	fail "an idle shell got a finding: $(jq -c .findings "$tmp/p.json")"
echo "ok: -p"
