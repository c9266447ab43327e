#!/bin/sh
# Installs the Debian packages triage needs, if any are missing:
#   scripts/deps.sh run    building and running (make run)
#   scripts/deps.sh test   that, plus the oracles and tools only the tests use (make test)
#   scripts/deps.sh bench  that, plus what only bench/ and the package's full check use
# Idempotent; a no-op when everything is present.
set -eu
mode=${1:-test}
# One package a line, so concurrent additions merge cleanly.
# Building and running: compiler, BPF toolchain, the libraries triage links,
# iproute2 for the `ip`/`ss` commands the report suggests.
RUN_PKGS="
 build-essential
 clang
 llvm
 libbpf-dev
 bpftool
 libelf-dev
 zlib1g-dev
 libpcap-dev
 libmicrohttpd-dev
 libgnutls28-dev
 libyaml-dev
 libcrypt-dev
 libsqlite3-dev
 libcurl4-openssl-dev
 libjson-c-dev
 iproute2
"
# Tests only: the real tools triage is compared with (sysstat, tcpdump,
# strace, perf, iptables), the fuzzer runtime, jq for JSON checks, python3
# for fixture tools, libc debug symbols for the profile test, locales;
# scdoc for make man / make install (the man pages), man-db and groff-base
# to render them in the tests; zsh to check its completion; setcap
# (libcap2-bin) for the capabilities test; dpkg-dev, debhelper and lintian
# to build the Debian package; sqlite3 to read records back, chromium to
# load plot's page.
TEST_PKGS="
 sysstat
 iptables
 nftables
 tcpdump
 strace
 linux-perf
 libclang-rt-14-dev
 jq
 openssl
 procps
 locales
 python3
 libc6-dbg
 graphite-carbon
 graphite-web
 prometheus
 prometheus-alertmanager
 graphite-web
 scdoc
 man-db
 groff-base
 zsh
 sqlite3
 chromium
 libcap2-bin
 dpkg-dev
 debhelper
"
# bench/ and the package's full check only: bpftrace (bench/probe.sh and
# bench/startup.sh's time to first event) and lintian (pkg/deb.t with
# TRIAGE_LINTIAN=1, scripts/deb-fresh-install.sh). With their dependencies
# they are some 140 packages, mostly perl, that no test of make test uses.
BENCH_PKGS="
 bpftrace
 lintian
"
case $mode in
run) PKGS=$RUN_PKGS ;;
test) PKGS="$RUN_PKGS $TEST_PKGS" ;;
bench) PKGS="$RUN_PKGS $TEST_PKGS $BENCH_PKGS" ;;
*) echo "usage: scripts/deps.sh run|test|bench" >&2; exit 2 ;;
esac
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
# The pidstat golden tests compare number and date formats in de_DE.UTF-8.
gen_locales() {
	[ "$mode" != run ] || return 0
	locale -a 2>/dev/null | grep -qix 'de_DE.utf8' && return 0
	[ "$(id -u)" = 0 ] || { echo "deps: not root; cannot generate de_DE.UTF-8" >&2; return 0; }
	echo "deps: generating locale de_DE.UTF-8" >&2
	localedef -i de_DE -f UTF-8 de_DE.UTF-8 >&2 || echo "deps: localedef de_DE.UTF-8 failed" >&2
}
[ -z "$missing" ] && { gen_locales; exit 0; }
echo "deps: installing$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages and not root; run: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
gen_locales
