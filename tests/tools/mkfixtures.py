#!/usr/bin/env python3
"""Builds the hand-made edge-case fixture roots under tests/fixtures/pidstat/.

    tests/tools/mkfixtures.py [OUTDIR]     (default: tests/fixtures/pidstat)

These are input data only (docs/fixtures.md layout). Nothing here states
what pidstat should print: the golden test runs the real sysstat pidstat
over these trees through tests/tools/pidstat_shim.c and compares triage
with that. Counter values are made up but kernel-shaped (a process file
sums its threads, dead threads included; ctx switches and schedstat of a
process file are the leader's, as the kernel reports them).

Fixtures:
  edge-misc     odd comms (spaces, ')', '"', a 24-character kworker name),
                empty cmdline arguments, a UID without a passwd entry, a
                UID of nobody, io and fd unreadable, no schedstat (a kernel
                without CONFIG_SCHEDSTATS), a 42-field stat line,
                a task that exits after step 2, a new PID at step 3, an
                idle task, RT/BATCH/IDLE policies, guest time, reaped
                children (CHILD mode), delay accounting, 3 CPUs.
  edge-threads  a process whose leader sleeps while its threads work, a
                thread that exits and one that appears, a busy leader with
                idle threads.
  edge-long     9 steps (header repetition on a terminal), and a comm
                with an escape sequence and a tab in it.
  edge-reuse    PID 2000 reused between step 2 and step 3 (new start time,
                smaller counters).
"""
import os
import shutil
import sys

HZ = 100
EPOCH = 1796000000  # 2026-11-29 08:53:20 UTC


class Task:
    """One task (process leader or thread); values may vary per step."""

    def __init__(self, pid, comm, **kw):
        self.pid = pid
        self.comm = comm
        self.v = dict(
            state="S", ppid=1, minflt=0, cminflt=0, majflt=0, cmajflt=0,
            utime=0, stime=0, cutime=0, cstime=0, nice=0, threads=1,
            starttime=500, vsize=0, rss=0, processor=0, rt_priority=0,
            policy=0, blkio=0, guest=0, cguest=0, nfields=52, uid=0,
            vcsw=0, nvcsw=0, run_ns=0, wait_ns=0, slices=0,
            rbytes=0, wbytes=0, cwbytes=0, has_io=True, has_schedstat=True, nfds=3,
            stack_size=132, stack_ref=12, cmdline=comm.encode() + b"\0",
            kthread=False)
        self.v.update(kw)
        self.steps = {}  # step -> overrides

    def at(self, step, **kw):
        self.steps.setdefault(step, {}).update(kw)
        return self

    def values(self, step):
        v = dict(self.v)
        for s in sorted(self.steps):
            if s <= step:
                v.update(self.steps[s])
        return v


def stat_line(pid, comm, v):
    prio = -1 - v["rt_priority"] if v["policy"] in (1, 2) else 20 + v["nice"]
    fields = [
        v["state"], v["ppid"], pid, pid, 0, -1, 4194560 if not v["kthread"] else 2129984,
        v["minflt"], v["cminflt"], v["majflt"], v["cmajflt"],
        v["utime"], v["stime"], v["cutime"], v["cstime"], prio, v["nice"],
        v["threads"], 0, v["starttime"], v["vsize"], v["rss"],
        18446744073709551615, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 17,
        v["processor"], v["rt_priority"], v["policy"], v["blkio"],
        v["guest"], v["cguest"], 0, 0, 0, 0, 0, 0, 0, 0]
    fields = fields[:v["nfields"] - 2]
    return f"{pid} ({comm}) " + " ".join(str(f) for f in fields) + "\n"


def status_text(pid, tgid, comm, v):
    u = v["uid"]
    return (f"Name:\t{comm[:15]}\nUmask:\t0022\nState:\t{v['state']} (sleeping)\n"
            f"Tgid:\t{tgid}\nNgid:\t0\nPid:\t{pid}\nPPid:\t{v['ppid']}\n"
            f"TracerPid:\t0\nUid:\t{u}\t{u}\t{u}\t{u}\nGid:\t{u}\t{u}\t{u}\t{u}\n"
            f"FDSize:\t64\nGroups:\t\nThreads:\t{v['threads']}\n"
            f"voluntary_ctxt_switches:\t{v['vcsw']}\n"
            f"nonvoluntary_ctxt_switches:\t{v['nvcsw']}\n")


def io_text(v):
    return (f"rchar: {v['rbytes'] + 4096}\nwchar: {v['wbytes'] + 512}\nsyscr: 10\n"
            f"syscw: 5\nread_bytes: {v['rbytes']}\nwrite_bytes: {v['wbytes']}\n"
            f"cancelled_write_bytes: {v['cwbytes']}\n")


