#!/usr/bin/env python3
"""Holds the bpf and proc task doors to the same numbers.

Input: `triage doctor --dump-tasks=bpf,proc,bpf` (three scans, back to back).
For every thread the proc scan saw that both bpf scans saw too (same tid and
start time), every field the two doors both have is compared:
  - a thread that did not run (nothing differs between the two bpf scans and
    none of the three shows it R): proc must show exactly the same values;
  - a thread that ran: a counter must lie between the two bpf values (for
    utime/stime see ADJUSTED below); comm,
    ppid, uid, allowed CPUs and the like must equal one of them; the instants
    (state, CPU) and the gauges (vsize, rss, thread count: an exec, an munmap
    or exiting threads move them anywhere) are not compared.
A thread on a CPU has counters that catch up only at the next tick or switch,
hence "any R" counts as running. A workqueue worker's name ends with its
latest work item ("kworker/0:1-events"), another instant: only the worker's
own part is compared.
Threads missing from a door are allowed only if they were born or died
during the dump (absent from one bpf scan; absent from both when it started
no earlier than the newest thread of the first and is gone when checked)
or belong to PID 1's group when
the iterator hides it (this VM's agent, see docs/performance.md).
Prints a summary; exits 1 listing the disagreements."""
import sys

GAUGES = {"vsize", "rss", "nthreads"}
ADJUSTED = {"utime": "stime", "stime": "utime", "w_utime": "w_stime", "w_stime": "w_utime"}
INSTANTS = {"state", "processor"}
NON_COUNTERS = {"comm", "ppid",
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


def wq_worker_id(comm):
    """kworker/0:1-events -> kworker/0:1 (rescuers, kworker/R-name, stay whole)."""
    if comm.startswith("kworker/R-"):
        return comm
    for i, ch in enumerate(comm):
        if ch in "+-" and i > len("kworker/"):
            return comm[:i]
    return comm


def gone_now(key, p):
    """The thread no longer exists (or its tid now names a newer thread):
    it may have died before the second bpf scan. One still alive was there
    for that scan to see."""
    try:
        with open(f"/proc/{key[0]}/task/{key[1]}/stat", encoding="utf-8",
                  errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[19] != p["starttime"]  # field 22, starttime
    except (OSError, IndexError):
        return True


def main():
    scans = parse(sys.argv[1])
    doors = [d for d, _ in scans]
    if doors != ["bpf", "proc", "bpf"]:
        print("want scans bpf,proc,bpf, got", doors)
        return 2
    b1, pr, b2 = (s for _, s in scans)
    # The newest start time the first bpf scan saw: a thread that started
    # no earlier than it (same clock tick included) may have been born after
    # that scan; one that started before it was there to be seen.
    newest_in_first = max(int(f["starttime"]) for f in b1.values())

    def born_after_first_scan(p):
        return int(p["starttime"]) >= newest_in_first
    bad, stable, moving, fields_cmp = [], 0, 0, 0
    for key, p in pr.items():
        a, c = b1.get(key), b2.get(key)
        if a is None or c is None or a["starttime"] != c["starttime"]:
            if key[0] == 1 and not any(k[0] == 1 for k in b1):
                continue  # PID 1's group: hidden from the iterator here
            if a is None and c is None and key in pr and p["starttime"] and \
                    not (born_after_first_scan(p) and gone_now(key, p)):
                # in proc only: fine if it was born after the first bpf scan
                # and died before the second; otherwise a miss
                bad.append(f"{key}: in /proc, in neither bpf scan")
            continue
        if p["starttime"] != a["starttime"]:
            continue  # tid reused between scans
        shared = [f for f in p if f in a and f in c]
        fields_cmp += len(shared)
        # a task on a CPU has counters that catch up only at the next tick or
        # switch: any R, or any field that moved, makes it a moving task
        moved = "R" in (a["state"], p["state"], c["state"]) or \
            any(a[f] != c[f] for f in shared)
        for f in shared:
            pv, av, cv = p[f], a[f], c[f]
            if f == "comm" and pv.startswith("kworker/"):
                # "+desc"/"-desc" names the worker's latest work item: an instant
                pv, av, cv = (wq_worker_id(v) for v in (pv, av, cv))
            if not moved:
                if pv != av:
                    bad.append(f"{key} {p['comm']}: {f} proc={pv} bpf={av}")
            elif f in GAUGES or f in INSTANTS:
                continue
            elif f in ADJUSTED:
                # cputime_adjust(): /proc's read stores its split in the
                # kernel's prev_cputime and the bpf door's does not, so the
                # later bpf scan is a floor-respecting successor of /proc's
                # (proc <= bpf2), while bpf1 may have split the same runtime
                # differently; the sum follows the runtime (monotonic)
                if int(pv) > int(cv):
                    bad.append(f"{key} {p['comm']}: {f} proc={pv} > later bpf {cv}")
                other = ADJUSTED[f]
                ps, s1, s2 = (int(x[f]) + int(x[other]) for x in (p, a, c))
                if not s1 - 1 <= ps <= s2 + 1:
                    bad.append(f"{key} {p['comm']}: {f}+{other} proc={ps} not in bpf {s1}..{s2}")
            elif f in NON_COUNTERS:
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
