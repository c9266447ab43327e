#!/usr/bin/env python3
"""Writes the u32 test captures (python3 standard library only).

  gen_captures.py OUTDIR            the golden corpus, in every encapsulation
  gen_captures.py --big OUTDIR      frames of 4-40 KB and bm rules across their chunk edges
  gen_captures.py --bench N FILE    N frames of mixed traffic for bench/u32.sh

Each corpus frame has a label (OUTDIR/corpus.labels: number,label) saying
what was built, so tests can check verdicts against what the packet is.
"""
import os
import random
import struct
import sys

ETH_RX = bytes.fromhex("020000000002")
ETH_TX = bytes.fromhex("020000000001")
SRC4, DST4 = bytes([10, 201, 0, 1]), bytes([10, 201, 0, 2])
SRC6 = bytes.fromhex("20010db8000000000000000000000001")
DST6 = bytes.fromhex("20010db8000000000000000000000002")


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def ipv4(proto, payload, options=b"", frag=0, ident=1, bad_csum=False, src=SRC4, dst=DST4):
    ihl = 5 + len(options) // 4
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, 20 + len(options) + len(payload),
                      ident, frag, 64, proto, 0, src, dst) + options
    c = csum(hdr) ^ (0x1234 if bad_csum else 0)
    return hdr[:10] + struct.pack("!H", c) + hdr[12:] + payload


def ipv6(nh, payload, src=SRC6, dst=DST6):
    return struct.pack("!IHBB16s16s", 0x60000000, len(payload), nh, 64, src, dst) + payload


def tcp(payload, sport=40000, dport=443, options=b"", flags=0x18):
    off = (20 + len(options)) // 4
    return struct.pack("!HHIIBBHHH", sport, dport, 1, 1, off << 4, flags, 65535, 0, 0) \
        + options + payload


def udp(payload, sport=40000, dport=53):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def eth(ip, pad_to=60, etype=None, vlans=()):
    if etype is None:
        etype = 0x86DD if ip and ip[0] >> 4 == 6 else 0x0800
    tags = b"".join(struct.pack("!HH", tpid, vid) for tpid, vid in vlans)
    frame = ETH_RX + ETH_TX + tags + struct.pack("!H", etype) + ip
    if len(frame) < pad_to:
        frame += bytes(range(0x41, 0x41 + pad_to - len(frame)))  # visible junk trailer
    return frame


def tls_hello(htype=1, rec_ver=0x0301, sni=None, pad=0):
    body = struct.pack("!H", 0x0303) + bytes(range(32)) + b"\x00"
    if htype == 1:
        body += struct.pack("!H", 4) + bytes.fromhex("13011302") + b"\x01\x00"
        ext = b""
        if sni:
            name = sni.encode()
            entry = b"\x00" + struct.pack("!H", len(name)) + name
            ext += struct.pack("!HH", 0, len(entry) + 2) + struct.pack("!H", len(entry)) + entry
        if pad:
            ext += struct.pack("!HH", 21, pad) + bytes(pad)
        body += struct.pack("!H", len(ext)) + ext
    else:
        body += bytes.fromhex("1301") + b"\x00" + struct.pack("!H", 0)
    hs = bytes([htype]) + struct.pack("!I", len(body))[1:] + body
    return struct.pack("!BHH", 0x16, rec_ver, len(hs)) + hs


def dns_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        out += bytes([len(label)]) + label.encode()
    return out + b"\x00"


def dns(name, qtype=1, response=False, ident=0x1234):
    flags = 0x8180 if response else 0x0100
    q = dns_name(name) + struct.pack("!HH", qtype, 1)
    msg = struct.pack("!HHHHHH", ident, flags, 1, 1 if response else 0, 0, 0) + q
    if response:
        msg += b"\xc0\x0c" + struct.pack("!HHIH", qtype, 1, 60, 4) + bytes([192, 0, 2, 1])
    return msg


