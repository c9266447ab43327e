#!/usr/bin/env bash
# Issue 13: a fresh Debian 12 installs the .deb and reads `man triage-report`;
# an ordinary user with the capabilities runs `triage report` and the probes.
#
#   sudo scripts/deb-fresh-install.sh
#
# Builds the .deb from a scratch copy of the tree (as tests/pkg/deb.t does),
# runs lintian on the .changes (if installed), makes a fresh minimal bookworm
# root with debootstrap --variant=minbase from $MIRROR, and in a chroot of it
# (/proc mounted, /sys and /dev bound from the host: the probes need
# /sys/kernel/btf/vmlinux and the host's kernel):
#   apt-get install -y ./triage_*.deb   (its Depends come from the mirror)
#   man triage-report                   (man-db installed first if not pulled)
#   triage --version; triage report -d 1
#   as a new user: report -d 1 and doctor without capabilities, then, after
#   setcap as docs/install.md documents, report -d 1, doctor and each probe
#   a reinstall of the package: are the capabilities still set?
# Each step prints ok or FAIL (info: facts, not checks); the exit status is
# 1 if any step failed. Needs root, the build dependencies, debootstrap
# (installed with apt-get if missing) and the mirror; takes a few minutes,
# so it is not part of make test. The chroot and the tree copy are removed
# on exit (KEEP=1 keeps them); the logs, the .deb and the .changes stay in
# the work directory printed at the end.
# Environment: MIRROR (http://deb.debian.org/debian), SUITE (bookworm),
# TMPDIR (/var/tmp), KEEP (0).
# shellcheck disable=SC2015,SC2016 # A && B || die: die when either fails; dpkg-query formats
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SUITE=${SUITE:-bookworm}
KEEP=${KEEP:-0}
# what `make install-caps` sets on Linux >= 5.8 (Makefile, docs/install.md)
CAPS=cap_bpf,cap_perfmon,cap_sys_ptrace,cap_syslog+ep
USER_NAME=tuser

[ "$(id -u)" = 0 ] || { echo "deb-fresh-install: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/var/tmp}/triage-fresh.XXXXXX") || exit 2
root=$work/root
logs=$work/logs
mkdir -p "$logs" "$work/src/triage"
nfail=0
nstep=0
t_start=$(date +%s)

ok() { nstep=$((nstep + 1)); printf 'ok    %s\n' "$*"; }
bad() { nstep=$((nstep + 1)); nfail=$((nfail + 1)); printf 'FAIL  %s\n' "$*"; }
info() { printf 'info  %s\n' "$*"; }
die() { bad "$*"; exit 1; }
# check COND_RC TEXT: ok/FAIL from a status
check() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# mounts under the chroot, deepest first
mounts_under() { awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r; }

