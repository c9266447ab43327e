# test: exclusive -- records the live machine and wants its spinner among the top groups
# triage plot draws a real `triage record` of a known workload (load_spin:
# one thread spinning) as a page that real headless Chromium loads with no
# console errors and no blocked fetches; every chart's canvas has its
# series drawn (pixels of the series colours, gone when they are hidden);
# the series count is the database's, counted here with sqlite3; the
# workload is among the top groups and the findings are listed.
. "$SRC/tests/plot/lib.sh"
[ "${TRIAGE_SAN:-0}" = 1 ] && skip "page test runs on the plain build only (it tests the page in Chromium, not memory safety; tests/plot/cli.t runs under SAN)"
command -v chromium >/dev/null || fail "chromium is missing (scripts/deps.sh installs it)"
command -v sqlite3 >/dev/null || fail "sqlite3 is missing (scripts/deps.sh installs it)"
DB="$SCRATCH/rec.db"
Q() { sqlite3 "$DB" "$1"; }

"$BUILD/workloads/load_spin" 1 60 >"$SCRATCH/spin.out" &
SPIN=$!
started="$started $SPIN"
for i in $(seq 100); do grep -q '^ready' "$SCRATCH/spin.out" && break; sleep 0.1; done
grep -q '^ready' "$SCRATCH/spin.out" || fail "load_spin did not start"
comm=$(cat "/proc/$SPIN/comm") # its group: the process's name (load_spin_main)
# Disk writes during the record, so a B/s axis has MiB-sized ticks to label.
(sleep 1; dd if=/dev/zero of="$SCRATCH/dd.bin" bs=1M count=96 oflag=direct 2>/dev/null; rm -f "$SCRATCH/dd.bin") &
started="$started $!"
"$TRIAGE" record -o "$DB" -i 1 -d 6 --window 3 2>"$SCRATCH/record.err" ||
	fail "triage record failed: $(cat "$SCRATCH/record.err")"
kill "$SPIN" 2>/dev/null # recorded: its CPU is better spent on Chromium
"$TRIAGE" plot "$DB" -o "$SCRATCH/page.html" || fail "triage plot failed"
echo "page: $(wc -c <"$SCRATCH/page.html") bytes (recorded and drawn at ${SECONDS}s)"

# The database's series, by the rules of docs/plot.md, counted with sqlite3:
# a series exists where the record has at least one value for it.
modes="(count(usr) > 0) + (count(nice) > 0) + (count(sys) > 0) + (count(iowait) > 0) +
	(count(irq) > 0) + (count(soft) > 0) + (count(steal) > 0)"
