#!/usr/bin/env bash
# test: shared -- judges only the bytes of its outputs; every command here looks at its own seven processes or is cheap whatever else runs (the whole-machine probes, whose cost grows with the machine, are tests/hostile/probes.t)
# Hostile names everywhere (issue 13, part 5). Processes whose comm
# (PR_SET_NAME) and command line carry terminal escapes, newlines, CR, tabs,
# quotes, commas, dots, braces, invalid UTF-8 and C1 controls; every command
# runs in every output mode: plain on a pseudo-terminal (stdout and stderr
# checked as a terminal would get them), JSON, pidstat's -h and -o JSON,
# collect's Graphite lines and /metrics, the probes of its own processes,
# u32 with hostile rule names and expressions. Asserted (tests/hostile/check.py): no raw
# control byte but \n and \t (and triage's own SGR colours on a terminal),
# valid UTF-8, every JSON document parses, no line starts with the FORGED
# text a name carries after its newline/CR, Graphite lines keep their
# format; and /proc is the oracle for the names in pidstat's JSON.
# (The whole-machine probes offcpu, runq, profile and syscalls are
# tests/hostile/probes.t, an exclusive test over the same workload.)
. "$SRC/tests/hostile/lib.sh" names

# report
run report-tty term "$TRIAGE" report -d 1 --color=always
run report-json json "$TRIAGE" report -d 1 -p "$pids" --json
# pidstat: sysstat's plain table, -l (command line), -t, -h, -o JSON
run pidstat-tty term "$TRIAGE" pidstat -p "$pids"
run pidstat-l-tty term "$TRIAGE" pidstat -l -p "$pids"
run pidstat-tl-tty term "$TRIAGE" pidstat -t -l -u -w -r -d -p "$pids" 1 1
run pidstat-h lines "$TRIAGE" pidstat -h -l -u -w -p "$pids" 1 1
want lines "$work/pidstat-h.out" '(Linux .*|#.*|[0-9:]+ +[0-9]+ +[0-9]+ .*)'
run pidstat-json json "$TRIAGE" pidstat -o JSON -t -p "$pids" 1 1
run pidstat-l-json json "$TRIAGE" pidstat -o JSON -l -p "$pids" 1 1
join
# the names in JSON are the kernel's bytes: /proc is the oracle
python3 - "$work/pidstat-json.out" "$work/pidstat-l-json.out" "$pids" <<'PY' || fail "pidstat JSON names"
import codecs, json, sys
codecs.register_error("bytes", lambda e: (e.object[e.start:e.end].decode("latin-1"), e.end))
def dec(b):  # valid UTF-8 as is, any other byte as U+00XX (the JSON writer's rule)
    return b.decode("utf-8", "bytes")
pids = [int(p) for p in sys.argv[3].split(",")]
comm = {p: dec(open(f"/proc/{p}/comm", "rb").read()[:-1]) for p in pids}
cmdl = {p: dec(open(f"/proc/{p}/cmdline", "rb").read().rstrip(b"\0").replace(b"\0", b" ")) for p in pids}
for path, want in ((sys.argv[1], comm), (sys.argv[2], cmdl)):
    rows = json.load(open(path, "rb"))["sysstat"]["hosts"][0]["statistics"][0]["task-cpu-load"]
    # -t: the TGID row (TID "") names the process
    seen = {int(r.get("PID") or r["TGID"]): r["cmd"] for r in rows if r.get("TID", "") == ""}
    for p in pids:
        if seen.get(p) != want[p]:
            sys.exit(f"{path}: PID {p}: {seen.get(p)!r} != {want[p]!r}")
