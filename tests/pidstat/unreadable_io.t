#!/bin/bash
# test: shared -- PID 1's unreadable io file as nobody, sysstat alongside
# pidstat -d for a process whose /proc/PID/io the user may not read (PID 1,
# as nobody): the bytes sysstat 12.6.1 prints, checked against the real
# sysstat pidstat run the same way. (sysstat prints -1.00 in kB_rd/s,
# kB_wr/s and kB_ccwr/s for an unreadable io file, not 0.00: issue 25's
# row 12 expected 0.00; the oracle says -1.00, and so do we.)
. "$SRC/tests/lib.sh" pidstat-unreadable-io
export LC_ALL=C S_COLORS=never TZ=UTC
command -v pidstat >/dev/null || skip "no sysstat pidstat (scripts/deps.sh test installs it)"
[ "$(id -u)" = 0 ] || skip "needs root to run as nobody"
command -v setpriv >/dev/null || skip "no setpriv"
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
nobody cat /proc/1/io >/dev/null 2>&1 && skip "nobody can read /proc/1/io here"
# the -d columns (kB_rd/s kB_wr/s kB_ccwr/s) and the command of PID 1's rows
cols() { awk '$3 == "1" { print $1 == "Average:" ? "avg" : "row", $4, $5, $6, $8 }' "$1"; }
nobody pidstat -d -p 1 1 1 >"$work/sysstat" 2>&1 || fail "sysstat pidstat: $(cat "$work/sysstat")"
chmod 0755 "$work"
nobody "$TRIAGE" pidstat -d -p 1 1 1 >"$work/triage" 2>&1 || fail "triage pidstat: $(cat "$work/triage")"
[ -n "$(cols "$work/sysstat")" ] || fail "sysstat printed no row for PID 1: $(cat "$work/sysstat")"
[ "$(cols "$work/sysstat")" = "$(cols "$work/triage")" ] ||
	fail "sysstat: $(cols "$work/sysstat" | tr '\n' '|') triage: $(cols "$work/triage" | tr '\n' '|')"
echo "ok: an unreadable /proc/1/io prints sysstat's $(cols "$work/sysstat" | head -1 | cut -d' ' -f2)"
