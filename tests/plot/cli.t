# test: shared -- records made with sqlite3 in its scratch dir
# triage plot: usage and file errors, hostile names, downsampling. The
# records here are built with the sqlite3 CLI to the contract of
# docs/record.md (the v_* views as tables), so every name and value is
# known; tests/plot/page.t draws a real `triage record`.
. "$SRC/tests/plot/lib.sh"
command -v sqlite3 >/dev/null || fail "sqlite3 is missing (scripts/deps.sh installs it)"

# check STATUS DESCRIPTION ARGS...: runs triage plot ARGS, expects STATUS.
# Statuses: the README's exit-status table (a missing input or one not of its kind is 2).
check() {
	local want=$1 what=$2
	shift 2
	"$TRIAGE" plot "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	RC=$?
	[ "$RC" = "$want" ] || fail "$what: status $RC, expected $want: $(cat "$SCRATCH/err")"
}

check 0 "--help" --help
grep -q '^Usage: triage plot FILE.db -o PAGE.html' "$SCRATCH/out" || fail "--help text"
check 2 "no arguments"
grep -q "^see 'triage plot --help'$" "$SCRATCH/err" || fail "no pointer to --help: $(cat "$SCRATCH/err")"
check 2 "no -o" x.db
grep -q '^triage plot: no page given' "$SCRATCH/err" || fail "no -o message: $(cat "$SCRATCH/err")"
check 2 "unknown option" x.db -o p.html --no-such-option
grep -q "^triage plot: unknown option: '--no-such-option'$" "$SCRATCH/err" || fail "$(cat "$SCRATCH/err")"
check 2 "bad --max-points" x.db -o p.html --max-points 3
check 2 "two records" a.db b.db -o p.html
[ -s "$SCRATCH/out" ] && fail "a usage error wrote to stdout"

check 2 "missing file" "$SCRATCH/none.db" -o "$SCRATCH/p.html"
[ "$(wc -l <"$SCRATCH/err")" = 1 ] || fail "missing file: not one line: $(cat "$SCRATCH/err")"
grep -q "^triage plot: cannot read '.*none.db': No such file or directory$" "$SCRATCH/err" ||
	fail "missing file message: $(cat "$SCRATCH/err")"
[ -e "$SCRATCH/p.html" ] && fail "a page was written for a missing record"
echo "not a database" >"$SCRATCH/text.db"
check 2 "a text file" "$SCRATCH/text.db" -o "$SCRATCH/p.html"
grep -q "^triage plot: '.*text.db' is not a triage record (not an SQLite database)$" "$SCRATCH/err" ||
	fail "text file message: $(cat "$SCRATCH/err")"
sqlite3 "$SCRATCH/other.db" 'CREATE TABLE t(a); INSERT INTO t VALUES (1);'
check 2 "another SQLite file" "$SCRATCH/other.db" -o "$SCRATCH/p.html"
grep -q "^triage plot: '.*other.db' is not a triage record (meta is missing)$" "$SCRATCH/err" ||
	fail "other SQLite file message: $(cat "$SCRATCH/err")"
[ "$(wc -l <"$SCRATCH/err")" = 1 ] || fail "not one line: $(cat "$SCRATCH/err")"
# every name is there but v_cpu lacks columns: the first one the page needs is named
sqlite3 "$SCRATCH/cols.db" 'CREATE TABLE meta(key, value); CREATE TABLE v_cpu(ts, cpu);
	CREATE TABLE v_group(a); CREATE TABLE v_load(a); CREATE TABLE v_psi(a);
	CREATE TABLE v_disk(a); CREATE TABLE v_net(a); CREATE TABLE v_findings(a);'
check 2 "missing columns" "$SCRATCH/cols.db" -o "$SCRATCH/p.html"
grep -q "^triage plot: '.*cols.db' is not a triage record (no such column: [a-z]*)$" "$SCRATCH/err" ||
	fail "missing column message: $(cat "$SCRATCH/err")"
[ -e "$SCRATCH/p.html" ] && fail "a page was written for a file that is not a record"
# the help and the man page say what the statuses above are (the help is built from the man page)
"$TRIAGE" plot --help | tr '\n' ' ' | grep -q "2 usage error, a missing file or one that is not a triage record" ||
	fail "plot --help: exit status text disagrees with the statuses above: $("$TRIAGE" plot --help | tail -5)"
echo "ok usage and file errors"