def corpus():
    """(label, frame) pairs; frames are Ethernet."""
    f = []
    add = lambda label, ip, **kw: f.append((label, eth(ip, **kw)))
    add("tls-ch-0301", ipv4(6, tcp(tls_hello(1, 0x0301, "www.example.com"))))
    add("tls-ch-0303", ipv4(6, tcp(tls_hello(1, 0x0303, "example.org"))))
    add("tls-sh-0301", ipv4(6, tcp(tls_hello(2, 0x0301), sport=443, dport=40000)))
    add("tls-ch-tcpopts", ipv4(6, tcp(tls_hello(1, 0x0303, "www.example.com"),
                                      options=bytes.fromhex("020405b4010303070101080a"))))
    add("tls-ch-ipopts", ipv4(6, tcp(tls_hello(1, 0x0301, "www.example.com")),
                              options=bytes.fromhex("9404000001010100")))
    add("tcp-3byte", ipv4(6, tcp(bytes.fromhex("160301"))))
    add("tcp-sni-other-port", ipv4(6, tcp(tls_hello(1, 0x0303, "www.example.com"), dport=8443)))
    add("udp-A", ipv4(17, udp(b"A", dport=9999)))
    add("udp-AAAA", ipv4(17, udp(b"AAAA", dport=9999)))
    add("dns-A-www.example.com", ipv4(17, udp(dns("www.example.com", 1))))
    add("dns-AAAA-www.example.com", ipv4(17, udp(dns("www.example.com", 28))))
    add("dns-A-WWW.EXAMPLE.COM", ipv4(17, udp(dns("WWW.EXAMPLE.COM", 1))))
    add("dns-A-wWw.ExAmPlE.cOm", ipv4(17, udp(dns("wWw.ExAmPlE.cOm", 1))))
    add("dns-A-www.netfilter.org", ipv4(17, udp(dns("www.netfilter.org", 1))))
    add("dns-HTTPS-www.example.com", ipv4(17, udp(dns("www.example.com", 65))))
    add("dns-MX-example.com", ipv4(17, udp(dns("example.com", 15))))
    add("dns-CAA-www.example.com", ipv4(17, udp(dns("www.example.com", 257))))
    add("dns-A-www.example.com.attacker.net", ipv4(17, udp(dns("www.example.com.attacker.net"))))
    add("dns-A-myexample.com", ipv4(17, udp(dns("myexample.com", 1))))
    add("dns-resp-A-www.example.com", ipv4(17, udp(dns("www.example.com", 1, True), 53, 40000)))
    add("dns-A-www.example.com-ipopts", ipv4(17, udp(dns("www.example.com", 1)),
                                             options=bytes.fromhex("01010100")))
    add("udp-pattern-at-18", ipv4(17, udp(b"xx", sport=0x4e21, dport=0x4e21)))
    add("udp-ABCDEF-at-28", ipv4(17, udp(b"ABCDEF" + b"z" * 10, dport=9999)))
    add("udp-cafe9", ipv4(17, udp(b"caf\xe9", dport=9999)))
    add("udp-DFDF41", ipv4(17, udp(b"\xdf\xdf\x41", dport=9999)))
    add("udp-BFBF41", ipv4(17, udp(b"\xbf\xbf\x41", dport=9999)))
    add("udp-FF-F7-D7", ipv4(17, udp(b"\xff\xf7\xd7\xdf", dport=9999)))
    add("ip-only-20", ipv4(253, b""))
    add("ip-21", ipv4(253, b"\x16"))
    add("ip-23", ipv4(253, b"\x16\x03\x01"))
    add("ip-24", ipv4(253, b"\x16\x03\x01\x00"))
    # padding: a 29-byte datagram whose Ethernet trailer holds a pattern
    add("pad-29", ipv4(17, udp(b"A"), ident=7), pad_to=60)
    f.append(("pad-pattern", eth(ipv4(17, udp(b"ok", dport=9999)), pad_to=14) + b"ABCDEF" * 4))
    # fragments of one UDP datagram, the name crossing the cut
    body = udp(b"HEAD" * 5 + b"ABCDEF" + b"TAIL" * 5, dport=9999)
    add("frag-first", ipv4(17, body[:32], frag=0x2000, ident=99))
    add("frag-second", ipv4(17, body[32:], frag=4, ident=99))
    # large packets: AF_PACKET makes frames >= 4080 bytes non-linear at the IP header
    for total in (4079, 4080, 4945):
        iplen = total - 14
        pay = b"q" * (iplen - 28)
        pkt = bytearray(ipv4(17, udp(pay, dport=9999)))
        add("big-%d" % total, bytes(pkt))
    add("bad-checksum", ipv4(17, udp(dns("www.example.com")), bad_csum=True))
    add("ipv6-dns-A-www.example.com", ipv6(17, udp(dns("www.example.com", 1))))
    add("ipv6-dns-AAAA-www.example.com", ipv6(17, udp(dns("www.example.com", 28))))
    add("ipv6-tls-ch-0303", ipv6(6, tcp(tls_hello(1, 0x0303, "www.example.com"))))
    add("ipv6-udp-AAAA", ipv6(17, udp(b"AAAA", dport=9999)))
    add("ipv6-short", ipv6(59, b""))
    dstopts = bytes([17, 0, 1, 4, 0, 0, 0, 0])  # next header UDP, PadN
    add("ipv6-dstopts-dns", ipv6(60, dstopts + udp(dns("www.example.com", 1))))
    hbh = bytes([17, 0, 1, 4, 0, 0, 0, 0])
    add("ipv6-hbh-udp", ipv6(0, hbh + udp(b"AAAA", dport=9999)))
    v6body = udp(b"HEAD" * 5 + b"ABCDEF" + b"TAIL" * 5, dport=9999)
    add("ipv6-frag-first", ipv6(44, bytes([17, 0, 0, 1, 0, 0, 0, 7]) + v6body[:32]))
    add("ipv6-frag-second", ipv6(44, bytes([17, 0, 0, 32, 0, 0, 0, 7]) + v6body[32:]))
    rnd = random.Random(1)
    for k in range(40):
        alpha = b"ABab\x16\x03\x01\xdf\xff\xbf\x00"
        pay = bytes(rnd.choice(alpha) for _ in range(rnd.randrange(0, 90)))
        opts = bytes(4 * rnd.randrange(0, 3)) if rnd.random() < 0.3 else b""
        if rnd.random() < 0.5:
            ip = ipv4(17, udp(pay, dport=rnd.choice([53, 443, 9999])), options=opts)
        else:
            ip = ipv4(6, tcp(pay, dport=rnd.choice([53, 443])), options=opts)
        add("random-%d" % k, ip)
    f.append(("arp", ETH_RX + ETH_TX + b"\x08\x06" + bytes(46)))
    return f


