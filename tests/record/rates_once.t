#!/bin/bash
# test: shared -- a fixture root of its own; its dd writes to its own work directory
# Rates computed once: for one window, the CPU% of a process and of the
# host, and a disk's util%, are the same number in the live report, in the replayed report of
# what 'triage record' kept of it, and in the data of the page 'triage
# plot' draws from that recording (the views v_group, v_cpu and v_disk, which read
# the rates the recorder stored, not a second formula in SQL).
#
# The same window for all three: a fixture root (docs/fixtures.md) of two
# steps, steps 2 and 3 of tests/fixtures/pidstat/workloads (captured from
# real workloads: pidstat_user spins in user space, pidstat_sys in system
# calls), one sample each for the live report and one interval for the
# recorder. Each step's proc/diskstats is this machine's, read 0.5 s apart
# while dd writes with fsync.
#
# Oracle: the kernel's own counters in the fixture's files: the spinners'
# utime and stime (stat fields 14 and 15) and the busiest disk's io_ticks
# (diskstats field 13), over the steps' uptime difference; the host's user
# (with nice) and system ticks over all ticks of /proc/stat's cpu line.
. "$SRC/tests/record/lib.sh" rates_once || exit 1
command -v jq >/dev/null || skip "no jq (scripts/deps.sh test installs it)"
command -v python3 >/dev/null || skip "no python3 (scripts/deps.sh test installs it)"
fx=$SRC/tests/fixtures/pidstat/workloads
root=$work/root
mkdir -p "$root"
cp -r "$fx/meta" "$fx/sys" "$root/"
cp -r "$fx/step2" "$root/step1"
cp -r "$fx/step3" "$root/step2"
(while :; do dd if=/dev/zero of="$work/w" bs=64k count=32 conv=fsync status=none; done) &
started="$started $!"
sleep 0.3
cat /proc/diskstats >"$root/step1/proc/diskstats"
sleep 0.5
cat /proc/diskstats >"$root/step2/proc/diskstats"
{ kill -9 $started && wait $started; } 2>/dev/null

secs=$(awk 'NR == FNR { a = $1; next } { printf "%.6f", $1 - a }' "$root/step1/proc/uptime" "$root/step2/proc/uptime")
hz=$(sed -n 's/^hz=//p' "$root/meta")
# ticks STEP PID FIELD: a stat field of a process in a step
ticks() {
	awk -v f="$3" '{ sub(/.*\) /, ""); print $(f - 2) }' "$root/step$1/proc/$2/stat"
}
pct() { # PID FIELD: % of one CPU over the window, 2 decimals (as the JSON has it)
	awk -v a="$(ticks 1 "$1" "$2")" -v b="$(ticks 2 "$1" "$2")" -v hz="$hz" -v s="$secs" \
		'BEGIN { printf "%.2f", 100 * (b - a) / hz / s }'
}
want_usr=$(pct 8361 14)
want_sys=$(pct 8362 15)
host() { # FIELDS...: % of all of the cpu line's ticks that those fields took
	awk -v f="$*" 'FNR == 1 && $1 == "cpu" { n = split(f, k, " "); t = 0; p = 0
		for (i = 2; i <= 9; i++) t += $i
		for (i = 1; i <= n; i++) p += $(k[i])
		if (FILENAME ~ /step1/) { t0 = t; p0 = p } else { t1 = t; p1 = p } }
		END { printf "%.2f", 100 * (p1 - p0) / (t1 - t0) }' "$root/step1/proc/stat" "$root/step2/proc/stat"
}
want_host_usr=$(host 2 3)
want_host_sys=$(host 4)
# util% of a disk over the window (at most 100, as iostat has it); the most any disk had
util() {
	awk -v s="$secs" -v d="$1" 'NR == FNR { t[$3] = $13; next } ($3 in t) && (d == "" || $3 == d) &&
		$13 - t[$3] > best { best = $13 - t[$3] }
		END { u = 100 * best / (s * 1000); printf "%.2f", (u > 100 ? 100 : u) }' \
		"$root/step1/proc/diskstats" "$root/step2/proc/diskstats"
}
echo "the kernel: pidstat_user usr $want_usr%, pidstat_sys sys $want_sys%, the busiest disk $(util "")% over $secs s"
[ "$(util "")" != 0.00 ] || skip "no disk was busy between the two readings ($work is on a filesystem with no block device)"

