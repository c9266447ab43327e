#!/usr/bin/env python3
"""Kernel check of triage u32 translate: the iptables/ip6tables originals and
their nftables translations sit side by side in the receiver's PREROUTING
(nft at priority -350, before iptables' raw table, and never dropping), every
frame of the pcaps is injected once with AF_PACKET, and each translated rule's
nft counters must equal its iptables counters.

Then, for whole iptables command lines with -m state (the blog's TLS rule
as written), a second pass after conntrack: see ct_pass().

Run inside the sender namespace:
  nft_oracle.py RX_NETNS TX_IF RX_MAC RULES TRANSLATION_JSON_IP TRANSLATION_JSON_IP6 \
      CT_LINES CT_JSON PCAP...
CT_LINES: "NAME iptables ... -j ..." lines; CT_JSON: their translations.
Reuses kernel_oracle.py's rules reader, pcap reader and iptables loader.
"""
import json
import os
import re
import shlex
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_oracle as ko  # noqa: E402


def chain_name(name):
    return "e_" + "".join(c if c.isalnum() else "_" for c in name)


def nft_ruleset(family, translations, table="u32nft", priority=-350):
    """One rule per single-rule translation; an enumerated one (rules > 1) gets
    a chain of its own, each rule counting and returning, so a packet counts
    once however many of the rules it would match."""
    lines = ["table %s %s {" % (family, table)]
    pre = [" chain pre { type filter hook prerouting priority %d; policy accept;" % priority,
           '  counter comment "ALL"']
    for t in translations:
        if not t["exact"]:
            continue
        if t["rules"] == 1:
            pre.append('  %s counter comment "%s"' % (t["nft_rules"][0], t["name"]))
            continue
        assert t["rules"] == len(t["nft_rules"])
        lines.append(" chain %s {" % chain_name(t["name"]))
        lines += ['  %s counter return comment "%s"' % (r, t["name"]) for r in t["nft_rules"]]
        lines.append(" }")
        pre.append("  jump %s" % chain_name(t["name"]))
    lines += pre + [" }", "}", ""]
    return "\n".join(lines)


def nft_counters(ns):
    """Packets and bytes per (family, comment), summed over a chain's rules."""
    out = {}
    for family in ("ip", "ip6"):  # our tables only: listing iptables-nft's is slow
        data = json.loads(ko.netns(ns, "nft", "-j", "list", "table", family, "u32nft"))
        for item in data["nftables"]:
            rule = item.get("rule")
            if not rule or "comment" not in rule:
                continue
            cnt = next(e["counter"] for e in rule["expr"] if "counter" in e)
            key = (rule["family"], rule["comment"])
            p, b = out.get(key, (0, 0))
            out[key] = (p + cnt["packets"], b + cnt["bytes"])
    return out


def ipt_counters(ns):
    return {4: ko.counters(ns, "iptables"), 6: ko.counters(ns, "ip6tables")}