cleanup() {
	local rc=$? m
	for m in dev sys proc; do
		mountpoint -q "$root/$m" 2>/dev/null && { umount -R "$root/$m" || umount -R -l "$root/$m"; }
	done
	if [ -n "$(mounts_under)" ]; then
		echo "deb-fresh-install: still mounted, $root left in place:" >&2
		mounts_under >&2
	elif [ "$KEEP" != 1 ]; then
		[ -d "$root" ] && info "chroot: $(du -sh --one-file-system "$root" | cut -f1), removed"
		rm -rf --one-file-system "$root" "$work/src/triage"
	fi
	echo "logs, .deb and .changes: $work ($(($(date +%s) - t_start)) s in all)"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# in the chroot as root, and as the ordinary user
inroot() {
	chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive "$@"
}
asuser() {
	chroot --userspec="$uid:$gid" --groups="$gid" "$root" /usr/bin/env -i \
		PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/$USER_NAME USER=$USER_NAME \
		LOGNAME=$USER_NAME LANG=C.UTF-8 TERM=dumb "$@"
}
# skipped LOG: the names under the report's Skipped heading
skipped() { sed -n '/^Skipped/,/^$/{/^  /p}' "$logs/$1" | awk '{ print $1 }' | xargs; }
# run LOG CMD...: output to $logs/LOG, the status in $rc
run() {
	local log=$logs/$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
}

# 1. the package, as tests/pkg/deb.t builds it
git -C "$SRC" ls-files -co --exclude-standard -z |
	(cd "$SRC" && tar --null -T - -cf -) | tar -xf - -C "$work/src/triage" || die "copy of the tree"
t0=$(now)
(cd "$work/src/triage" && DEB_BUILD_OPTIONS="nocheck noddebs parallel=2" dpkg-buildpackage -us -uc -b) \
	>"$logs/build.log" 2>&1 || { tail -n 30 "$logs/build.log"; die "dpkg-buildpackage (log: $logs/build.log)"; }
deb=$(ls "$work"/src/triage_*_*.deb) || die "no .deb"
version=$(dpkg-deb -f "$deb" Version)
ok "dpkg-buildpackage: $(basename "$deb"), $(stat -c %s "$deb") bytes, Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB, Depends: $(dpkg-deb -f "$deb" Depends) ($(secs "$t0" "$(now)") s)"

if command -v lintian >/dev/null; then
	run lintian.log lintian --fail-on error "$work"/src/triage_*.changes
	check "$rc" "lintian: $(grep -c '^E:' "$logs/lintian.log") errors, $(grep -c '^W:' "$logs/lintian.log") warnings ($(grep '^W:' "$logs/lintian.log" | awk '{ print $3 }' | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }'))"
else
	info "lintian not installed: not run"
fi

# 2. a fresh minimal Debian
if ! command -v debootstrap >/dev/null; then
	info "installing debootstrap"
	apt-get install -y debootstrap >"$logs/apt-debootstrap.log" 2>&1 || die "apt-get install debootstrap"
fi
t0=$(now)
run debootstrap.log debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR"
[ "$rc" = 0 ] || { tail -n 20 "$logs/debootstrap.log"; die "debootstrap $SUITE from $MIRROR"; }
ok "debootstrap --variant=minbase $SUITE $MIRROR: $(inroot dpkg-query -W | wc -l) packages, $(du -sh --one-file-system "$root" | cut -f1) ($(secs "$t0" "$(now)") s)"

mount -t proc proc "$root/proc" || die "mount /proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" || die "bind /sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" || die "bind /dev"
[ -e "$root/sys/kernel/btf/vmlinux" ] || info "no /sys/kernel/btf/vmlinux: the probes will fail"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cp "$deb" "$root/tmp/" || die "copy the .deb in"
debname=$(basename "$deb")

# 3. apt-get install ./triage_*.deb: its Depends from the mirror
run apt-update.log inroot apt-get update
[ "$rc" = 0 ] || die "apt-get update (log: $logs/apt-update.log)"
t0=$(now)
run apt-install.log inroot sh -c "cd /tmp && apt-get install -y ./$debname"
t_install=$(secs "$t0" "$(now)")
new=$(sed -n '/^The following NEW packages will be installed:/,/^[^ ]/{/^ /p}' "$logs/apt-install.log" | xargs)
status=$(inroot dpkg-query -W -f='${Status} ${Version}' triage 2>/dev/null)
[ "$rc" = 0 ] && [ "$status" = "install ok installed $version" ]
check $? "apt-get install -y ./$debname: $status, $(wc -w <<<"$new") new packages ($new), $t_install s"

# 4. man triage-report
if inroot sh -c 'command -v man' >/dev/null; then
	info "man-db came with the package's dependencies"
else
	run apt-man.log inroot apt-get install -y man-db
	check "$rc" "man-db is not pulled by triage (no package needs it; Debian packages do not depend on man-db): apt-get install -y man-db"
fi
inroot env MANWIDTH=80 man triage-report >"$logs/man.log" 2>"$logs/man.err"
rc=$?
man_err=$(head -c 300 "$logs/man.err")
name=$(grep -A1 '^NAME' "$logs/man.log" | tail -n 1 | xargs)
[ "$rc" = 0 ] && [ -z "$man_err" ] && grep -q 'triage' <<<"$name"
check $? "man triage-report: $(wc -l <"$logs/man.log") lines, NAME: $name$([ -n "$man_err" ] && echo "; stderr: $man_err")"

# 5. as root
run version.log inroot triage --version
[ "$rc" = 0 ] && grep -q "$version" "$logs/version.log"
check $? "triage --version: $(head -n 1 "$logs/version.log")"
run report-root.log inroot triage report -d 1
[ "$rc" = 0 ] && ! grep -q '^  ebpf .*not started' "$logs/report-root.log"
check $? "root: triage report -d 1: exit $rc, $(grep -cE '^  (critical|warning|info) ' "$logs/report-root.log") findings, Skipped: $(skipped report-root.log)"

# 6. an ordinary user
run useradd.log inroot useradd -m -s /bin/sh "$USER_NAME"
[ "$rc" = 0 ] || die "useradd $USER_NAME"
uid=$(inroot id -u "$USER_NAME") && gid=$(inroot id -g "$USER_NAME") || die "id $USER_NAME"
run report-user-nocaps.log asuser triage report -d 1
[ "$rc" = 0 ] && grep -q '^  ebpf .*not started' "$logs/report-user-nocaps.log"
check $? "$USER_NAME (uid $uid), no capabilities: triage report -d 1: exit $rc, Skipped: $(skipped report-user-nocaps.log)"
run doctor-user-nocaps.log asuser triage doctor
[ "$rc" = 3 ]
check $? "$USER_NAME, no capabilities: triage doctor: exit $rc (3 expected), probes: $(grep -cE '^  works ' "$logs/doctor-user-nocaps.log") of 5 work"

# 7. the capabilities, as docs/install.md documents for the package:
# setcap (libcap2-bin, a Suggests) on /usr/bin/triage
if inroot sh -c 'command -v setcap' >/dev/null; then
	info "setcap is there: libcap2-bin $(grep -qw libcap2-bin <<<"$new" && echo "came with the install (iproute2, a Recommends, depends on it)" || echo "was in the base system")"
else
	run apt-libcap.log inroot apt-get install -y libcap2-bin
	check "$rc" "setcap is not there (libcap2-bin is a Suggests of triage): apt-get install -y libcap2-bin"
fi
run setcap.log inroot setcap "$CAPS" /usr/bin/triage
getcap=$(inroot getcap /usr/bin/triage)
[ "$rc" = 0 ] && [ -n "$getcap" ]
check $? "the package sets no capabilities (no maintainer script does); setcap $CAPS /usr/bin/triage: $getcap"

run report-user.log asuser triage report -d 1
[ "$rc" = 0 ] && ! grep -qwE 'ebpf|kernel-log' <<<"$(skipped report-user.log)"
check $? "$USER_NAME with the capabilities: triage report -d 1: exit $rc, $(grep -cE '^  (critical|warning|info) ' "$logs/report-user.log") findings, $(grep -c 'eBPF' "$logs/report-user.log") eBPF lines, kernel log checked: $(grep -q '^  kernel-log' "$logs/report-user.log" && echo yes || echo no), Skipped: $(skipped report-user.log)"
run doctor-user.log asuser triage doctor
[ "$rc" = 0 ]
check $? "$USER_NAME with the capabilities: triage doctor: exit $rc, probes: $(grep -cE '^  works ' "$logs/doctor-user.log") of 5 work; $(grep -E '^  [a-z]+ +privileges' "$logs/doctor-user.log" | sed 's/^ *//;s/  */ /g')"
for p in syscalls offcpu runq profile; do
	run "probe-$p.log" asuser triage probe "$p" -d 1
	check "$rc" "$USER_NAME with the capabilities: triage probe $p -d 1: exit $rc, $(wc -l <"$logs/probe-$p.log") lines"
done
# trace needs a target: sleep processes started until the probe exits
run probe-trace.log asuser sh -c 'triage probe trace clock_nanosleep -C sleep -d 2 & p=$!
	while kill -0 $p 2>/dev/null; do sleep 0.1; done; wait $p'
events=$(awk '/ events, / { print $1 }' "$logs/probe-trace.log")
[ "$rc" = 0 ] && [ "${events:-0}" -gt 0 ]
check $? "$USER_NAME with the capabilities: triage probe trace clock_nanosleep -C sleep -d 2 (sleep 0.1 in a loop): exit $rc, $(grep ' events, ' "$logs/probe-trace.log")"

# 8. an upgrade (here a reinstall) unpacks a new binary: the file
# capabilities are gone and have to be set again
run apt-reinstall.log inroot sh -c "cd /tmp && apt-get install -y --reinstall ./$debname"
check "$rc" "apt-get install --reinstall ./$debname"
info "after the reinstall getcap says: '$(inroot getcap /usr/bin/triage)'"

info "$nstep steps, $nfail failed; $debname $(stat -c %s "$deb") bytes; apt-get install $t_install s"
[ "$nfail" = 0 ]
