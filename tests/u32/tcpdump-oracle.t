#!/usr/bin/env bash
# test: shared -- generated captures in its scratch dir
# Second oracle (spec 7.5): libpcap/BPF. Every plain (non-inverted,
# u32-only) rule of the corpus is translated mechanically into a
# pcap-filter expression with 4-byte loads (ip[...] / ip6[...]); tcpdump
# must select exactly the packets triage says match. The raw-IP capture is
# used so that BPF's bounds (the captured frame) equal u32's (the IP
# datagram). Inverted rules are left out: BPF rejects on an out-of-range
# load where '! --u32' matches.
command -v tcpdump >/dev/null || { echo "tcpdump not installed (scripts/deps.sh)"; exit 77; }
. "${SRC:?}/tests/u32/lib.sh" bpf
python3 - "$SRC/tests/u32/corpus.rules" "$work" "$TRIAGE" <<'PY'
import shlex, subprocess, sys
rules_path, work, triage = sys.argv[1:4]
pcap = work + "/corpus-raw.pcap"

def number(tok, _):
    return int(tok, 0) if not (tok.startswith("0") and len(tok) > 1 and tok[1] not in "xX") \
        else int(tok, 8)

def tokens(expr):
    out, i = [], 0
    while i < len(expr):
        c = expr[i]
        if c.isspace():
            i += 1
        elif expr.startswith("&&", i) or expr.startswith("<<", i) or expr.startswith(">>", i):
            out.append(expr[i:i + 2]); i += 2
        elif c in "&@=,:":
            out.append(c); i += 1
        else:
            j = i
            while j < len(expr) and (expr[j].isalnum()):
                j += 1
            out.append(expr[i:j]); i = j
    return out

def translate(expr, proto):
    tests, clauses = [], []
    for test in " ".join(tokens(expr)).split("&&"):
        loc, vals = test.split("=")
        t = loc.split()
        v, base = "%s[%d:4]" % (proto, number(t[0], 0)), "0"
        for op, n in zip(t[1::2], t[2::2]):
            n = number(n, 0)
            if op == "@":
                base = "(%s + %s)" % (base, v)
                v = "%s[%s + %d:4]" % (proto, base, n)
            else:
                v = "(%s %s %d)" % (v, op, n)
        ranges = []
        for r in vals.replace(" ", "").split(","):
            lo, _, hi = r.partition(":")
            lo = number(lo, 0); hi = number(hi, 0) if hi else lo
            ranges.append("(%s >= %d and %s <= %d)" % (v, lo, v, hi))
        clauses.append("(" + " or ".join(ranges) + ")")
    return " and ".join(clauses)

compared = bad = 0
for line in open(rules_path):
    w = shlex.split(line, comments=True)
    if len(w) != 5 or w[1:4] != ["-m", "u32", "--u32"]:
        continue
    name, expr = w[0], w[4]
    flt = "(ip and %s) or (ip6 and %s)" % (translate(expr, "ip"), translate(expr, "ip6"))
    out = subprocess.run(["tcpdump", "-nn", "-tt", "-r", pcap, flt], capture_output=True,
                         text=True)
    if out.returncode:
        print("tcpdump refused the filter of %s: %s" % (name, out.stderr.strip())); bad += 1
        continue
    bpf = {int(float(l.split()[0])) - 1700000000 + 1 for l in out.stdout.splitlines() if l}
    rows = subprocess.run([triage, "u32", "test", "-m", "u32", "--u32", expr, "--verdicts",
                           pcap], capture_output=True, text=True, check=True).stdout.split()[1:]
    ours, seen = set(), 0
    for row in rows:
        num, v = row.split(",")
        if v == "-":
            bpf.discard(int(num))  # dropped by ip_rcv(); BPF sees it anyway
            continue
        seen += 1
        if v == "1":
            ours.add(int(num))
    compared += seen
    if ours != bpf:
        bad += 1
        print("DIFFER %s: triage only %s, tcpdump only %s" % (name, sorted(ours - bpf),
                                                              sorted(bpf - ours)))
print("tcpdump oracle: %d verdicts compared, %d rules disagree" % (compared, bad))
sys.exit(1 if bad or not compared else 0)
PY
