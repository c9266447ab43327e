#!/usr/bin/env bash
# test: shared -- a network namespace named by its PID
# Parser oracle: the real iptables 1.8.9, in a scratch network namespace,
# parses a few hundred u32 and string argument lists (spec 2.5, 4.1);
# triage must accept and refuse the same ones, with the same message text
# and character positions, and print accepted u32 rules in iptables' -S form.
set -u
: "${TRIAGE:?}" "${SRC:?}"
skip() { echo "$1"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for a network namespace"
command -v iptables >/dev/null || skip "iptables not installed (scripts/deps.sh)"
iptables -V 2>/dev/null | grep -q 'v1\.8\.9 (nf_tables)' ||
	skip "the messages are those of iptables 1.8.9 (nf_tables); found $(iptables -V 2>&1)"
NS=u32p-$$
work=$(mktemp -d /tmp/u32-parser.XXXXXX)
trap 'ip netns del "$NS" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
ip netns add "$NS" 2>/dev/null || skip "cannot create network namespaces here"
printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\0\0\0\0\0\0\0\0\xff\xff\0\0\x01\0\0\0' >"$work/empty.pcap"
# The plain build is compared on every list. The ASan build pays ~80 ms a
# start (most of it LeakSanitizer's exit scan) on ~500 starts, for a parser
# that the fuzz targets fuzz_u32_rule and fuzz_u32_rulefile already run
# under ASan+UBSan on their whole corpora: it is compared on every third
# list of the sequence, u32 and string ones alike.
stride=1
[ "${TRIAGE_SAN:-0}" = 1 ] && stride=3
python3 "$SRC/tests/u32/parser_oracle.py" "$NS" "$TRIAGE" "$work/empty.pcap" "$stride"
