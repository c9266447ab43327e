#!/usr/bin/env python3
"""Compares two pidstat outputs taken side by side over the same window.

    compare_live.py MODE SYSSTAT_OUT TRIAGE_OUT

MODE "same": both ran with the same options. Requires the same banner,
the same blocks with the same headers, the same rows (ID and command) in
the same order, lines of the same length and field count, and values
within the tolerances below. Prints one line per problem; exit 1 if any.

MODE "whole": SYSSTAT_OUT is `pidstat -t -w ...` and TRIAGE_OUT is
`triage pidstat --whole -w ...` of one multi-threaded process; per sample,
triage's process-row cswch/s and nvcswch/s must match the sum of
sysstat's thread rows.

Tolerances (a 2-core machine shared with other builds; the two tools
sample a few tens of ms apart):
  %usr %system %guest %wait %CPU   10 points absolute per sample
                                   (5 points on Average lines)
  cswch/s                          15 % relative or 5/s absolute
  nvcswch/s                        25 % relative or 20/s absolute
  minflt/s majflt/s kB_*/s         20 % relative or 20/s absolute
  VSZ RSS StkSize StkRef           10 % relative or 256 kB absolute
  CPU                              not compared (the task migrates)
  everything else (UID, threads, fd-nr, prio, policy, iodelay) exact
"""
import re
import sys

PCT = {"%usr", "%system", "%guest", "%wait", "%CPU"}
TOL = {"cswch/s": (0.15, 5), "nvcswch/s": (0.25, 20), "minflt/s": (0.20, 20),
       "majflt/s": (0.20, 20), "kB_rd/s": (0.20, 20), "kB_wr/s": (0.20, 20),
       "kB_ccwr/s": (0.20, 20), "VSZ": (0.10, 256), "RSS": (0.10, 256),
       "StkSize": (0.10, 256), "StkRef": (0.10, 256)}


def parse(path):
    """Returns (banner, blocks); a block is (is_average, columns, rows)."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    banner, blocks, cur = lines[0], [], None
    for line in lines[1:]:
        if not line.strip():
            cur = None
            continue
        tok = line.split()
        if "Command" in tok and ("UID" in tok or "USER" in tok):
            cols = tok[1:]
            cur = (tok[0] == "Average:", cols, [])
            blocks.append(cur)
            continue
        if cur is None:  # an Average line straight after data: no header
            continue
        if cur[0] != (tok[0] == "Average:"):
            # Average rows without their own header (dis_hdr 0)
            cur = (tok[0] == "Average:", cur[1], [])
            blocks.append(cur)
        cur[2].append((line, tok[1:]))
    return banner, blocks


def num(s):
    return float(s.replace(",", "."))


def close(col, a, b, avg):
    if col in PCT:
        return abs(a - b) <= (5 if avg else 10)
    rel, ab = TOL.get(col, (0, 0))
    return abs(a - b) <= max(ab, rel * max(abs(a), abs(b)))


def row_key(cols, vals):
    ids = [v for c, v in zip(cols, vals) if c in ("PID", "TGID", "TID")]
    return tuple(ids) + (" ".join(vals[len(cols) - 1:]),)


def compare_same(a, b):
    problems = []
    (ban_a, blk_a), (ban_b, blk_b) = a, b
    if ban_a != ban_b:
        problems.append(f"banner differs: {ban_a!r} vs {ban_b!r}")
    if len(blk_a) != len(blk_b):
        problems.append(f"{len(blk_a)} blocks in sysstat's output, {len(blk_b)} in triage's")
    checked = 0
    for i, (x, y) in enumerate(zip(blk_a, blk_b)):
        if x[1] != y[1] or x[0] != y[0]:
            problems.append(f"block {i}: header {x[1]} vs {y[1]}")
            continue
        cols = x[1]
        keys_a = [row_key(cols, v) for _, v in x[2]]
        keys_b = [row_key(cols, v) for _, v in y[2]]
        if keys_a != keys_b:
            problems.append(f"block {i}: rows {keys_a} vs {keys_b}")
            continue
        for (la, va), (lb, vb) in zip(x[2], y[2]):
            if len(la) != len(lb) or len(va) != len(vb):
                problems.append(f"layout differs:\n  {la}\n  {lb}")
                continue
            for c, p, q in zip(cols[:-1], va, vb):
                if c == "CPU":
                    continue
                if re.fullmatch(r"-?[0-9]+([.,][0-9]+)?", p) and re.fullmatch(
                        r"-?[0-9]+([.,][0-9]+)?", q):
                    checked += 1
                    if not close(c, num(p), num(q), x[0]):
                        problems.append(f"{c}: {p} vs {q} out of tolerance:\n  {la}\n  {lb}")
                elif p != q:
                    problems.append(f"{c}: {p!r} vs {q!r}:\n  {la}\n  {lb}")
    return problems, checked


def compare_whole(a, b):
    problems, checked = [], 0
    samples_a = [blk for blk in a[1] if not blk[0] and "cswch/s" in blk[1]]
    samples_b = [blk for blk in b[1] if not blk[0] and "cswch/s" in blk[1]]
    if len(samples_a) != len(samples_b):
        return [f"{len(samples_a)} samples vs {len(samples_b)}"], 0
    for i, (x, y) in enumerate(zip(samples_a, samples_b)):
        ca, cb = x[1], y[1]
        threads = [dict(zip(ca, v)) for _, v in x[2] if dict(zip(ca, v)).get("TGID") == "-"]
        procs = [dict(zip(cb, v)) for _, v in y[2]]
        if not threads or len(procs) != 1:
            problems.append(f"sample {i}: {len(threads)} thread rows, {len(procs)} process rows")
            continue
        for col in ("cswch/s", "nvcswch/s"):
            total = sum(num(t[col]) for t in threads)
            ours = num(procs[0][col])
            checked += 1
            if not close(col, total, ours, False):
                problems.append(f"sample {i}: {col} sum of sysstat's threads {total:.2f}, "
                                f"triage --whole {ours:.2f}")
    return problems, checked


def main():
    mode, pa, pb = sys.argv[1:4]
    a, b = parse(pa), parse(pb)
    problems, checked = (compare_same if mode == "same" else compare_whole)(a, b)
    for p in problems:
        print("  " + p)
    print(f"  {mode}: {checked} values compared, {len(problems)} problems")
    return 1 if problems or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
