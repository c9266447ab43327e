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
disks=$(Q "SELECT count(DISTINCT CASE WHEN read_Bps IS NOT NULL THEN device END) +
	count(DISTINCT CASE WHEN write_Bps IS NOT NULL THEN device END) +
	count(DISTINCT CASE WHEN util_pct IS NOT NULL THEN device END) FROM v_disk")
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
