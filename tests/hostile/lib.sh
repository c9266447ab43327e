# Shared by tests/hostile/names.t and probes.t: seven processes under
# hostile names (comm and argv[0]), and the helpers that run commands
# against them and collect their outputs for tests/hostile/check.py.
#   . "$SRC/tests/hostile/lib.sh" NAME   then
#   run TAG MODE CMD...   in the background (4 at once), checked at the end
#   want MODE FILE [REGEX]  one more file for check.py
#   join                  waits for the runs, fails on a bad status
# Variables: $pids (the seven, comma-separated), $first, $second, $names[],
# $nrun (runs joined), $check (check.py), $work.
# shellcheck shell=bash
. "$SRC/tests/lib.sh" "hostile-$1"
export LC_ALL=C.UTF-8 TZ=UTC
wl=$BUILD/workloads/hostile_named
[ -x "$wl" ] || fail "workload missing: $wl"
# shellcheck disable=SC2034 # for the tests that source this
check=$SRC/tests/hostile/check.py
command -v script >/dev/null || fail "script(1) missing (util-linux)"

# comm: at most 15 bytes each
names=(
	$'\e[2J\e]0;t\a'        # CSI clear screen, OSC window title ended by BEL
	$'x\nFORGED 1 2'        # a newline then a fake record
	$'t\tq",c\''            # tab, double quote, comma, single quote
	'a.b {"}{'              # dots, space, braces, quote
	$'\xff\xfe\xc3(\x9b2J'  # invalid UTF-8, a raw 8-bit CSI
	$'\xc2\x9b31m\xc2\x85'  # C1 CSI and NEL, UTF-8 encoded
	$'r\rFORGED2'           # a carriage return then a fake line start
)
# argv[0]: the command line, longer than comm
argv0=$'\e]0;title\a\e[1A\nFORGED3 "x",{}\t\xff.\r\nFORGED4'
secs=600 # killed on exit
pids=""
i=0
for n in "${names[@]}"; do
	mode=sleep
	[ $i -lt 2 ] && mode=spin # two of them show up as CPU hogs
	nice -n 19 bash -c 'exec -a "$0" "$@"' "$argv0" "$wl" "$n" "$mode" "$secs" >"$work/pid$i" &
	started="$started $!"
	i=$((i + 1))
done
for ((k = 0; k < i; k++)); do
	for _ in $(seq 50); do [ -s "$work/pid$k" ] && break; sleep 0.1; done
	p=$(cat "$work/pid$k")
	[ -n "$p" ] || fail "workload $k did not start"
	pids="$pids${pids:+,}$p"
done
first=${pids%%,*}
second=$(cut -d, -f2 <<<"$pids")

nrun=0
# want MODE FILE [REGEX]: a check for check.py, all run at the end (python
# starts slowly on a loaded machine: once, not once per output)
want() {
	printf '%s\t%s%s\n' "$1" "$2" "${3:+$'\t'$3}" >>"$work/manifest"
}
# run TAG MODE CMD...: stdout to $work/TAG.out (with stderr, on a pty, when
# MODE is term), stderr to $work/TAG.err; both checked; status 0, or 3 (a missing privilege
# or kernel feature is a message, not a name problem). Runs in the
# background, up to four at once (most runs are 1-second probe windows that
# sleep): join waits for them and checks their statuses, before anything
# reads their outputs.
jobs_bg=()
run() {
	local tag=$1 mode=$2
	shift 2
	while [ ${#jobs_bg[@]} -ge 4 ]; do join_one; done
	printf '%q ' "$@" >"$work/$tag.cmd"
	run_job "$tag" "$mode" "$@" &
	jobs_bg+=("$!:$tag")
	[ "$mode" = lines ] && mode=text # the caller adds the line format
	want "$mode" "$work/$tag.out"
	want term "$work/$tag.err"
}
run_job() {
	local tag=$1 mode=$2
	shift 2
	if [ "$mode" = term ]; then
		# script(1): stdout and stderr both on the pty, as on a terminal
		SHELL=/bin/bash timeout -k 5 60 script -qec \
			"stty rows 50 cols 200; exec $(printf '%q ' "$@")" /dev/null \
			>"$work/$tag.out" 2>"$work/$tag.err"
	else
		timeout -k 5 60 "$@" >"$work/$tag.out" 2>"$work/$tag.err"
	fi
	echo $? >"$work/$tag.rc"
}
join_one() {
	local j=${jobs_bg[0]} tag rc=""
	jobs_bg=("${jobs_bg[@]:1}")
	wait "${j%%:*}"
	tag=${j#*:}
	read -r rc <"$work/$tag.rc"
	case $rc in
	0 | 3) ;;
	*) fail "$tag: '$(<"$work/$tag.cmd")' exited $rc: $(head -c 300 "$work/$tag.err")" ;;
	esac
	nrun=$((nrun + 1))
	echo "ok $tag (status $rc, ${SECONDS}s)"
}
join() {
	while [ ${#jobs_bg[@]} -gt 0 ]; do join_one; done
}