def main():
    rx_ns, tx_if, rx_mac, rules_path, tr4, tr6, ct_lines, ct_json = sys.argv[1:9]
    pcaps = sys.argv[9:]
    rules = ko.read_rules(rules_path)
    trans = {4: json.load(open(tr4))["rules"], 6: json.load(open(tr6))["rules"]}
    present = {4: set(ko.install(rx_ns, "iptables", rules, False)),
               6: set(ko.install(rx_ns, "ip6tables", rules, True))}
    # both families in one nft batch
    ko.netns(rx_ns, "nft", "-f", "-",
             input=nft_ruleset("ip", trans[4]) + nft_ruleset("ip6", trans[6]))
    sock = socket_for(tx_if)
    dst = bytes.fromhex(rx_mac.replace(":", ""))
    sent = {4: 0, 6: 0}
    for pcap in pcaps:
        for frame, wirelen in ko.read_pcap(pcap):
            if len(frame) < wirelen:
                continue  # cut short by the capture: not replayable
            etype, rest = ko.ip_family(frame)
            fam = 4 if etype == 0x0800 else 6 if etype == 0x86DD else 0
            if not fam:
                continue
            sock.send(dst + frame[6:12] + struct.pack("!H", etype) + rest)
            sent[fam] += 1
    # every frame is counted by nft's catch-all (or dropped before PREROUTING
    # for both), and nft (priority -350) sees it before iptables' raw table:
    # wait until iptables' cheap catch-all counters stop moving, then read all
    deadline, last = time.time() + 5, None
    while True:
        now = ipt_counters(rx_ns)
        now = (now[4]["ALL"], now[6]["ALL"])
        if now == last or time.time() > deadline:
            break
        last = now
        time.sleep(0.2)
    nft, ipt = nft_counters(rx_ns), ipt_counters(rx_ns)
    compared = bad = translated = enumerated = nft_rules = 0
    reasons = {}
    hits = []  # packets the enumerated translations matched: is the proof vacuous?
    for fam, name in ((4, "ip"), (6, "ip6")):
        all_nft = nft[(name, "ALL")][0]
        all_ipt = ipt[fam]["ALL"][0]
        if all_nft != all_ipt:
            bad += 1
            print("DISAGREE %s: %d packets reached nft, %d iptables" % (name, all_nft, all_ipt))
        compared += all_nft
        for t in trans[fam]:
            if t["name"] not in present[fam]:
                continue
            if not t["exact"]:
                key = t["why"]
                reasons[key] = reasons.get(key, 0) + 1
                if key == "never-matches" and ipt[fam][t["name"]][0]:
                    bad += 1  # a claim the kernel can refute too
                    print("DISAGREE %s %s: declared never to match, iptables counted %s"
                          % (name, t["name"], ipt[fam][t["name"]]))
                continue
            translated += 1
            nft_rules += t["rules"]
            if t["rules"] > 1:
                enumerated += 1
                hits.append("%s %s %d" % (name, t["name"], ipt[fam][t["name"]][0]))
            n, i = nft[(name, t["name"])], ipt[fam][t["name"]]
            if n != i:
                bad += 1
                print("DISAGREE %s %s: nft %s, iptables %s\n  nft: %s"
                      % (name, t["name"], n, i, t.get("nft", t.get("how"))))
    print("  enumerated, packets matched: " + ", ".join(hits))
    for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print("  not exact (%d): %s" % (v, k))
    print("%d translations (ip + ip6; %d of them enumerated jumps, %d nft rules in all) "
          "compared on %d packets (%d IPv4, %d IPv6 sent), %d not exact, %d disagreements"
          % (translated, enumerated, nft_rules, compared, sent[4], sent[6],
             sum(reasons.values()), bad))
    ct_bad = ct_pass(rx_ns, sock, dst, pcaps, ct_lines, json.load(open(ct_json))["rules"])
    sys.exit(1 if bad or ct_bad or translated == 0 else 0)


def matches_of(line):
    """The match words of an iptables command line: no command, chain or target."""
    words = shlex.split(line)
    assert words[0] == "iptables" and words[1] in ("-I", "-A"), line
    words = words[3:]
    return words[:words.index("-j")] if "-j" in words else words


def reply_to(ip):
    """A bare ACK back along an IPv4 TCP datagram's flow (valid IP checksum:
    ip_rcv checks it before any hook; TCP checksums are off in conntrack)."""
    ihl = (ip[0] & 15) * 4
    sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
    tcp = struct.pack("!HHIIBBHHH", dport, sport, 1, 1, 5 << 4, 0x10, 65535, 0, 0)
    hdr = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40, 1, 0, 64, 6, 0, ip[16:20],
                                ip[12:16]))
    s = sum(struct.unpack("!10H", bytes(hdr)))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    hdr[10:12] = struct.pack("!H", ~s & 0xFFFF)
    return bytes(hdr) + tcp


def mangle_counters(ns):
    out = {}
    for line in ko.netns(ns, "iptables-save", "-c", "-t", "mangle").splitlines():
        m = re.match(r"^\[(\d+):(\d+)\] -A PREROUTING .*--comment (\S+)", line)
        if m:
            out[m.group(3).strip('"')] = (int(m.group(1)), int(m.group(2)))
    return out


