# Shared by tests/u32/*.t.
# Usage: . "$SRC/tests/u32/lib.sh" NAME
#   a private work directory ($work, removed on exit) holding the golden
#   captures of gen_captures.py, and the failure flag.
# Usage: . "$SRC/tests/u32/lib.sh" --netns PREFIX
#   only defines u32_veth_pair/u32_netns_del for the tests that build their
#   own work directory and trap (they call u32_netns_del from it).
# shellcheck shell=bash
set -u
: "${TRIAGE:?}" "${SRC:?}"

# u32_veth_pair [ADDR]: namespaces $TX and $RX (PREFIX-tx-$$, PREFIX-rx-$$)
# joined by a veth pair u32tx/u32rx, both up with MTU 65535 (the large-frame
# corpus goes to 40 KB), IPv6 off on the sender (no stray solicitations),
# no DAD on the receiver, ADDR on u32rx if given; sets $rxmac (frames are
# injected with their own MACs, the destination rewritten to it). Skips
# (exit 77) where namespaces or veth pairs cannot be made.
u32_veth_pair() {
	ip netns add "$TX" 2>/dev/null || { echo "cannot create network namespaces here"; exit 77; }
	ip netns add "$RX" || { echo "cannot create a second network namespace"; exit 77; }
	ip link add "u32tx$$" netns "$TX" type veth peer name "u32rx$$" netns "$RX" ||
		{ echo "cannot create a veth pair"; exit 77; }
	ip -n "$TX" link set "u32tx$$" name u32tx
	ip -n "$RX" link set "u32rx$$" name u32rx
	ip netns exec "$TX" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$TX" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	ip netns exec "$RX" sysctl -qw net.ipv6.conf.default.accept_dad=0
	ip netns exec "$RX" sysctl -qw net.ipv6.conf.all.accept_dad=0
	for ns in "$TX" "$RX"; do ip -n "$ns" link set lo up; done
	ip -n "$TX" link set u32tx mtu 65535 up
	ip -n "$RX" link set u32rx mtu 65535 up
	[ -z "${1:-}" ] || ip -n "$RX" addr add "$1" dev u32rx
	rxmac=$(ip -n "$RX" -o link show u32rx | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
	[ -n "$rxmac" ] || { echo "no receiver MAC"; exit 1; }
}

u32_netns_del() {
	ip netns del "$TX" 2>/dev/null
	ip netns del "$RX" 2>/dev/null
}

if [ "${1:-}" = --netns ]; then
	TX=$2-tx-$$ RX=$2-rx-$$
	return 0
fi
work=$(mktemp -d "/tmp/u32-$1.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
python3 "$SRC/tests/u32/gen_captures.py" "$work" || exit 1
