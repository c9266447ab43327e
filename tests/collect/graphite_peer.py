#!/usr/bin/python3
"""A misbehaving carbon for tests/collect/graphite_faults.t (stdlib only).

graphite_peer.py MODE PORTFILE OUTFILE [GOFILE]
  stall  accepts with a 4 KiB receive buffer and reads nothing until GOFILE
         exists, then reads every connection it got to its end
  reset  accepts each connection and resets it at once (SO_LINGER 0)
  never  listens with a backlog of 1, fills it, never accepts
Writes its port to PORTFILE once listening. At SIGTERM, stall writes the
complete lines it read (a cut line at a connection's end is not one) to
OUTFILE, one per line, and exits.
"""
import os, selectors, signal, socket, struct, sys, time

mode, portfile, outfile = sys.argv[1], sys.argv[2], sys.argv[3]
gofile = sys.argv[4] if len(sys.argv) > 4 else None
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
if mode == "stall":
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
ls.bind(("127.0.0.1", 0))
ls.listen(1 if mode == "never" else 64)
port = ls.getsockname()[1]
fillers = []
if mode == "never":
    # the backlog full: further SYNs are dropped, so connects hang
    for _ in range(3):
        f = socket.socket()
        f.setblocking(False)
        f.connect_ex(("127.0.0.1", port))
        fillers.append(f)
    time.sleep(0.2)
with open(portfile + ".tmp", "w") as f:
    f.write(f"{port}\n")
import os
os.rename(portfile + ".tmp", portfile)

stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)

lines = []
if mode == "never":
    while not stop:
        time.sleep(0.05)
elif mode == "reset":
    ls.settimeout(0.05)
    while not stop:
        try:
            c, _ = ls.accept()
        except (socket.timeout, InterruptedError):
            continue
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        c.close()
else:
    while not stop and gofile and not os.path.exists(gofile):
        time.sleep(0.05)
    sel = selectors.DefaultSelector()
    ls.setblocking(False)
    sel.register(ls, selectors.EVENT_READ)
    bufs = {}
    while True:
        for key, _ in sel.select(0.1):
            s = key.fileobj
            if s is ls:
                c, _ = ls.accept()
                c.setblocking(False)
                bufs[c] = b""
                sel.register(c, selectors.EVENT_READ)
                continue
            try:
                d = s.recv(65536)
            except (ConnectionResetError, BlockingIOError) as e:
                d = b"" if isinstance(e, ConnectionResetError) else None
            if d is None:
                continue
            if d:
                bufs[s] += d
                *done, bufs[s] = bufs[s].split(b"\n")
                lines.extend(done)
                continue
            sel.unregister(s)  # its end: a cut line left in bufs is dropped
            s.close()
            del bufs[s]
        if stop and not bufs:
            break
    with open(outfile, "wb") as f:
        f.write(b"".join(l + b"\n" for l in lines))
