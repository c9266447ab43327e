#!/bin/bash
# test: shared -- usage errors only
# A mistyped command gets git's "did you mean": the nearest commands (one
# edit, or two in a word of five letters or more; a swap of neighbours is
# one edit), then the pointer to 'triage help'; exit 2. A word near nothing
# gets no guess. So does a mistyped probe, u32 subcommand or replay view.
. "$SRC/tests/lib.sh" cli-near-miss
check() { # word, expected suggestion ("" for none)
	local rc
	"$TRIAGE" "$1" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] || fail "'triage $1' exited $rc"
	[ "$(head -1 "$work/err")" = "triage: not a triage command: '$1'" ] || fail "'$1': $(cat "$work/err")"
	if [ -n "$2" ]; then
		[ "$(sed -n 2p "$work/err")" = "did you mean $2?" ] || fail "'$1': $(cat "$work/err")"
	else
		! grep -q "did you mean" "$work/err" || fail "'$1' got a guess: $(cat "$work/err")"
	fi
	[ "$(tail -1 "$work/err")" = "see 'triage help'" ] || fail "'$1': no pointer: $(cat "$work/err")"
	[ ! -s "$work/out" ] || fail "'$1' wrote to stdout"
}
check reprot report
check rpeort report
check repotr report
check pidtsat pidstat
check colect collect
check lod load
check prob probe
check dcotor doctor
check xyzzy ""
check q ""
"$TRIAGE" help reprot 2>"$work/err"
grep -qx "did you mean report?" "$work/err" || fail "help reprot: $(cat "$work/err")"
# The words after a command the same way: probes, u32's subcommands,
# replay's views (the file is not opened before the view is known).
check_sub() { # command words..., the bad word last; expected suggestion
	local want=${*: -1} rc
	set -- "${@:1:$#-1}"
	local cmd=$1 bad=${*: -1}
	"$TRIAGE" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] || fail "'triage $*' exited $rc"
	head -1 "$work/err" | grep -qF "'$bad'" || fail "'$*': the word is not quoted: $(cat "$work/err")"
	if [ -n "$want" ]; then
		[ "$(sed -n 2p "$work/err")" = "did you mean $want?" ] || fail "'$*': $(cat "$work/err")"
	else
		! grep -q "did you mean" "$work/err" || fail "'$*' got a guess: $(cat "$work/err")"
	fi
	[ "$(tail -1 "$work/err")" = "see 'triage $cmd --help'" ] || fail "'$*': no pointer: $(cat "$work/err")"
	[ ! -s "$work/out" ] || fail "'$*' wrote to stdout"
}
check_sub probe proflie profile
check_sub probe sycalls syscalls
check_sub probe ofcpu offcpu
check_sub probe trcae trace
check_sub probe flame ""
check_sub u32 lnt lint
check_sub u32 explian explain
check_sub u32 nope ""
check_sub replay "$work/none.db" reprot report
check_sub replay "$work/none.db" pidstta pidstat
check_sub replay "$work/none.db" top ""
echo "ok: near-miss commands and subcommands get a suggestion, others none"