PY
# collect: Graphite lines (one component per name) and /metrics
run collect-once lines "$TRIAGE" collect --once -p "$pids" --prefix T.h
want lines "$work/collect-once.out" 'T\.h(\.[A-Za-z0-9_-]+)+ -?[0-9.e+-]+ [0-9]+'
if command -v curl >/dev/null; then
	for _ in 1 2 3; do # claimed among the tests running beside this one (tests/lib.sh)
		port=$(claim_port 19500 19599) || fail "no free port in 19500-19599"
		"$TRIAGE" collect -i 1 --listen "127.0.0.1:$port" -p "$pids" 2>"$work/collect.err" &
		cpid=$!
		started="$started $cpid"
		for _ in $(seq 30); do
			curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
			kill -0 "$cpid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$cpid" 2>/dev/null && break # else the port was taken: next one
	done
	# /report answers 503 until the first window ends (one interval after the
	# first sample, later under ASan on a busy machine): wait for that state
	# change, not for a guessed time; the collector dying ends the wait
	code=503
	while [ "$code" = 503 ] && kill -0 "$cpid" 2>/dev/null; do
		sleep 0.2
		code=$(curl -s -o "$work/collect-report.out" -w '%{http_code}' \
			"http://127.0.0.1:$port/report")
	done
	[ "$code" = 200 ] || fail "/report failed: HTTP $code: $(head -c 300 "$work/collect-report.out")"
	curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics.out" || fail "scrape failed"
	want json "$work/collect-report.out"
	kill -TERM "$cpid"
	want lines "$work/metrics.out" \
		'(# .*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? [-+0-9.eInfNa]+( [0-9]+)?)'
	if command -v promtool >/dev/null; then
		promtool check metrics <"$work/metrics.out" >"$work/promtool" 2>&1 ||
			fail "promtool: $(cat "$work/promtool")"
	fi
	echo "ok collect /metrics"
fi
# load: one shot and --watch, plain and JSON
run load-tty term "$TRIAGE" load
run load-json json "$TRIAGE" load --json
run load-watch-tty term "$TRIAGE" load --watch --no-rt 1 1
run load-watch-json jsonl "$TRIAGE" load --watch --no-rt --json 1 1
# probes of our own processes: comm, paths (the workload opens /nonexistent/NAME);
# the whole-machine probes are tests/hostile/probes.t
run syscalls-tty term "$TRIAGE" probe syscalls -p "$first" -d 1
run syscalls-json json "$TRIAGE" probe syscalls -p "$first" -d 1 --json
run syscalls-C-tty term "$TRIAGE" probe syscalls -C "${names[0]}" -d 1
run trace-tty term "$TRIAGE" probe trace openat -p "$second" -d 1
run trace-json jsonl "$TRIAGE" probe trace openat -p "$second" -d 1 --json
run doctor-tty term "$TRIAGE" doctor
run doctor-json json "$TRIAGE" doctor --json
# u32: rule names and expressions carry the same bytes
bad=$'\e]0;x\a{},.\xff\xc2\x9b'
printf '%s -m u32 --u32 "0>>24=0x45"\nok%s -m string --algo bm --string "\e[2J"\n' \
	"$bad" "$bad" >"$work/rules"
python3 "$SRC/tests/u32/gen_captures.py" "$work" >/dev/null || fail "gen_captures"
run u32-test-tty term "$TRIAGE" u32 test --rules "$work/rules" "$work/corpus.pcap"
run u32-test-json json "$TRIAGE" u32 test --json --rules "$work/rules" "$work/corpus.pcap"
run u32-verdicts lines "$TRIAGE" u32 test --verdicts --rules "$work/rules" "$work/corpus.pcap"
run u32-lint-tty term "$TRIAGE" u32 lint --rules "$work/rules"
run u32-lint-json json "$TRIAGE" u32 lint --json --rules "$work/rules"
k=0
for e in $'0>>24=0x45\e[2J' $'0>>24=1\nFORGED' $'6&0xFF=\xff17'; do
	# refusals are usage errors (2): the message must still be clean
	k=$((k + 1))
	for sub in lint explain; do
		"$TRIAGE" u32 $sub "$e" >"$work/$sub$k.out" 2>"$work/$sub$k.err"
		want term "$work/$sub$k.out"
		want term "$work/$sub$k.err"
	done