def fragments(ip, cuts, order=None):
    """Splits an IPv4 datagram at the given data offsets (multiples of 8)."""
    ihl = (ip[0] & 15) * 4
    hdr, data = ip[:ihl], ip[ihl:]
    ident = struct.unpack("!H", ip[4:6])[0]
    bounds = [0] + list(cuts) + [len(data)]
    out = []
    for k in range(len(bounds) - 1):
        more = 0x2000 if k + 2 < len(bounds) else 0
        out.append(ipv4(ip[9], data[bounds[k]:bounds[k + 1]], options=hdr[20:],
                        frag=more | bounds[k] // 8, ident=ident))
    return [out[k] for k in (order or range(len(out)))]


def fragments6(nh, data, cuts, ident, order=None, prefix=b""):
    """IPv6 fragments of data (the fragmentable part) after optional headers."""
    bounds = [0] + list(cuts) + [len(data)]
    out = []
    for k in range(len(bounds) - 1):
        more = 1 if k + 2 < len(bounds) else 0
        fh = struct.pack("!BBHI", nh, 0, bounds[k] | more, ident)
        # prefix: an extension header whose next-header byte already says 44
        out.append(ipv6(60 if prefix else 44, prefix + fh + data[bounds[k]:bounds[k + 1]]))
    return [out[k] for k in (order or range(len(out)))]


def frag_corpus():
    """Fragment groups for the conntrack (defragmentation) phase."""
    f = []
    add = lambda label, ip: f.append((label, eth(ip)))
    dnsq = ipv4(17, udp(dns("www.example.com", 1)), ident=501)
    for k, p in enumerate(fragments(dnsq, [24])):
        add("dns-frag-%d" % k, p)
    tls = ipv4(6, tcp(tls_hello(1, 0x0303, "www.example.com")), ident=502)
    for k, p in enumerate(fragments(tls, [16, 32])):
        add("tls-frag3-%d" % k, p)
    add("plain-udp", ipv4(17, udp(b"ABCDEF", dport=9999), ident=503))
    body = ipv4(17, udp(b"HEAD" * 5 + b"ABCDEF" + b"TAIL" * 5, dport=9999), ident=504)
    for k, p in enumerate(fragments(body, [32], order=[1, 0])):
        add("rev-frag-%d" % k, p)
    add("lone-first", fragments(ipv4(17, udp(b"x" * 40), ident=505), [16])[0])
    add("lone-second", fragments(ipv4(17, udp(b"y" * 40), ident=506), [16])[1])
    ov = ipv4(17, udp(b"z" * 40, dport=9999), ident=507)
    a, b = fragments(ov, [16])
    add("overlap-0", a)
    add("overlap-1", ipv4(17, ov[20 + 8:], frag=1, ident=507))
    add("overlap-2", b)
    for k, p in enumerate(fragments(ov, [24])):  # same identification, after the kill
        add("overlap-retry-%d" % k, p)
    big = ipv4(17, udp(b"ABCDEF" * 20, dport=9999), ident=508)
    for k, p in enumerate(fragments(big, [40, 64, 104])):
        add("frag4-%d" % k, p)
    add("ipv6-plain", ipv6(17, udp(b"ABCDEF", dport=9999)))
    d6 = udp(dns("www.example.com", 1))
    for k, p in enumerate(fragments6(17, d6, [16], 601)):
        add("ipv6-dns-frag-%d" % k, p)
    b6 = udp(b"HEAD" * 5 + b"ABCDEF" + b"TAIL" * 5, dport=9999)
    for k, p in enumerate(fragments6(17, b6, [32], 602, order=[1, 0])):
        add("ipv6-rev-frag-%d" % k, p)
    dst = bytes([44, 0, 1, 4, 0, 0, 0, 0])  # destination options before the fragment header
    for k, p in enumerate(fragments6(17, b6, [24], 603, prefix=dst)):
        add("ipv6-dstopt-frag-%d" % k, p)
    add("ipv6-odd-first", fragments6(17, b6 + b"x", [13], 604)[0])
    # an empty fragment (end == offset) between the two halves: IPv4 kills
    # the queue (the second half is then alone), IPv6 drops only the empty one
    em = ipv4(17, udp(b"e" * 40, dport=9999), ident=509)
    a, b = fragments(em, [16])
    add("empty-0", a)
    add("empty-1", ipv4(17, b"", frag=0x2000 | 2, ident=509))
    add("empty-2", b)
    for k, p in enumerate(fragments(em, [24])):  # same identification, after the kill
        add("empty-retry-%d" % k, p)
    e6 = udp(b"HEAD" * 5 + b"EMPTY" + b"TAIL" * 5, dport=9999)
    a, b = fragments6(17, e6, [16], 606)
    add("ipv6-empty-0", a)
    add("ipv6-empty-1", ipv6(44, struct.pack("!BBHI", 17, 0, 16 | 1, 606)))
    add("ipv6-empty-2", b)
    # duplicates: a fragment inside what a queue already holds is dropped
    # and the queue kept (inet_frag_queue_insert's IPFRAG_DUP), unlike an
    # overlap, which kills it
    du = ipv4(17, udp(b"d" * 40, dport=9999), ident=510)
    a, b = fragments(du, [16])
    for label, p in (("dup-first-0", a), ("dup-first-1", a), ("dup-first-2", b)):
        add(label, p)
    du = ipv4(17, udp(b"D" * 40, dport=9999), ident=511)
    a, b = fragments(du, [16])
    for label, p in (("dup-last-0", b), ("dup-last-1", b), ("dup-last-2", a)):
        add(label, p)
    du = ipv4(17, udp(b"R" * 56, dport=9999), ident=512)
    a, b, c = fragments(du, [16, 32])
    inside = ipv4(17, b"x" * 16, frag=0x2000 | 1, ident=512)  # [8, 24): inside the run [0, 32)
    for label, p in (("dup-run-0", a), ("dup-run-1", b), ("dup-run-2", inside), ("dup-run-3", c)):
        add(label, p)
    # a second final fragment with another end: the queue is killed (IPv4)
    du = ipv4(17, udp(b"E" * 40, dport=9999), ident=513)
    a, b = fragments(du, [16])
    short = ipv4(17, du[20 + 16:-8], frag=2, ident=513)
    for label, p in (("two-ends-0", b), ("two-ends-1", short), ("two-ends-2", a)):
        add(label, p)
    # a fragment past the end a final fragment set (IPv4: the queue is killed)
    du = ipv4(17, udp(b"P" * 40, dport=9999), ident=514)
    a, b = fragments(du, [16])
    past = ipv4(17, b"p" * 40, frag=0x2000 | 2, ident=514)
    for label, p in (("past-end-0", b), ("past-end-1", past), ("past-end-2", a)):
        add(label, p)
    d6 = udp(b"HEAD" * 5 + b"DUPS" + b"TAIL" * 5, dport=9999)
    a, b = fragments6(17, d6, [16], 610)
    past = ipv6(44, struct.pack("!BBHI", 17, 0, 16 | 1, 610) + b"p" * 40)
    for label, p in (("ipv6-past-end-0", b), ("ipv6-past-end-1", past), ("ipv6-past-end-2", a)):
        add(label, p)
    a, b = fragments6(17, d6, [16], 607)
    for label, p in (("ipv6-dup-first-0", a), ("ipv6-dup-first-1", a), ("ipv6-dup-first-2", b)):
        add(label, p)
    a, b = fragments6(17, d6, [16], 608)
    for label, p in (("ipv6-dup-last-0", b), ("ipv6-dup-last-1", b), ("ipv6-dup-last-2", a)):
        add(label, p)
    a, b = fragments6(17, d6, [16], 609)
    short = ipv6(44, struct.pack("!BBHI", 17, 0, 16, 609) + d6[16:-8])
    for label, p in (("ipv6-two-ends-0", b), ("ipv6-two-ends-1", short), ("ipv6-two-ends-2", a)):
        add(label, p)
    add("ipv6-atomic", ipv6(44, struct.pack("!BBHI", 17, 0, 0, 605) + udp(b"ABCDEF", dport=9999)))
    return f


def pcap_bytes(frames, linktype, snaplen=65535):
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype)]
    for k, fr in enumerate(frames):
        cap = fr[:snaplen]
        out.append(struct.pack("<IIII", 1700000000 + k, 0, len(cap), len(fr)) + cap)
    return b"".join(out)


