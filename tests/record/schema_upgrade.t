#!/bin/bash
# test: shared -- a fixture recording
# Schema 1 files, made before the command lines (schema 2) were recorded:
# tests/fixtures/record/v1-workloads.db is the workloads fixture tree as the
# schema 1 recorder wrote it (main at bc0fcbb, 'triage record --root').
#   - replay reads it as it is: its pidstat view is, byte for byte, a live
#     'triage pidstat --root' over the tree it was recorded from, and the
#     file is not changed;
#   - 'replay ... pidstat -l' is refused: one line, exit 2;
#   - its report says once what it lacks (cgroups, kernel log, TCP);
#   - recording into a copy upgrades it to schema 6 (both stamps,
#     integrity ok), every old row kept as it was with no command line
#     and no RssAnon, the new run's process rows with the tree's RssAnon;
#     the old intervals still replay as before, -l over them showing comm
#     (as live pidstat does for an empty command line), and the new run's
#     -l view is the live 'triage pidstat -l' over its tree.
. "$SRC/tests/record/lib.sh" schema_upgrade
v1=$SRC/tests/fixtures/record/v1-workloads.db
root=$SRC/tests/fixtures/pidstat/workloads
# a copy: reading a WAL file, SQLite leaves -wal and -shm files beside it
db=$work/v1.db
cp "$v1" "$db"
cp "$v1" "$work/before.db"
same_as_live() { # replay-args... -- live-root live-opts...
	local args=() opts
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	"$TRIAGE" replay "${args[@]}" >"$work/replay" 2>&1 || fail "replay ${args[*]}: $(cat "$work/replay")"
	opts=("${@:2}")
	"$TRIAGE" pidstat --root "$1" "${opts[@]}" 1 >"$work/live" 2>&1
	cmp -s "$work/live" "$work/replay" || {
		diff -u "$work/live" "$work/replay" | head -20
		fail "replay ${args[*]} differs from live pidstat ${opts[*]}"
	}
	[ "$(wc -l <"$work/replay")" -gt 3 ] || fail "replay ${args[*]}: empty output"
}

# the premise: a schema 1 file
[ "$(q "$db" 'PRAGMA user_version')" = 1 ] || fail "the fixture is not at user_version 1"
[ "$(q "$db" "SELECT value FROM meta WHERE key = 'schema_version'")" = 1 ] || fail "meta.schema_version is not 1"
[ "$(q "$db" "SELECT count(*) FROM pragma_table_info('task') WHERE name = 'cmdline'")" = 0 ] ||
	fail "the fixture has task.cmdline"

# read as it is
same_as_live "$db" pidstat -u -t -p ALL -- "$root" -u -t -p ALL
same_as_live "$db" pidstat -r -d -w -- "$root" -r -d -w
"$TRIAGE" replay "$db" report >"$work/report" || fail "replay report of a schema 1 file"
# what it lacks is said once, in the mask; no figure is made up for it
grep -q '^  source  *not recorded: cgroups, kernel log, TCP counters' "$work/report" ||
	fail "the mask does not name what a schema 1 file lacks: $(sed -n '/^Skipped/,$p' "$work/report")"
! grep -q 'TCP retransmitted\|/proc/net/snmp\|cgroups with a CPU quota\|not kept' "$work/report" ||
	fail "a lacking figure is shown as fine or skipped one by one: $(grep -n 'TCP\|cgroup\|kept' "$work/report")"
"$TRIAGE" replay "$db" load >/dev/null || fail "replay load of a schema 1 file"

# -l: refused, one line, status 2
"$TRIAGE" replay "$db" pidstat -l -u >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" = 2 ] || fail "pidstat -l on a schema 1 file exited $rc"
[ "$(cat "$work/err")" = "triage replay: $db is a schema 1 file, which kept no command lines: '-l'" ] ||
	fail "-l refusal: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "-l refusal wrote to stdout"
cmp -s "$v1" "$db" || fail "a replay changed the file"

# recording into it: the same tree 1000 s later (same host facts, its own times)
later=$work/later
cp -r "$root" "$later"
awk -F= -v OFS== '$1 == "epoch" { $2 += 1000 } 1' "$root/meta" >"$later/meta"
for t in "$later"/step*/time; do echo $(($(cat "$t") + 1000)) >"$t"; done
"$TRIAGE" record -o "$db" --root "$later" 2>"$work/err" || fail "record into a schema 1 file: $(cat "$work/err")"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity after the upgrade"
[ "$(q "$db" 'PRAGMA user_version')" = 6 ] || fail "user_version not 6 after the upgrade"
[ "$(q "$db" "SELECT value FROM meta WHERE key = 'schema_version'")" = 6 ] || fail "meta.schema_version not 6"
# the old run's intervals got their processes' rates once (v_group reads them)
[ "$(q "$db" "SELECT count(DISTINCT p.iv) FROM proc_rate p JOIN interval i ON i.id = p.iv
	WHERE i.run = (SELECT min(run) FROM interval)")" -ge 1 ] || fail "no proc_rate rows for the old run"
