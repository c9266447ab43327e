#!/usr/bin/env python3
"""Loads a triage plot page in headless Chromium through the DevTools
protocol and prints one JSON object: the console errors, exceptions and
log errors (a fetch the page's CSP blocks is one), and per chart its series
labels and how many pixels of its plot area carry a series colour with the
series shown and with them hidden (a chart whose lines are drawn has many
more when shown); its y axis (tick values and labels, the labels' widths
measured in the axis's font, the axis's width, and how many pixels are
painted in the canvas's first two columns, where a label too wide for its
axis is cut off); its legend (each swatch's border style and colour next
to its series' dash and colour); and its note.

    page_check.py PAGE.html PORT_FIRST PORT_LAST SCRATCH

Standard library only: a minimal WebSocket client (RFC 6455, client frames
masked, no extensions) is enough for the protocol's JSON messages.
"""
import base64
import json
import os
import queue
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.parse

# Runs inside the page: waits for the charts, then measures each one.
PROBE = r"""
(async () => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 200 && !document.body.getAttribute('data-ready'); i++) await sleep(50);
  const plots = window.triagePlots || [];
  const rgb = (s) => { const m = /^#(..)(..)(..)$/.exec(s || '');
    return m ? [1, 2, 3].map((k) => parseInt(m[k], 16)) : null; };
  const count = (u, colors) => {
    const b = u.bbox, d = u.ctx.getImageData(b.left, b.top, b.width, b.height).data;
    const nc = colors.length;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] <= 200) continue;
      for (let k = 0; k < nc; k++) {
        const c = colors[k];
        if (Math.abs(d[i] - c[0]) <= 25 && Math.abs(d[i + 1] - c[1]) <= 25 &&
            Math.abs(d[i + 2] - c[2]) <= 25) { n++; break; }
      }
    }
    return n;
  };
  const data = JSON.parse(document.getElementById('triage-data').textContent);
  const dpr = devicePixelRatio;
  const yaxis = (u) => {
    const ax = u.axes[1];
    u.ctx.save();
    u.ctx.font = ax.font[0];
    const widths = (ax._values || []).map((v) => u.ctx.measureText(v).width / dpr);
    u.ctx.restore();
    const h = u.ctx.canvas.height, d = u.ctx.getImageData(0, 0, 2, h).data;
    let edge = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) edge++;
    return { splits: ax._splits, labels: ax._values, widths, size: ax._size,
      ticks: ax.ticks.size, gap: ax.gap, plotLeft: u.bbox.left / dpr, edge };
  };
  const legend = (u) => [...u.root.querySelectorAll('.u-legend .u-marker')].slice(1).map((m, k) => {
    const cs = getComputedStyle(m), s = u.series[k + 1];
    return { style: cs.borderTopStyle, color: cs.borderTopColor, dashed: !!(s.dash && s.dash.length),
      stroke: s._stroke };
  });
  const charts = [];
  for (const [ci, u] of plots.entries()) {
    const colors = u.series.slice(1).map((s) => rgb(s._stroke)).filter(Boolean);
    await sleep(50);
    const shown = count(u, colors), ya = yaxis(u), lg = legend(u);
    for (let i = 1; i < u.series.length; i++) u.setSeries(i, { show: false });
    await sleep(100);
    const hidden = count(u, colors);
    for (let i = 1; i < u.series.length; i++) u.setSeries(i, { show: true });
    const c = data.charts[ci], note = u.root.parentNode.querySelector('.note');
    charts.push({ id: u.root.parentNode.id, labels: u.series.slice(1).map((s) => s.label),
      points: u.data[0].length, colors: colors.length, shown, hidden, unit: c.unit,
      entities: c.series.map((s) => s.entity), parts: c.series.map((s) => s.part),
      yaxis: ya, legend: lg, note: note ? note.textContent : null });
  }
  return JSON.stringify({ charts, title: document.title,
    findings: [...document.querySelectorAll('table.findings tr.f')].map((r) => r.textContent),
    external: [...document.querySelectorAll('[src],[href]')].length });
})()
"""