def smaps_text(v):
    if v["kthread"]:
        return ""
    head = ("55d0c0000000-55d0c0001000 r--p 00000000 08:01 1234\n"
            "Size:                  4 kB\nKernelPageSize:        4 kB\n"
            "Rss:                   4 kB\nReferenced:            4 kB\n")
    return head + (
        "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]\n"
        f"Size:                {v['stack_size']} kB\nKernelPageSize:        4 kB\n"
        f"MMUPageSize:           4 kB\nRss:                  {v['stack_ref']} kB\n"
        f"Pss:                  {v['stack_ref']} kB\nReferenced:           {v['stack_ref']} kB\n"
        "Anonymous:            12 kB\n")


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def write_task(d, pid, tgid, comm, v):
    comm = v.get("comm", comm)
    write(d + "/stat", stat_line(pid, comm, v))
    if v["has_schedstat"]:
        write(d + "/schedstat", f"{v['run_ns']} {v['wait_ns']} {v['slices']}\n")
    write(d + "/status", status_text(pid, tgid, comm, v))
    write(d + "/cmdline", b"" if v["kthread"] else v["cmdline"])
    write(d + "/smaps", smaps_text(v))
    if v["has_io"]:
        write(d + "/io", io_text(v))
    if v["nfds"] >= 0:
        os.makedirs(d + "/fd", exist_ok=True)
        for fd in range(v["nfds"]):
            write(f"{d}/fd/{fd}", b"")


class Fixture:
    def __init__(self, name, steps, ncpu=2, uptimes=None):
        self.name, self.steps, self.ncpu = name, steps, ncpu
        self.uptimes = uptimes or [100000 + 100 * k for k in range(steps)]
        self.procs = []  # (leader Task, [thread Tasks], first step, last step)

    def add(self, leader, threads=(), first=1, last=None):
        self.procs.append((leader, list(threads), first, last or self.steps))

    def build(self, out):
        root = os.path.join(out, self.name)
        shutil.rmtree(root, ignore_errors=True)
        write(root + "/meta",
              "# hand-built by tests/tools/mkfixtures.py\n"
              f"hz={HZ}\npagesize=4096\nsysname=Linux\nrelease=6.1.0-fixture\n"
              f"nodename=fixturehost\nmachine=x86_64\nepoch={EPOCH}\n")
        for c in range(self.ncpu):
            write(f"{root}/sys/devices/system/cpu/cpu{c}/online", "1\n")
        for k in range(1, self.steps + 1):
            self.build_step(root, k)
        if getattr(self, "marker", None):
            write(os.path.join(root, self.marker), "")

    def build_step(self, root, k):
        base = f"{root}/step{k}"
        up = self.uptimes[k - 1]
        write(base + "/time", f"{EPOCH + (up - self.uptimes[0]) // 100}\n")
        write(base + "/proc/uptime", f"{up // 100}.{up % 100:02d} {up * 2 // 100}.00\n")
        busy = up * self.ncpu // 3
        idle = up * self.ncpu - busy
        cpu = f"{busy // 2} 0 {busy - busy // 2} {idle} 0 0 0 0 0 0"
        lines = [f"cpu  {cpu}"] + [
            f"cpu{c} {busy // 2 // self.ncpu} 0 {(busy - busy // 2) // self.ncpu} "
            f"{idle // self.ncpu} 0 0 0 0 0 0" for c in range(self.ncpu)]
        lines += ["ctxt 123456", f"btime {EPOCH - up // 100}", "processes 4321",
                  "procs_running 1", "procs_blocked 0"]
        write(base + "/proc/stat", "\n".join(lines) + "\n")
        write(base + "/proc/meminfo", "MemTotal:        2048000 kB\n"
              "MemFree:         1024000 kB\nMemAvailable:    1536000 kB\n")
        for leader, threads, first, last in self.procs:
            if not first <= k <= last:
                continue
            d = f"{base}/proc/{leader.pid}"
            write_task(d, leader.pid, leader.pid, leader.comm, leader.values(k))
            members = [leader] + threads
            for t in members:
                tv = t.values(k)
                if not tv.get("first", 1) <= k <= tv.get("last", self.steps):
                    continue
                write_task(f"{d}/task/{t.pid}", t.pid, leader.pid, t.comm, tv)


def ramp(task, steps, **per_step):
    """Adds per_step[key] * (k - 1) to task's base value of key at step k."""
    for k in range(2, steps + 1):
        task.at(k, **{key: task.v[key] + inc * (k - 1) for key, inc in per_step.items()})
    return task


