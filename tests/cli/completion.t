#!/usr/bin/env bash
# test: shared -- the completion functions in this shell; one sleeper of its own
# contrib/completion/triage.bash, sourced in bash: COMPREPLY for command
# names, a command's options (read from its --help), PIDs after -p, probe
# and u32 subcommands, u32 recipes and fixed choices. The zsh file parses
# where zsh is installed.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"; [ -n "${SLEEPER:-}" ] && kill "$SLEEPER" 2>/dev/null' EXIT
fail=0
PATH="$(dirname "$TRIAGE"):$PATH"
# shellcheck source=/dev/null
. "$SRC/contrib/completion/triage.bash" || { echo "FAIL: sourcing the completion"; exit 1; }
complete -p triage | grep -q -- '-F _triage' || { echo "FAIL: no complete -F _triage"; fail=1; }

reply() { # words...: COMPREPLY for the last word as the one being completed
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_triage
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
expect() { # description, expected (newline-separated, sorted), words...
	local what=$1 want=$2 got
	shift 2
	got=$(reply "$@")
	[ "$got" = "$want" ] || { echo "FAIL: $what: got [$(echo $got)] want [$(echo $want)]"; fail=1; }
}
has() { # description, word that must be offered, words...
	local what=$1 word=$2
	shift 2
	reply "$@" | grep -qxF -- "$word" || { echo "FAIL: $what: '$word' not offered: $(reply "$@" | head -20 | tr '\n' ' ')"; fail=1; }
}

# command names: every command of 'triage help'
cmds=$("$TRIAGE" help | sed -n 's/^  \([a-z0-9]*\) .*/\1/p' | sort)
[ -n "$cmds" ] || { echo "FAIL: no commands in triage help"; exit 1; }
for c in $cmds; do has "command names" "$c" triage ""; done
expect "a command by prefix" "report" triage repo
expect "commands by prefix" "replay
report" triage rep
expect "help's argument" "pidstat" triage help pids
# options, from the command's --help
expect "load --no..." "--no-rt
--no-stacks" triage load --no
has "report options" --duration triage report --
expect "fleet --pro" "--prometheus" triage fleet --pro
expect "no value after fleet --match" "" triage fleet --match ""
has "pidstat's own options" --whole triage pidstat --
has "collect -i" -i triage collect -
# PIDs after -p: a process started here is offered, and pidstat's keywords
sleep 300 &
SLEEPER=$!
has "a PID after pidstat -p" "$SLEEPER" triage pidstat -u -p ""
has "ALL after pidstat -p" ALL triage pidstat -p ""
has "a PID after report --pid" "$SLEEPER" triage report --pid ""
has "a PID after probe offcpu -p" "$SLEEPER" triage probe offcpu -p ""
reply triage report -p "" | grep -qv '^[0-9]*$' && { echo "FAIL: report -p offers non-PIDs"; fail=1; }
# subcommands, recipes, fixed choices
expect "probe names" "runq" triage probe r
has "probe names" profile triage probe ""
has "probe options" --folded triage probe profile --f
expect "u32 subcommands" "explain" triage u32 ex
expect "u32 recipes" "dns-query
tls-client-hello" triage u32 recipe ""
expect "collect --group" "cgroup
comm" triage collect --group c
expect "report --color=" "--color=always
--color=auto" triage report --color=a
expect "report --color = (split at '=')" "always
auto" triage report --color = a

# zsh: the file parses, and with compadd stubbed (zsh filters by prefix
# itself) it offers a command's options, PIDs after -p and recipes.
if command -v zsh >/dev/null; then
	zsh -n "$SRC/contrib/completion/_triage" || { echo "FAIL: zsh -n _triage"; fail=1; }
	zreply() {
		zsh -fc 'compadd() { if [[ $1 == -a ]]; then print -l -- ${(P)2}; else print -l -- "$@"; fi }
			_describe() { print -l -- ${(P)4}; }
			_files() { print FILES; }
			words=("${@:2}"); CURRENT=$(( $# - 1 )); PREFIX=$words[-1]
			source "$1"' zsh "$SRC/contrib/completion/_triage" "$@"
	}
	zreply triage load --no | grep -qx -- --no-stacks || { echo "FAIL: zsh: load options"; fail=1; }
	zreply triage pidstat -p "" | grep -qx "$SLEEPER" || { echo "FAIL: zsh: PID after -p"; fail=1; }
	zreply triage u32 recipe "" | grep -qx dns-query || { echo "FAIL: zsh: u32 recipes"; fail=1; }
	zreply triage "" | grep -q '^report:' || { echo "FAIL: zsh: command names"; fail=1; }
else
	echo "zsh not installed: zsh completion not checked"
fi
exit $fail
