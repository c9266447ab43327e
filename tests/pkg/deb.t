#!/usr/bin/env bash
# test: shared, slow -- builds the package in a scratch copy of the tree
# The Debian package (issue 13 part 2): dpkg-buildpackage -us -uc -b on a
# scratch copy of the tree gives a .deb (with TRIAGE_LINTIAN=1: that lintian
# passes at error level) that holds the binary, the pidstat link, a man page per command and the
# completions, and whose binary, unpacked into a scratch root, runs
# (--version, report -d 1 --json) and whose triage(1) renders with man -l.
# Packaging, not memory safety: skipped under SAN.
. "$SRC/tests/pkg/lib.sh" deb
[ "${TRIAGE_SAN:-0}" = 1 ] && skip "packaging test: runs on the plain build only"
command -v dpkg-buildpackage >/dev/null || skip "dpkg-buildpackage missing (apt-get install dpkg-dev)"
command -v dh >/dev/null || skip "debhelper missing (apt-get install debhelper)"
copy_tree "$work/triage"
cd "$work/triage" || fail "no tree"
missing=$(dpkg-checkbuilddeps 2>&1) || skip "build dependencies missing: $missing"
# dpkg-buildpackage's own first step, run here so that what it removes is
# known: debian/rules clean on the fresh copy
debian/rules clean >"$work/clean.log" 2>&1 || { tail -n 30 "$work/clean.log"; fail "debian/rules clean"; }
# The generated sources (BPF objects and skeletons, vmlinux.h, the syscall
# table, help headers, plot assets) come from the sources alone, with flags
# of their own, not dpkg-buildflags': the build under test has made them
# already, so the package build takes them (make remakes any whose source
# is newer) and compiles every C file itself with the package's flags.
if [ -d "$BUILD/gen" ]; then
	mkdir -p build && cp -a "$BUILD/gen" build/gen || fail "cannot copy $BUILD/gen"
fi
# the plain build only, no debug package, every CPU; the clean was done above
DEB_BUILD_OPTIONS="nocheck noddebs parallel=$(nproc)" dpkg-buildpackage -us -uc -b --no-pre-clean \
	>"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; fail "dpkg-buildpackage"; }
grep -qE '^ +(BPF|SKEL|LSKEL|GEN) ' "$work/build.log" && echo "note: generated sources remade: $(grep -cE '^ +(BPF|SKEL|LSKEL|GEN) ' "$work/build.log")"
grep -q 'src/main\.c' "$work/build.log" || { tail -n 30 "$work/build.log"; fail "the package build compiled no C file"; }
deb=$(ls "$work"/triage_*_*.deb) || fail "no .deb"
echo "built $(basename "$deb")"

# lintian: nothing at error level. Slow (a minute of perl on a busy machine),
# so on request: TRIAGE_LINTIAN=1
if [ "${TRIAGE_LINTIAN:-0}" = 1 ]; then
	command -v lintian >/dev/null || fail "TRIAGE_LINTIAN=1 but lintian is not installed (scripts/deps.sh bench)"
	lintian --fail-on error "$work"/triage_*.changes >"$work/lintian" 2>&1 ||
		{ cat "$work/lintian"; fail "lintian reports errors"; }
	echo "lintian: $(grep -c '^E:' "$work/lintian") errors, $(grep -c '^W:' "$work/lintian") warnings"
fi

# the file list
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's#^\./#/#' >"$work/files"
for f in /usr/bin/triage /usr/libexec/triage/pidstat /usr/share/bash-completion/completions/triage \
	/usr/share/zsh/vendor-completions/_triage /usr/lib/systemd/system/triage-collect.service \
	/usr/share/doc/triage/copyright; do
	grep -qx "$f" "$work/files" || fail "$f not in the package"
done
for scd in "$SRC"/docs/man/*.1.scd; do
	page=$(basename "$scd" .scd)
	grep -qx "/usr/share/man/man1/$page.gz" "$work/files" || fail "man page $page not in the package"
done
# the collector is not started by dpkg
dpkg-deb -e "$deb" "$work/control"
! grep -qs 'deb-systemd-invoke.*start' "$work/control/postinst" || fail "postinst starts the unit"

# unpacked into a scratch root: the binary runs, the man page renders
dpkg -x "$deb" "$work/root"
bin=$work/root/usr/bin/triage
"$bin" --version >"$work/version" || fail "triage --version"
grep -q "$(dpkg-deb -f "$deb" Version)" "$work/version" || fail "version: $(cat "$work/version")"
"$bin" report -d 1 --json >"$work/report.json" 2>"$work/report.err" || fail "report: $(cat "$work/report.err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d, d' "$work/report.json" ||
	fail "report --json does not parse"
if command -v man >/dev/null; then
	MANWIDTH=80 man -l "$work/root/usr/share/man/man1/triage.1.gz" >"$work/man" 2>"$work/man.err" ||
		fail "man -l: $(cat "$work/man.err")"
	[ ! -s "$work/man.err" ] || fail "man -l warns: $(cat "$work/man.err")"
	grep -q 'triage' "$work/man" || fail "man -l rendered nothing"
fi
echo "ok: $(wc -l <"$work/files") paths; --version, report --json and man -l work from the package"
