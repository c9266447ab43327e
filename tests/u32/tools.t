#!/usr/bin/env bash
# test: shared -- generated captures in its scratch dir
# triage u32 explain and lint on the blog's two rules (spec 6): lint must
# flag the known mistakes (exit 1) and stay quiet on the corrected rules;
# explain --packet must show the bytes the capture really holds at each read
# (checked against the packet bytes read by Python) and the kernel's verdict.
. "${SRC:?}/tests/u32/lib.sh" tools
BLOG_TLS='iptables -I FORWARD -p tcp --dport 443 ! -f -m state --state ESTABLISHED -m u32 --u32 "0>>22&0x3C@ 12>>26&0x3C@ 0>>24 & 0xFF=0x16 && 0>>22&0x3C@ 12>>26&0x3C@ 2>>24 & 0xFF=0x01" --algo bm -j LOG --log-prefix "TLS Client Hello: "'
BLOG_DNS="iptables -I INPUT -p udp --dport 53 -m string --hex-string '|03|www|07|example|03|com|0001|' --algo bm -j DROP"

expect_lint() { # want-status want-ids... -- rule
	local want=$1; shift
	local ids=()
	while [ "$1" != -- ]; do ids+=("$1"); shift; done
	shift
	"$TRIAGE" u32 lint "$1" >"$work/lint" 2>&1 # a refusal goes to stderr
	local rc=$?
	[ "$rc" = "$want" ] || { echo "FAIL: lint exit $rc, want $want: $1"; cat "$work/lint"; fail=1; }
	for id in "${ids[@]}"; do
		grep -q -- "$id" "$work/lint" || { echo "FAIL: lint misses $id: $1"; cat "$work/lint"; fail=1; }
	done
}
# iptables refuses the blog's TLS rule ("--algo" without -m string): a rule that does not parse is 2
expect_lint 2 tls-record-version 'unknown option "--algo"' -- "$BLOG_TLS"
expect_lint 1 dns-no-terminator dns-case -- "$BLOG_DNS"
# iptables loads -m recent; triage only cannot model it, and must not blame iptables
expect_lint 2 'triage cannot check this rule: match "recent" is not modelled' -- '-m u32 --u32 "6&0xFF=6" -m recent --name x'
grep -q 'iptables refuses' "$work/lint" && { echo "FAIL: an unmodelled match blamed on iptables"; cat "$work/lint"; fail=1; }
expect_lint 1 dns-dotted-name -- "-p udp --dport 53 -m string --algo bm --string www.example.com"
expect_lint 1 no-fragment-guard -- '0>>22&0x3C@0&0xFFFF=53'
expect_lint 1 ipv4-offsets-on-ipv6 -- '0>>28=6 && 0>>22&0x3C@2&0xFFFF=53'
expect_lint 1 low-byte-offset -- '4&0x1FFF=0 && 9&0xFF=17'
expect_lint 1 window-too-small -- "-m string --algo bm --from 40 --to 57 --hex-string '|03|www|09|netfilter|03|org|00|'"
expect_lint 1 bm-icase-gap -- "-m string --algo bm --icase --from 28 --hex-string '|bf41|'"
expect_lint 1 inverted-out-of-range -- '-m u32 ! --u32 "4&0x1FFF=0 && 0>>22&0x3C@12>>26&0x3C@0>>24=0x16"'
expect_lint 1 ipv4-offsets-on-ipv6 -- "ip6tables -I INPUT -m u32 --u32 '6&0xFF=17 && 4&0x1FFF=0'"
expect_lint 0 -- '6&0xFF=6 && 4&0x1FFF=0 && 0>>22&0x3C@12>>26&0x3C@0>>24=0x16 && 0>>22&0x3C@12>>26&0x3C@5>>24=0x01'
"$TRIAGE" u32 lint --json "$BLOG_DNS" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert any(w["id"]=="dns-no-terminator" for w in d["warnings"])' ||
	{ echo "FAIL: lint --json"; fail=1; }
