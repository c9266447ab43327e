#!/usr/bin/env bash
# test: shared -- usage errors only; binds nothing
# Errors that say what went wrong (issue 13, part 6), table-driven: a usage
# error of any command is one line "triage CMD: ..." naming the bad word in
# quotes, then "see 'triage CMD --help'", and nothing else: no usage dump,
# nothing on stdout, status 2. pidstat keeps sysstat's bytes and status (1)
# and adds the same two lines after them. Absurd values (3,000 years) are
# refused. triage help CMD shows CMD's help.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ERA=94608000000 # 3,000 years in seconds

# status | command named in the lines | the bad word | arguments (eval'd)
cases=$(cat <<EOF2
2|load|--bogus|load --bogus
2|load|--top|load --top
2|load|0|load --top 0
2|load|$ERA|load --watch $ERA
2|load|5|load 5
2|load|-x|load -x
2|load|--verbose=1|load --verbose=1
2|report|--bogus|report --bogus
2|report|0|report -d 0
2|report|$ERA|report -d $ERA
2|report|12,x|report -p 12,x
2|report|sometimes|report --color=sometimes
2|report|extra|report extra
2|collect|--bogus|collect --bogus
2|collect|0|collect --once -i 0
2|collect|$ERA|collect --once -i $ERA
2|collect|nope|collect --once --group nope
2|collect|nohost|collect --graphite nohost
2|collect|extra|collect --once extra
2|collect|1.2.3:80|collect --listen 1.2.3:80
2|collect|--json|collect --listen 19400 --json
2|collect|0|collect --once --buffer 0
2|record|--bogus|record -o x.db --bogus
2|record|-o|record -o
2|record|0|record -o x.db -i 0
2|record|soon|record -o x.db -d soon
2|record|--keep|record -o x.db --max-size 5 --keep 1
2|record|extra|record -o x.db extra
2|replay|--bogus|replay --bogus x.db
2|replay|yesterdayish|replay x.db --from yesterdayish
2|replay|top|replay x.db top
2|replay|--bogus|replay x.db report --bogus
2|plot|--bogus|plot x.db -o p.html --bogus
2|plot|3|plot x.db -o p.html --max-points 3
2|plot|extra|plot x.db extra -o p.html
2|doctor|--bogus|doctor --bogus
2|doctor|extra|doctor extra
2|doctor|nope|doctor --dump-tasks nope
2|version|--bogus|version --bogus
2|version|extra|version --json extra
2|probe|bogus|probe bogus
2|probe syscalls|--bogus|probe syscalls --bogus
2|probe syscalls|-5|probe syscalls -p -5
2|probe syscalls|$ERA|probe syscalls -p 1 $ERA
2|probe runq|$ERA|probe runq -d $ERA
2|probe runq|-d|probe runq -d
2|probe offcpu|-F|probe offcpu -F 99
2|probe profile|0|probe profile -F 0
2|probe profile|--svg|probe profile --svg
2|probe runq|--svg|probe runq --svg x.svg
2|probe trace|nosuchcall|probe trace nosuchcall -p 1
2|u32|bogus|u32 bogus
2|u32|--bogus|u32 test --bogus x.pcap
2|u32|x|u32 test --bm-layout x
2|u32|sometimes|u32 test --shift sometimes
2|u32|x|u32 explain 6=6 --packet x y.pcap
2|u32|nope|u32 recipe nope
1|pidstat|abc|pidstat -u abc
1|pidstat|-5|pidstat -p -5
1|pidstat|--bogus|pidstat --bogus
1|pidstat|-x|pidstat -ux
1|pidstat|$ERA|pidstat $ERA
1|pidstat|foo|pidstat -T foo
1|pidstat|XML|pidstat -o XML
1|pidstat|3|pidstat 1 2 3
EOF2
)

# pidstat's usage is sysstat's, byte for byte, when sysstat 12.6.1 is here
sysstat_usage() {
	/usr/bin/pidstat --bogus 2>&1 | sed 's#/usr/bin/pidstat#pidstat#'
}
oracle=0
/usr/bin/pidstat -V 2>/dev/null | grep -q 'sysstat version 12.6.1' && oracle=1

