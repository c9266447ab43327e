#!/usr/bin/env python3
"""Compares the outputs of a live_driver.py run.

    compare_live.py OUTDIR

Pairs a (-u -w) and b (-r -d -s -v -R -t), the same options for both
tools: the same banner, the same blocks with the same headers, the same
rows (ID and command) in the same order, lines of the same length and
field count, and values within the tolerances below. Pair c: per sample,
triage's `--whole` process row (cswch/s, nvcswch/s) against the sum of
sysstat's thread rows. Exit codes and stderr must be the same.

The rows of the tasks that the driver started or ended (plan.json) are
checked against when that happened: a task that ended after read G has a
row in samples 1..G and none after; one that started after read G has
none in samples 1..G and one after. The one exception is exact: if a
tool's read G+1 was not taken with the workloads stopped (the driver
says so), that tool's sample G+1 may show the task or not.

Values. Every read the driver aligned saw the same counters in both
tools, so in an aligned sample:
  rates and percentages (%usr %system %guest %wait %CPU cswch/s nvcswch/s
  minflt/s majflt/s kB_rd/s kB_wr/s kB_ccwr/s): triage's = sysstat's x R,
  one R per sample (the two tools' interval lengths differ by a few
  centiseconds), R from the largest value and within 15 % of 1, every
  value within 0.03 of it (2-decimal rounding);
  RSS, StkRef: 10 % or 256 kB (the kernel may reclaim or collapse pages
  of a stopped process);
  everything else (UID, CPU, VSZ, StkSize, %MEM, threads, fd-nr, prio,
  policy, iodelay) exact.
Pair c: per sample, the sum of sysstat's thread rows against triage's
process row, 15 % or 5/s (cswch/s) and 25 % or 20/s (nvcswch/s): sysstat
rounds each thread row. No value is compared in a sample that depends on
a read the driver could not align.
"""
import json
import os
import re
import sys

RATES = {"%usr", "%system", "%guest", "%wait", "%CPU", "cswch/s", "nvcswch/s", "minflt/s",
         "majflt/s", "kB_rd/s", "kB_wr/s", "kB_ccwr/s"}
RATIO_MAX = 0.15  # how far one tool's interval may be from the other's
ROUNDING = 0.03   # both values printed with 2 decimals, and R estimated from them
TOL = {"RSS": (0.10, 256), "StkRef": (0.10, 256),  # pages the kernel may reclaim or collapse
       # pair c only: --whole against a sum of rounded, separately timed thread rows
       "cswch/s": (0.15, 5), "nvcswch/s": (0.25, 20)}
NUM = re.compile(r"-?[0-9]+([.,][0-9]+)?")


