#!/usr/bin/env python3
"""Holds the bpf and proc task doors to the same numbers.

Input: `triage doctor --dump-tasks=bpf,proc,bpf` (three scans, back to back).
For every thread the proc scan saw that both bpf scans saw too (same tid and
start time), every field the two doors both have is compared:
  - unchanged between the two bpf scans: proc must show exactly that value;
  - changed (the thread ran meanwhile): a counter must lie between the two
    bpf values; state, CPU, comm and the like must equal one of them; the
    size gauges vsize and rss are not compared (an exec or an munmap moves
    them anywhere).
The state is an instant: a task that sets itself asleep and finds its wake-up
before it leaves the CPU shows S then R with no counter moving, so a state
that differs only by an R is a task on the CPU, not a disagreement.
Threads missing from a door are allowed only if they were born or died
during the dump (absent from one bpf scan) or belong to PID 1's group when
the iterator hides it (this VM's agent, see docs/performance.md).
Prints a summary; exits 1 listing the disagreements."""
import sys

GAUGES = {"vsize", "rss"}
NON_COUNTERS = {"comm", "state", "processor", "ppid", "nthreads",
                "cpus", "uid", "rt_priority", "policy"}


def parse(path):
    scans, cur = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# door "):
            cur = {}
            scans.append((line[7:], cur))
            continue
        parts = line.split(" ")
        tgid, tid = int(parts[0]), int(parts[1])
        fields = dict(p.split("=", 1) for p in parts[2:])
        cur[(tgid, tid)] = fields
    return scans


def main():
    scans = parse(sys.argv[1])
    doors = [d for d, _ in scans]
    if doors != ["bpf", "proc", "bpf"]:
        print("want scans bpf,proc,bpf, got", doors)
        return 2
    b1, pr, b2 = (s for _, s in scans)
    bad, stable, moving, fields_cmp = [], 0, 0, 0
    for key, p in pr.items():
        a, c = b1.get(key), b2.get(key)
        if a is None or c is None or a["starttime"] != c["starttime"]:
            if key[0] == 1 and not any(k[0] == 1 for k in b1):
                continue  # PID 1's group: hidden from the iterator here
            if a is None and c is None and key in pr and p["starttime"]:
                # in proc only: fine if it was born after the first bpf scan
                # and died before the second; otherwise a miss
                bad.append(f"{key}: in /proc, in neither bpf scan")
            continue
        if p["starttime"] != a["starttime"]:
            continue  # tid reused between scans
        moved = False
        for f, pv in p.items():
            if f not in a or f not in c:
                continue
            fields_cmp += 1
            av, cv = a[f], c[f]
            if av == cv:
                if f == "state" and "R" in (av, pv):
                    moved = True  # a wake-up that never left the CPU: no counter moves
                    continue
                if pv != av:
                    bad.append(f"{key} {p['comm']}: {f} proc={pv} bpf={av}")
                continue
            moved = True
            if f in GAUGES:
                continue
            if f == "state" and "R" in (av, cv, pv):
                continue  # woken and back to sleep (or about to sleep) on the CPU
            if f in NON_COUNTERS:
                if pv not in (av, cv):
                    bad.append(f"{key} {p['comm']}: {f} proc={pv} bpf={av}..{cv}")
            else:
                lo, hi = sorted((int(av), int(cv)))
                if not lo <= int(pv) <= hi:
                    bad.append(f"{key} {p['comm']}: {f} proc={pv} not in bpf {av}..{cv}")
        if moved:
            moving += 1
        else:
            stable += 1
    for key in b1:
        if key in b2 and key not in pr and b1[key]["starttime"] == b2[key]["starttime"]:
            bad.append(f"{key} {b1[key]['comm']}: in both bpf scans, not in /proc")
    print(f"threads: {len(pr)} in /proc, {len(b1)}/{len(b2)} in bpf; "
          f"{stable} unchanged, {moving} ran meanwhile; {fields_cmp} fields compared; "
          f"{len(bad)} disagreements")
    for b in bad[:60]:
        print("  ", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