[ "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tcp'")" = 1 ] ||
	fail "no tcp table after the upgrade"
# schema 5: the new run's window has what the report reads beyond the counters
[ "$(q "$db" "SELECT count(*) FROM host_more h JOIN interval i ON i.id = h.iv
	WHERE i.run = (SELECT max(run) FROM interval)")" = 5 ] || fail "no host_more rows for the new run"
"$TRIAGE" replay "$db" report >"$work/report5" || fail "replay report of the upgraded file"
grep -q '^  source  *not recorded: cgroups, kernel log, eBPF$' "$work/report5" ||
	fail "the new run's mask: $(grep '^  source' "$work/report5")"
[ "$(q "$db" 'SELECT count(DISTINCT run) FROM interval')" = 2 ] || fail "not two runs"
# qb SQL: a query of the upgraded file with the file as it was before attached as b
qb() {
	q "$db" "ATTACH '$work/before.db' AS b; $1"
}
# every old row as it was (the meta rows but schema_version), with no command line
for t in meta interval cpu psi disk net task sample dtask finding; do
	cols='*' only=''
	[ "$t" = task ] && cols='id, tgid, tid, thread, start, comm, uid'
	[ "$t" = meta ] && only="WHERE key != 'schema_version'"
	# schema 5 added sample.ppid, schema 6 sample.rss_anon_kb: the old columns compared
	[ "$t" = sample ] && cols=$(q "$work/before.db" "SELECT group_concat(name) FROM pragma_table_info('sample')")
	lost=$(qb "SELECT count(*) FROM (SELECT $cols FROM b.$t $only EXCEPT SELECT $cols FROM main.$t)")
	[ "$lost" = 0 ] || fail "$lost old rows of $t changed or lost"
done
[ "$(qb 'SELECT count(*) FROM b.sample')" -gt 40 ] || fail "the old file has too few rows to tell"
[ "$(qb 'SELECT count(cmdline) FROM task WHERE id IN (SELECT id FROM b.task)')" = 0 ] ||
	fail "an old task row got a command line"
# the new rows: a process row has its cmdline file joined, a kernel thread '', a thread none
new="id NOT IN (SELECT id FROM b.task) AND thread = 0"
got=$(qb "SELECT group_concat(quote(cmdline)) FROM task WHERE $new AND tgid = 8361")
want="'$(tr '\0' ' ' <"$root/step1/proc/8361/cmdline" | sed 's/ *$//')'"
[ "$want" = "'./pidstat_user 8'" ] || fail "the fixture's PID 8361 changed"
[ "$got" = "$want" ] || fail "PID 8361's cmdline: $got, not $want"
[ "$(qb "SELECT group_concat(quote(cmdline)) FROM task WHERE $new AND tgid = 2")" = "''" ] ||
	fail "the kernel thread's cmdline is not ''"
[ "$(q "$db" 'SELECT count(cmdline) FROM task WHERE thread = 1')" = 0 ] || fail "a thread row has a cmdline"
# schema 6: RssAnon of the new process rows (the tree's status), none in old rows or threads
[ "$(qb 'SELECT count(rss_anon_kb) FROM sample WHERE task IN (SELECT id FROM b.task)')" = 0 ] ||
	fail "an old sample row got an RssAnon"
want=$(awk '$1 == "RssAnon:" { print $2 }' "$later/step1/proc/8361/status")
got=$(qb "SELECT s.rss_anon_kb FROM sample s JOIN task t ON t.id = s.task WHERE $new AND t.tgid = 8361
	ORDER BY s.iv LIMIT 1")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "PID 8361's RssAnon: $got, not the tree's $want kB"
[ "$(q "$db" 'SELECT count(s.rss_anon_kb) FROM sample s JOIN task t ON t.id = s.task WHERE t.thread = 1')" = 0 ] ||
	fail "a thread row has an RssAnon"

# the old intervals still replay, as before; -l over them shows comm
t_old=$(q "$work/before.db" 'SELECT CAST(max(ts) AS INTEGER) FROM interval')
same_as_live "$db" --to "@$t_old" pidstat -u -t -p ALL -- "$root" -u -t -p ALL
same_as_live "$db" --to "@$t_old" pidstat -l -u -r -- "$root" -u -r
# the new run: -l as live
same_as_live "$db" pidstat -l -t -p ALL -- "$later" -l -t -p ALL
same_as_live "$db" pidstat -l -u -r -C sys -- "$later" -l -u -r -C sys
# recording into it again: no second upgrade
"$TRIAGE" record -o "$db" --root "$later" 2>"$work/err" || fail "record into a schema 2 file: $(cat "$work/err")"
[ "$(q "$db" 'PRAGMA user_version')" = 6 ] || fail "user_version after a third run"
echo "ok: schema 1 file replayed as is, -l refused, its lacks said once; recording into it upgraded it to 6, old rows kept"
