#!/usr/bin/env python3
"""Runs triage pidstat beside sysstat's pidstat over live workloads so
that every read of the two tools sees the same counters, and tasks start
and end only while both samplers are known to be between the same two
reads.

    live_driver.py WORKLOAD_DIR TRIAGE SYSSTAT OUTDIR COUNT

Three pairs run one after the other: a (-u -w) and b (-r -d -s -v -R -t)
over five workloads, c (sysstat -t vs triage --whole) over the threaded
one. Writes OUTDIR/{a,b,c}.{sysstat,triage}[.err] and OUTDIR/plan.json
(what compare_live.py needs). Exit 0 when the run could be driven, 1
otherwise (a tool died early, a workload did not start, a step took more
than DEADLINE). LIVE_DEBUG=1 prints the timeline.

How. A sampler blocked in its interval wait (sysstat: pause; triage:
or ppoll before) with K samples printed is between its reads K and K+1: both tools
flush each sample before they wait. The driver reads that from
/proc/PID/syscall and the output, with the tool's context-switch counts
read before and after so the look is consistent (the tool did not run
meanwhile). The workloads are stopped (SIGSTOP, every thread seen off the
CPU) before either tool of a pair can take its next read, and continued
only once both are back in their wait: so both read the same frozen
counters. Task starts and ends (pidstat_ctl, told through its stdin)
happen only while the workloads run, between the same two reads of both.

Each stop is verified, not assumed: if a tool had already left its wait
when the stop completed, that read is recorded as unaligned for it, and
compare_live.py compares no values that depend on that read and lets the
driven rows of that one sample be either way for that tool. The driver
and the tools run SCHED_FIFO when allowed (the workloads do not), so on a
loaded machine they still wake on time and that stays rare.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

POLL = 0.002      # seconds between looks at the tools
MARGIN = 0.15     # freeze this long before the earliest possible read,
                  # plus twice the longest a freeze has taken so far
DEADLINE = 30.0   # no step of the run may take longer


def wait_syscalls():
    """Numbers of the syscalls that only wait (the interval waits)."""
    names = ("pause", "ppoll", "nanosleep", "clock_nanosleep", "rt_sigsuspend", "rt_sigtimedwait")
    out = subprocess.run(["cc", "-E", "-dM", "-include", "sys/syscall.h", "-x", "c",
                          "/dev/null"], capture_output=True, text=True, check=True).stdout
    nrs = set()
    for name in names:
        m = re.search(rf"^#define __NR_{name} (\d+)$", out, re.M)
        if m:
            nrs.add(int(m.group(1)))
    return nrs


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def tasks(pid):
    try:
        return sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return []


def switches(pid):
    """(tid, voluntary, involuntary) of every thread, or None if gone."""
    res = []
    for tid in tasks(pid):
        s = read(f"/proc/{pid}/task/{tid}/status")
        if s is None:
            return None
        v = re.search(r"^voluntary_ctxt_switches:\s*(\d+)", s, re.M)
        n = re.search(r"^nonvoluntary_ctxt_switches:\s*(\d+)", s, re.M)
        res.append((tid, v and v.group(1), n and n.group(1)))
    return res or None


def samples_printed(path):
    """Samples in a pidstat output: every sample repeats the first header
    (the option sets used here have at least two activities, so the
    headers are printed with every sample)."""
    first, n = None, 0
    for line in (read(path) or "").split("\n"):
        tok = line.split()
        if not tok or tok[0] == "Average:" or "Command" not in tok:
            continue
        cols = tuple(tok[1:])
        first = first or cols
        n += cols == first
    return n


def realtime(reset_on_fork=0):
    """SCHED_FIFO for the tools and the driver (not the workloads): they
    then wake when their clocks say, even on a loaded machine, so the
    driver stops the workloads in time. Nothing depends on it being
    granted; without it, more reads may turn out unaligned."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO | reset_on_fork, os.sched_param(1))
    except OSError:
        pass


