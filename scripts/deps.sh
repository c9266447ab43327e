#!/bin/sh
# Installs the Debian packages triage needs to build and test, if any are
# missing. Idempotent; a no-op when everything is present.
set -eu
PKGS="build-essential clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libpcap-dev
 sysstat iptables iproute2 tcpdump strace linux-perf libclang-rt-14-dev jq procps libc6-dbg"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages and not root; run: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