# refusals and notes are part of the JSON, not text before it
"$TRIAGE" u32 lint --json "$BLOG_TLS" | python3 -c 'import json,sys; d=json.load(sys.stdin)
assert any("--algo" in m.get("error", "") and m.get("fix") for m in d["messages"]), d
assert any("note" in m for m in d["messages"]), d
assert any(w["id"] == "tls-record-version" for w in d["warnings"]) and d["refused"] == 1, d' ||
	{ echo "FAIL: lint --json of the blog TLS rule"; fail=1; }

# One rule grammar for test, explain and lint (docs/u32.md): what a user types
# as separate words, in one quoted argument, as an iptables command line or
# in a rules file must give the same result. The blog's rule is typed exactly
# as the blog writes it.
BLOG_EXPR='0>>22&0x3C@ 12>>26&0x3C@ 0>>24 & 0xFF=0x16 && 0>>22&0x3C@ 12>>26&0x3C@ 2>>24 & 0xFF=0x01'
lint_as() { # out-file, args...: lint output with rule names made comparable
	local out=$1; shift
	"$TRIAGE" u32 lint "$@" >"$out.raw" 2>&1
	echo "exit $?" >>"$out.raw"
	sed -E "s/^(warning|error|note|triage u32: lint): [A-Za-z0-9_]+:/\1: R:/" "$out.raw" >"$out"
}
same_lint() { # description, reference file, file
	if ! cmp -s "$2" "$3"; then
		echo "FAIL: lint $1 differs:"; diff "$2" "$3" | head; fail=1
	fi
}
lint_as "$work/l.words" -m u32 --u32 "$BLOG_EXPR"
lint_as "$work/l.one" "-m u32 --u32 \"$BLOG_EXPR\""
lint_as "$work/l.bare" "$BLOG_EXPR"
printf 'blog -m u32 --u32 "%s"\n' "$BLOG_EXPR" >"$work/blog.rules"
lint_as "$work/l.file" --rules "$work/blog.rules"
grep -q 'R: \[tls-record-version\]' "$work/l.words" && grep -qx 'exit 1' "$work/l.words" &&
	! grep -q "refuses" "$work/l.words" ||
	{ echo "FAIL: lint of the blog rule in words:"; cat "$work/l.words.raw"; fail=1; }
same_lint "in one argument" "$work/l.words" "$work/l.one"
same_lint "as a bare expression" "$work/l.words" "$work/l.bare"
same_lint "from a rules file" "$work/l.words" "$work/l.file"
# the blog's whole TLS command line, pasted unquoted after "lint" and quoted
eval "set -- $BLOG_TLS"
lint_as "$work/l.cmdwords" "$@"
lint_as "$work/l.cmdone" "$BLOG_TLS"
same_lint "of the blog's command line in words" "$work/l.cmdone" "$work/l.cmdwords"
# a rule of separate words is one rule, not one per word
lint_as "$work/l.short" -m u32 --u32 '0>>22&0x3C@12>>26&0x3C@0>>24=0x16'
[ "$(grep -c '^warning: R: \[no-fragment-guard\]' "$work/l.short")" = 1 ] && ! grep -q refuses "$work/l.short" ||
	{ echo "FAIL: lint of one rule in words:"; cat "$work/l.short.raw"; fail=1; }
# "--" separates rules; each is linted on its own
"$TRIAGE" u32 lint -m u32 --u32 '9&0xFF=17' -- -p udp --dport 53 -m string --algo bm --string www.example.com >"$work/l.two"
grep -q '^warning: rule1: \[low-byte-offset\]' "$work/l.two" && grep -q '^warning: rule2: \[dns-dotted-name\]' "$work/l.two" ||
	{ echo "FAIL: lint of two rules separated by --:"; cat "$work/l.two"; fail=1; }
