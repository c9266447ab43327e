#!/bin/sh
# Installs the Debian packages triage needs to build and test, if any are
# missing. Idempotent; a no-op when everything is present.
set -eu
# One package a line, so concurrent additions merge cleanly.
PKGS="
 build-essential
 clang
 llvm
 libbpf-dev
 bpftool
 libelf-dev
 zlib1g-dev
 libpcap-dev
 sysstat
 iptables
 iproute2
 tcpdump
 strace
 linux-perf
 libclang-rt-14-dev
 jq
 procps
 locales
 python3
 libc6-dbg
"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
# The pidstat golden tests compare number and date formats in de_DE.UTF-8.
gen_locales() {
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