def pcapng_bytes(frames, linktype):
    def block(btype, body):
        body += bytes(-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)
    out = [block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)),
           block(1, struct.pack("<HHI", linktype, 0, 65535))]
    for k, fr in enumerate(frames):
        ts = (1700000000 + k) * 1000000
        out.append(block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, len(fr),
                                         len(fr)) + fr))
    return b"".join(out)


def strip_eth(fr):
    return struct.unpack("!H", fr[12:14])[0], fr[14:]


def ip_only(fr):
    """The IP datagram without Ethernet header or trailer."""
    etype, rest = strip_eth(fr)
    if etype == 0x0800:
        return rest[:struct.unpack("!H", rest[2:4])[0]]
    return rest[:40 + struct.unpack("!H", rest[4:6])[0]]


def write(path, data):
    with open(path, "wb") as fh:
        fh.write(data)


def write_corpus(outdir):
    os.makedirs(outdir, exist_ok=True)
    items = corpus()
    frames = [fr for _, fr in items]
    write(os.path.join(outdir, "corpus.pcap"), pcap_bytes(frames, 1))
    write(os.path.join(outdir, "corpus.pcapng"), pcapng_bytes(frames, 1))
    with open(os.path.join(outdir, "corpus.labels"), "w") as fh:
        for k, (label, _) in enumerate(items, 1):
            fh.write("%d,%s\n" % (k, label))
    ipf = [fr for label, fr in items if label != "arp"]
    sll, sll2, raw, vlan, qinq = [], [], [], [], []
    for fr in ipf:
        etype, rest = strip_eth(fr)
        sll.append(struct.pack("!HHH8sH", 0, 1, 6, ETH_TX + b"\0\0", etype) + rest)
        sll2.append(struct.pack("!HHIHBB8s", etype, 0, 2, 1, 0, 6, ETH_TX + b"\0\0") + rest)
        raw.append(ip_only(fr))
        vlan.append(eth(rest, pad_to=0, etype=etype, vlans=[(0x8100, 5)]))
        qinq.append(eth(rest, pad_to=0, etype=etype, vlans=[(0x88A8, 100), (0x8100, 5)]))
    write(os.path.join(outdir, "corpus-sll.pcap"), pcap_bytes(sll, 113))
    write(os.path.join(outdir, "corpus-sll2.pcapng"), pcapng_bytes(sll2, 276))
    write(os.path.join(outdir, "corpus-raw.pcap"), pcap_bytes(raw, 101))
    write(os.path.join(outdir, "corpus-vlan.pcap"), pcap_bytes(vlan, 1))
    write(os.path.join(outdir, "corpus-qinq.pcapng"), pcapng_bytes(qinq, 1))
    write(os.path.join(outdir, "corpus-qinq.pcap"), pcap_bytes(qinq, 1))
    write(os.path.join(outdir, "corpus-trunc.pcap"), pcap_bytes(frames, 1, snaplen=70))
    fr = frag_corpus()
    write(os.path.join(outdir, "frag.pcap"), pcap_bytes([x for _, x in fr], 1))
    with open(os.path.join(outdir, "frag.labels"), "w") as fh:
        for k, (label, _) in enumerate(fr, 1):
            fh.write("%d,%s\n" % (k, label))


