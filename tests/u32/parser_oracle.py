#!/usr/bin/env python3
"""Parser oracle: runs the real iptables on u32 and string match arguments
and compares its verdict (accepted / refused by the parser / refused by the
kernel), its message and, for accepted u32 rules, its -S print form with
triage's.

  parser_oracle.py NETNS TRIAGE EMPTY_PCAP
"""
import random
import re
import subprocess
import sys

PREFIX = re.compile(r"^iptables v[0-9.]+ \(nf_tables\): ")


def u32_cases():
    fixed = ["0", "0=1&&", "", "0=", "=1", "0=1&&=1", "0 < 2 = 1", " 0 > > 2 = 1", "0 ^ 1 = 1",
             "0 1=1", "0=-1", "0=1,", "0@@4=1", "0 >>= 1", "0&1&2&3&4&5&6&7&8&9&10=0",
             "0&1&2&3&4&5&6&7&8&9=0", "0 & 0xff = 1 & 2", "0=&&1=1", "0=1 2", "0=0x",
             "0=1,2,3,4,5,6,7,8,9,10", "0=1,2,3,4,5,6,7,8,9,10,11", "&&".join(["0=0"] * 10),
             "&&".join(["0=0"] * 11), "&&".join(["0=0"] * 12), "0<<32=1", "0>>31=1",
             "0>>32=0", "0<<255=0", "010=8", "08=1", "+4=1", "0=4294967295", "0=4294967296",
             "0x=1", "0X10=0x10", "0=1:", "0=:1", "0=1 : 2", "0 = 1 , 2", "\t0\t=\t1\t",
             "0>>22&0x3C@ 12>>26&0x3C@ 0>>24 & 0xFF=0x16 && 0>>22&0x3C@ 12>>26&0x3C@ 2>>24 & "
             "0xFF=0x01", "0=1;", "0=1 &&", "0=1 & &0=1", "0@ 4 = 1", "0 @4=1", "0=0x1g",
             "0=5:3", "00=0", "0=00", "0=0xFFFFFFFF", "0=0x100000000", "0 =- 1", "0=+-1",
             "0=1&&0", "0=1&&0=", "4&0x1FFF=0&&0>>22&0x3C@0>>16=53", "0&=1", "0<<=1"]
    rnd = random.Random(7)
    toks = ["0", "1", "4", "12", "0x", "0x1F", "0xFF", "010", "08", "+3", "-1", " ", "  ", "&",
            "<<", ">>", "<", ">", "@", "=", ":", ",", "&&", "4294967295", "4294967296",
            "0xffffffff", "\t", "a", "32", "31"]
    cases = list(fixed)
    for _ in range(170):
        if rnd.random() < 0.5:
            s = "".join(rnd.choice(toks) for _ in range(rnd.randrange(1, 12)))
        else:  # a valid expression with one mutation
            s = "0>>22&0x3C@12>>26&0x3C@0>>24=0x16&&6&0xFF=6,17:20"
            k = rnd.randrange(len(s))
            s = s[:k] + rnd.choice(toks) + s[k + rnd.randrange(0, 3):]
        cases.append(s)
    return [["-m", "u32", "--u32", c] for c in cases] + [
        ["-m", "u32", "!", "--u32", "0=1"], ["-m", "u32"], ["-m", "u32", "--u32"],
        ["-m", "u32", "--u32", "0=1", "--u32", "0=2"]]