def parse(path):
    """Returns (banner, blocks); a block is a dict: sample (1.. or "avg"),
    cols, rows [(line, values)]."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    banner, blocks, cur, first, sample = lines[0], [], None, None, 0
    for line in lines[1:]:
        tok = line.split()
        if not tok:
            cur = None
            continue
        avg = tok[0] == "Average:"
        if "Command" in tok and ("UID" in tok or "USER" in tok):
            cols = tok[1:]
            first = first or cols
            sample += not avg and cols == first
            cur = {"sample": "avg" if avg else sample, "cols": cols, "rows": []}
            blocks.append(cur)
            continue
        if cur is None:
            continue
        if (cur["sample"] == "avg") != avg:  # Average rows without their own header
            cur = {"sample": "avg", "cols": cur["cols"], "rows": []}
            blocks.append(cur)
        cur["rows"].append((line, tok[1:]))
    return banner, blocks


def num(s):
    return float(s.replace(",", "."))


def close(col, a, b):
    rel, ab = TOL.get(col, (0, 0))
    return abs(a - b) <= max(ab, rel * max(abs(a), abs(b)))


def check_rates(sample, rates, problems):
    """Rates and percentages of one aligned sample: both tools divided the
    same counter deltas by their own interval, so triage's values are
    sysstat's times one ratio R (sysstat's interval over triage's). R is
    taken from the largest value; every other value must fit it to within
    the 2-decimal rounding (0.03), and R itself may differ from 1 by at
    most RATIO_MAX. With no value of 1 or more, R is not estimated and
    each value must be within RATIO_MAX relative plus rounding."""
    if not rates:
        return
    col, p, q, _, _ = max(rates, key=lambda r: abs(r[1]))
    r = q / p if abs(p) >= 1 else None
    src = f"{col} {p:g} vs {q:g}"
    if r is not None and abs(r - 1) > RATIO_MAX:
        problems.append(f"sample {sample}: triage's {col} is {q} for sysstat's {p}: "
                        f"intervals cannot differ that much")
        return
    for col, p, q, la, lb in rates:
        bad = (abs(q - r * p) > ROUNDING if r is not None
               else abs(q - p) > ROUNDING + RATIO_MAX * max(abs(p), abs(q)))
        if bad:
            fit = f"the ratio {r:.4f} ({src})" if r is not None else "each other"
            problems.append(f"sample {sample}: {col}: {p:g} vs {q:g} does not fit {fit}:"
                            f"\n  {la}\n  {lb}")


def identity(cols, vals):
    """("P", pid) for a process row, ("T", tid) for a thread row."""
    v = dict(zip(cols, vals))
    if "PID" in v:
        return ("P", int(v["PID"]))
    if v.get("TGID", "-") != "-":
        return ("P", int(v["TGID"]))
    return ("T", int(v["TID"])) if v.get("TID", "-") != "-" else None


def row_key(cols, vals):
    ids = [v for c, v in zip(cols, vals) if c in ("PID", "TGID", "TID")]
    return tuple(ids) + (" ".join(vals[len(cols) - 1:]),)


class Plan:
    def __init__(self, outdir, pair):
        p = json.load(open(os.path.join(outdir, "plan.json")))
        self.count = p["count"]
        self.events = p["events"][pair]
        self.unaligned = {w: set(p["unaligned"][f"{pair}.{w}"]) for w in ("sysstat", "triage")}

    def aligned(self, sample):
        """Sample S compares reads S-1 and S; Average, reads 0 and COUNT."""
        reads = {0, self.count} if sample == "avg" else {sample - 1, sample}
        return not any(reads & u for u in self.unaligned.values())

    def rules(self):
        """identity -> [(kind, after)]: when each driven task has a row."""
        r = {}
        for e in self.events:
            if e["kind"] == "exit":
                r.setdefault(("P", e["pid"]), []).append(("end", e["after"]))
                for tid in e["tids"]:
                    r.setdefault(("T", tid), []).append(("end", e["after"]))
            else:
                r.setdefault(("T", e["tid"]), []).append((e["kind"], e["after"]))
        return r

    def expected(self, ident, sample, who):
        """True/False: the row must be there or not; None: either (the one
        unaligned sample of that tool)."""
        res = True
        for kind, after in self.rules()[ident]:
            if sample == after + 1 and sample in self.unaligned[who]:
                res = None if res is not False else False
            elif (sample > after) != (kind == "start"):
                res = False
        return res


def check_driven_rows(plan, blk, rows, who, problems):
    """The driven tasks' rows are where the plan puts them."""
    if blk["sample"] == "avg":
        return
    there = {identity(blk["cols"], v) for _, v in rows}
    for ident in plan.rules():
        if ident[0] == "T" and "TID" not in blk["cols"]:
            continue
        want = plan.expected(ident, blk["sample"], who)
        if want is not None and want != (ident in there):
            problems.append(f"{who}: sample {blk['sample']}: task {ident[1]} "
                            f"{'missing' if want else 'shown'} (plan: {plan.rules()[ident]})")


def compare_values(cols, la, va, lb, vb, rates, problems):
    """Numbers exact (or within TOL); rates and percentages go to RATES
    for check_rates."""
    if len(la) != len(lb) or len(va) != len(vb):
        problems.append(f"layout differs:\n  {la}\n  {lb}")
        return 0
    checked = 0
    for c, p, q in zip(cols[:-1], va, vb):
        if NUM.fullmatch(p) and NUM.fullmatch(q):
            checked += 1
            if c in RATES:
                rates.append((c, num(p), num(q), la, lb))
            elif not close(c, num(p), num(q)):
                problems.append(f"{c}: {p} vs {q} out of tolerance:\n  {la}\n  {lb}")
        elif p != q:
            problems.append(f"{c}: {p!r} vs {q!r}:\n  {la}\n  {lb}")
    return checked