def write_bench(n, path):
    mix = [fr for label, fr in corpus() if not label.startswith("big")][:32]
    with open(path, "wb") as fh:
        fh.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        recs = [struct.pack("<IIII", 1700000000, 0, len(fr), len(fr)) + fr for fr in mix]
        for k in range(n):
            fh.write(recs[k % len(recs)])


def random_packet(rnd):
    alpha = b"AaBbZz\x16\x03\x01\x00\x35\xdf\xff\xbf\xe9\xc9\xf7\xd7"
    big = rnd.random() < 0.06
    n = rnd.randrange(4000, 4400) if big else rnd.randrange(0, 160)
    pay = bytes(rnd.choice(alpha) for _ in range(n))
    if rnd.random() < 0.25:
        ip = ipv6(17 if rnd.random() < 0.6 else 6,
                  udp(pay, dport=rnd.choice([53, 443, 9999])) if rnd.random() < 0.6
                  else tcp(pay, dport=rnd.choice([53, 443])))
        return eth(ip)
    opts = bytes(4 * rnd.randrange(0, 4)) if rnd.random() < 0.3 else b""
    frag = rnd.choice([0, 0, 0, 0, 0x2000, 0x0004, 0x2010, 0x4000])
    body = udp(pay, dport=rnd.choice([53, 443, 9999])) if rnd.random() < 0.6 \
        else tcp(pay, dport=rnd.choice([53, 443]), options=bytes(4 * rnd.randrange(0, 3)))
    return eth(ipv4(17 if body[4:6] != b"" and rnd.random() < 0.5 else 6, body,
                    options=opts, frag=frag, ident=rnd.randrange(65536)))


