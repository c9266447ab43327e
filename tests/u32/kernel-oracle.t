#!/usr/bin/env bash
# test: shared, slow -- two network namespaces named by its PID (the sanitized run: none, files of its own)
# Kernel oracle (spec 7.1/7.4): the real kernel in two network namespaces
# joined by a veth pair. Every frame of the generated corpus is injected
# with AF_PACKET on the sender; every rule of tests/u32/corpus.rules sits
# with a counter in the receiver's raw PREROUTING chain (iptables and
# ip6tables). triage u32 test must give the same verdict on every cell.
set -u
: "${TRIAGE:?}" "${SRC:?}"
skip() { echo "$1"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v iptables-restore >/dev/null || skip "iptables not installed (scripts/deps.sh)"
command -v python3 >/dev/null || skip "python3 not installed"

. "$SRC/tests/u32/lib.sh" --netns u32o

# The sanitized run (TRIAGE_SAN=1) with the plain build beside it, as in
# `make test`: the kernel's verdicts do not depend on which triage is under
# test, and replaying every frame with one iptables-save per frame is most
# of this test's time. So this run gives the sanitized triage exactly the
# inputs and options of the plain run (the same generated corpora: the
# random one is seeded) and requires its verdicts and JSON to be
# byte-identical to the plain build's triage, which the plain run of this
# test compares with the kernel cell by cell: every code path the oracle
# drives runs under ASan+UBSan, and agrees with the kernel by way of the
# plain build (vlan and qinq as well, which the plain run replays only
# where the kernel has VLAN devices). Without the plain build, or with
# U32_ORACLE_FULL=1, the sanitized run asks the kernel itself.
plain=$SRC/build/triage
if [ "${TRIAGE_SAN:-0}" = 1 ] && [ -x "$plain" ] && [ -z "${U32_ORACLE_FULL:-}" ]; then
	work=$(mktemp -d /tmp/u32-oracle.XXXXXX)
	trap 'rm -rf "$work"' EXIT
	python3 "$SRC/tests/u32/gen_captures.py" "$work" >/dev/null &&
		python3 "$SRC/tests/u32/gen_captures.py" --big "$work" >/dev/null &&
		python3 "$SRC/tests/u32/gen_captures.py" --random "${U32_ORACLE_SEED:-1}" 200 "$work/random" >/dev/null ||
		exit 1
	fail=0
	same_as_plain() { # name rules pcap [triage options]
		local name=$1 rules=$2 pcap=$3 mode bad=0
		shift 3
		for mode in --verdicts --json; do
			"$TRIAGE" u32 test "$@" --rules "$rules" $mode "$pcap" >"$work/$name$mode.san" ||
				{ echo "FAIL: triage u32 test $mode failed on the $name corpus"; bad=1; continue; }
			"$plain" u32 test "$@" --rules "$rules" $mode "$pcap" >"$work/$name$mode.plain" ||
				{ echo "FAIL: the plain build's triage u32 test $mode failed on the $name corpus"; bad=1; continue; }
			cmp -s "$work/$name$mode.plain" "$work/$name$mode.san" ||
				{ echo "FAIL: $name corpus, $mode: the sanitized build differs from the plain one"; bad=1; }
		done
		[ $bad = 0 ] || { fail=1; return; }
		echo "$name corpus: $(($(wc -l <"$work/$name--verdicts.san") - 1)) frames, verdicts and JSON identical to the plain build"
	}
	same_as_plain golden "$SRC/tests/u32/corpus.rules" "$work/corpus.pcap"
	same_as_plain random "$work/random.rules" "$work/random.pcap"
	same_as_plain big "$work/big.rules" "$work/big.pcap"
	same_as_plain vlan "$SRC/tests/u32/corpus.rules" "$work/corpus-vlan.pcap"
	same_as_plain qinq "$SRC/tests/u32/corpus.rules" "$work/corpus-qinq.pcap"
	same_as_plain defrag "$SRC/tests/u32/corpus.rules" "$work/frag.pcap" --defrag
	exit $fail
fi

work=$(mktemp -d /tmp/u32-oracle.XXXXXX)
cleanup() {
	u32_netns_del
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT INT TERM
[ -n "${U32_ORACLE_KEEP:-}" ] && trap "ip netns del $TX; ip netns del $RX" EXIT
u32_veth_pair 10.201.0.2/24

python3 "$SRC/tests/u32/gen_captures.py" "$work" || exit 1
# frames of 4-40 KB with bm patterns across every chunk edge the kernel might make
python3 "$SRC/tests/u32/gen_captures.py" --big "$work" || exit 1
# a seeded random corpus on top of the hand-made one
python3 "$SRC/tests/u32/gen_captures.py" --random "${U32_ORACLE_SEED:-1}" 200 "$work/random" ||
	exit 1
: >"$work/labels.random"

compare() { # kernel.csv triage.csv triage.json labels
	python3 - "$@" <<'PY'
import json, sys
kernel = [l.rstrip("\n").split(",") for l in open(sys.argv[1])]
ours = [l.rstrip("\n").split(",") for l in open(sys.argv[2])]
labels = dict(l.strip().split(",", 1) for l in open(sys.argv[4]) if l.strip())
if kernel[0] != ours[0] or len(kernel) != len(ours):
    sys.exit("header or row count differs: %s vs %s" % (kernel[0][:3], ours[0][:3]))
names = kernel[0][1:]
compared = bad = 0
na = set()
for krow, orow in zip(kernel[1:], ours[1:]):
    for name, k, o in zip(names, krow[1:], orow[1:]):
        if k in ("x", "s"):
            if k == "x":
                na.add(name)
            continue
        compared += 1
        if k != o:
            bad += 1
            print("DISAGREE packet %s (%s) rule %s: kernel %s, triage %s"
                  % (krow[0], labels.get(krow[0], "?"), name, k, o))
# per-rule totals: iptables -L -v -x packet and byte counters
tot = {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(sys.argv[1] + ".totals")}
for r in json.load(open(sys.argv[3]))["rules"]:
    if r["name"] in na:
        continue
    if tot[r["name"]] != (r["pkts"], r["bytes"]):
        bad += 1
        print("DISAGREE counters of %s: kernel %s, triage %s" % (r["name"], tot[r["name"]],
                                                              (r["pkts"], r["bytes"])))
print("%d verdicts compared over %d frames x %d rules, %d disagreements"
      % (compared, len(kernel) - 1, len(names), bad))
sys.exit(1 if bad or compared == 0 else 0)
PY
}

fail=0
run_corpus() { # name rules pcap labels [triage options]
	local name=$1 rules=$2 pcap=$3 labels=$4 tags=
	shift 4
	case $name in vlan | qinq) tags=keep-tags ;; esac
	ip netns exec "$TX" python3 "$SRC/tests/u32/kernel_oracle.py" "$rules" "$pcap" \
		"$RX" u32tx "$rxmac" "$work/$name.kernel.csv" $tags || { echo "oracle run failed"; exit 1; }
	"$TRIAGE" u32 test "$@" --rules "$rules" --verdicts "$pcap" >"$work/$name.csv" ||
		{ echo "triage u32 test failed"; exit 1; }
	"$TRIAGE" u32 test "$@" --rules "$rules" --json "$pcap" >"$work/$name.json" || exit 1
	printf 'kernel oracle, %s corpus: ' "$name"
	compare "$work/$name.kernel.csv" "$work/$name.csv" "$work/$name.json" "$labels" || fail=1
}
run_corpus golden "$SRC/tests/u32/corpus.rules" "$work/corpus.pcap" "$work/corpus.labels"
run_corpus random "$work/random.rules" "$work/random.pcap" "$work/labels.random"
run_corpus big "$work/big.rules" "$work/big.pcap" "$work/big.labels"
# Tagged frames as captured (802.1Q id 5; 802.1ad 100 + 802.1Q 5), received on VLAN devices
if ip -n "$RX" link add link u32rx name u32rx.5 type vlan id 5 2>/dev/null &&
	ip -n "$RX" link add link u32rx name u32rx.100 type vlan proto 802.1ad id 100 &&
	ip -n "$RX" link add link u32rx.100 name u32rx.100.5 type vlan id 5; then
	for l in u32rx.5 u32rx.100 u32rx.100.5; do ip -n "$RX" link set "$l" up; done
	run_corpus vlan "$SRC/tests/u32/corpus.rules" "$work/corpus-vlan.pcap" "$work/corpus.labels"
	run_corpus qinq "$SRC/tests/u32/corpus.rules" "$work/corpus-qinq.pcap" "$work/corpus.labels"
else
	echo "kernel oracle: this kernel has no VLAN devices (CONFIG_VLAN_8021Q), tagged replay left out"
fi
# Phase 2 (spec 7.1): a conntrack user in the receiver turns on defragmentation,
# so the raw table sees reassembled datagrams; triage models it with --defrag.
ip netns exec "$RX" iptables -A INPUT -m conntrack --ctstate INVALID -j DROP &&
	ip netns exec "$RX" ip6tables -A INPUT -m conntrack --ctstate INVALID -j DROP ||
	{ echo "cannot load the conntrack match"; exit 1; }
run_corpus defrag "$SRC/tests/u32/corpus.rules" "$work/frag.pcap" "$work/frag.labels" --defrag
echo "kernel $(uname -r), $(iptables -V)"
exit $fail
