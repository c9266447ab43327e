#!/usr/bin/env python3
"""Kernel oracle for triage u32 (spec 7.1): replays the Ethernet frames of a
pcap into a veth pair with AF_PACKET and reads, per frame, which rules of
the receiver's raw PREROUTING chain counted it.

Run inside the sender namespace:
  kernel_oracle.py RULES PCAP RX_NETNS TX_IF RX_MAC OUT_CSV
OUT_CSV: packet,NAME... with 1/0 per rule, '-' when the frame did not reach
PREROUTING, 'x' when the rule does not exist for that family (-f on IPv6),
's' when the frame cannot be replayed (cut short by the capture).
Written independently of the C code: shlex for the rules file, its own
pcap reader and link-layer handling.
"""
import re
import shlex
import socket
import struct
import subprocess
import sys
import time


def read_rules(path):
    rules = []
    for line in open(path):
        words = shlex.split(line, comments=True)
        if words:
            rules.append((words[0], words[1:]))
    return rules


def read_pcap(path):
    data = open(path, "rb").read()
    magic, = struct.unpack("<I", data[:4])
    assert magic == 0xA1B2C3D4, "oracle reads little-endian microsecond pcap only"
    linktype, = struct.unpack("<I", data[20:24])
    assert linktype == 1, "oracle replays Ethernet captures only"
    off, frames = 24, []
    while off + 16 <= len(data):
        _, _, caplen, wirelen = struct.unpack("<IIII", data[off:off + 16])
        frames.append((data[off + 16:off + 16 + caplen], wirelen))
        off += 16 + caplen
    return frames


def ip_family(frame):
    off = 12
    etype, = struct.unpack("!H", frame[off:off + 2])
    while etype in (0x8100, 0x88A8, 0x9100):
        off += 4
        etype, = struct.unpack("!H", frame[off:off + 2])
    return etype, frame[off + 2:]


def netns(ns, *cmd, **kw):
    r = subprocess.run(["ip", "netns", "exec", ns] + list(cmd), capture_output=True,
                       text=True, **kw)
    if r.returncode:
        sys.exit("oracle: %s failed: %s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def restore_quote(arg):
    """iptables-restore's tokenizer knows double quotes and backslashes."""
    if arg and not re.search(r'[\s"\\\'#]', arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def install(ns, tool, rules, v6):
    lines = ["*raw", ":PREROUTING ACCEPT [0:0]", "-A PREROUTING -m comment --comment ALL"]
    names = []
    for name, args in rules:
        if v6 and ("-f" in args or "--fragment" in args):
            continue
        lines.append("-A PREROUTING " + " ".join(restore_quote(a) for a in args)
                     + " -m comment --comment " + name)
        names.append(name)
    lines += ["-A PREROUTING -j DROP", "COMMIT", ""]
    netns(ns, tool + "-restore", input="\n".join(lines))
    return names


COUNTER = re.compile(r"^\[(\d+):(\d+)\] -A PREROUTING .*--comment (\S+)")


def counters(ns, tool):
    out = {}
    for line in netns(ns, tool + "-save", "-c", "-t", "raw").splitlines():
        m = COUNTER.match(line)
        if m:
            out[m.group(3).strip('"')] = (int(m.group(1)), int(m.group(2)))
    return out


def main():
    rules_path, pcap, rx_ns, tx_if, rx_mac, out_csv = sys.argv[1:7]
    rules = read_rules(rules_path)
    names = [n for n, _ in rules]
    present = {4: set(install(rx_ns, "iptables", rules, False)),
               6: set(install(rx_ns, "ip6tables", rules, True))}
    tools = {4: "iptables", 6: "ip6tables"}
    last = {4: counters(rx_ns, "iptables"), 6: counters(rx_ns, "ip6tables")}
    totals = {n: [0, 0] for n in names}
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sock.bind((tx_if, 0))
    dst = bytes.fromhex(rx_mac.replace(":", ""))
    rows = []
    for num, (frame, wirelen) in enumerate(read_pcap(pcap), 1):
        etype, rest = ip_family(frame)
        if len(frame) < wirelen:
            rows.append([str(num)] + ["s"] * len(names))
            continue
        fam = 4 if etype == 0x0800 else 6 if etype == 0x86DD else 0
        # the kernel removes VLAN tags before IP: send the untagged frame
        sock.send(dst + frame[6:12] + struct.pack("!H", etype) + rest)
        row = [str(num)]
        if fam == 0:
            rows.append(row + ["-"] * len(names))
            continue
        deadline, now = time.time() + 0.3, None
        while True:
            now = counters(rx_ns, tools[fam])
            if now["ALL"][0] != last[fam]["ALL"][0] or time.time() > deadline:
                break
            time.sleep(0.005)
        delivered = now["ALL"][0] - last[fam]["ALL"][0]
        if delivered > 1:
            sys.exit("oracle: %d packets counted for frame %d (noise)" % (delivered, num))
        for n in names:
            if n not in present[fam]:
                row.append("x")
            elif not delivered:
                row.append("-")
            else:
                dp = now[n][0] - last[fam][n][0]
                totals[n][0] += dp
                totals[n][1] += now[n][1] - last[fam][n][1]
                row.append(str(dp))
        last[fam] = now
        rows.append(row)
    with open(out_csv, "w") as fh:
        fh.write("packet," + ",".join(names) + "\n")
        for row in rows:
            fh.write(",".join(row) + "\n")
    with open(out_csv + ".totals", "w") as fh:
        for n in names:
            fh.write("%s %d %d\n" % (n, totals[n][0], totals[n][1]))


if __name__ == "__main__":
    main()
