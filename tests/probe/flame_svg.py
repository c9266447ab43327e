#!/usr/bin/env python3
"""Reads a flame graph SVG the way a viewer sees it: parses it as XML (a
parse error fails), then prints one JSON object per frame, with its name,
value and geometry, and its self width: its width minus the frames drawn
directly on top of it (one frame height up, inside its x range).

    flame_svg.py FILE.svg   ->  JSON list on stdout, widest self first
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def frames(path):
    root = ET.parse(path).getroot()
    if root.tag != NS + "svg":
        raise SystemExit("root element is %r, not svg" % root.tag)
    out = []
    group = root.find(NS + "g[@id='frames']")
    if group is None:
        raise SystemExit("no <g id='frames'>")
    for g in group.findall(NS + "g"):
        title = g.find(NS + "title").text
        m = re.fullmatch(r"(.*) \((\d+) (\S+), ([\d.]+)%\)", title, re.S)
        if not m:
            raise SystemExit("unexpected title %r" % title)
        r = g.find(NS + "rect")
        out.append({"name": m.group(1), "value": int(m.group(2)), "unit": m.group(3),
                    "x": float(r.get("x")), "y": float(r.get("y")),
                    "w": float(r.get("width")), "h": float(r.get("height"))})
    if not out:
        return out
    # one level: the smallest distance between two rows of frames
    ys = sorted({f["y"] for f in out})
    step = min((b - a for a, b in zip(ys, ys[1:])), default=0)
    for f in out:
        above = [c for c in out if step and abs(c["y"] - (f["y"] - step)) < 0.01 and
                 c["x"] >= f["x"] - 0.01 and c["x"] + c["w"] <= f["x"] + f["w"] + 0.01]
        f["self"] = round(f["w"] - sum(c["w"] for c in above), 2)
    out.sort(key=lambda f: -f["self"])
    return out


if __name__ == "__main__":
    json.dump(frames(sys.argv[1]), sys.stdout, indent=1)
    print()
