#!/usr/bin/env python3
"""A slow or idle crowd against triage collect's HTTP server, with a normal
client timed beside it (tests/collect/http_crowd.t).

    crowd.py PORT MODE CONNS SOURCES SECONDS

MODE slowloris: each connection sends a request line and one header, then
one more header byte every 5 s, never ending its headers. MODE idle: each
connection sends nothing. CONNS connections come from SOURCES loopback
addresses (127.0.0.2, .3, ...), opened at the start and held for SECONDS;
meanwhile a normal client on 127.0.0.1 fetches /metrics and /healthz, one
fresh connection each, every 0.25 s. Everything stays on loopback and
stops by itself. The normal client starts, and SECONDS count, once the
server's accept queue is empty (/proc/net/tcp): 2,000 connects ahead of
any fetch in the kernel's queue are no crowd but a burst (settle_s: how
long the server took to take it, 10 s at most). Prints one line, these fields in this order (for the
shell's read) and then all of them as a JSON object:
  opened     connections the kernel completed
  refused    closed by the server within 0.5 s of opening (or never connected)
  closed     closed by the server later, and max_life: the longest-lived one
  open_end   still open at the end
  scrapes    the normal client's requests, failed: those not answered 200
             (within its 5 s timeout), slow: those that took 1 s or more,
             max_s: the slowest one's seconds
"""
import http.client
import json
import resource
import selectors
import socket
import sys
import threading
import time

TRICKLE_S = 5.0
FIELDS = ("settle_s", "scrapes", "failed", "slow", "max_s", "opened", "refused", "closed", "max_life", "open_end")


def normal_client(port, stop, out):
    paths = ["/metrics", "/healthz"]
    n = failed = slow = 0
    worst = 0.0
    while not stop.is_set():
        t0 = time.monotonic()
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5,
                                           source_address=("127.0.0.1", 0))
            c.request("GET", paths[n % 2])
            r = c.getresponse()
            r.read()
            ok = r.status == 200
            c.close()
        except OSError:
            ok = False
        took = time.monotonic() - t0
        worst = max(worst, took)
        slow += took >= 1.0
        n += 1
        failed += not ok
        stop.wait(0.25)
    out.update(scrapes=n, failed=failed, slow=slow, max_s=round(worst, 3))


def accept_queue(port):
    """The listener's accept queue now (the kernel's rx_queue of a LISTEN row)."""
    with open("/proc/net/tcp") as f:
        for row in f.readlines()[1:]:
            col = row.split()
            if col[3] == "0A" and int(col[1].split(":")[1], 16) == port:
                return int(col[4].split(":")[1], 16)
    return 0


def open_crowd(port, conns, sources, sel):
    socks = {}
    for i in range(conns):
        s = socket.socket()
        s.setblocking(False)
        s.bind(("127.0.0.%d" % (2 + i % sources), 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        socks[s] = {"t0": time.monotonic(), "up": False, "closed": None}
        sel.register(s, selectors.EVENT_WRITE)
    return socks


def main():
    port, mode, conns, sources, seconds = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                                           int(sys.argv[4]), float(sys.argv[5]))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, conns + 256)), hard))
    stop, result = threading.Event(), {}
    sel = selectors.DefaultSelector()
    socks = open_crowd(port, conns, sources, sel)
    client = threading.Thread(target=normal_client, args=(port, stop, result))
    opened_at = time.monotonic()
    start = None  # the timed window opens once the server has taken the burst
    next_trickle = opened_at + TRICKLE_S
    while start is None or time.monotonic() - start < seconds:
        if start is None and (accept_queue(port) == 0 or time.monotonic() - opened_at > 10):
            start = time.monotonic()
            result["settle_s"] = round(start - opened_at, 2)
            client.start()
        events = sel.select(timeout=0.1)
        now = time.monotonic()
        for key, ev in events:
            s, st = key.fileobj, socks[key.fileobj]
            if not st["up"]:
                st["up"] = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
                if not st["up"]:
                    st["closed"] = now
                    sel.unregister(s)
                    continue
                if mode == "slowloris":
                    s.send(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
                sel.modify(s, selectors.EVENT_READ)
                continue
            try:
                gone = s.recv(4096) == b""
            except OSError:
                gone = True
            if gone:
                st["closed"] = now
                sel.unregister(s)
        if mode == "slowloris" and now >= next_trickle:
            next_trickle += TRICKLE_S
            for s, st in socks.items():
                if st["up"] and st["closed"] is None:
                    try:
                        s.send(b"a")
                    except OSError:
                        pass
    stop.set()
    client.join()
    refused = closed = open_end = 0
    max_life = 0.0
    for s, st in socks.items():
        life = None if st["closed"] is None else st["closed"] - st["t0"]
        if life is None:
            open_end += 1
        elif not st["up"] or life < 0.5:
            refused += 1
        else:
            closed += 1
            max_life = max(max_life, life)
        s.close()
    result.update(opened=sum(st["up"] for st in socks.values()), refused=refused, closed=closed, max_life=round(max_life, 2), open_end=open_end)
    # one line: the fields in FIELDS' order, for the shell's read; then JSON
    print(" ".join(str(result[k]) for k in FIELDS), json.dumps(result))


main()