def compare_same(a, b, plan):
    problems, checked = [], 0
    (ban_a, blk_a), (ban_b, blk_b) = a, b
    if ban_a != ban_b:
        problems.append(f"banner differs: {ban_a!r} vs {ban_b!r}")
    if len(blk_a) != len(blk_b):
        problems.append(f"{len(blk_a)} blocks in sysstat's output, {len(blk_b)} in triage's")
    driven = set(plan.rules())
    rates = {}  # sample -> the rate values of its blocks
    for x, y in zip(blk_a, blk_b):
        if x["cols"] != y["cols"] or x["sample"] != y["sample"]:
            problems.append(f"block {x['sample']}: header {x['cols']} vs {y['cols']}")
            continue
        cols, s = x["cols"], x["sample"]
        check_driven_rows(plan, x, x["rows"], "sysstat", problems)
        check_driven_rows(plan, y, y["rows"], "triage", problems)
        ra = {identity(cols, v): (l, v) for l, v in x["rows"]}
        rb = {identity(cols, v): (l, v) for l, v in y["rows"]}
        # Every other row: the same rows in the same order in both.
        keys_a = [row_key(cols, v) for _, v in x["rows"] if identity(cols, v) not in driven]
        keys_b = [row_key(cols, v) for _, v in y["rows"] if identity(cols, v) not in driven]
        if keys_a != keys_b:
            problems.append(f"sample {s}: rows {keys_a} vs {keys_b}")
            continue
        # A driven row shown by one tool only: allowed where the plan says either.
        for ident in (set(ra) ^ set(rb)) & driven:
            if s == "avg" and plan.aligned(s):
                problems.append(f"Average: task {ident[1]} in one output only")
        if not plan.aligned(s):
            continue
        for ident in ra.keys() & rb.keys():
            (la, va), (lb, vb) = ra[ident], rb[ident]
            if row_key(cols, va) != row_key(cols, vb):
                problems.append(f"sample {s}: row {row_key(cols, va)} vs {row_key(cols, vb)}")
            else:
                checked += compare_values(cols, la, va, lb, vb, rates.setdefault(s, []),
                                          problems)
    for s, r in rates.items():
        check_rates(s, r, problems)
    return problems, checked


def compare_whole(a, b, plan):
    problems, checked = [], 0
    samples_a = [blk for blk in a[1] if blk["sample"] != "avg" and "cswch/s" in blk["cols"]]
    samples_b = [blk for blk in b[1] if blk["sample"] != "avg" and "cswch/s" in blk["cols"]]
    if len(samples_a) != len(samples_b):
        return [f"{len(samples_a)} samples vs {len(samples_b)}"], 0
    for x, y in zip(samples_a, samples_b):
        if not plan.aligned(x["sample"]):
            continue
        threads = [dict(zip(x["cols"], v)) for _, v in x["rows"]]
        threads = [t for t in threads if t.get("TGID") == "-"]
        procs = [dict(zip(y["cols"], v)) for _, v in y["rows"]]
        if not threads or len(procs) != 1:
            problems.append(f"sample {x['sample']}: {len(threads)} thread rows, "
                            f"{len(procs)} process rows")
            continue
        for col in ("cswch/s", "nvcswch/s"):
            total = sum(num(t[col]) for t in threads)
            ours = num(procs[0][col])
            checked += 1
            if not close(col, total, ours):
                problems.append(f"sample {x['sample']}: {col} sum of sysstat's threads "
                                f"{total:.2f}, triage --whole {ours:.2f}")
    return problems, checked


def same_exit(outdir, pair):
    p = json.load(open(os.path.join(outdir, "plan.json")))
    rs, rt = p["rc"][f"{pair}.sysstat"], p["rc"][f"{pair}.triage"]
    problems = [] if rs == rt else [f"exit status {rs} vs {rt}"]
    es = open(os.path.join(outdir, f"{pair}.sysstat.err")).read()
    et = open(os.path.join(outdir, f"{pair}.triage.err")).read()
    if es != et:
        problems.append(f"stderr differs: {es[:300]!r} vs {et[:300]!r}")
    return problems


def main():
    outdir, failed = sys.argv[1], False
    for pair, what, fn in (("a", "-u -w", compare_same), ("b", "-r -d -s -v -R -t", compare_same),
                           ("c", "--whole vs the sum of sysstat's thread rows", compare_whole)):
        plan = Plan(outdir, pair)
        a = parse(os.path.join(outdir, f"{pair}.sysstat"))
        b = parse(os.path.join(outdir, f"{pair}.triage"))
        problems, checked = fn(a, b, plan)
        problems += same_exit(outdir, pair)
        skipped = [s for s in range(1, plan.count + 1) if not plan.aligned(s)]
        skipped += ["Average"] if not plan.aligned("avg") else []
        print(f"{what}: {checked} values compared, {len(problems)} problems"
              + (f" (samples {skipped} not aligned: rows only)" if skipped else ""))
        for p in problems:
            print("  " + p)
        failed |= bool(problems) or not checked
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