def random_u32(rnd):
    tests = []
    for _ in range(rnd.randrange(1, 4)):
        if rnd.random() < 0.5:
            loc = "0>>22&0x3C@%d" % rnd.randrange(0, 40)
        else:
            loc = "%d" % rnd.randrange(0, 70)
        nums = loc.count("@") * 3 + 1
        for _ in range(rnd.randrange(0, 4)):
            op = rnd.choice(["&", ">>", "<<", "@", "&"])
            nums += 3 if op == "@" else 1
            if nums > 10:
                break
            if op == "&":
                loc += "&0x%x" % rnd.choice([0xFF, 0xFFFF, 0x3C, 0xF0F0F0F0, 1, 0x1FFF])
            elif op == "@":
                loc += ">>%d&0x%x@%d" % (rnd.randrange(16, 31), rnd.choice([0x3C, 0x7C, 0xFF]),
                                         rnd.randrange(0, 30))
            else:
                loc += "%s%d" % (op, rnd.randrange(0, 32))
        lo = rnd.choice([0, 0, 1, 0x16, 0x35, 0x41, rnd.randrange(1 << 32)])
        hi = rnd.choice([lo, lo + rnd.randrange(1 << 16), 0xFFFFFFFF])
        tests.append("%s=0x%x:0x%x" % (loc, lo, min(hi, 0xFFFFFFFF)))
    return "-m u32 %s--u32 \"%s\"" % ("! " if rnd.random() < 0.2 else "", " && ".join(tests))


