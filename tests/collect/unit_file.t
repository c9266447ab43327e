#!/usr/bin/env bash
# contrib/systemd/triage-collect.service is a unit systemd accepts (with
# ExecStart pointed at this build), and its ExecStart's options parse.
. "$SRC/tests/collect/lib.sh" unit
command -v systemd-analyze >/dev/null || skip "systemd-analyze missing"
unit="$work/triage-collect.service"
sed "s|/usr/local/bin/triage|$TRIAGE|" "$SRC/contrib/systemd/triage-collect.service" >"$unit"
systemd-analyze verify "$unit" >"$work/verify" 2>&1
grep 'triage-collect' "$work/verify" && fail "systemd-analyze: $(cat "$work/verify")"
for opt in NoNewPrivileges=yes ProtectSystem=strict DynamicUser=yes CapabilityBoundingSet= \
	SystemCallFilter= KillSignal=SIGTERM; do
	grep -q "^$opt" "$unit" || fail "hardening: no $opt"
done
args=$(sed -n 's|^ExecStart=[^ ]* collect ||p' "$unit")
# the unit's options are valid: the same line with --once succeeds
# shellcheck disable=SC2086
"$TRIAGE" collect $args --once >/dev/null || fail "ExecStart options rejected: $args"
echo "ok: unit verifies, hardened, options parse"