done
# usage errors quote the bad token: it comes back escaped
for cmd in report pidstat load collect "probe syscalls" doctor "u32 lint" version; do
	k=$((k + 1))
	# shellcheck disable=SC2086
	"$TRIAGE" $cmd --$'\e[2J\nFORGED' >/dev/null 2>"$work/usage$k.err"
	want term "$work/usage$k.err"
done
"$TRIAGE" report -p $'1\e[2J' -d 1 >/dev/null 2>"$work/usage-p.err"
want term "$work/usage-p.err"
# record, then replay and plot the file: names come back from SQLite
run record text "$TRIAGE" record -o "$work/rec.db" -i 0.2 -d 1 -p "$pids"
join # the replays read the file
run replay-pidstat-tty term "$TRIAGE" replay "$work/rec.db" pidstat
run replay-pidstat-t-tty term "$TRIAGE" replay "$work/rec.db" pidstat -t -u -r -d -w
run replay-pidstat-h lines "$TRIAGE" replay "$work/rec.db" pidstat -h
want lines "$work/replay-pidstat-h.out" '(Linux .*|#.*|[0-9:]+ +[0-9]+ +[0-9]+ .*)'
run replay-pidstat-json json "$TRIAGE" replay "$work/rec.db" pidstat -o JSON
run replay-report-tty term "$TRIAGE" replay "$work/rec.db" report
run replay-report-json json "$TRIAGE" replay "$work/rec.db" report --json
run replay-load-tty term "$TRIAGE" replay "$work/rec.db" load
run replay-load-json json "$TRIAGE" replay "$work/rec.db" load --json
run plot text "$TRIAGE" plot "$work/rec.db" -o "$work/page.html"
join
# sqlite3 is the oracle: each comm is one grp value, byte for byte; the
# page's data parses and its names match; nothing closes the script early
python3 - "$work/rec.db" "$work/page.html" "$pids" <<'PY' || fail "record/plot names"
import codecs, json, re, sqlite3, sys
codecs.register_error("bytes", lambda e: (e.object[e.start:e.end].decode("latin-1"), e.end))
pids = [int(p) for p in sys.argv[3].split(",")]
comm = {open(f"/proc/{p}/comm", "rb").read()[:-1] for p in pids}
db = sqlite3.connect(sys.argv[1])
db.text_factory = bytes
grp = {r[0] for r in db.execute("SELECT CAST(grp AS BLOB) FROM v_group")}
if not comm <= grp:
    sys.exit(f"v_group lacks {sorted(comm - grp)!r}; has {sorted(grp)!r}")
page = open(sys.argv[2], "rb").read()
for c in range(32):
    if bytes([c]) in page and bytes([c]) not in b"\n\t":
        sys.exit(f"page has raw control 0x{c:02x}")
m = re.search(rb'<script type="application/json" id="triage-data">(.*?)</script>', page, re.S)
if not m:
    sys.exit("page: no data script")
if page.lower().count(b"</script") != page.lower().count(b"<script"):
    sys.exit("page: unbalanced script tags")
data = json.loads(m.group(1).decode("utf-8"))
labels = set()
def walk(o):
    if isinstance(o, dict):
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
    elif isinstance(o, str):
        labels.add(o)
walk(data)
dec = {c.decode("utf-8", "bytes") for c in comm}
if not any(d in l for d in dec for l in labels):  # "NAME usr", "PID N NAME"
    sys.exit(f"page data names none of the hostile comms: {sorted(labels)[:40]!r}")
PY
echo "ok record/sqlite3/plot names"
python3 "$check" --manifest "$work/manifest" || fail "see above"
echo "ok: $nrun runs over 7 hostile names, no control byte, no forged line, JSON parses"
