#!/bin/bash
# test: shared -- exit statuses over fixtures and scratch files
# The same fault gives the same exit status in every command: walks the
# commands over each fault of README.md's "Exit status" table and checks
# the status against the table's own row (read from the README, so the
# table and the code cannot drift apart), and that the message is one line
# (a usage error: two, the second the --help pointer) quoting the bad word.
. "$SRC/tests/lib.sh" cli-exit-status
export LC_ALL=C
readme=$SRC/README.md

# table_status FAULT: the status column of the README row for FAULT
table_status() {
	awk -F'|' -v f="$1" '$2 ~ "^ *" f " *$" { gsub(/ /, "", $3); print $3; exit }' "$readme"
}
# expect FAULT WORD CMD...: CMD exits with FAULT's status, naming WORD on stderr
expect() {
	local fault=$1 word=$2 want rc
	shift 2
	want=$(table_status "$fault")
	[ -n "$want" ] || fail "README.md has no row for '$fault'"
	"$TRIAGE" "$@" >"$work/out" 2>"$work/err" </dev/null
	rc=$?
	[ "$rc" = "$want" ] || fail "$fault: 'triage $*' exited $rc, the table says $want: $(cat "$work/err")"
	[ -z "$word" ] || grep -qF "'$word" "$work/err" || grep -qF "$word:" "$work/err" ||
		grep -qF ": $word" "$work/err" ||
		fail "$fault: 'triage $*' does not name '$word': $(cat "$work/err")"
	grep -v "^see 'triage" "$work/err" | awk 'END { exit NR != 1 }' ||
		fail "$fault: 'triage $*' did not say it in one line: $(cat "$work/err")"
}

cp "$SRC/tests/fixtures/record/v1-workloads.db" "$work/rec.db"
cp "$SRC/tests/fuzz/corpus/fuzz_u32_capture/eth.pcap" "$work/c.pcap"
printf 'not what you think, just text\n%.0s' $(seq 40) >"$work/text"
printf 'bad: -m u32 --u32 6&0xFF=1x7\n' >"$work/bad.rules"
cd "$work" || fail "cd"

# (pidstat's usage error is sysstat's 1: tests/pidstat checks it against sysstat)
for c in report collect record replay plot load probe doctor u32 version; do
	expect "unknown option or bad value" --bogus "$c" --bogus
done

f="missing input file"
expect "$f" none.db replay none.db
expect "$f" none.db plot none.db -o p.html
expect "$f" none.pcap u32 test -m u32 --u32 '0=1' none.pcap
expect "$f" none.rules u32 test --rules none.rules c.pcap
expect "$f" none.rules u32 lint --rules none.rules
expect "$f" none.pcap u32 explain '0=1' --packet 1 none.pcap

f="input file not of its kind"
expect "$f" text replay text
expect "$f" text plot text -o p.html
expect "$f" text u32 test -m u32 --u32 '0=1' text
expect "$f" text u32 explain '0=1' --packet 1 text

f="rule that does not parse"
expect "$f" "" u32 lint -m u32 --u32 '6&0xFF=1x7'
expect "$f" "" u32 explain '6&0xFF=1x7'
expect "$f" "" u32 test -m u32 --u32 '6&0xFF=1x7' c.pcap
expect "$f" "" u32 test --rules bad.rules c.pcap
expect "$f" "" u32 lint --rules bad.rules

f="missing \`--root\` directory"
expect "$f" /nonexistent report --root /nonexistent -d 1
expect "$f" /nonexistent collect --once --root /nonexistent
expect "$f" /nonexistent record -o r.db --root /nonexistent -d 1
expect "$f" /nonexistent load --root /nonexistent
expect "$f" /nonexistent load --watch 1 1 --root /nonexistent
expect "$f" /nonexistent pidstat --root /nonexistent 1 1
[ ! -e r.db ] || fail "record with a missing root created its file"

# a process that is gone (its PID just reaped) named by -p: an error naming it
f="process given by \`-p\` that does not exist"
sleep 0 &
gone=$!
wait "$gone"
[ ! -e "/proc/$gone" ] || skip "PID $gone was reused at once"
want=$(table_status "$f")
[ -n "$want" ] || fail "README.md has no row for '$f'"
expect "$f" "PID $gone" report -p "$gone" -d 1
"$TRIAGE" report -p "$gone,$$" -d 0.2 >out 2>err || fail "report -p $gone,$$: $(cat err)"
grep -q "warning: no such process: PID $gone" err || fail "report -p $gone,$$ did not warn: $(cat err)"
if "$TRIAGE" probe syscalls -p "$gone" -d 1 >out 2>err || ! grep -q "no such process" err; then
	echo "note: probe syscalls -p $gone: no BPF here, skipped: $(head -1 err)"
else
	expect "$f" "PID $gone" probe syscalls -p "$gone" -d 1
fi

f="output cannot be created"
expect "$f" /nonexistent/x.db record -o /nonexistent/x.db -d 1
grep -q "No such file or directory" err || fail "record -o /nonexistent/x.db: $(cat err)"
expect "$f" /nonexistent/p.html plot rec.db -o /nonexistent/p.html

# a full disk under stdout: one line, status 1, replay included
f="output cannot be written"
want=$(table_status "$f")
for cmd in "report -d 0.2" "collect --once" "load" "version" "help report" "report --help" \
	"u32 recipe dns-query example.com" "u32 lint -m u32 --u32 6&0xFF=17" \
	"replay rec.db report" "replay rec.db load" "replay rec.db pidstat -u" "plot rec.db -o -"; do
	# shellcheck disable=SC2086 # the words of cmd
	"$TRIAGE" $cmd >/dev/full 2>err
	rc=$?
	[ "$rc" = "$want" ] || fail "'$cmd > /dev/full' exited $rc, the table says $want: $(cat err)"
	[ "$(cat err)" = "triage: write error on stdout: No space left on device" ] ||
		[ "$(grep -cv '^Tracing' err)" = 1 ] ||
		fail "'$cmd > /dev/full' did not say it in one line: $(cat err)"
done

# a closed pipe: nothing said, and no failure but the SIGPIPE pidstat has
f="closed pipe on stdout"
[ "$(table_status "$f")" = quiet ] || fail "the table's '$f' row is not 'quiet'"
for cmd in "collect --once" "replay rec.db pidstat -u -p ALL" "report --help"; do
	# shellcheck disable=SC2086
	"$TRIAGE" $cmd 2>err | head -c 1 >/dev/null
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || [ "$rc" = 141 ] || fail "'$cmd | head' exited $rc: $(cat err)"
	[ ! -s err ] || fail "'$cmd | head' said: $(cat err)"
done

# no permission: as nobody, on root's private files
f="no permission"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 0600 rec.db c.pcap
	chmod 0755 "$work"
	nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	want=$(table_status "$f")
	for cmd in "replay $work/rec.db report" "plot $work/rec.db -o -" \
		"u32 test -m u32 --u32 0=1 $work/c.pcap" "u32 explain 0=1 --packet 1 $work/c.pcap"; do
		# shellcheck disable=SC2086
		nobody "$TRIAGE" $cmd >/dev/null 2>err
		rc=$?
		[ "$rc" = "$want" ] || fail "$f: '$cmd' as nobody exited $rc, the table says $want: $(cat err)"
	done
fi
echo "ok: usage, missing and foreign files, bad rules, missing roots, outputs and pipes give the README's statuses"