def random_string(rnd, frames):
    fr = rnd.choice(frames)[14:]
    m = rnd.randrange(1, 7)
    off = rnd.randrange(0, max(1, len(fr) - m))
    pat = fr[off:off + m] or b"A"
    frm = rnd.choice([0, 0, 20, 28, rnd.randrange(0, 100)])
    to = rnd.choice([65535, 65535, frm + rnd.randrange(0, 120)])
    return "-m string --algo %s%s --from %d --to %d %s--hex-string '|%s|'" % (
        rnd.choice(["bm", "kmp"]), rnd.choice(["", " --icase"]), frm, min(to, 65535),
        "! " if rnd.random() < 0.15 else "", pat.hex())


def write_random(seed, n, prefix):
    rnd = random.Random(seed)
    frames = [random_packet(rnd) for _ in range(n)]
    write(prefix + ".pcap", pcap_bytes(frames, 1))
    with open(prefix + ".rules", "w") as fh:
        for k in range(40):
            fh.write("ru%d %s\n" % (k, random_u32(rnd)))
        for k in range(30):
            fh.write("rs%d %s\n" % (k, random_string(rnd, frames)))


def big_frames():
    """(label, frame, linear) of the large-frame corpus: IPv4 and IPv6, with IP
    options and IPv6 extension headers, from 4 KiB to 40 KB, each with a payload
    of its own random bytes so that a 6-byte pattern occurs once. linear is where
    the IP layer's own header ends (what ip_rcv/ipv6_rcv pull into the linear
    area; a Hop-by-Hop header is read before PREROUTING, so it counts)."""
    out = []

    def payload(k, n):
        rnd = random.Random(1000 + k)
        return bytes(rnd.randrange(256) for _ in range(n))

    def v4(k, total, options=b"", proto=17, trailer=b""):
        hl = 20 + len(options)
        if proto == 17:
            ip = ipv4(17, udp(payload(k, total - hl - 8), dport=9999), options=options)
        else:
            ip = ipv4(6, tcp(payload(k, total - hl - 20), dport=9999), options=options)
        out.append(("v4-%d%s%s%s" % (total, "-opts%d" % len(options) if options else "",
                                      "-tcp" if proto == 6 else "",
                                      "-trailer%d" % len(trailer) if trailer else ""),
                    eth(ip, pad_to=0) + trailer, hl))

    def v6(k, total, ext=b"", nh=17, label=""):
        body = udp(payload(k, total - 40 - len(ext) - 8), dport=9999)
        ip = ipv6(nh if ext else 17, ext + body)
        linear = 40 + (len(ext) if nh == 0 else 0)
        out.append(("v6-%d%s" % (total, label), eth(ip, pad_to=0), linear))

    k = 0
    for total in (4100, 8191, 8192, 8193, 8200, 8500, 9000):
        k += 1
        v4(k, total)
    for total, opts in ((8500, bytes.fromhex("9404000001010100")), (9000, bytes([1] * 40))):
        k += 1
        v4(k, total, opts)
    k += 1
    v4(k, 9000, proto=6)
    k += 1
    v4(k, 4070, trailer=b"TRAIL!")  # the frame, not the datagram, passes 4080 bytes
    k += 1
    v4(k, 8500, trailer=b"ENDTAIL")
    for total in (8300, 9000):
        k += 1
        v6(k, total)
    hbh8 = bytes([17, 0, 1, 4, 0, 0, 0, 0])  # PadN
    # PadN, Router Alert, PadN (Linux drops more than 7 bytes of padding in a row)
    hbh16 = bytes([17, 1, 1, 2, 0, 0, 5, 2, 0, 0, 1, 4, 0, 0, 0, 0])
    dst8 = bytes([17, 0, 1, 4, 0, 0, 0, 0])
    for total, ext, nh, label in ((9000, hbh8, 0, "-hbh8"), (8500, hbh16, 0, "-hbh16"),
                                  (9000, dst8, 60, "-dstopts8")):
        k += 1
        v6(k, total, ext, nh, label)
    # past 9 KiB (the oracle's veth has MTU 65535): where do the page fragments end?
    for total in (12289, 13000, 16400, 20000, 40000):
        k += 1
        v4(k, total)
    k += 1
    v6(k, 30000)
    return out


