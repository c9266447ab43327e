#!/usr/bin/env python3
"""Kernel check of triage u32 translate: the iptables/ip6tables originals and
their nftables translations sit side by side in the receiver's PREROUTING
(nft at priority -350, before iptables' raw table, and never dropping), every
frame of the pcaps is injected once with AF_PACKET, and each translated rule's
nft counters must equal its iptables counters.

Run inside the sender namespace:
  nft_oracle.py RX_NETNS TX_IF RX_MAC RULES TRANSLATION_JSON_IP TRANSLATION_JSON_IP6 PCAP...
Reuses kernel_oracle.py's rules reader, pcap reader and iptables loader.
"""
import json
import os
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_oracle as ko  # noqa: E402


def chain_name(name):
    return "e_" + "".join(c if c.isalnum() else "_" for c in name)


def nft_ruleset(family, translations):
    """One rule per single-rule translation; an enumerated one (rules > 1) gets
    a chain of its own, each rule counting and returning, so a packet counts
    once however many of the rules it would match."""
    lines = ["table %s u32nft {" % family]
    pre = [" chain pre { type filter hook prerouting priority -350; policy accept;",
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
    rx_ns, tx_if, rx_mac, rules_path, tr4, tr6 = sys.argv[1:7]
    pcaps = sys.argv[7:]
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
    sys.exit(1 if bad or translated == 0 else 0)


def socket_for(ifname):
    import socket
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    return s


if __name__ == "__main__":
    main()