# A record by the contract: N samples at 1 s, 2 CPUs, hostile names.
# make_record FILE N
make_record() {
	sqlite3 "$1" <<SQL
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES ('schema_version','1'), ('hostname','h</title><script>alert(1)</script>'),
	('kernel','6.1'), ('ncpu','2'), ('interval','1');
CREATE TABLE v_cpu(ts, cpu, usr, nice, sys, iowait, irq, soft, steal, idle);
CREATE TABLE v_group(ts, grp, usr, sys, cswch_s, nvcswch_s, runq_ms_s, rss_kb, read_Bps, write_Bps, threads);
CREATE TABLE v_load(ts, load1, load5, load15, runnable, blocked);
CREATE TABLE v_psi(ts, resource, some_avg10, full_avg10);
CREATE TABLE v_disk(ts, device, read_Bps, write_Bps, util_pct);
CREATE TABLE v_net(ts, iface, rx_Bps, tx_Bps);
CREATE TABLE v_findings(ts_start, ts_end, severity, rule, subject, sentence);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $2)
INSERT INTO v_cpu SELECT 1.8e9 + i, c.cpu, CASE WHEN i = 1234 THEN 99 ELSE 40 END, 0, 5, 0, 0, 0, 0,
	55 FROM n, (SELECT -1 AS cpu UNION SELECT 0 UNION SELECT 1) c;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $2)
INSERT INTO v_group SELECT 1.8e9 + i, g.name, g.u, 1, 10, 20, 0, 1000, 0, 0, 1 FROM n,
	(SELECT '</script><script>alert(2)</script>' AS name, 50 AS u
	 UNION SELECT 'x' || char(8232) || '&<!--', 30 UNION SELECT 'plain', 10) g;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $2)
INSERT INTO v_load SELECT 1.8e9 + i, 1.5, 1.2, 1.0, 2, 0 FROM n;
INSERT INTO v_psi VALUES (1.8e9 + 1, 'cpu', 3.0, NULL), (1.8e9 + 1, 'io', 1.0, 0.5);
INSERT INTO v_findings VALUES (1.8e9 + 10, 1.8e9 + 20, 'critical', 'cpu-bound-user', 'PID 1 </script>',
	'PID 1 </script><img src=x onerror=alert(3)> used 95% of one CPU');
SQL
}
make_record "$SCRATCH/h.db" 2500
check 0 "hostile record" "$SCRATCH/h.db" -o "$SCRATCH/h.html"
page_json "$SCRATCH/h.html" >"$SCRATCH/h.json"
python3 - "$SCRATCH/h.html" "$SCRATCH/h.json" <<'PY' || fail "hostile names"
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
d = json.load(open(sys.argv[2], encoding="utf-8"))
# Names come back exactly, as data; nothing else opens a script or an element.
labels = [s["label"] for c in d["charts"] for s in c["series"]]
assert "</script><script>alert(2)</script> usr" in labels, labels
assert "x\u2028&<!-- usr" in labels, labels
assert d["meta"]["hostname"] == "h</title><script>alert(1)</script>"
assert d["findings"][0]["sentence"].startswith("PID 1 </script><img src=x")
assert len(re.findall(r"<script", html, re.I)) == 3, re.findall(r"<script[^>]*>", html, re.I)
assert len(re.findall(r"</script", html, re.I)) == 3
assert "\u2028" not in html and "<img" not in html
assert "<title>triage record of h&lt;/title&gt;&lt;script&gt;" in html
# PSI: a series only where the record has values (cpu full is NULL throughout).
psi = [c for c in d["charts"] if c["id"] == "psi"][0]
assert [s["label"] for s in psi["series"]] == ["cpu some", "io some", "io full"], psi["series"]
# No disk or net rows: no such charts.
assert not [c for c in d["charts"] if c["id"] in ("disk", "disk_util", "net")]
PY
echo "ok hostile names stay data"

# Downsampling: 2,500 samples become at most 2,000 points (or --max-points),
# and the one-sample spike at sample 1234 (99% usr) is still there.
python3 - "$SCRATCH/h.json" 2000 <<'PY' || fail "default downsampling"
import json, sys
d, limit = json.load(open(sys.argv[1])), int(sys.argv[2])
for c in d["charts"]:
    if c["raw_points"] > 1:
        assert c["raw_points"] == 2500 and len(c["ts"]) <= limit, (c["id"], len(c["ts"]))
    assert c["ts"] == sorted(c["ts"])