def ct_pass(rx_ns, sock, dst, pcaps, ct_lines, trans):
    """Rules with -m state see conntrack, which runs at priority -200 and
    brings defragmentation into the namespace, so they get a pass of their
    own after the main one: the raw table's drop and our -350 tables go,
    iptables' rule goes into mangle PREROUTING (-150) and its translation
    into an nft chain at -160. The IPv4 frames are sent, then a
    reply for each TCP flow among them (so conntrack has seen both ways),
    then the frames again: the second time their flows are ESTABLISHED.
    The per-rule counters must agree, and the rules must match something."""
    rules = [(l.split(None, 1)[0], l.split(None, 1)[1]) for l in open(ct_lines) if l.strip()]
    for tool in ("iptables", "ip6tables"):
        ko.netns(rx_ns, tool, "-t", "raw", "-F")
    ko.netns(rx_ns, "nft", "delete", "table", "ip", "u32nft")
    ko.netns(rx_ns, "nft", "delete", "table", "ip6", "u32nft")
    lines = ["*mangle", ":PREROUTING ACCEPT [0:0]", "-A PREROUTING -m comment --comment ALL"]
    lines += ["-A PREROUTING " + " ".join(ko.restore_quote(a) for a in matches_of(cmd))
              + " -m comment --comment " + name for name, cmd in rules]
    lines += ["COMMIT", ""]
    ko.netns(rx_ns, "iptables-restore", input="\n".join(lines))
    for knob in ("netfilter.nf_conntrack_checksum=0", "netfilter.nf_conntrack_tcp_be_liberal=1",
                 "ipv4.ip_forward=1", "ipv4.conf.all.rp_filter=0",
                 "ipv4.conf.u32rx.rp_filter=0"):
        ko.netns(rx_ns, "sysctl", "-qw", "net." + knob)
    # conntrack confirms an entry only when the packet leaves the hooks
    # alive (POSTROUTING), so nothing drops: every frame is forwarded out of
    # a second veth pair to a MAC nobody has (its peer's ip_rcv drops it as
    # another host's before any hook), and no local stack answers and moves
    # the TCP state on
    ip = lambda *a: ko.netns(rx_ns, "ip", *a)
    ip("addr", "flush", "dev", "u32rx")
    ip("link", "add", "u32out", "type", "veth", "peer", "name", "u32peer")
    ip("link", "set", "u32out", "up")
    ip("link", "set", "u32peer", "up")
    ip("route", "add", "default", "via", "10.201.1.2", "dev", "u32out", "onlink")
    ip("neigh", "add", "10.201.1.2", "lladdr", "02:00:00:00:00:01", "dev", "u32out",
       "nud", "permanent")
    by_name = {t["name"]: t for t in trans}
    for name, _ in rules:
        assert by_name[name]["exact"], "%s: no exact form: %s" % (name, by_name[name]["reason"])
    ko.netns(rx_ns, "nft", "-f", "-", input=nft_ruleset("ip", trans, "u32ct", -160))
    frames, flows = [], {}
    for pcap in pcaps:
        for frame, wirelen in ko.read_pcap(pcap):
            etype, ip = ko.ip_family(frame)
            if len(frame) < wirelen or etype != 0x0800:
                continue
            frames.append(dst + frame[6:12] + b"\x08\x00" + ip)
            ihl = (ip[0] & 15) * 4
            if len(ip) >= ihl + 20 >= 40 and ip[9] == 6 and not \
                    struct.unpack("!H", ip[6:8])[0] & 0x3FFF:
                flows[(ip[12:20], ip[ihl:ihl + 4])] = dst + frame[6:12] + b"\x08\x00" + \
                    reply_to(ip)
    # the replies must be in before the frames go again (the sender may
    # move between CPUs, whose backlogs drain apart): settle in between
    for batch in (frames + list(flows.values()), frames):
        for frame in batch:
            sock.send(frame)
        deadline, last = time.time() + 5, None
        while True:
            now = mangle_counters(rx_ns)["ALL"]
            if now == last or time.time() > deadline:
                break
            last = now
            time.sleep(0.2)
    ipt = mangle_counters(rx_ns)
    n = {}
    data = json.loads(ko.netns(rx_ns, "nft", "-j", "list", "table", "ip", "u32ct"))
    for item in data["nftables"]:
        rule = item.get("rule")
        if rule and "comment" in rule:
            cnt = next(e["counter"] for e in rule["expr"] if "counter" in e)
            p, b = n.get(rule["comment"], (0, 0))
            n[rule["comment"]] = (p + cnt["packets"], b + cnt["bytes"])
    bad = 0
    for name in ["ALL"] + [nm for nm, _ in rules]:
        if n.get(name) != ipt.get(name) or ipt.get(name, (0, 0))[0] == 0:
            bad += 1
            print("DISAGREE (conntrack pass) %s: nft %s, iptables %s" % (name, n.get(name),
                                                                     ipt.get(name)))
    print("conntrack pass: %d packets (%d frames twice, %d flow replies); %s"
          % (ipt["ALL"][0], len(frames), len(flows),
             ", ".join("%s %d packets in %d nft rules" % (nm, ipt[nm][0], by_name[nm]["rules"])
                       for nm, _ in rules)))
    return bad


def socket_for(ifname):
    import socket
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    return s


if __name__ == "__main__":
    main()
