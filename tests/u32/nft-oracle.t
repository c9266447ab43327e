#!/usr/bin/env bash
# test: shared -- two network namespaces named by its PID
# Kernel check of triage u32 translate: each rule of the oracle's corpus
# (tests/u32/corpus.rules, the seeded random rules, and variants of them
# that pin the protocol and the fragment offset so the transport and inner
# header forms get exercised) is loaded as the iptables original and as
# its nftables translation in one receiver namespace; every corpus frame is
# injected once and each translated rule's counters must be identical.
set -u
: "${TRIAGE:?}" "${SRC:?}"
skip() { echo "$1"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v iptables-restore >/dev/null || skip "iptables not installed (scripts/deps.sh)"
command -v nft >/dev/null || skip "nft not installed (scripts/deps.sh: nftables)"
command -v python3 >/dev/null || skip "python3 not installed"

. "$SRC/tests/u32/lib.sh" --netns u32n
work=$(mktemp -d /tmp/u32-nft.XXXXXX)
cleanup() {
	u32_netns_del
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
u32_veth_pair 10.201.0.2/24
ip netns exec "$RX" nft list ruleset >/dev/null 2>&1 || skip "this kernel has no nf_tables"

python3 "$SRC/tests/u32/gen_captures.py" "$work" >/dev/null || exit 1
python3 "$SRC/tests/u32/gen_captures.py" --random "${U32_ORACLE_SEED:-1}" 200 "$work/random" ||
	exit 1
rules=$work/all.rules
{
	cat "$SRC/tests/u32/corpus.rules" "$work/random.rules"
	# the random u32 rules again, with what the @th/@ih forms need
	sed -n 's/^\(ru[0-9]*\) -m u32 --u32 "\(.*\)"$/\1f ! -f -m u32 --u32 "\2"\n\1t -p tcp --sport 40000 -m u32 --u32 "\2"/p' \
		"$work/random.rules"
	# the recipes as nft-exact (recipe --nft): TLS with the data offset
	# test, the DNS query with the name anchored at the question
	"$TRIAGE" u32 recipe tls-client-hello --nft | sed -n '1s/^iptables -I FORWARD/tls_nft/p'
	"$TRIAGE" u32 recipe dns-query www.example.com --nft | sed -n '1s/^iptables -I INPUT/dns_nft/p'
	"$TRIAGE" u32 recipe dns-query www.example.com --ipv6 --nft |
		sed -n '1s/^ip6tables -I INPUT/dns6_nft/p'
} >"$rules" || exit 1
"$TRIAGE" u32 translate --family ip --json --rules "$rules" >"$work/ip.json" || exit 1
"$TRIAGE" u32 translate --family ip6 --json --rules "$rules" >"$work/ip6.json" || exit 1
# the headline rules must have an exact form: the recipes' single rules, and
# the blog's TLS rules as computed jumps enumerated over IHL x data offset
for name in tls_nft dns_nft dns6_nft blog_tls fixed_tls; do
	f=$work/ip.json
	[ "$name" = dns6_nft ] && f=$work/ip6.json
	jq -e --arg n "$name" '.rules[] | select(.name == $n) | .exact' "$f" >/dev/null ||
		{ echo "FAIL: $name has no exact nftables form"; exit 1; }
done
# The blog's TLS rule as written (the fourth post): iptables itself refuses
# it for the stray --algo, and so must translate; without it, the whole
# rule, -m state included, must have an exact form (checked after conntrack).
blog='iptables -I FORWARD -p tcp --dport 443 ! -f -m state --state ESTABLISHED -m u32 --u32 "0>>22&0x3C@ 12>>26&0x3C@ 0>>24 & 0xFF=0x16 && 0>>22&0x3C@ 12>>26&0x3C@ 2>>24 & 0xFF=0x01" --algo bm -j LOG --log-prefix "TLS Client Hello: "'
eval "set -- ${blog#iptables -I FORWARD}"
ip netns exec "$RX" iptables -t mangle -A PREROUTING "$@" 2>"$work/ipt.err" &&
	{ echo "FAIL: iptables loaded the blog's rule with --algo after -m u32"; exit 1; }
"$TRIAGE" u32 translate "$blog" >/dev/null 2>"$work/tr.err"
rc=$?
[ $rc = 2 ] && grep -q -- --algo "$work/tr.err" ||
	{ echo "FAIL: translate of the blog's rule as written: exit $rc, $(cat "$work/tr.err")"; exit 1; }
blog=${blog/ --algo bm/}
printf 'blog_whole %s\n' "$blog" >"$work/ct.lines"
"$TRIAGE" u32 translate --json "$blog" | jq '.rules[0].name = "blog_whole"' >"$work/ct.json" ||
	exit 1
ip netns exec "$TX" python3 "$SRC/tests/u32/nft_oracle.py" "$RX" u32tx "$rxmac" "$rules" \
	"$work/ip.json" "$work/ip6.json" "$work/ct.lines" "$work/ct.json" \
	"$work/corpus.pcap" "$work/random.pcap"
rc=$?
echo "kernel $(uname -r), $(nft --version), $(iptables -V)"
exit $rc