ncpu=$(Q "SELECT count(DISTINCT cpu) FROM v_cpu WHERE cpu >= 0")
cpu_series=$(Q "SELECT $modes FROM v_cpu WHERE cpu = -1")
if [ "$ncpu" -le 8 ]; then
	cpu_series=$((cpu_series + $(Q "SELECT coalesce(sum(n), 0) FROM (SELECT $modes AS n FROM v_cpu
		WHERE cpu >= 0 GROUP BY cpu)")))
else
	cpu_series=$((cpu_series + $(Q "SELECT count(DISTINCT cpu) FROM v_cpu WHERE cpu >= 0 AND idle IS NOT NULL")))
fi
# top_pair RANK_EXPR A B: the series A and B of the 5 groups ranked by RANK_EXPR
top_pair() {
	Q "WITH top AS (SELECT grp FROM v_group GROUP BY grp ORDER BY sum($1) DESC, grp LIMIT 5)
		SELECT count(DISTINCT CASE WHEN $2 IS NOT NULL THEN grp END) +
		count(DISTINCT CASE WHEN $3 IS NOT NULL THEN grp END) FROM v_group WHERE grp IN top"
}
groups=$(( $(top_pair "usr + sys" usr sys) + $(top_pair "cswch_s + nvcswch_s" cswch_s nvcswch_s) ))
load=$(Q "SELECT (count(load1) > 0) + (count(runnable) > 0) + (count(blocked) > 0) +
	(count(runnable + blocked) > 0) FROM v_load")
psi=$(Q "SELECT count(DISTINCT CASE WHEN some_avg10 IS NOT NULL THEN resource END) +
	count(DISTINCT CASE WHEN full_avg10 IS NOT NULL THEN resource END) FROM v_psi")
# Devices idle throughout (every value 0) are not drawn, as iostat -z leaves them out.
active="device IN (SELECT device FROM v_disk WHERE read_Bps > 0 OR write_Bps > 0 OR util_pct > 0)"
disks=$(Q "SELECT count(DISTINCT CASE WHEN read_Bps IS NOT NULL THEN device END) +
	count(DISTINCT CASE WHEN write_Bps IS NOT NULL THEN device END) +
	count(DISTINCT CASE WHEN util_pct IS NOT NULL THEN device END) FROM v_disk WHERE $active")
idle=$(Q "SELECT group_concat(device, ' ') FROM (SELECT DISTINCT device FROM v_disk WHERE NOT ($active) ORDER BY 1)")
ifaces=$(Q "SELECT count(DISTINCT CASE WHEN rx_Bps IS NOT NULL THEN iface END) +
	count(DISTINCT CASE WHEN tx_Bps IS NOT NULL THEN iface END) FROM v_net")
want=$((cpu_series + groups + load + psi + disks + ifaces))
nfind=$(Q "SELECT count(*) FROM v_findings")
echo "database: $ncpu CPUs; series: $cpu_series CPU, $groups groups, $load load, $psi PSI," \
	"$disks disk, $ifaces network ($want); $nfind finding windows"

python3 "$SRC/tests/plot/page_check.py" "$SCRATCH/page.html" 19200 19209 "$SCRATCH" \
	>"$SCRATCH/check.json" 2>"$SCRATCH/check.err" ||
	fail "page check: $(tail -5 "$SCRATCH/check.err")"
R="$SCRATCH/check.json"
echo "Chromium done at ${SECONDS}s"
jq -e '.errors == []' "$R" >/dev/null || fail "errors in the page: $(jq -c .errors "$R")"
got=$(jq '[.charts[].labels | length] | add' "$R")
[ "$got" = "$want" ] || fail "page has $got series, the database $want: $(jq -c '[.charts[] | {id, n: (.labels | length)}]' "$R")"
# (hidden: pixels of the findings' marks that happen to be near a series colour)
jq -e '.charts | length > 0 and all(.shown - .hidden >= 50)' "$R" >/dev/null ||
	fail "a chart is blank: $(jq -c '[.charts[] | {id, shown, hidden}]' "$R")"
jq -e '.external == 0' "$R" >/dev/null || fail "the page refers to outside resources"
jq -e --arg g "$comm" '[.charts[] | select(.id == "chart-groups_cpu") | .labels[]]
	| any(startswith($g + " "))' "$R" >/dev/null ||
	fail "the workload's group $comm is not among the top groups: $(jq -c '.charts[] | select(.id == "chart-groups_cpu") | .labels' "$R")"
if [ "$nfind" -gt 0 ]; then
	sentence=$(Q "SELECT sentence FROM v_findings ORDER BY ts_start, ts_end LIMIT 1")
	jq -e --arg s "$sentence" '.findings | length > 0 and any(contains($s))' "$R" >/dev/null ||
		fail "the first finding is not listed: $sentence"
fi
echo "ok page: $(jq '.charts | length' "$R") charts, $got series, $(jq '.findings | length' "$R") finding marks, no errors"

# What a reader sees. (1) Each y axis is wide enough for its labels: the
# labels' widths, measured in the axis's font, fit between the canvas's
# left edge and the ticks, and nothing is painted in the canvas's first two
# columns (a label too wide is cut there).
jq -e '[.charts[] | .yaxis | (.widths | max) + .ticks + .gap <= .size + 0.5 and .edge == 0
	and .size <= .plotLeft + 0.5] | all' "$R" >/dev/null ||
	fail "a y-axis label does not fit: $(jq -c '[.charts[] | {id, y: .yaxis}
		| select((.y.widths | max) + .y.ticks + .y.gap > .y.size + 0.5 or .y.edge > 0)]' "$R")"
echo "ok y-axis labels fit their axes"

# (2) Round ticks: steps of 1, 2 or 5 times a power of ten (of 1024 for
# bytes: 20/40/60 MiB/s), and every label is exactly its tick's value.
python3 - "$R" <<'PY' || fail "ticks are not round (above)"
import json, math, re, sys
units = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "k": 1e3, "M": 1e6, "G": 1e9}
bad = []
for c in json.load(open(sys.argv[1]))["charts"]:
    y = c["yaxis"]
    s = y["splits"]
    for a, b in zip(s, s[1:]):
        step = b - a
        base = 1024 if c["unit"] == "B/s" else 10
        p = math.floor(math.log(step, 1024)) if c["unit"] == "B/s" else 0
        m = step / 1024**p if c["unit"] == "B/s" else step / 10 ** math.floor(math.log10(step) + 1e-9)
        m = m / 10 ** math.floor(math.log10(m) + 1e-9)
        if not any(abs(m - k) < 1e-6 for k in (1, 2, 5)):
            bad.append("%s: step %r" % (c["id"], step))
    for v, label in zip(s, y["labels"]):
        mt = re.fullmatch(r"(-?[\d.]+)\s*(B|KiB|MiB|GiB|k|M|G)?(/s|%)?", label)
        got = float(mt.group(1)) * units.get(mt.group(2) or "", 1) if mt else None
        if got is None or abs(got - v) > 1e-9 * max(1, abs(v)):
            bad.append("%s: tick %r labelled %r" % (c["id"], v, label))
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
jq -e '[.charts[] | select(.unit == "B/s" and (.yaxis.splits | max) >= 1048576)] | length > 0' "$R" \
	>/dev/null || echo "note: no B/s axis reached MiB (no disk traffic recorded?)"
echo "ok round ticks: $(jq -r '[.charts[] | select(.unit == "B/s") | .yaxis.labels | join("/")] | join(", ")' "$R")"

# (3) Legends match the lines: a swatch is dashed exactly when its line is,
# in its colour; a group's second series (sys, from the record's own column)
# is the dashed one.
jq -e '[.charts[] | .legend[] | (.style == "dashed") == .dashed] | all' "$R" >/dev/null ||
	fail "a legend swatch is not drawn as its line: $(jq -c '[.charts[] | {id, legend}]' "$R")"
jq -e '.charts[] | select(.id == "chart-groups_cpu") | [.labels, .legend] | transpose
	| all(if (.[0] | endswith(" sys")) then .[1].dashed else (.[1].dashed | not) end)' "$R" >/dev/null ||
	fail "usr and sys are not solid and dashed: $(jq -c '.charts[] | select(.id == "chart-groups_cpu") | [.labels, .legend]' "$R")"
echo "ok legend swatches dashed as their lines"

# (4) Distinct colours: within a chart, series of different subjects have
# different colours; a group has the same colour in both group charts, and
# different groups different ones.
jq -e '[.charts[] | [.entities, (.legend | map(.stroke))] | transpose | group_by(.[0])
	| (map(map(.[1]) | unique | length == 1) | all) and ((map(.[0][1]) | unique | length) == length)]
	| all' "$R" >/dev/null || fail "colours repeat within a chart or differ within a subject"
jq -e '[.charts[] | select(.id == "chart-groups_cpu" or .id == "chart-switches")
	| [.entities, (.legend | map(.stroke))] | transpose[]] | unique | group_by(.[0])
	| (map(length == 1) | all) and ((map(.[0][1]) | unique | length) == length)' "$R" >/dev/null ||
	fail "group colours differ between the group charts, or two groups share one"
echo "ok distinct colours"

# (5) Idle devices are hidden and named in the chart's note; active ones drawn.
for d in $idle; do
	jq -e --arg d "$d" '[.charts[] | select(.id | startswith("chart-disk")) | .labels[]
		| select(. == $d or startswith($d + " "))] | length == 0' "$R" >/dev/null ||
		fail "idle device $d is drawn"
	jq -e --arg d "$d" '.charts[] | select(.id == "chart-disk") | .note | contains($d)' "$R" \
		>/dev/null || fail "idle device $d is not named in the note"
done
echo "ok idle devices hidden (${idle:-none on this machine}), as iostat -z"