class WebSocket:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n" %
                           (u.path, u.hostname, u.port, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise OSError("websocket handshake: connection closed")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise OSError("websocket handshake: %r" % head[:80])

    def _read(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise OSError("websocket closed")
            buf += chunk
        return buf

    def send(self, text, opcode=1):
        data = text.encode() if isinstance(text, str) else text
        head = bytes([0x80 | opcode])
        n = len(data)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            op = b0 & 0x0F
            if op == 9:  # ping
                self.send(data, 10)
                continue
            if op == 8:
                raise OSError("websocket closed by peer")
            if op in (0, 1, 2):
                msg += data
                if b0 & 0x80:
                    return msg.decode()


def launch(port, scratch):
    """Chromium with its DevTools endpoint on port; (process, ws url) or (None, why)."""
    args = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-extensions", "--disable-background-networking", "--mute-audio",
            "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=%d" % port,
            "--user-data-dir=" + os.path.join(scratch, "chromium-%d" % port),
            "--window-size=1200,900", "about:blank"]
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in p.stderr], daemon=True).start()
    end, seen = time.time() + 30, []
    while time.time() < end:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if p.poll() is not None:
                break
            continue
        seen.append(line)
        m = re.search(r"DevTools listening on (ws://\S+)", line)
        if m:
            return p, m.group(1)
        if re.search(r"Cannot start http server|Address already in use|bind\(\) failed", line):
            break
    p.kill()
    p.wait()
    return None, "".join(seen[-5:])


class Session:
    def __init__(self, ws):
        self.ws, self.id, self.errors, self.events = ws, 0, [], []

    def _event(self, m):
        meth, p = m.get("method"), m.get("params", {})
        if meth == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning", "assert"):
            self.errors.append("console.%s: %s" % (p["type"], " ".join(
                str(a.get("value", a.get("description"))) for a in p["args"])))
        elif meth == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.errors.append("exception: %s" % d.get("exception", {}).get("description",
                                                                             d.get("text")))
        elif meth == "Log.entryAdded" and p["entry"]["level"] == "error":
            self.errors.append("log: %s %s" % (p["entry"]["text"], p["entry"].get("url", "")))
        self.events.append(meth)

    def call(self, method, params=None, session=None):
        self.id += 1
        msg = {"id": self.id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == self.id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m["result"]
            self._event(m)

    def wait(self, method, seconds):
        end = time.time() + seconds
        while method not in self.events:
            if time.time() > end:
                raise RuntimeError("timed out waiting for " + method)
            self._event(json.loads(self.ws.recv()))


def evaluate(page, first, last, scratch, expression):
    """Loads page in a fresh headless Chromium (DevTools on the first free port
    of first..last), evaluates expression (a promise or a JSON string) in
    it, and returns (the decoded JSON, the page's errors)."""
    proc, why = None, ""
    for port in range(first, last + 1):
        proc, url = launch(port, scratch)
        if proc:
            break
        why = url
    if not proc:
        sys.exit("chromium did not start: " + why)
    try:
        s = Session(WebSocket(url))
        target = s.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        sid = s.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for m in ("Runtime.enable", "Log.enable", "Page.enable"):
            s.call(m, session=sid)
        s.call("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=sid)
        s.wait("Page.loadEventFired", 30)
        r = s.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                        "returnByValue": True}, session=sid)
        out = {}
        if "exceptionDetails" in r:
            s.errors.append("probe: %s" % json.dumps(r["exceptionDetails"])[:500])
        else:
            out = json.loads(r["result"]["value"])
        # Late messages: a short, bounded drain.
        s.ws.sock.settimeout(0.3)
        end = time.time() + 1
        try:
            while time.time() < end:
                s._event(json.loads(s.ws.recv()))
        except (socket.timeout, OSError):
            pass
        return out, s.errors
    finally:
        proc.kill()
        proc.wait()


def main():
    out, errors = evaluate(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], PROBE)
    out["errors"] = errors
    print(json.dumps(out))


if __name__ == "__main__":
    main()