class Tool:
    def __init__(self, name, argv, outdir, env):
        self.name = name
        self.out = os.path.join(outdir, name)
        with open(self.out, "w") as o, open(self.out + ".err", "w") as e:
            self.proc = subprocess.Popen(argv, stdout=o, stderr=e, stdin=subprocess.DEVNULL,
                                         env=env, preexec_fn=realtime)
        self.unaligned = []
        self.last_wait = {}  # K -> the last time seen between reads K and K+1

    def between(self, waits):
        """K if the tool is now blocked in its interval wait with K samples
        printed (so between reads K and K+1), else None."""
        pid = self.proc.pid
        now = time.monotonic()
        before = switches(pid)
        sc = read(f"/proc/{pid}/syscall")  # waits until the task is off the CPU
        k = samples_printed(self.out)
        after = switches(pid)
        if before is None or before != after or not sc or not sc.split()[0].isdigit():
            return None
        if int(sc.split()[0]) not in waits:
            return None
        self.last_wait[k] = now
        return k

    def earliest(self, n):
        """A lower bound of the moment read N can start: read J+1 came
        after the tool was last seen waiting with J samples, and the tools
        wait whole intervals from there on (sysstat re-arms alarm(1) after
        each read; triage keeps its grid, so its read can be early by the
        lateness of its previous wake-up, which MARGIN covers)."""
        return max(t + (n - j - 1) for j, t in self.last_wait.items() if j < n)