def big_rules(frames):
    """Per frame, bm patterns placed across the IP header's end, every multiple of
    4096 of the IP offset and the end of the datagram: ending at the boundary,
    starting there, and crossing it 1|5, 3|3 and 5|1; plus kmp, --icase and a
    --to window across IP offset 8192. The kernel says which ones bm finds."""
    rules = []
    for n, (label, frame, linear) in enumerate(frames, 1):
        l2 = 14
        ip = frame[l2:]
        total = struct.unpack("!H", ip[2:4])[0] if ip[0] >> 4 == 4 else \
            40 + struct.unpack("!H", ip[4:6])[0]
        ip = ip[:total]
        cuts = [linear] + list(range(4096, total, 4096))
        for b in cuts:
            for a, z in ((6, 0), (5, 1), (3, 3), (1, 5), (0, 6)):
                if b - a >= 0 and b + z <= total:
                    pat = ip[b - a:b + z]
                    rules.append(("f%d_%d_%d" % (n, b, a),
                                  "-m string --algo bm --hex-string '|%s|'" % pat.hex()))
        rules.append(("f%d_end" % n, "-m string --algo bm --hex-string '|%s|'"
                      % ip[total - 6:].hex()))
        if len(frame) > l2 + total:  # across the end, into the Ethernet trailer
            pat = ip[total - 3:] + frame[l2 + total:l2 + total + 3]
            rules.append(("f%d_past_end" % n, "-m string --algo bm --hex-string '|%s|'"
                          % pat.hex()))
        if total > 8200:
            pat = ip[8189:8195]
            rules.append(("f%d_kmp" % n, "-m string --algo kmp --hex-string '|%s|'" % pat.hex()))
            rules.append(("f%d_icase" % n, "-m string --algo bm --icase --hex-string '|%s|'"
                          % pat.hex()))
            rules.append(("f%d_to" % n, "-m string --algo bm --from 8100 --to 8195 "
                          "--hex-string '|%s|'" % pat.hex()))
            rules.append(("f%d_to_short" % n, "-m string --algo bm --from 8100 --to 8194 "
                          "--hex-string '|%s|'" % pat.hex()))
    return rules


def write_big(outdir):
    os.makedirs(outdir, exist_ok=True)
    frames = big_frames()
    write(os.path.join(outdir, "big.pcap"), pcap_bytes([fr for _, fr, _ in frames], 1))
    with open(os.path.join(outdir, "big.labels"), "w") as fh:
        for k, (label, _, _) in enumerate(frames, 1):
            fh.write("%d,%s\n" % (k, label))
    with open(os.path.join(outdir, "big.rules"), "w") as fh:
        for name, args in big_rules(frames):
            fh.write("%s %s\n" % (name, args))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--bench":
        write_bench(int(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "--random":
        write_random(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "--big":
        write_big(sys.argv[2])
    elif len(sys.argv) == 2:
        write_corpus(sys.argv[1])
    else:
        sys.exit("usage: gen_captures.py OUTDIR | --big OUTDIR | --bench N FILE")
