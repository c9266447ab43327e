#!/usr/bin/env bash
# test: shared, slow -- sysstat and triage over fixture roots through the shim
# Golden tests for `triage pidstat`: for every case below, the real sysstat
# 12.6.1 pidstat runs over a fixture root through tests/tools/pidstat_shim.c
# (its /proc, /sys, clock, uname and HZ come from the fixture, its sleeps
# become "next step"), `triage pidstat --root FIXTURE` runs with the same
# options, and stdout, stderr and the exit code must be identical. Nothing
# expected is stored: the oracle is run at test time. See
# docs/testing-pidstat.md.
#
# Case lines: FIXTURES | ENV | ARGS
#   FIXTURES  space-separated fixture names under tests/fixtures/pidstat,
#             or "*" for workloads, edge-misc and edge-threads
#   ENV       extra environment (default LC_ALL=C TZ=UTC S_COLORS=never);
#             markers: TTYROWS=N (stdout on a terminal of N rows),
#             CLOSEOUT=1 (stdout closed)
#   ARGS      pidstat arguments, shell-quoted; @comm stands for the PID
#             whose step1 comm is comm in that fixture
# One intended difference: triage escapes control characters in process
# names (HELPERS.md, src/util/text.h); for fixtures whose names hold any,
# escape_names.py applies that documented rule to sysstat's output first.
# GOLDEN_SAVE=DIR keeps every case's outputs in DIR (debugging aid).
# Fixture edge-reuse reuses PID 2000; sysstat wraps its counters there
# (spec §4.4), so its lines for PID 2000 are not compared: triage's must
# instead be free of wrapped (huge or negative) values.
#
# The sanitized run (TRIAGE_SAN=1) with the plain build beside it, as in
# `make test`: this test's time is its ~650 process starts, and a start of
# the sanitized triage costs about 0.13 CPU-s against sysstat's and the
# plain triage's 0.02 (ASan's shadow and allocator set-up, LeakSanitizer's
# exit scan), so the sanitized run costs ~60 CPU-s of the shared pool. Its
# purpose is what only ASan/UBSan see: memory errors and UB on the code
# paths these cases drive; whether the bytes are sysstat's is the plain
# run's, which runs every case. A path is an option set over a fixture's
# shape, so the sanitized run keeps every case line (every option set,
# every usage error, every explicitly named fixture: edge-long's terminal
# cases, edge-reuse, edge-threads', the workloads' @comm cases), and runs
# a "*" line (the same options over workloads, edge-misc and edge-threads)
# on one of the three only, in rotation, so that each fixture gets a third
# of those option sets; a fixture on which sysstat prints no task row for
# the line (a filter matching nothing there) is passed over for the next,
# so the picked run prints rows. 167 of the 325 cases run: still compared
# byte for byte with sysstat, under ASan+UBSan, with leak detection.
# Without the plain build, or with GOLDEN_FULL=1, it runs every case.
set -u
: "${TRIAGE:?}" "${BUILD:?}" "${SRC:?}"
. "$SRC/tests/pidstat-oracle/lib.sh"
oracle_require
command -v cc >/dev/null || { echo "no C compiler to build the shim"; exit 77; }
build_shim || { echo "FAIL: cannot build the shim"; exit 1; }

