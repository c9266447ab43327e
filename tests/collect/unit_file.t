#!/usr/bin/env bash
# test: shared -- systemd-analyze verify of a scratch unit
# contrib/systemd/triage-collect.service is a unit systemd accepts (with
# ExecStart pointed at this build), and its ExecStart's options parse.
. "$SRC/tests/collect/lib.sh" unit
command -v systemd-analyze >/dev/null || skip "systemd-analyze missing"
unit="$work/triage-collect.service"
sed "s|/usr/local/bin/triage|$TRIAGE|" "$SRC/contrib/systemd/triage-collect.service" >"$unit"
# verify also runs `man` on the unit's Documentation= page where man-db is
# installed: give it the page built from our own source, so the check is real.
if command -v scdoc >/dev/null; then
	mkdir -p "$work/man/man1"
	scdoc <"$SRC/docs/man/triage-collect.1.scd" >"$work/man/man1/triage-collect.1" ||
		fail "scdoc: docs/man/triage-collect.1.scd"
	MANPATH="$work/man" systemd-analyze verify "$unit" >"$work/verify" 2>&1
else
	systemd-analyze verify --man=no "$unit" >"$work/verify" 2>&1
fi
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