def edge_misc():
    fx = Fixture("edge-misc", 4, ncpu=3, uptimes=[100000, 100102, 100200, 100301])
    init = Task(1, "init", utime=300, stime=200, vsize=170000 * 1024, rss=3000, minflt=9000,
                cmdline=b"/sbin/init\0splash\0", vcsw=5000, nvcsw=400, run_ns=3 * 10**9,
                wait_ns=10**9, nfds=40, rbytes=10**8, wbytes=5 * 10**7, starttime=1)
    fx.add(ramp(init, 4, utime=2, stime=1, vcsw=30, wait_ns=10**7, minflt=5))
    kw = Task(50, "kworker/0:1-virtio_vsock", kthread=True, ppid=2, stime=40, vcsw=800,
              run_ns=4 * 10**8, nfds=-1, has_io=True, stack_size=0, stack_ref=0)
    fx.add(ramp(kw, 4, stime=1, vcsw=25, run_ns=10**7))
    odd = Task(100, 'a b) "c', utime=1000, stime=100, vsize=2400256, rss=243, minflt=105,
               cmdline=b"odd\0\0arg two\0\0", vcsw=10, nvcsw=3, run_ns=10**10,
               wait_ns=2 * 10**8, starttime=2000, rbytes=4096, wbytes=8192, cwbytes=4096)
    fx.add(ramp(odd, 4, utime=37, stime=5, minflt=300, vcsw=4, nvcsw=9, wait_ns=3 * 10**7,
                rbytes=4096 * 25, wbytes=4096 * 300, cwbytes=4096))
    nopw = Task(200, "nopasswd", uid=4000123, utime=50, stime=20, vsize=5 * 2**20, rss=500,
                starttime=2100, vcsw=100, nvcsw=1)
    fx.add(ramp(nopw, 4, utime=3, stime=2, vcsw=50))
    noio = Task(300, "noio", has_io=False, nfds=-1, utime=10, stime=10, vsize=2**22, rss=100,
                starttime=2200, blkio=7)
    fx.add(ramp(noio, 4, utime=1, blkio=3, vcsw=2))
    nosched = Task(301, "noschedstat", has_schedstat=False, utime=10, starttime=2250,
                   vsize=2**22, rss=100, wait_ns=10**9)
    fx.add(ramp(nosched, 4, utime=4, wait_ns=10**8))
    short = Task(400, "oldkernel", nfields=42, utime=70, stime=7, starttime=2300,
                 vsize=2**23, rss=800)
    fx.add(ramp(short, 4, utime=10, stime=1, minflt=2))
    gone = Task(500, "goner", utime=5, stime=5, starttime=2400, vsize=2**21, rss=50)
    fx.add(ramp(gone, 4, utime=20, stime=10), last=2)
    new = Task(600, "newbie", utime=3, stime=4, starttime=100150, vsize=2**21, rss=60,
               minflt=90, vcsw=3, run_ns=7 * 10**7, cmdline=b"newbie\0--fresh\0")
    fx.add(ramp(new, 4, utime=6), first=3)
    idle = Task(700, "idler", policy=3, utime=1, starttime=2500, vsize=2**21, rss=40,
                cmdline=b"idler\0")
    fx.add(idle)
    rt = Task(800, "rt-task", policy=1, rt_priority=10, utime=2, stime=1, starttime=2600,
              vsize=2**21, rss=40)
    fx.add(ramp(rt, 4, stime=1, vcsw=100, run_ns=5 * 10**6))
    low = Task(801, "idle-class", policy=5, starttime=2601, vsize=2**21, rss=40, utime=1)
    fx.add(ramp(low, 4, utime=1).at(3, policy=0).at(4, policy=5))
    nob = Task(900, "nobody-task", uid=65534, utime=8, stime=2, starttime=2700,
               vsize=2**21, rss=45, cutime=40, cstime=15, cminflt=600, cmajflt=1)
    fx.add(ramp(nob, 4, utime=1, cutime=9, cstime=3, cminflt=77, minflt=4))
    vm = Task(950, "qemu-guest", utime=900, stime=50, guest=600, cguest=30, cutime=40,
              cstime=10, starttime=2800, vsize=2**30, rss=2**16, threads=1, majflt=3,
              cmajflt=2)
    fx.add(ramp(vm, 4, utime=60, guest=45, stime=4, majflt=1, cguest=1, cutime=2))
    return fx