TMP=$(mktemp -d /tmp/triage-golden.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

have_de=0
locale -a 2>/dev/null | grep -qix 'de_DE.utf8' && have_de=1

CASES=$(
	cat <<'EOF'
# activities, one at a time and combined, every task every sample
* | | -p ALL 1 3
* | | -u -p ALL 1 3
* | | -r -p ALL 1 3
* | | -d -p ALL 1 3
* | | -w -p ALL 1 3
* | | -s -p ALL 1 3
* | | -v -p ALL 1 3
* | | -R -p ALL 1 3
* | | -u -r -d -w -p ALL 1 3
* | | -urdwsvR -p ALL 1 2
* | | -u -u -p ALL 1 2
# default mode: all tasks, active ones only
* | | 1 3
* | | -r 1 3
* | | -d 1 3
* | | -w 1 3
* | | -s 1 3
* | | -v 1 3
* | | -R 1 3
* | | -u -r -d -w 1 3
* | | -w -t 1 3
* | | -u -r -d -w -t 1 3
# threads
* | | -t -p ALL 1 3
* | | -t -u -w -d -p ALL 1 3
* | | -t -r -s -v -R -p ALL 1 2
# one-line mode, epoch timestamps
* | | -h -u -r -d -w -s -v -R -p ALL 1 3
* | | -h -t -u -p ALL 1 2
* | | -h 1 3
* | | -h -t -w 1 3
* | | -h -T ALL -u -r -p ALL 1 2
* | | -H -p ALL 1 2
* | | -H -h -r -p ALL 1 2
# command lines, -I, users
* | | -l -p ALL 1 2
* | | -l -t -p ALL 1 2
* | | -I -p ALL 1 3
* | | -I -t 1 3
* | | -U -p ALL 1 2
* | | -U root -p ALL 1 2
* | | -U nobody 1 3
* | | -U -t -p ALL 1 2
edge-misc | | -U nobody -p ALL 1 2
edge-misc | | -U -p @nopasswd 1 2
# regex filters
* | | -C pidstat_ -p ALL 1 2
* | | -C srv- -t -p ALL 1 3
* | | -C 'wl-|srv-' -t 1 3
* | | -G '^srv$' -t 1 3
* | | -G '^pidstat_threads$' -t -p ALL 1 3
* | | -G 'threads' -t -w 1 3
* | | -C '[' -p ALL 1 2
edge-misc | | -C 'a b\)' -p ALL 1 2
edge-misc | | -C 'virtio' 1 3
edge-misc | | -l -C 'arg two' -p ALL 1 2
# -p lists
* | | -p 1 1 3
edge-misc | | -p 100,200 1 3
edge-misc | | -p 100,100 1 3
edge-misc | | -p 100 -p 200 -w 1 2
edge-misc | | -p 1,,900 1 2
edge-misc | | -p 999999 1 3
edge-misc | | -p 500 1 4
edge-misc | | -p 500,600 1 4
edge-misc | | -p 600 1 4
edge-threads | | -p 1001 -u -w 1 3
edge-threads | | -p 1001 -t 1 3
workloads | | -p @pidstat_exit 1 4
workloads | | -p @pidstat_user,@pidstat_sys -u 1 4
workloads | | -p @pidstat_threads -t -u -w 1 4
workloads | | -p @pidstat_cswitch -w 1 4
# -T
* | | -T TASK -p ALL 1 2
* | | -T CHILD -p ALL 1 3
* | | -T ALL -p ALL 1 3
* | | -T CHILD -u -r -p ALL 1 2
* | | -T CHILD 1 3
* | | -T ALL -r 1 3
* | | -T CHILD -T TASK -p ALL 1 2
edge-misc | | -T ALL -p 950 1 3
edge-misc | | -T ALL -u -r -p 950 1 3
edge-misc | | -T CHILD -d -p ALL 1 2
edge-misc | | -T CHILD -t -p ALL 1 2
# header repetition
edge-misc | | -p 100 1 4
edge-misc | | -u -u -p 100 1 3
edge-misc | | -urdw -p 100 1 3
edge-misc | | -h -p 100 1 3
# decimals and units
* | | --dec=0 -u -r -d -w -p ALL 1 2
* | | --dec=1 -u -r -d -w -p ALL 1 2
* | | --dec=2 -u -r -d -w -p ALL 1 2
* | | --human -u -r -d -s -p ALL 1 2
* | | --human --dec=0 -u -r -d -s -p ALL 1 2
* | | --human --dec=1 -u -r -d -s -t -p ALL 1 2
* | | --human -h -u -r -d -s -v -p ALL 1 2
edge-misc | | --dec=A -p ALL 1 2
# interval and count
* | | -p ALL 1 1
* | | -p ALL 1 10
* | | -p ALL 1
* | | -p ALL 3 2
* | | 1
* | | -u -r -t 1 10
edge-misc | | -h -p ALL 1 10
edge-misc | | -T ALL -p 950 1 10
# since boot (interval 0)
* | |
* | | -p ALL
* | | -p ALL 0
* | | -t -r -d -w -p ALL
* | | -h -u -r -d -w -s -v -R -p ALL
* | | -T ALL -p ALL
* | | -l -I -p ALL
* | | -U -s -v -R
edge-misc | | -p 999999
# time and number formats
* | S_TIME_FORMAT=ISO | -p ALL 1 2
* | S_TIME_FORMAT=ISO | -h -H -p ALL 1 2
edge-misc | S_TIME_FORMAT=iso | -p ALL 1 2
edge-misc | TZ=Europe/Berlin | -p ALL 1 2
edge-misc | TZ=America/New_York | -H -p ALL 1 2
DE * | LC_ALL=de_DE.UTF-8 | -u -r -d -p ALL 1 2
DE edge-misc | LC_NUMERIC=de_DE.UTF-8 | -u -r -d -p ALL 1 2
DE edge-misc | LC_TIME=de_DE.UTF-8 | -u -p ALL 1 2
DE edge-misc | LC_ALL=de_DE.UTF-8 S_TIME_FORMAT=ISO | --human -u -r -p ALL 1 2
DE edge-misc | LC_ALL=de_DE.UTF-8 | -h -p ALL 1 2
DE edge-misc | LANG=de_DE.UTF-8 | -u -p ALL 1 2
# colours (S_COLORS=always works without a terminal)
* | S_COLORS=always | -p ALL 1 2
edge-misc | S_COLORS=always | -t -u -r -d -w -s -v -R -p ALL 1 3
edge-threads | S_COLORS=always | -t -w 1 3
edge-misc | S_COLORS=always S_COLORS_SGR=H=41:M=42:Z=43:N=44:I=45:bad=1 | -u -p ALL 1 2
edge-misc | S_COLORS=always | --human -u -r -p ALL 1 2
# a terminal: the header comes back every (rows - 2) samples
edge-long | TTYROWS=5 | -p 3000 1 20
edge-long | TTYROWS=5 | -p 3000 -r 1 20
edge-long | TTYROWS=6 | -p 3000 -t 1 20
edge-long | TTYROWS=24 | -p 3000 1 20
edge-long | TTYROWS=5 | -T ALL -p 3000 1 20
edge-long | TTYROWS=5 | -h -p 3000 1 20
edge-long | TTYROWS=5 S_COLORS=auto | -p 3000 1 20
edge-long | TTYROWS=2 | -p 3000 1 20
edge-long | TTYROWS=5 | -p 3000,3002 1 20
edge-long | TTYROWS=5 | 1 20
edge-long | TTYROWS=5 | -p 3000 1 5
# a comm with an escape sequence and a tab, written to a file
edge-long | | -p ALL 1 3
edge-long | | -t -u -w -p ALL 1 20
edge-long | | -l -p ALL 1 3
edge-long | | -h -u -w -d -p ALL 1 20
edge-long | S_COLORS=always | -p ALL 1 3
# stdout closed
edge-misc | CLOSEOUT=1 | -p ALL 1 2
edge-misc | CLOSEOUT=1 |
# usage errors and other exits (the fixture does not matter); "triage pidstat
# --help" is triage's own page (tests/pidstat/cli.t checks sysstat's through the link)
edge-misc | | -x
edge-misc | | -p abc
edge-misc | | -p 0
edge-misc | | -p
edge-misc | | -up 1
edge-misc | | --
edge-misc | | -u 0 3
edge-misc | | -u 1 0
edge-misc | | -u -1
edge-misc | | -u 1.5
edge-misc | | 1 2 3
edge-misc | | -T foo
edge-misc | | -C ''
edge-misc | | --dec=3
edge-misc | | --dec=12
edge-misc | | --dec
edge-misc | | --human=1
edge-misc | | -e
edge-misc | | -U 123 1 1
edge-misc | | -V
# PID reuse (see the header)
edge-reuse | | -p ALL 1 3
edge-reuse | | -u -r -d -w -p ALL 1 3
edge-reuse | | -u -r -d -w 1 3
edge-reuse | | -t -p ALL 1 3
edge-reuse | | -T ALL -p ALL 1 3
edge-reuse | | -p 2000 1 3
edge-reuse | | -p ALL
EOF
)

# Numbers that only a wrapped unsigned delta can produce, or negative rates.
wrapped_values() {
	grep -E '(^|[ ])[0-9]{12,}(\.[0-9]+)?' "$1" || grep -E ' -[0-9]+[.,][0-9]' "$1" | grep -vE ' -1[.,]00'
}

# The lines that do not concern PID 2000 (third field, or second for -t
# thread rows with "-" in the TGID column: PID 2000 has no threads).
not_pid_2000() {
	awk '$3 == "2000" || ($3 == "-" && $4 == "2000") { next } { print }' "$1"
}

# trim VAR TEXT: sets VAR to TEXT without leading and trailing blanks.
# Here and below the shell's builtins do what xargs, cp, sed and cmp did:
# at ~6 ms a fork, they cost more than the two tool runs of a case.
trim() {
	local -n out_=$1
	local t=${2#"${2%%[![:space:]]*}"}
	out_=${t%"${t##*[![:space:]]}"}
}

# same_text A B: both small files hold the same text (NUL-free: stderr, codes)
same_text() {
	local a b
	IFS= read -r -d '' a <"$1"
	IFS= read -r -d '' b <"$2"
	[ "$a" = "$b" ]
}

# strip_own_lines FILE: drops triage's own lines ("triage pidstat: ..." and
# its see-also line) that follow sysstat's bytes on stderr
strip_own_lines() {
	local -a lines keep=()
	local l
	mapfile -t lines <"$1"
	for l in "${lines[@]}"; do
		[[ $l == "triage pidstat: "* || $l == "see 'triage pidstat --help'" ]] || keep+=("$l")
	done
	if [ ${#keep[@]} -ne ${#lines[@]} ]; then
		if [ ${#keep[@]} -gt 0 ]; then printf '%s\n' "${keep[@]}" >"$1"; else : >"$1"; fi
	fi
}

# The sanitized run's sample (see the header).
sample=0
[ "${TRIAGE_SAN:-0}" = 1 ] && [ -x "$SRC/build/triage" ] && [ -z "${GOLDEN_FULL:-}" ] && sample=1

# resolve_args ROOT: sets args to the case's arguments (argstr), each
# @comm replaced by the PID whose comm that is in ROOT.
resolve_args() {
	local i a
	eval "args=($argstr)"
	for i in "${!args[@]}"; do
		a=${args[$i]}
		while [[ $a =~ @([A-Za-z0-9_-]+) ]]; do
			a=${a/@${BASH_REMATCH[1]}/$(fixture_pid "$1" "${BASH_REMATCH[1]}")}
		done
		args[i]=$a
	done
}

# has_task_row FILE: sysstat's stdout holds a line that is not its banner,
# a header (ending in "Command", or "#" in -h mode) or blank.
has_task_row() {
	local l
	while IFS= read -r l; do
		[[ -z ${l//[[:space:]]/} || $l == "Linux "* || $l == "#"* || $l =~ Command[[:space:]]*$ ]] || return 0
	done <"$1"
	return 1
}

# pick_fixture FIXTURES...: the sanitized run's one fixture for a "*" line,
# the next in rotation (star_lines) on which sysstat prints a task row (the
# first in rotation when none does). Runs sysstat on them (cheap: it is
# triage under ASan that costs) into $TMP/pick.FIXTURE.*: the case then
# compares with picked_real, the chosen one's.
star_lines=0
declare -A picks=()
pick_fixture() {
	local -a fx=("$@")
	local n=${#fx[@]} k j f
	k=$((star_lines % n))
	star_lines=$((star_lines + 1))
	picked=${fx[k]}
	for ((j = 0; j < n; j++)); do
		f=${fx[(k + j) % n]}
		resolve_args "$FIXTURES/$f"
		run_real "$FIXTURES/$f" "$TMP/pick.$f" "$envstr" "${args[@]}"
		if has_task_row "$TMP/pick.$f.out"; then
			picked=$f
			break
		fi
	done
	picked_real=$TMP/pick.$picked
	picks[$picked]=$((${picks[$picked]:-0} + 1))
}

total=0 passed=0 skipped=0 star_total=0
failed_list=()
while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	trim fxs "${line%%|*}"
	rest=${line#*|}
	trim envstr "${rest%%|*}"
	argstr=${rest#*|}
	needs_de=0
	case $fxs in DE\ *) needs_de=1 fxs=${fxs#DE } ;; esac
	picked_real=""
	if [ "$fxs" = "*" ]; then
		fxs="workloads edge-misc edge-threads"
		star_total=$((star_total + 3))
		if [ $sample = 1 ] && { [ $needs_de = 0 ] || [ $have_de = 1 ]; }; then
			# shellcheck disable=SC2086 # three names, split on purpose
			pick_fixture $fxs
			fxs=$picked
		fi
	fi
	for fx in $fxs; do
		total=$((total + 1))
		root=$FIXTURES/$fx
		name="$fx | $envstr |$argstr"
		if [ $needs_de = 1 ] && [ $have_de = 0 ]; then
			skipped=$((skipped + 1))
			echo "SKIP $name: locale de_DE.UTF-8 is not generated (scripts/deps.sh does it)"
			continue
		fi
		resolve_args "$root"
		real=$TMP/real ours=$TMP/ours
		if [ -n "$picked_real" ]; then
			real=$picked_real # sysstat ran on it when it was picked
		else
			run_real "$root" "$real" "$envstr" "${args[@]}"
		fi
		run_ours "$root" "$ours" "$envstr" "${args[@]}"
		if [ "$fx" = edge-reuse ]; then
			not_pid_2000 "$real.out" >"$real.cmp"
			not_pid_2000 "$ours.out" >"$ours.cmp"
			rcmp=$real.cmp ocmp=$ours.cmp
			if wrapped_values "$ours.out" >"$TMP/wrapped"; then
				echo "FAIL $name: wrapped values after PID reuse:"
				sed 's/^/    /' "$TMP/wrapped"
				failed_list+=("$name")
				continue
			fi
		elif [ -f "$root/.escaped-names" ]; then
			"$PY" "$SRC/tests/pidstat-oracle/escape_names.py" "$root" <"$real.out" >"$real.cmp"
			rcmp=$real.cmp ocmp=$ours.out
		else
			rcmp=$real.out ocmp=$ours.out
		fi
		if [ -n "${GOLDEN_SAVE:-}" ]; then # debugging aid: keep both outputs
			mkdir -p "$GOLDEN_SAVE"
			for k in out err rc; do
				cp "$real.$k" "$GOLDEN_SAVE/$total.sysstat.$k"
				cp "$ours.$k" "$GOLDEN_SAVE/$total.triage.$k"
			done
			echo "$name" >"$GOLDEN_SAVE/$total.case"
		fi
		# triage adds what it found wrong after sysstat's bytes (tests/cli/errors.t)
		strip_own_lines "$ours.err"
		ok=1
		same_text "$real.err" "$ours.err" || ok=0
		same_text "$real.rc" "$ours.rc" || ok=0
		[ $ok = 1 ] && { cmp -s "$rcmp" "$ocmp" || ok=0; }
		if [ $ok = 1 ]; then
			passed=$((passed + 1))
			continue
		fi
		failed_list+=("$name")
		echo "FAIL $name  (exit: sysstat $(cat "$real.rc"), triage $(cat "$ours.rc"))"
		diff -u --label sysstat --label triage "$rcmp" "$ocmp" | head -n 40 | sed 's/^/    /'
		diff -u --label sysstat.stderr --label triage.stderr "$real.err" "$ours.err" | head -n 10 | sed 's/^/    /'
	done
done <<<"$CASES"

[ $sample = 1 ] && echo "sanitized run: each \"*\" line on one fixture ($star_lines of $star_total cases:$(for f in "${!picks[@]}"; do printf ' %s %s' "$f" "${picks[$f]}"; done); the plain run has them all; GOLDEN_FULL=1 runs every case)"
echo "pidstat golden: $passed/$total cases identical to sysstat 12.6.1 ($skipped skipped, ${#failed_list[@]} failed)"
[ ${#failed_list[@]} -eq 0 ]