"$TRIAGE" report --root "$root" --no-bpf --json >"$work/live.json" 2>"$work/err" || fail "report: $(cat "$work/err")"
db=$work/r.db
"$TRIAGE" record -o "$db" --root "$root" 2>"$work/err" || fail "record: $(cat "$work/err")"
"$TRIAGE" replay "$db" report --json >"$work/replay.json" 2>"$work/err" || fail "replay: $(cat "$work/err")"
"$TRIAGE" plot "$db" -o "$work/page.html" 2>"$work/err" || fail "plot: $(cat "$work/err")"
python3 -c '
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<script type=\"application/json\" id=\"triage-data\">(.*?)</script>", s, re.S)
sys.stdout.write(m.group(1) if m else "")' "$work/page.html" >"$work/page.json"

# report FILE KIND PID METRIC: a finding's figure
finding() {
	jq -r --arg k "$2" --argjson p "$3" --arg m "$4" '[.findings[] | select(.kind == $k and .subject.pid == $p)
		| .evidence[] | select(.metric == $m) | .value][0] // "none" | if type == "number" then (. * 100 | round / 100 | tostring) else . end' "$1"
}
# the busiest disk the report names, in a finding or its checked line
busiest() {
	jq -r '[(.findings[] | select(.resource == "disk") | .subject.device // .subject.name // empty),
		(.checked[] | select(.resource == "disk") | .summary | select(startswith("busiest device "))
		| split(" ")[2])][0] // ""' "$1"
}
# the disk's util% wherever the report says it: a finding's evidence or the checked line
disk_util() {
	jq -r --arg d "$dev" '[(.findings[] | select(.resource == "disk" and (.subject.device // .subject.name // "") == $d) | .evidence[]),
		(.checked[] | select(.resource == "disk" and (.summary | startswith("busiest device " + $d + " "))) | .figures[])
		| select(.metric == "util") | .value][0] // "none" | if type == "number" then (. * 100 | round / 100 | tostring) else . end' "$1"
}
# the host's CPU figure of the report's checked line
host_cpu() {
	jq -r --arg m "$2" '[.checked[] | select(.resource == "cpu") | .figures[] | select(.metric == $m) | .value][0] // "none" | tostring' "$1"
}
# plot CHART LABEL: the first point of a series of the page's data
plot() {
	jq -r --arg c "$1" --arg l "$2" '[.charts[] | select(.id == $c) | .series[] | select(.label == $l) | .v[0]][0] // "none" | tostring' "$work/page.json"
}
same() { # WHAT WANT GOT...
	local what=$1 want=$2 g
	shift 2
	for g in "$@"; do
		awk -v a="$want" -v b="$g" 'BEGIN { exit !(b != "none" && a ~ /^[0-9.]+$/ && sprintf("%.2f", a) == sprintf("%.2f", b)) }' ||
			fail "$what: the kernel's counters give $want; live, replayed, plotted: $*"
	done
	echo "ok: $what $want% live, replayed and plotted"
}
same "pidstat_user usr" "$want_usr" "$(finding "$work/live.json" cpu-bound-user 8361 usr)" \
	"$(finding "$work/replay.json" cpu-bound-user 8361 usr)" "$(plot groups_cpu 'pidstat_user usr')"
same "pidstat_sys sys" "$want_sys" "$(finding "$work/live.json" cpu-bound-kernel 8362 sys)" \
	"$(finding "$work/replay.json" cpu-bound-kernel 8362 sys)" "$(plot groups_cpu 'pidstat_sys sys')"
# (the fixture has no nice time: usr + nice, each rounded, is usr)
plot_usr=$(awk -v a="$(plot cpu usr)" -v b="$(plot cpu nice)" 'BEGIN { printf "%.2f", a + b }')
same "host usr (with nice)" "$want_host_usr" "$(host_cpu "$work/live.json" usr)" \
	"$(host_cpu "$work/replay.json" usr)" "$plot_usr"
same "host sys" "$want_host_sys" "$(host_cpu "$work/live.json" sys)" \
	"$(host_cpu "$work/replay.json" sys)" "$(plot cpu sys)"
dev=$(busiest "$work/live.json")
[ -n "$dev" ] || fail "premise: the live report names no disk: $(jq -c '[.findings[], .checked[]] | map(select(.resource == "disk"))' "$work/live.json")"
same "$dev util" "$(util "$dev")" "$(disk_util "$work/live.json")" "$(disk_util "$work/replay.json")" \
	"$(plot disk_util "$dev")"
