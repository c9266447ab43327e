#!/usr/bin/env python3
"""What a recipe is meant to match, decided by parsing each packet in Python
(independently of the rule text): the oracle for triage u32 recipe.

  intent.py PCAP KIND [ARG...]   prints 1-based frame numbers, one a line
KIND: tls-client-hello [SNI] | dns-query NAME TYPE [ipv6]
"""
import struct
import sys


def frames(path):
    data = open(path, "rb").read()
    off = 24
    while off + 16 <= len(data):
        _, _, caplen, _ = struct.unpack("<IIII", data[off:off + 16])
        yield data[off + 16:off + 16 + caplen]
        off += 16 + caplen


def ip_of(fr):
    etype, = struct.unpack("!H", fr[12:14])
    ip = fr[14:]
    if etype == 0x0800 and len(ip) >= 20:
        ihl = (ip[0] & 15) * 4
        tot, frag = struct.unpack("!HH", ip[2:4] + ip[6:8])
        words = struct.unpack("!%dH" % (ihl // 2), ip[:ihl])
        total = sum(words)
        while total >> 16:
            total = (total & 0xFFFF) + (total >> 16)
        if frag & 0x1FFF or total != 0xFFFF:  # fragments; frames ip_rcv() drops
            return None
        return 4, ip[9], ip[ihl:tot]
    if etype == 0x86DD and len(ip) >= 40:
        return 6, ip[6], ip[40:40 + struct.unpack("!H", ip[4:6])[0]]
    return None


def sni_of(hs):
    """server_name of a ClientHello handshake body, or None."""
    try:
        p = 4 + 2 + 32
        p += 1 + hs[p]
        p += 2 + struct.unpack("!H", hs[p:p + 2])[0]
        p += 1 + hs[p]
        end = p + 2 + struct.unpack("!H", hs[p:p + 2])[0]
        p += 2
        while p + 4 <= end:
            etype, elen = struct.unpack("!HH", hs[p:p + 4])
            if etype == 0:
                nlen = struct.unpack("!H", hs[p + 7:p + 9])[0]
                return hs[p + 9:p + 9 + nlen].decode("latin-1")
            p += 4 + elen
    except (IndexError, struct.error):
        pass
    return None


def tls_client_hello(l4, sni):
    if len(l4) < 20:
        return False
    dport, = struct.unpack("!H", l4[2:4])
    pay = l4[(l4[12] >> 4) * 4:]
    if dport != 443 or len(pay) < 6 or pay[0] != 0x16 or pay[1] != 3 or pay[5] != 1:
        return False
    if sni is None:
        return True
    got = sni_of(pay[5:])
    return got is not None and got.lower() == sni.lower()


def dns_query(l4, name, qtype):
    if len(l4) < 8 + 12 or struct.unpack("!H", l4[2:4])[0] != 53:
        return False
    msg = l4[8:]
    if msg[2] & 0x80:
        return False
    p, labels = 12, []
    while p < len(msg) and msg[p] != 0:
        labels.append(msg[p + 1:p + 1 + msg[p]].decode("latin-1"))
        p += 1 + msg[p]
    if p + 3 > len(msg):
        return False
    got_type, = struct.unpack("!H", msg[p + 1:p + 3])
    return ".".join(labels).lower() == name.lower().rstrip(".") and got_type == qtype


TYPES = {"A": 1, "AAAA": 28, "MX": 15, "HTTPS": 65, "TXT": 16, "NS": 2}


def main():
    path, kind = sys.argv[1], sys.argv[2]
    for num, fr in enumerate(frames(path), 1):
        ip = ip_of(fr)
        if not ip:
            continue
        fam, proto, l4 = ip
        if kind == "tls-client-hello":
            ok = fam == 4 and proto == 6 and tls_client_hello(
                l4, sys.argv[3] if len(sys.argv) > 3 else None)
        else:
            want6 = len(sys.argv) > 5 and sys.argv[5] == "ipv6"
            ok = fam == (6 if want6 else 4) and proto == 17 and dns_query(
                l4, sys.argv[3], TYPES[sys.argv[4]])
        if ok:
            print(num)


if __name__ == "__main__":
    main()
