# bash completion for triage(1). Installed by make install as
# $(PREFIX)/share/bash-completion/completions/triage.
#
# Commands and options are read from triage itself ('triage help' and
# 'triage CMD --help', which come from the man pages' source), so a new
# command or option completes without an edit here. Values that need
# knowledge are below: PIDs after -p, probe names, u32 subcommands and
# recipes, the fixed choices of some options.

# The options listed in 'triage CMD --help' (lines "  -x, --long ARG"), cached.
_triage_options()
{
	local cmd=$1 line word
	local -n _out=$2
	if [[ -z ${_triage_opts_cache[$cmd]+set} ]]; then
		local opts=()
		while IFS= read -r line; do
			[[ $line =~ ^\ \ -  ]] || continue
			for word in ${line//,/ }; do
				[[ $word == -* ]] && opts+=("${word%%=*}")
			done
		done < <("$_triage_bin" "$cmd" --help 2>/dev/null)
		_triage_opts_cache[$cmd]="${opts[*]}"
	fi
	_out=${_triage_opts_cache[$cmd]}
}

# Words for compgen: the PIDs in /proc.
_triage_pids()
{
	local p pids=()
	for p in /proc/[0-9]*; do
		pids+=("${p#/proc/}")
	done
	printf '%s\n' "${pids[@]}"
}

_triage()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local _triage_bin=${COMP_WORDS[0]} cmd="" sub="" i words
	declare -gA _triage_opts_cache
	COMPREPLY=()

	# the command and, for probe and u32, the subcommand
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ -z $cmd ]]; then
			[[ ${COMP_WORDS[i]} == -* ]] || cmd=${COMP_WORDS[i]}
		elif [[ -z $sub && ( $cmd == probe || $cmd == u32 ) && ${COMP_WORDS[i]} != -* ]]; then
			sub=${COMP_WORDS[i]}
			break
		fi
	done

	if [[ -z $cmd ]]; then
		words=$("$_triage_bin" help 2>/dev/null | sed -n 's/^  \([a-z0-9][a-z0-9-]*\) .*/\1/p')
		COMPREPLY=($(compgen -W "$words help --help --version" -- "$cur"))
		return
	fi
	if [[ $cmd == help && $COMP_CWORD == 2 ]]; then
		words=$("$_triage_bin" help 2>/dev/null | sed -n 's/^  \([a-z0-9][a-z0-9-]*\) .*/\1/p')
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi

	# values of the option before the cursor
	case $cmd:$prev in
	pidstat:-p) COMPREPLY=($(compgen -W "$(_triage_pids) ALL SELF" -- "$cur")); return ;;
	*:-p | *:--pid) COMPREPLY=($(compgen -W "$(_triage_pids)" -- "$cur")); return ;;
	pidstat:-T) COMPREPLY=($(compgen -W "TASK CHILD ALL" -- "$cur")); return ;;
	pidstat:-o) COMPREPLY=($(compgen -W "JSON" -- "$cur")); return ;;
	*:--root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	*:--rules | collect:--web.config.file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	collect:--group) COMPREPLY=($(compgen -W "comm cgroup pid" -- "$cur")); return ;;
	u32:--bm-layout) COMPREPLY=($(compgen -W "auto linear l3 l4 kmp" -- "$cur")); return ;;
	u32:--shift) COMPREPLY=($(compgen -W "reject mod32" -- "$cur")); return ;;
	u32:--string-to) COMPREPLY=($(compgen -W "end start" -- "$cur")); return ;;
	u32:--type) COMPREPLY=($(compgen -W "A AAAA MX HTTPS TXT NS CNAME SOA PTR SRV" -- "$cur")); return ;;
	*:-d | *:--duration | *:-i | *:--interval | *:--top | *:-F | *:--frequency | *:--budget | \
		*:--buffer | *:--graphite | *:--listen | *:--prefix | *:-C | *:--comm | *:-G | *:--sni | \
		fleet:--prometheus | fleet:--match | fleet:--host-label | fleet:--at | fleet:--from | \
		fleet:--to | fleet:--timeout)
		return ;;
	esac
	# --color=WHEN: one word, or three where '=' breaks words (COMP_WORDBREAKS)
	if [[ $cmd == report && $cur == --color=* ]]; then
		COMPREPLY=($(compgen -P --color= -W "auto always never" -- "${cur#--color=}"))
		return
	fi
	if [[ $cmd == report && ( $prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --color ||
		$prev == --color ) ]]; then
		[[ $cur == = ]] && cur=""
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return
	fi

	if [[ $cmd == probe && -z $sub ]]; then
		COMPREPLY=($(compgen -W "syscalls trace offcpu runq profile --help" -- "$cur"))
		return
	fi
	if [[ $cmd == u32 && -z $sub ]]; then
		COMPREPLY=($(compgen -W "test explain lint recipe --help" -- "$cur"))
		return
	fi
	if [[ $cmd == u32 && $sub == recipe && $prev == recipe ]]; then
		COMPREPLY=($(compgen -W "tls-client-hello dns-query" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		_triage_options "$cmd" words
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	# captures for u32 test and explain --packet; otherwise nothing to guess
	if [[ $cmd == u32 && ( $sub == test || $sub == explain ) ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -F _triage triage
