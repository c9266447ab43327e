#!/usr/bin/env bash
# test: shared -- make install into a scratch DESTDIR; the only test that makes the build's man pages
# make install / make uninstall into a DESTDIR scratch tree: the exact file
# list for PREFIX=/usr and for the default /usr/local, the pidstat link kept
# out of PATH (under libexec), the unit's ExecStart pointing at the
# installed binary, an installed man page that renders, and an uninstall
# that leaves no file behind.
set -u
[ "${TRIAGE_SAN:-0}" = 1 ] && { echo "packaging test: run on the plain build only"; exit 77; }
command -v scdoc >/dev/null || { echo "scdoc missing (scripts/deps.sh test)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
mk() { make --no-print-directory -s -C "$SRC" OUTPUT="${BUILD#"$SRC"/}" "$@"; }

# every page, named here so a command's page cannot go missing unnoticed
pages="triage.1 triage-collect.1 triage-doctor.1 triage-fleet.1 triage-load.1 triage-pidstat.1 triage-plot.1
triage-probe.1 triage-record.1 triage-replay.1 triage-report.1 triage-u32.1 triage-version.1"
have=$(cd "$SRC/docs/man" && for f in *.1.scd; do echo "${f%.scd}"; done | sort)
[ "$have" = "$(printf '%s\n' $pages | sort)" ] || {
	echo "FAIL: docs/man has other pages than install.t expects: $(echo $have)"
	fail=1
}
expected() { # PREFIX
	{
		echo "$1/bin/triage"
		echo "$1/libexec/triage/pidstat"
		for p in $pages; do echo "$1/share/man/man1/$p"; done
		echo "$1/share/bash-completion/completions/triage"
		echo "$1/share/zsh/vendor-completions/_triage"
		echo "$1/lib/systemd/system/triage-collect.service"
	} | sort
}

for prefix in /usr /usr/local; do
	d="$T/root${prefix//\//_}"
	if [ "$prefix" = /usr/local ]; then
		mk install DESTDIR="$d" >"$T/log" 2>&1
	else
		mk install DESTDIR="$d" PREFIX="$prefix" >"$T/log" 2>&1
	fi || { echo "FAIL: make install ($prefix): $(tail -3 "$T/log")"; fail=1; continue; }
	(cd "$d" && find . -type f -o -type l) | sed 's#^\.##' | sort >"$T/got"
	if ! diff <(expected "$prefix") "$T/got" >"$T/diff"; then
		echo "FAIL: installed files ($prefix):"; cat "$T/diff"; fail=1
	fi
	[ "$(readlink "$d$prefix/libexec/triage/pidstat")" = ../../bin/triage ] ||
		{ echo "FAIL: pidstat link: $(readlink "$d$prefix/libexec/triage/pidstat")"; fail=1; }
	"$d$prefix/libexec/triage/pidstat" -V | grep -q '^sysstat version' ||
		{ echo "FAIL: the installed pidstat link does not run as pidstat"; fail=1; }
	[ -e "$d$prefix/bin/pidstat" ] && { echo "FAIL: pidstat in bin/ shadows sysstat's"; fail=1; }
	[ -x "$d$prefix/bin/triage" ] || { echo "FAIL: binary not executable"; fail=1; }
	"$d$prefix/bin/triage" version >/dev/null || { echo "FAIL: installed binary does not run"; fail=1; }
	grep -qx "ExecStart=$prefix/bin/triage collect .*" \
		<(grep '^ExecStart=' "$d$prefix/lib/systemd/system/triage-collect.service") ||
		{ echo "FAIL: unit ExecStart ($prefix)"; fail=1; }
	mode=$(stat -c %a "$d$prefix/share/man/man1/triage.1")
	[ "$mode" = 644 ] || { echo "FAIL: man page mode $mode"; fail=1; }
	MANWIDTH=80 man -l "$d$prefix/share/man/man1/triage-report.1" 2>&1 | grep -q 'triage report' ||
		{ echo "FAIL: installed triage-report(1) does not render"; fail=1; }
	if [ "$prefix" = /usr/local ]; then
		mk uninstall DESTDIR="$d" >"$T/log" 2>&1
	else
		mk uninstall DESTDIR="$d" PREFIX="$prefix" >"$T/log" 2>&1
	fi || { echo "FAIL: make uninstall ($prefix): $(tail -3 "$T/log")"; fail=1; }
	left=$(cd "$d" && find . -type f -o -type l)
	[ -z "$left" ] || { echo "FAIL: left after uninstall ($prefix): $left"; fail=1; }
done
exit $fail
