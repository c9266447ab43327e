#!/usr/bin/env bash
# Benchmark: `triage plot` on long recordings, against reading the same rows
# with the sqlite3 CLI (the anchor: what any plotter must at least pay) in
# the same run. Not a test.
#
#   bench/plot.sh            (uses build/triage; run `make` first)
#   BENCH_HOURS="1 8" bench/plot.sh
#
# The records are synthetic, built with sqlite3 to the contract of
# docs/record.md with the v_* views as plain tables (1 s interval, 2 CPUs,
# 100 groups, 4 disks, 3 interfaces, a finding every 10 minutes), so the
# time is plot's own and not that of record's delta views. Per size, the
# median of 3 runs of: CPU ms (user+sys of the process), page size, and
# the ratio plot/sqlite3. The table goes into docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
HOURS=${BENCH_HOURS:-"1 8"}
bench_need make "$TRIAGE"
bench_need "" sqlite3
bench_need "apt-get install time" /usr/bin/time
bench_scratch plot

make_record() { # FILE SAMPLES
	sqlite3 "$1" >/dev/null <<SQL
PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES ('schema_version','1'), ('hostname','bench'), ('kernel','6.1'),
	('ncpu','2'), ('interval','1');
CREATE TABLE v_cpu(ts, cpu, usr, nice, sys, iowait, irq, soft, steal, idle);
CREATE TABLE v_group(ts, grp, usr, sys, cswch_s, nvcswch_s, runq_ms_s, rss_kb, read_Bps, write_Bps, threads);
CREATE TABLE v_load(ts, load1, load5, load15, runnable, blocked);
CREATE TABLE v_psi(ts, resource, some_avg10, full_avg10);
CREATE TABLE v_disk(ts, device, read_Bps, write_Bps, util_pct);
CREATE TABLE v_net(ts, iface, rx_Bps, tx_Bps);
CREATE TABLE v_findings(ts_start, ts_end, severity, rule, subject, sentence);
CREATE TEMP TABLE n AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $2)
	SELECT i, 1.8e9 + i AS ts FROM n;
CREATE TEMP TABLE k AS WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 99)
	SELECT j FROM k;
INSERT INTO v_cpu SELECT ts, c, 30 + abs(random() % 40), 0, 5, 1, 0, 1, 0, 50 FROM n,
	(SELECT -1 AS c UNION SELECT 0 UNION SELECT 1);
INSERT INTO v_group SELECT ts, 'proc' || j, abs(random() % 100), abs(random() % 10), j, j, 0, 1000,
	0, 0, 1 FROM n, k;
INSERT INTO v_load SELECT ts, 1.5, 1.2, 1.0, abs(random() % 4), abs(random() % 2) FROM n;
INSERT INTO v_psi SELECT ts, r, abs(random() % 30), CASE WHEN r = 'cpu' THEN NULL ELSE 1 END FROM n,
	(SELECT 'cpu' AS r UNION SELECT 'io' UNION SELECT 'memory');
INSERT INTO v_disk SELECT ts, d, abs(random() % 1000000), abs(random() % 1000000), abs(random() % 100)
	FROM n, (SELECT 'sda' AS d UNION SELECT 'sdb' UNION SELECT 'nvme0n1' UNION SELECT 'dm-0');
INSERT INTO v_net SELECT ts, f, abs(random() % 100000), abs(random() % 100000) FROM n,
	(SELECT 'eth0' AS f UNION SELECT 'eth1' UNION SELECT 'lo');
INSERT INTO v_findings SELECT ts, ts + 10, 'warning', 'cpu-contention', 'host', 'sentence ' || i
	FROM n WHERE i % 600 = 0;
SQL
}

# cpu_ms CMD...: user+sys CPU ms of CMD (its children included), output discarded.
cpu_ms() {
	/usr/bin/time -f '%U %S' -o "$TMP/time" "$@" >/dev/null 2>&1
	awk '{ printf "%d", ($1 + $2) * 1000 }' "$TMP/time"
}
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

anchor_sql="SELECT * FROM v_cpu; SELECT * FROM v_group; SELECT * FROM v_load; SELECT * FROM v_psi;
SELECT * FROM v_disk; SELECT * FROM v_net; SELECT * FROM v_findings;"
out="$TMP/table.md"
{
	echo "\`bench/plot.sh\` ($(date -u +%F), $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the start): synthetic records"
	echo "(the v_* views as tables: 1 s samples, 2 CPUs, 100 groups, 4 disks, 3 interfaces); median of 3."
	echo "Anchor: \`sqlite3 -csv\` reading every row of the views plot reads, in the same run."
	echo
	echo "| recording | rows | sqlite3 CPU ms | plot CPU ms | plot / sqlite3 | page |"
	echo "|---|---|---|---|---|---|"
} >"$out"
for h in $HOURS; do
	db="$TMP/r$h.db"
	make_record "$db" $((h * 3600))
	rows=$(sqlite3 "$db" "SELECT (SELECT count(*) FROM v_cpu) + (SELECT count(*) FROM v_group) +
		(SELECT count(*) FROM v_load) + (SELECT count(*) FROM v_psi) + (SELECT count(*) FROM v_disk) +
		(SELECT count(*) FROM v_net)")
	a=() p=()
	for _ in 1 2 3; do
		a+=("$(cpu_ms sqlite3 -csv "$db" "$anchor_sql")")
		p+=("$(cpu_ms "$TRIAGE" plot "$db" -o "$TMP/p.html")")
	done
	am=$(median3 "${a[@]}") pm=$(median3 "${p[@]}")
	size=$(awk -v b="$(wc -c <"$TMP/p.html")" 'BEGIN { printf "%.2f MB", b / 1e6 }')
	ratio=$(awk -v p="$pm" -v a="$am" 'BEGIN { printf "×%.2f", p / (a ? a : 1) }')
	echo "| ${h} h | $rows | $am | $pm | $ratio | $size |" >>"$out"
	echo "${h} h: $rows rows, sqlite3 ${a[*]} ms, plot ${p[*]} ms, page $size" >&2
done
cat "$out"
bench_write_section plot "$out"
