#!/bin/bash
# test: shared, slow -- fixture roots
# Replay's pidstat view of a recorded window matches, byte for byte, a live
# run fed the same samples: each pidstat fixture tree (docs/fixtures.md) is
# recorded with 'triage record --root', then 'triage replay FILE pidstat
# OPTS' is compared with 'triage pidstat --root FIXTURE OPTS 1' (every step
# is one interval in both). Replay report lists the same findings, with the
# same evidence, as a live 'triage report --root' over the tree. -l (schema
# 2: the command lines) over every tree.
. "$SRC/tests/record/lib.sh" replay_pidstat
command -v jq >/dev/null || skip "no jq"
fixtures="workloads edge-threads edge-reuse edge-misc edge-long"
all="-u
-u -p ALL
-t -p ALL
-w -t
-r -d -p ALL
-R -t -p ALL
-u -w -r -d -t -h
-I -u -t
-U -u
--whole -w
-o JSON -t -u -r -d -w -p ALL
-l -t -p ALL
-l -u -r -C sh"
n=0
for fx in $fixtures; do
	root=$SRC/tests/fixtures/pidstat/$fx
	db=$work/$fx.db
	"$TRIAGE" record -o "$db" --root "$root" 2>"$work/err" || fail "record $fx: $(cat "$work/err")"
	steps=$(find "$root" -maxdepth 1 -name 'step*' | wc -l)
	[ "$(q "$db" 'SELECT count(*) FROM interval')" = "$steps" ] || fail "$fx: not $steps intervals"
	# every option set over two trees, the main ones over the others
	sets=$all
	# (and the command lines, -l, over all of them: schema 2)
	case $fx in workloads | edge-threads) ;; *) sets=$(printf '%s\n' "$all" | sed -n '2p;4p;11,13p') ;; esac
	while read -r opts; do
		# shellcheck disable=SC2086
		"$TRIAGE" pidstat --root "$root" $opts 1 >"$work/live" 2>&1
		# shellcheck disable=SC2086
		"$TRIAGE" replay "$db" pidstat $opts >"$work/replay" 2>&1
		cmp -s "$work/live" "$work/replay" || {
			diff -u "$work/live" "$work/replay" | head -20
			fail "$fx: replay pidstat $opts differs from the live run"
		}
		[ "$(wc -l <"$work/replay")" -gt 3 ] || fail "$fx: $opts: empty output"
		n=$((n + 1))
	done <<<"$sets"
done
# -l shows the command lines, not the comms: edge-misc's PID 1 is comm 'init', command
# line '/sbin/init splash' (its cmdline file), so only -l lets -C sh match it
misc=$SRC/tests/fixtures/pidstat/edge-misc/step1/proc/1
want=$(tr '\0' ' ' <"$misc/cmdline" | sed 's/ *$//')
[ "$(sed 's/^[0-9]* (\(.*\)) .*/\1/' "$misc/stat")" = init ] || fail "edge-misc's PID 1 is not init"
[ "$want" = "/sbin/init splash" ] || fail "edge-misc's PID 1 runs '$want'"
"$TRIAGE" replay "$work/edge-misc.db" pidstat -l -u -C sh >"$work/l"
[ "$(grep -c " 1 .* $want\$" "$work/l")" = 4 ] || fail "-l -C sh: not 3 reports and an Average of '$want'"
"$TRIAGE" replay "$work/edge-misc.db" pidstat -u -C sh >"$work/nol"
! grep -q " 1 .* init\$" "$work/nol" || fail "-C sh matched PID 1 by its comm"
# a window: from the second interval on, as pidstat fed from step 2 (count cuts it short)
db=$work/workloads.db
t2=$(q "$db" 'SELECT CAST(ts AS INTEGER) FROM interval ORDER BY id LIMIT 1 OFFSET 1')
"$TRIAGE" replay "$db" --from "@$t2" pidstat -u 1 2 >"$work/win" || fail "replay --from"
grep -c '^[0-9].*UID' "$work/win" | grep -qx 2 || fail "a count of 2 gives two reports"
# report over the same recording: same findings and evidence as the live report
root=$SRC/tests/fixtures/pidstat/workloads
"$TRIAGE" replay "$db" report --json | jq -c '[.findings[] | [.kind, .evidence]]' >"$work/rf"
"$TRIAGE" report --root "$root" --no-bpf --json | jq -c '[.findings[] | [.kind, .evidence]]' >"$work/lf"
cmp -s "$work/rf" "$work/lf" || fail "replay report: $(cat "$work/rf") vs live $(cat "$work/lf")"
grep -q cpu-bound-user "$work/rf" || fail "the fixture's spinner is not found"
echo "ok: $n pidstat views (-l too) byte-identical to the live runs; report findings identical"