n=0
while IFS='|' read -r want cmd word args; do
	n=$((n + 1))
	eval "set -- $args"
	"$TRIAGE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	what="triage $args"
	[ "$rc" = "$want" ] || { echo "FAIL: $what: status $rc, want $want"; fail=1; }
	[ -s "$T/out" ] && { echo "FAIL: $what: wrote to stdout"; fail=1; }
	if [ "$cmd" = pidstat ]; then
		# sysstat's bytes first, then ours
		lines=$(wc -l <"$T/err")
		head -n $((lines - 2)) "$T/err" >"$T/head"
		grep -q '^Usage: pidstat ' "$T/head" || { echo "FAIL: $what: not sysstat's usage first"; fail=1; }
		if [ $oracle = 1 ] && ! cmp -s <(sysstat_usage) "$T/head"; then
			echo "FAIL: $what: sysstat's usage bytes differ"; fail=1
		fi
		tail -n 2 "$T/err" >"$T/ours"
	else
		cp "$T/err" "$T/ours"
	fi
	[ "$(wc -l <"$T/ours")" = 2 ] || { echo "FAIL: $what: $(wc -l <"$T/ours") lines on stderr, want 2"; fail=1; }
	line1=$(head -n 1 "$T/ours")
	line2=$(tail -n 1 "$T/ours")
	# the second word of a probe is named in the first line; u32's own words too
	case $line1 in
	"triage $cmd: "*"'$word'"* | "triage $cmd: "*"\"$word\""*) ;;
	*) echo "FAIL: $what: first line does not name '$word' after 'triage $cmd:': $line1"; fail=1 ;;
	esac
	[ "$line2" = "see 'triage $cmd --help'" ] || { echo "FAIL: $what: second line: $line2"; fail=1; }
done <<<"$cases"
echo "$n usage errors checked"

# The same through the pidstat link: sysstat's bytes and status, then our lines.
ln -s "$TRIAGE" "$T/pidstat"
"$T/pidstat" -p -5 >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] && [ "$(tail -n 2 "$T/err")" = "triage pidstat: bad -p value: '-5'
see 'triage pidstat --help'" ] || { echo "FAIL: pidstat link -p -5: status $rc: $(cat "$T/err")"; fail=1; }

# A PID with no process: sysstat's empty table (status 0), then one line.
"$TRIAGE" pidstat -p 999999999 >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && grep -q 'PID' "$T/out" || { echo "FAIL: pidstat -p 999999999: status $rc, no table"; fail=1; }
[ "$(cat "$T/err")" = "triage pidstat: no such process: '999999999'" ] ||
	{ echo "FAIL: pidstat -p 999999999 said: $(cat "$T/err")"; fail=1; }

# A bare duration given as a time (the slip "replay --from 2m") is told how to write it.
"$TRIAGE" replay x.db --from 2m >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ "$(head -n 1 "$T/err")" = "triage replay: bad --from time (a duration back from now is '2m ago' or -2m): '2m'" ] ||
	{ echo "FAIL: replay --from 2m: status $rc: $(cat "$T/err")"; fail=1; }
"$TRIAGE" replay x.db --to '2m ago' --from "$(head -n 1 "$T/err" | sed "s/.*is '\(.*\)' or.*/\1/")" >"$T/out" 2>"$T/err"; rc=$?
grep -q 'bad --from' "$T/err" && { echo "FAIL: the suggested --from does not parse: $(cat "$T/err")"; fail=1; }

# u32 lint's refusal of a rule goes to stderr, stdout stays empty; a rule that does not parse is 2, as in explain.
"$TRIAGE" u32 lint '' >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ ! -s "$T/out" ] && grep -q "^triage u32: lint: .*refuses" "$T/err" ||
	{ echo "FAIL: u32 lint '': status $rc, stdout '$(cat "$T/out")', stderr '$(cat "$T/err")'"; fail=1; }

# An unknown command, and help for one.
"$TRIAGE" bogus >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ "$(cat "$T/err")" = "triage: not a triage command: 'bogus'
see 'triage help'" ] || { echo "FAIL: triage bogus: status $rc: $(cat "$T/err")"; fail=1; }
"$TRIAGE" help bogus >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL: triage help bogus: not status 2"; fail=1; }
"$TRIAGE" help pidstat >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && [ ! -s "$T/err" ] || { echo "FAIL: triage help pidstat: status $rc"; fail=1; }
for opt in "-o JSON" "--whole" "--root DIR" "-p PID"; do
	grep -qF -- "$opt" "$T/out" || { echo "FAIL: triage help pidstat lacks '$opt'"; fail=1; }
done
"$TRIAGE" pidstat --help | cmp -s - "$T/out" || { echo "FAIL: pidstat --help differs from help pidstat"; fail=1; }
exit $fail