def edge_threads():
    fx = Fixture("edge-threads", 4, uptimes=[200000, 200100, 200201, 200300])
    srv = Task(1000, "srv", threads=4, vsize=2**27, rss=5000, starttime=9000, vcsw=12,
               run_ns=10**8, cmdline=b"/usr/bin/srv\0-c\0srv.conf\0")
    busy = Task(1001, "srv-busy", threads=4, vsize=2**27, rss=5000, starttime=9001,
                utime=500, stime=40, vcsw=50, nvcsw=800, run_ns=6 * 10**9, wait_ns=5 * 10**8)
    ramp(busy, 4, utime=60, stime=5, nvcsw=70, vcsw=5, wait_ns=10**8, minflt=10)
    io = Task(1002, "srv-io", threads=4, vsize=2**27, rss=5000, starttime=9002,
              stime=80, vcsw=9000, run_ns=10**9, wbytes=2**24)
    ramp(io, 4, stime=4, vcsw=350, wbytes=2**20, run_ns=4 * 10**7)
    dying = Task(1003, "srv-dying", threads=4, vsize=2**27, rss=5000, starttime=9003,
                 utime=30, vcsw=10, last=2)
    ramp(dying, 4, utime=8, vcsw=3)
    born = Task(1004, "srv-born", threads=4, vsize=2**27, rss=5000, starttime=200150,
                utime=4, vcsw=2, first=3)
    ramp(born, 4, utime=9, vcsw=40)
    for k in range(1, 5):
        # The process file sums every thread, dead ones included.
        ut = sum(t.values(min(k, 2) if t is dying else k)["utime"] for t in (busy, io, dying))
        ut += born.values(k)["utime"] if k >= 3 else 0
        st = sum(t.values(k)["stime"] for t in (busy, io))
        wb = io.values(k)["wbytes"]
        mf = busy.values(k)["minflt"]
        srv.at(k, utime=ut, stime=st, wbytes=wb, minflt=mf,
               nfds=6)
    for t in (busy, io, dying, born):
        t.at(1, nfds=6)
    fx.add(srv, [busy, io, dying, born])
    lead = Task(1100, "leader-busy", threads=2, vsize=2**24, rss=900, starttime=9100,
                utime=100, vcsw=20, nvcsw=10)
    ramp(lead, 4, utime=30, nvcsw=15)
    helper = Task(1101, "lb-helper", threads=2, vsize=2**24, rss=900, starttime=9101, vcsw=4)
    fx.add(lead, [helper])
    lone = Task(1200, "lone", utime=5, starttime=9200, vsize=2**22, rss=100)
    fx.add(lone)
    return fx


def edge_reuse():
    fx = Fixture("edge-reuse", 4, uptimes=[300000, 300100, 300200, 300300])
    old = Task(2000, "old-owner", utime=5000, stime=3000, minflt=90000, vcsw=7000,
               nvcsw=600, starttime=1000, vsize=2**28, rss=20000, run_ns=9 * 10**10,
               wait_ns=4 * 10**9, rbytes=2**30, wbytes=2**29, cutime=100, cstime=50)
    ramp(old, 4, utime=40, stime=20, minflt=100, vcsw=30, wait_ns=10**8, rbytes=2**20)
    # PID 2000 is reused at step 3: a new process with a later start time
    # and small counters.
    old.at(3, comm="new-owner", utime=2, stime=1, minflt=150, vcsw=5, nvcsw=1,
           starttime=300150, vsize=2**22, rss=300, run_ns=2 * 10**7, wait_ns=10**6,
           rbytes=0, wbytes=4096, cutime=0, cstime=0)
    old.at(4, utime=12, stime=3, minflt=200, vcsw=25, wait_ns=3 * 10**6, wbytes=8192)
    steady = Task(2001, "steady", utime=100, stime=50, starttime=1500, vsize=2**22, rss=200)
    ramp(steady, 4, utime=11, stime=2, vcsw=7)
    fx.add(old)
    fx.add(steady)
    return fx


def edge_long():
    ups = [400000 + 100 * k + (k % 3) for k in range(9)]
    fx = Fixture("edge-long", 9, uptimes=ups)
    worker = Task(3000, "worker", utime=100, stime=10, starttime=3000, vsize=2**23, rss=700,
                  vcsw=40, run_ns=10**9, wait_ns=10**7)
    fx.add(ramp(worker, 9, utime=23, stime=3, vcsw=11, minflt=7, wait_ns=2 * 10**6))
    evil = Task(3001, "ev\x1b[2Jil\tx", utime=5, starttime=3001, vsize=2**22, rss=100)
    fx.add(ramp(evil, 9, utime=1, vcsw=1))
    fx.add(Task(3002, "sleeper", starttime=3002, vsize=2**22, rss=90))
    # Marks a fixture whose names hold control characters (golden.t).
    fx.marker = ".escaped-names"
    return fx


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "pidstat")
    for fx in (edge_misc(), edge_threads(), edge_reuse(), edge_long()):
        fx.build(out)


if __name__ == "__main__":
    main()