class Workloads:
    def __init__(self, wdir):
        self.procs = []
        self.wdir = wdir
        self.slowest = 0.0  # the longest a freeze has taken (the threads must run to stop)

    def start(self, name, *args, ctl=False):
        p = subprocess.Popen([os.path.join(self.wdir, name), *map(str, args)],
                             stdin=subprocess.PIPE if ctl else subprocess.DEVNULL,
                             stdout=subprocess.PIPE if ctl else subprocess.DEVNULL, text=True)
        self.procs.append(p)
        return p

    def live(self):
        return [p.pid for p in self.procs if p.returncode is None and p.poll() is None]

    def freeze(self):
        start = time.monotonic()
        self.stop_all()
        self.slowest = max(self.slowest, time.monotonic() - start)

    def stop_all(self):
        pids = self.live()
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        # Stopped means every thread in state T and off the CPU (reading
        # /proc/TID/syscall waits for that), so no counter moves any more.
        for pid in pids:
            for tid in tasks(pid):
                until(lambda: task_state(pid, tid) in ("T", "t", None), f"stop {tid}")
                read(f"/proc/{pid}/task/{tid}/syscall")

    def thaw(self):
        for pid in self.live():
            os.kill(pid, signal.SIGCONT)

    def kill(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def task_state(pid, tid):
    s = read(f"/proc/{pid}/task/{tid}/stat")
    return s[s.rindex(")") + 2] if s else None


def log(what, first):
    if os.environ.get("LIVE_DEBUG"):
        print(f"{time.monotonic() - first:7.3f} {what}")


def until(cond, what, deadline=DEADLINE):
    end = time.monotonic() + deadline
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > end:
            raise TimeoutError(f"{what}: not within {deadline:.0f} s")
        time.sleep(POLL)


def wait_all_between(tools, k, waits):
    """Until every tool is between its reads k and k+1 (or has exited
    after its last read k)."""
    def ready():
        ok = True
        for t in tools:  # look at every tool each time: that keeps last_wait fresh
            if t.proc.poll() is not None:
                if samples_printed(t.out) < k:
                    raise RuntimeError(f"{t.name} exited after {samples_printed(t.out)} samples")
            elif t.between(waits) != k:
                ok = False
        return ok
    until(ready, f"every tool at sample {k}")


class Events:
    """The task changes, each done while every sampler is between the
    same two reads."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.done = []

    def line(self, word):
        got = self.ctl.stdout.readline().split()
        if len(got) != 2 or got[0] != word:
            raise RuntimeError(f"pidstat_ctl said {got}, expected {word}")
        return int(got[1])

    def do(self, what, after):
        pid = self.ctl.pid
        if what == "start":
            self.ctl.stdin.write("s")
            self.ctl.stdin.flush()
            self.done.append({"kind": "start", "tid": self.line("started"), "after": after})
        elif what == "end":
            self.ctl.stdin.write("x")
            self.ctl.stdin.flush()
            tid = self.line("ended")
            until(lambda: not os.path.exists(f"/proc/{pid}/task/{tid}"), f"thread {tid} gone")
            self.done.append({"kind": "end", "tid": tid, "after": after})
        elif what == "exit":
            tids = tasks(pid)
            self.ctl.stdin.close()
            self.ctl.wait(timeout=DEADLINE)  # reaped: gone from /proc
            self.done.append({"kind": "exit", "pid": pid, "tids": tids, "after": after})


def pairs(t, lst):
    """(sysstat's arguments, triage's) of each pair."""
    a = ["-u", "-w", "-p", lst]
    b = ["-r", "-d", "-s", "-v", "-R", "-t", "-p", lst]
    return {"a": (a, a), "b": (b, b),
            "c": (["-u", "-w", "-t", "-p", str(t)], ["--whole", "-u", "-w", "-p", str(t)])}


def run_pair(pair, argv, wl, events, count, outdir, waits):
    """One pair, the workloads stopped on entry. triage starts first and
    sysstat once triage has taken its read 0 (and so started its grid):
    the slow start of an ASan build under load then costs no alignment.
    The workloads stay stopped through read 1 too, which gives every tool
    a first interval to predict the next from; they run between reads 1
    and 2, 2 and 3, ...; each event happens in one of those windows."""
    env = dict(os.environ, LC_ALL="C", TZ="UTC", S_COLORS="never")
    tools = [Tool(f"{pair}.triage", argv[1], outdir, env)]
    try:
        wait_all_between(tools, 0, waits)
        tools.insert(0, Tool(f"{pair}.sysstat", argv[0], outdir, env))
        drive(pair, tools, wl, events, count, waits)
        for x in tools:
            x.proc.wait(timeout=DEADLINE)
    finally:
        for x in tools:
            if x.proc.poll() is None:
                x.proc.kill()
                x.proc.wait()
    return {x.name: x for x in tools}


def drive(pair, tools, wl, events, count, waits):
    first = time.monotonic()
    plan = {1: "start", 2: "end", 3: "exit"} if events else {}
    for k in range(count):
        wait_all_between(tools, k, waits)
        log(f"{pair}: every tool between reads {k} and {k + 1}", first)
        if k == 0:
            continue
        wl.thaw()
        if k in plan:
            events.do(plan[k], k)
        margin = MARGIN + 2 * wl.slowest
        pause = min(x.earliest(k + 1) for x in tools) - margin - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        wl.freeze()
        log(f"{pair}: workloads stopped (slowest stop {wl.slowest:.3f} s)", first)
        for x in tools:
            # a tool that has exited took its last read at some unknown moment
            if x.proc.poll() is not None or x.between(waits) != k:
                x.unaligned.append(k + 1)
                print(f"note: {x.name}: read {k + 1} began before the workloads were stopped")


def run(wdir, triage, sysstat, outdir, count):
    waits = wait_syscalls()
    realtime(os.SCHED_RESET_ON_FORK)  # the workloads it starts stay SCHED_OTHER
    wl = Workloads(wdir)
    try:
        pids = [wl.start("pidstat_user", 90).pid, wl.start("pidstat_sys", 90).pid,
                wl.start("pidstat_cswitch", 90, 200).pid]
        t = wl.start("pidstat_threads", 90).pid
        until(lambda: {"wl-busy", "wl-sleep"} <= {(read(f"/proc/{t}/task/{x}/comm") or "").strip()
                                                  for x in tasks(t)}, "pidstat_threads' names")
        done, events = {}, []
        for pair in ("a", "b", "c"):
            ctl = None
            if pair != "c":  # a fresh process to start and end tasks in
                ctl = wl.start("pidstat_ctl", 90, ctl=True)
                Events(ctl).line("ready")
            lst = ",".join(map(str, sorted(pids + [t] + ([ctl.pid] if ctl else []))))
            theirs, ours = pairs(t, lst)[pair]
            ev = Events(ctl) if ctl else None
            wl.freeze()  # read 0 of both tools sees the same counters too
            done.update(run_pair(pair, ([sysstat, *theirs, "1", str(count)],
                                        [triage, "pidstat", *ours, "1", str(count)]),
                                 wl, ev, count, outdir, waits))
            events.append({"pair": pair, "events": ev.done if ev else []})
        plan = {"count": count, "events": {e["pair"]: e["events"] for e in events},
                "unaligned": {n: x.unaligned for n, x in done.items()},
                "rc": {n: x.proc.returncode for n, x in done.items()}}
        with open(os.path.join(outdir, "plan.json"), "w") as f:
            json.dump(plan, f, indent=1)
        return 0
    except (TimeoutError, RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"driver: {e}")
        return 1
    finally:
        wl.thaw()
        wl.kill()


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])))