def string_cases():
    hexes = ["|41 42|", "| 41|", "|41 |", "|41  42|", "|4 1|", "|41||42|", "|41|\\x", "|41|\\",
             "abc|", "|41 ", "|41", "|414|", "|4|", "||", "|41x", "\\|", "", "|4g|",
             "|41|\\|", "a\\", "\\", "|00 0001|", "|03|www|07|example|03|com|00 0001|",
             "|" + "41" * 127 + "|", "|" + "41" * 128 + "|", "A" * 128, "A" * 129,
             "|" + " ".join(["41"] * 128), "|41\\42|"]
    out = [["-m", "string", "--algo", "bm", "--hex-string", h] for h in hexes]
    out += [["-m", "string", "--algo", "kmp", "--string", s] for s in ["x", "", "A" * 128,
                                                                      "A" * 129, "a b"]]
    out += [
        ["-m", "string", "--string", "x"],
        ["-m", "string", "--algo", "bm"],
        ["-m", "string", "--algo", "BM", "--string", "x"],
        ["-m", "string", "--algo", "fsm", "--string", "x"],
        ["-m", "string", "--algo", "xyz", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--from", "70000", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--to", "-1", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--from", "10", "--to", "5", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--from", "5", "--to", "5", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--from", "0x10", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--hex-string", "|41|"],
        ["-m", "string", "--algo", "bm", "--hex-string", "|41|", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--string", "y"],
        ["-m", "string", "--algo", "bm", "!", "--icase", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--icase", "!", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--algo", "kmp", "--string", "x"],
        ["-m", "u32", "--u32", "0=1", "--algo", "bm"],
        ["-m", "u32", "--u32", "0=1", "--foo"],
        ["-p", "tcp", "--dport", "443", "-m", "u32", "--u32", "0=1"],
        ["--dport", "443"],
        ["-p", "udp", "--sport", "1:2", "!", "--dport", "53"],
        ["-p", "udp", "--dport", "70000"],
        ["!", "-f", "-p", "udp"],
        ["-p", "udp", "--dport", "65536:3"],
        ["-p", "udp", "--dport", "0x10"],
        ["-p", "udp", "--dport", ":100"],
        ["-p", "tcp", "--sport", "https"],
        ["-m", "u32", "--u32", "0=1", "-m", "u32", "--u32", "0=2"],
        ["--u32", "0=1", "-m", "u32"],
        ["-m", "u32", "-m", "string", "--algo", "bm", "--string", "x", "--u32", "0=1"],
        ["-m", "string", "--algo", "kmp", "--string", "x", "-m", "string", "--algo", "bm",
         "--hex-string", "|00|"],
        ["-m", "u32", "--u32", "0=1", "!"],
        ["-m", "u32", "!", "!", "--u32", "0=1"],
        ["-m", "nosuchmatch"],
        ["-m", "string", "--algo", "bm", "--from", "", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--to", "65535", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--to", "65536", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--from", "+5", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--from", " 5", "--string", "x"],
        # the order of the final checks: the pattern first, then --algo, then exclusions
        ["-m", "string"],
        ["-m", "string", "--icase"],
        ["-m", "string", "--string", "x", "--hex-string", "|41|"],
        ["-m", "string", "--algo", "bm", "--hex-string", "|41|", "--from", "zz", "--string",
         "x"],
        # getopt's missing argument, without the extension's name
        ["-m", "string", "--algo"],
        ["-m", "string", "--algo", "bm", "--string"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--from"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--from", "1", "--from"],
        ["-m", "u32", "--u32", "0=1", "--u32"],
        ["-m", "comment", "--comment"],
        ["-m"],
        ["-p"],
        ["-p", "tcp", "--dport"],
        # every option the matches take once, repeated (with and without '!')
        ["-m", "string", "--algo", "bm", "--string", "x", "--from", "1", "--from", "2"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--from", "1", "--from", "zz"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--from", "1", "!", "--from", "2"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--to", "9", "--to", "10"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--icase", "--icase"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--icase", "!", "--icase"],
        ["-m", "string", "--algo", "bm", "--icase", "--from", "1", "--icase", "--string", "x"],
        ["-m", "string", "--algo", "bm", "!", "--algo", "kmp", "--string", "x"],
        ["-m", "string", "--algo", "bm", "--hex-string", "|41|", "--hex-string", "|42|"],
        ["-m", "string", "--algo", "bm", "--string", "x", "--hex-string", "|41|", "--string",
         "y"],
        ["-m", "u32", "--u32", "0=1", "!", "--u32", "0=2"],
        ["-m", "comment", "--comment", "a", "-m", "u32", "--u32", "0=1", "--comment", "b"],
        ["-m", "comment", "--comment", "a", "-m", "comment", "--comment", "b", "-m", "u32",
         "--u32", "0=1"],
        ["-p", "tcp", "-p", "udp"],
        ["-p", "tcp", "--dport", "1", "-p", "udp"],
        ["-f", "-f", "-p", "udp"],
        ["!", "-f", "-f", "-p", "udp"],
        ["-p", "tcp", "--dport", "1", "--dport", "2"],
        ["-p", "tcp", "--dport", "1", "!", "--destination-port", "2"],
        ["-p", "tcp", "--sport", "1", "--sport", "zz"],
        ["-p", "udp", "--sport", "1", "--source-port", "2"],
        ["-p", "udp", "--dport", "1", "!", "--dport", "zz"],
    ]
    return out


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stderr, r.stdout


def first_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0] if lines else ""


U32_PRINT = re.compile(r'--u32 "([^"]*)"')


def chain_rules(ns):
    """The -S lines of every rule in the chain, in the order they were appended."""
    rc, err, out = run(["ip", "netns", "exec", ns, "iptables", "-t", "raw", "-S", "PREROUTING"])
    if rc:
        sys.exit("parser oracle: iptables -S failed: %s" % err.strip())
    return [l for l in out.splitlines() if l.startswith("-A PREROUTING ")]


def main():
    ns, triage, pcap = sys.argv[1:4]
    # every Nth list only (the ASan pass: see parser-oracle.t)
    stride = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    compared = bad = 0
    # Every list iptables accepts stays in the chain (its print form does not
    # depend on the rules before it); one -S at the end reads them all, in
    # order, instead of an -S and a flush per list (two iptables runs each).
    appended = []  # per rule in the chain: (args, compare its print form, triage's)
    run(["ip", "netns", "exec", ns, "iptables", "-t", "raw", "-F", "PREROUTING"])
    for k, args in enumerate(u32_cases() + string_cases()):
        if k % stride:
            continue
        krc, kerr, _ = run(["ip", "netns", "exec", ns, "iptables", "-t", "raw", "-A",
                            "PREROUTING"] + args)
        trc, terr, _ = run([triage, "u32", "test"] + args + ["--", pcap])
        kmsg = PREFIX.sub("", first_line(kerr)).strip()
        tmsg = re.sub(r"^triage u32: rule1: ", "", first_line(terr)).strip()
        compared += 1
        problem = None
        if krc == 0:
            check, tc = False, None
            if trc != 0:
                problem = "iptables accepts, triage refuses: %s" % tmsg
            elif args[:2] == ["-m", "u32"] and args[2] == "--u32":
                _, _, tout = run([triage, "u32", "explain", args[3]])
                m = U32_PRINT.search(tout)
                check, tc = True, m and m.group(1)
            appended.append((args, check, tc))
        elif krc == 2:
            if trc != 2 or tmsg != kmsg:
                problem = "iptables rc 2 %r, triage rc %d %r" % (kmsg, trc, tmsg)
        elif krc == 4:
            errno_text = re.search(r"\(([^)]*)\)", kmsg)
            if trc != 2 or "kernel refuses" not in tmsg or not errno_text \
                    or "(%s)" % errno_text.group(1) not in tmsg:
                problem = "kernel refusal %r, triage rc %d %r" % (kmsg, trc, tmsg)
        else:
            if trc == 0:
                problem = "iptables rc %d %r, triage accepts" % (krc, kmsg)
        if problem:
            bad += 1
            print("DIFFER %r: %s" % (args, problem))
    # iptables' print form of each accepted u32 list against triage explain's
    rules = chain_rules(ns)
    if len(rules) != len(appended):
        sys.exit("parser oracle: %d lists accepted, %d rules in the chain"
                 % (len(appended), len(rules)))
    for (args, check, tc), line in zip(appended, rules):
        if not check:
            continue
        m = U32_PRINT.search(line)
        kc = m.group(1) if m else None
        if not tc or tc != kc:
            bad += 1
            print("DIFFER %r: print form: iptables %r, triage %r" % (args, kc, tc))
    print("parser oracle: %d argument lists compared with iptables, %d disagreements"
          % (compared, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
