#!/bin/bash
# test: shared -- the stored rates against the replay of the same file and the recorded sectors
# Rates computed once: the disk figures plot draws (the view v_disk) are
# the ones the report computed for the same interval, stored by the
# recorder, not a second formula in SQL. For every interval of a short
# recording with disk writes going on (dd with fsync), the replayed
# report over exactly that interval names its busiest device with the
# util% that v_disk has for it, and v_disk's byte rates are the recorded
# sectors over the interval's length (the kernel's counters, the oracle);
# so are v_net's rates the recorded bytes over it.
. "$SRC/tests/record/lib.sh" disk_rates
command -v jq >/dev/null || skip "no jq (scripts/deps.sh test installs it)"
(while :; do dd if=/dev/zero of="$work/w" bs=64k count=64 conv=fsync status=none; done) &
started="$started $!"
db=$work/r.db
"$TRIAGE" record -o "$db" -i 0.5 -d 3 2>"$work/err" || fail "record: $(cat "$work/err")"
[ "$(q "$db" 'SELECT count(*) FROM disk_rate')" -gt 0 ] || fail "no disk rates stored"
# v_disk against the raw counters: sectors of 512 bytes over the interval's length
bad=$(q "$db" "SELECT count(*) FROM v_disk v JOIN interval i ON i.ts = v.ts
	JOIN disk d ON d.iv = i.id AND d.device = v.device
	JOIN disk p ON p.iv = i.prev AND p.device = v.device
	WHERE abs(v.write_Bps - 512.0 * (d.wr_sectors - p.wr_sectors) / i.dur) > 1e-6 * (1 + v.write_Bps)")
[ "$bad" = 0 ] || fail "$bad v_disk rows disagree with the kernel's counters"
# v_net (net_rate, the report's figures) against the raw counters the same way
[ "$(q "$db" 'SELECT count(*) FROM v_net')" -gt 0 ] || fail "no network rates stored"
bad=$(q "$db" "SELECT count(*) FROM v_net v JOIN interval i ON i.ts = v.ts
	JOIN net n ON n.iv = i.id AND n.iface = v.iface JOIN net p ON p.iv = i.prev AND p.iface = v.iface
	WHERE abs(v.rx_Bps - (n.rx_bytes - p.rx_bytes) / i.dur) > 1e-6 * (1 + v.rx_Bps)
	OR abs(v.tx_Bps - (n.tx_bytes - p.tx_bytes) / i.dur) > 1e-6 * (1 + v.tx_Bps)")
[ "$bad" = 0 ] || fail "$bad v_net rows disagree with the kernel's counters"
n=0
while IFS='|' read -r a b dev util; do
	from=$(awk -v t="$a" 'BEGIN { printf "%.3f", t - 0.001 }')
	to=$(awk -v t="$b" 'BEGIN { printf "%.3f", t + 0.001 }')
	"$TRIAGE" replay "$db" --from "@$from" --to "@$to" report --json >"$work/r.json" 2>"$work/err" ||
		fail "replay $from..$to: $(cat "$work/err")"
	# The disk is judged fine (a checked line) or, when tasks waited on I/O
	# with no disk saturated (dd's fsync on a slow disk), an io-stall finding
	# that names the busiest device and carries its util% as evidence.
	got=$(jq -r '[(.checked[] | select(.resource == "disk") | .summary),
		(.findings[] | select(.kind == "io-stall") | .summary | capture("busiest (?<d>[^:]+):") | "busiest device \(.d) ")][0] // ""' "$work/r.json")
	case $got in "busiest device $dev "*) ;; *) continue ;; esac # another device was busier
	rep=$(jq -r '[(.checked[] | select(.resource == "disk") | .figures[] | select(.metric == "util") | .value),
		(.findings[] | select(.kind == "io-stall") | .evidence[] | select(.metric == "disk_util") | .value)][0]' "$work/r.json")
	awk -v a="$rep" -v b="$util" 'BEGIN { exit !(sprintf("%.2f", a) == sprintf("%.2f", b)) }' ||
		fail "interval ending $b, $dev: the report says util $rep%, v_disk $util%"
	n=$((n + 1))
done < <(q "$db" "SELECT printf('%.6f', p.ts), printf('%.6f', i.ts), v.device, v.util_pct
	FROM v_disk v JOIN interval i ON i.ts = v.ts JOIN interval p ON p.id = i.prev
	WHERE v.util_pct = (SELECT max(util_pct) FROM v_disk w WHERE w.ts = v.ts) AND v.util_pct > 0")
[ "$n" -ge 1 ] || fail "no interval to compare (no disk was busy)"
echo "ok: $n intervals: v_disk's util% is the replayed report's, its bytes the kernel's"