# bad command lines: exit 2 with the offending input named
"$TRIAGE" u32 lint --json >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL: lint without a rule is not exit 2"; fail=1; }
"$TRIAGE" u32 explain 6=6 --packet x "$work/corpus.pcap" 2>"$work/err" >/dev/null
[ $? = 2 ] && grep -q "'x'" "$work/err" || { echo "FAIL: explain --packet x: $(cat "$work/err")"; fail=1; }
# test: words, one argument and an iptables command line give the same verdicts
"$TRIAGE" u32 test --verdicts -m u32 --u32 "$BLOG_EXPR" -- -p udp --dport 53 "$work/corpus.pcap" >"$work/t.words"
"$TRIAGE" u32 test --verdicts "-m u32 --u32 '$BLOG_EXPR'" "iptables -I INPUT -p udp --dport 53 -j DROP" \
	"$work/corpus.pcap" >"$work/t.one" 2>/dev/null
[ -s "$work/t.words" ] || { echo "FAIL: test --verdicts (words) printed nothing"; fail=1; }
cmp -s "$work/t.words" "$work/t.one" || { echo "FAIL: test verdicts differ between rule forms"; fail=1; }
# explain: an expression and the match arguments holding it say the same
"$TRIAGE" u32 explain "$BLOG_EXPR" >"$work/e.bare"
"$TRIAGE" u32 explain -m u32 --u32 "$BLOG_EXPR" >"$work/e.words"
cmp -s "$work/e.bare" "$work/e.words" || { echo "FAIL: explain differs between rule forms"; fail=1; }

# explain: words for each step of the blog rule
EXPR='0>>22&0x3C@ 12>>26&0x3C@ 0>>24 & 0xFF=0x16 && 0>>22&0x3C@ 12>>26&0x3C@ 2>>24 & 0xFF=0x01'
"$TRIAGE" u32 explain "$EXPR" >"$work/explain" || { echo "FAIL: explain"; fail=1; }
for phrase in "IHL x 4" "data offset x 4" "byte 2 of the TCP payload" "not the handshake type, which is byte 5" \
	'--u32 "0x0>>0x16&0x3c@0xc>>0x1a&0x3c@0x0>>0x18&0xff=0x16&&0x0>>0x16&0x3c@0xc>>0x1a&0x3c@0x2>>0x18&0xff=0x1"'; do
	grep -qF -- "$phrase" "$work/explain" || { echo "FAIL: explain lacks: $phrase"; fail=1; }
done
# explain --packet on frame 2 (a ClientHello with record version 03 03) and frame 3 (ServerHello)
for n in 2 3; do
	"$TRIAGE" u32 explain "$EXPR" --packet $n "$work/corpus.pcap" >"$work/ex$n" || { echo "FAIL: explain --packet $n"; fail=1; }
	python3 - "$work/corpus.pcap" $n "$work/ex$n" <<'PY' || fail=1
import re, struct, sys
data = open(sys.argv[1], "rb").read()
off, n = 24, int(sys.argv[2])
for _ in range(n - 1):
    off += 16 + struct.unpack("<I", data[off + 8:off + 12])[0]
ip = data[off + 16 + 14:]
word = lambda p: struct.unpack("!I", ip[p:p + 4])[0]
ihl = (ip[0] & 15) * 4
thl = (ip[ihl + 12] >> 4) * 4
want = {0: word(0), ihl + 12: word(ihl + 12), ihl + thl: word(ihl + thl), ihl + thl + 2: word(ihl + thl + 2)}
got = {int(p): int(v, 16) for p, v in re.findall(r"read at (\d+) -> 0x([0-9a-f]+)", open(sys.argv[3]).read())}
if got != want:
    sys.exit("FAIL: explain --packet %d reads %s, the packet holds %s" % (n, got, want))
expect = "no match" if n == 2 else "match"  # kernel oracle rows T2/T3 of the spec
last = open(sys.argv[3]).read().strip().splitlines()[-1]
if last != "result: " + expect:
    sys.exit("FAIL: explain --packet %d says %r, the kernel says %s" % (n, last, expect))
PY
done
exit $fail