cpu = [c for c in d["charts"] if c["id"] == "cpu"][0]
assert max(cpu["series"][0]["v"]) == 99 and min(cpu["series"][0]["v"]) == 40
PY
check 0 "--max-points 100" "$SCRATCH/h.db" -o "$SCRATCH/m.html" --max-points 100
page_json "$SCRATCH/m.html" >"$SCRATCH/m.json"
python3 - "$SCRATCH/m.json" 100 <<'PY' || fail "--max-points 100"
import json, sys
d, limit = json.load(open(sys.argv[1])), int(sys.argv[2])
assert all(len(c["ts"]) <= limit for c in d["charts"])
cpu = [c for c in d["charts"] if c["id"] == "cpu"][0]
assert max(cpu["series"][0]["v"]) == 99
PY
echo "ok downsampling keeps the spike"

# -o -: the page on stdout; an unwritable -o fails in one line and leaves nothing.
check 0 "-o -" "$SCRATCH/h.db" -o -
cmp -s "$SCRATCH/out" "$SCRATCH/h.html" || fail "-o - differs from the file"
check 1 "unwritable -o" "$SCRATCH/h.db" -o "$SCRATCH/no/dir/p.html"
grep -q "^triage plot: cannot write '.*p.html': No such file or directory$" "$SCRATCH/err" ||
	fail "unwritable -o message: $(cat "$SCRATCH/err")"
ls "$SCRATCH" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
echo "ok output"

# Idle devices (every value 0 over the record, as iostat -z judges them) are
# left out of both disk charts and named in the throughput chart's note; a
# device busy in any column stays. A group's series carry the group
# (their shared colour) and which of its values they are (sys is dashed).
make_record "$SCRATCH/d.db" 5
sqlite3 "$SCRATCH/d.db" "INSERT INTO v_disk VALUES
	(1.8e9 + 1, 'vda', 4096, 0, 1.5), (1.8e9 + 2, 'vda', 0, 0, 0),
	(1.8e9 + 1, 'loop0', 0, 0, 0), (1.8e9 + 2, 'loop0', 0, 0, 0),
	(1.8e9 + 1, 'zram0', 0, 0, NULL), (1.8e9 + 1, 'sdb', 0, 0, 0.5)"
check 0 "idle devices" "$SCRATCH/d.db" -o "$SCRATCH/d.html"
page_json "$SCRATCH/d.html" >"$SCRATCH/d.json"
python3 - "$SCRATCH/d.json" <<'PY' || fail "idle devices and series tags"
import json, sys
d = json.load(open(sys.argv[1]))
c = {c["id"]: c for c in d["charts"]}
assert [s["label"] for s in c["disk"]["series"]] == ["sdb read", "sdb write", "vda read", "vda write"], c["disk"]
assert [s["label"] for s in c["disk_util"]["series"]] == ["sdb", "vda"], c["disk_util"]
assert c["disk"]["note"] == ("Not drawn: 2 devices idle throughout (as iostat -z leaves them "
                             "out): loop0, zram0."), c["disk"].get("note")
g = c["groups_cpu"]["series"]
assert [(s["entity"], s["part"]) for s in g[:2]] == [("</script><script>alert(2)</script>", 0)] * 1 + \
    [("</script><script>alert(2)</script>", 1)], g[:2]
assert [(s["entity"], s["part"]) for s in c["cpu"]["series"][:2]] == [("usr", 0), ("nice", 1)]
PY
echo "ok idle devices left out, as iostat -z"

# Real record files, odd ones included (tests/fuzz/corpus/fuzz_record: a
# truncated file, odd counter values, threads at the edges): a page whose
# data parses, or one line and status 1 (2 for a file that is not a
# record); never a crash (ASan, UBSan).
n=0
for f in "$SRC"/tests/fuzz/corpus/fuzz_record/*.db; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	"$TRIAGE" plot "$f" -o "$SCRATCH/c.html" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	case $rc in
	0) page_json "$SCRATCH/c.html" | python3 -c 'import json, sys; json.load(sys.stdin)' ||
		fail "$(basename "$f"): the page's data is not JSON" ;;
	1 | 2) [ "$(wc -l <"$SCRATCH/err")" = 1 ] || fail "$(basename "$f"): $(cat "$SCRATCH/err")" ;;
	*) fail "$(basename "$f"): status $rc: $(head -5 "$SCRATCH/err")" ;;
	esac
	rm -f "$SCRATCH/c.html"
done
echo "ok $n record files from the record fuzz corpus"
