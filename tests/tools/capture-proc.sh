#!/usr/bin/env bash
# Captures a fixture root (docs/fixtures.md) from the live /proc:
#   capture-proc.sh OUTDIR STEPS PID...
# Copies, STEPS times and 1 s apart, the files pidstat reads for each PID
# and each of its threads (stat, schedstat, status, statm, io, cmdline, smaps up
# to the end of the [stack] VMA, fd/ as empty files named by number), plus
# uptime, stat and meminfo; writes stepK/time, meta and
# sys/devices/system/cpu/cpuN. A PID that has gone is simply left out of
# later steps. Personal data is scrubbed: cmdline's argv[0] and file paths
# become base names, smaps keeps no file paths, /proc/stat keeps only the
# cpu and counter lines, meta's nodename is "fixture".
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 OUTDIR STEPS PID..." >&2; exit 2; }
out=$1 steps=$2
shift 2
rm -rf "$out"
mkdir -p "$out"

exec python3 - "$out" "$steps" "$@" <<'PY'
import os, re, sys, time

out, steps, pids = sys.argv[1], int(sys.argv[2]), [int(p) for p in sys.argv[3:]]

def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None

def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)

def scrub_cmdline(data):
    args = data.split(b"\0")
    return b"\0".join(os.path.basename(a) if a.startswith(b"/") else a for a in args)

VMA = re.compile(rb"^[0-9a-f]+-[0-9a-f]+ ")

def scrub_smaps(data):
    lines, keep, in_stack = data.split(b"\n"), [], False
    for line in lines:
        if VMA.match(line):
            if in_stack:
                break  # the [stack] VMA is complete
            fields = line.split(None, 5)
            name = fields[5] if len(fields) > 5 else b""
            if not name.startswith(b"["):
                name = b""  # no file paths in fixtures
            in_stack = name == b"[stack]"
            line = b" ".join(fields[:5] + ([name] if name else []))
        keep.append(line)
    return b"\n".join(keep).rstrip(b"\n") + b"\n" if keep else b""

def scrub_stat(data):
    keep = [l for l in data.split(b"\n")
            if l.startswith((b"cpu", b"ctxt", b"btime", b"processes", b"procs_"))]
    return b"\n".join(keep) + b"\n"

def rss_anon(status):
    m = re.search(rb"^RssAnon:\s*(\d+)", status or b"", re.M)
    return m and m.group(1)

def status_statm(src):
    """status, and statm read while status's RssAnon stood still (read
    before and after it), so that the two agree as one kernel moment's do:
    a leaker moves between two reads."""
    for _ in range(50):
        before, statm, status = read(src + "/status"), read(src + "/statm"), read(src + "/status")
        if rss_anon(before) == rss_anon(status):
            break
    return status, statm

def copy_task(src, dst):
    stat = read(src + "/stat")
    if stat is None:
        return False
    write(dst + "/stat", stat)
    for name in ("schedstat", "io"):
        d = read(src + "/" + name)
        if d is not None:
            write(dst + "/" + name, d)
    status, statm = status_statm(src)
    for name, d in (("status", status), ("statm", statm)):
        if d is not None:
            write(dst + "/" + name, d)
    d = read(src + "/cmdline")
    if d is not None:
        write(dst + "/cmdline", scrub_cmdline(d))
    d = read(src + "/smaps")
    if d is not None:
        write(dst + "/smaps", scrub_smaps(d))
    try:
        fds = os.listdir(src + "/fd")
        os.makedirs(dst + "/fd", exist_ok=True)
        for fd in fds:
            write(dst + "/fd/" + fd, b"")
    except OSError:
        pass
    return True

first_time = None
for k in range(1, steps + 1):
    if k > 1:
        time.sleep(1)
    base = f"{out}/step{k}"
    now = int(time.time())
    first_time = first_time or now
    write(base + "/proc/uptime", read("/proc/uptime"))
    write(base + "/proc/stat", scrub_stat(read("/proc/stat")))
    write(base + "/proc/meminfo", read("/proc/meminfo"))
    for pid in pids:
        src, dst = f"/proc/{pid}", f"{base}/proc/{pid}"
        if not copy_task(src, dst):
            continue
        try:
            tids = os.listdir(src + "/task")
        except OSError:
            tids = []
        for tid in tids:
            if not copy_task(f"{src}/task/{tid}", f"{dst}/task/{tid}"):
                continue
        os.makedirs(dst + "/task", exist_ok=True)
    write(base + "/time", f"{now}\n".encode())

u = os.uname()
ncpu = len([d for d in os.listdir("/sys/devices/system/cpu") if re.fullmatch(r"cpu[0-9]+", d)])
for i in range(ncpu):
    # a file inside, so that git keeps the directory
    write(f"{out}/sys/devices/system/cpu/cpu{i}/online", b"1\n")
meta = (f"# captured by tests/tools/capture-proc.sh\n"
        f"hz={os.sysconf('SC_CLK_TCK')}\npagesize={os.sysconf('SC_PAGESIZE')}\n"
        f"sysname={u.sysname}\nrelease={u.release}\nnodename=fixture\n"
        f"machine={u.machine}\nepoch={first_time}\n")
write(out + "/meta", meta.encode())
PY
