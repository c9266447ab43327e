#!/bin/bash
# test: shared -- option parsing and short recordings into its own scratch dir; judges no figure of the machine
# One duration syntax in every command (util/parse.c's parse_duration):
# 10, 10s, 1m, 1h, 500ms and sums such as 1m30s are accepted by every
# option that takes a length of time; anything else is a usage error (exit
# 2) naming the word. Short real runs check that a unit is read as that
# unit: the recording's own timestamps (sqlite3), the probe's elapsed time.
. "$SRC/tests/lib.sh" cli-durations
export LC_ALL=C

# accepted WORD CMD...: the option parses (then --help stops the command)
accepted() {
	local word=$1
	shift
	"$TRIAGE" "$@" --help >/dev/null 2>"$work/err" ||
		fail "'$*' refused '$word': $(cat "$work/err")"
}
# refused WORD CMD...: exit 2, one line naming WORD and the --help pointer
refused() {
	local word=$1 rc
	shift
	"$TRIAGE" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] || fail "'$*' exited $rc, not 2: $(cat "$work/err")"
	grep -qF "'$word'" "$work/err" || fail "'$*' does not name '$word': $(cat "$work/err")"
	[ "$(wc -l <"$work/err")" = 2 ] || fail "'$*': not two lines: $(cat "$work/err")"
}
db=$work/x.db
# every form in one option of each kind, one form in each of the others
for d in 10 10s 1m 1h 0.5 500ms 1m30s; do
	accepted "$d" report -d "$d"
	accepted "$d" record -o "$db" -i "$d"
done
for d in 10 10s 1m 1h 1m30s; do # whole seconds only
	accepted "$d" collect --once -i "$d"
done
accepted 1m30s record -o "$db" -d 1m30s
accepted 1m record -o "$db" --window 1m
accepted 500ms probe syscalls -d 500ms
accepted 1m probe runq -d 1m
accepted 10s probe offcpu -d 10s
accepted 1h probe profile -d 1h
accepted 2m probe trace openat -p 1 -d 2m
accepted 1m load --watch 1m
accepted 15m collect --once --buffer 15m
accepted 90m record -o "$db" --keep 90m
accepted 2 record -o "$db" --keep 2
for d in 10x 1m30 -1 1e3 0 0s 10S " 1" 1.2.3 ms; do
	refused "$d" report -d "$d"
done
for d in 10x 1m30 0s; do
	refused "$d" record -o "$db" -i "$d"
	refused "$d" record -o "$db" -d "$d"
	refused "$d" probe runq -d "$d"
	refused "$d" collect --once -i "$d"
	refused "$d" load --watch "$d"
done
refused 1500ms collect --once -i 1500ms
refused 2h report -d 2h
[ ! -e "$db" ] || fail "a refused record created its file"

# -i 500ms and --window 1m are half a second and sixty seconds: the
# recording's meta table keeps what the recorder was told; -d 1s ends it
"$TRIAGE" record -o "$db" -i 500ms --window 1m -d 1s 2>"$work/err" ||
	fail "record -i 500ms --window 1m -d 1s: $(cat "$work/err")"
got="$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'interval'") $(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'window'")"
[ "$got" = "0.5 60" ] || fail "record -i 500ms --window 1m: meta interval and window are '$got'"
# report -d 500ms watches half a second (the window it states)
"$TRIAGE" report -d 500ms --json >"$work/r.json" 2>"$work/err" || fail "report -d 500ms: $(cat "$work/err")"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["window"]["seconds"]; sys.exit(not 0.4 <= s < 5)' \
	"$work/r.json" || fail "report -d 500ms: window $(grep -o '"seconds":[0-9.]*' "$work/r.json")"
# load --watch 500ms 2: two reports
n=$("$TRIAGE" load --watch 500ms 2 --json 2>"$work/err" | wc -l)
[ "$n" = 2 ] || fail "load --watch 500ms 2 printed $n reports: $(cat "$work/err")"
echo "ok: 10, 10s, 1m, 1h, 500ms, 1m30s in report, record, probe, load and collect; bad ones named"
