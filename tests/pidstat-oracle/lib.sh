# Shared helpers for tests/pidstat-oracle/*.t (sourced, not run).
# Builds the LD_PRELOAD shim that points the real sysstat pidstat at a
# fixture root, and runs either tool over a fixture with a clean
# environment.

ORACLE_PIDSTAT=${ORACLE_PIDSTAT:-/usr/bin/pidstat}
# The system's python: a version manager's shim (pyenv) can take seconds
# to start on a busy machine, and these tests start python often.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
FIXTURES=$SRC/tests/fixtures/pidstat
SHIM=$BUILD/tools/pidstat_shim.so

# oracle_require: exits 77 with a reason when the oracle cannot run here.
oracle_require() {
	if [ ! -x "$ORACLE_PIDSTAT" ]; then
		echo "sysstat's pidstat is not installed ($ORACLE_PIDSTAT; scripts/deps.sh installs sysstat)"
		exit 77
	fi
	if ! "$ORACLE_PIDSTAT" -V 2>/dev/null | grep -q 'sysstat version 12\.6\.1'; then
		echo "the oracle must be sysstat 12.6.1: $("$ORACLE_PIDSTAT" -V 2>&1 | head -1)"
		exit 77
	fi
}

# build_shim: compiles tests/tools/pidstat_shim.c into $BUILD/tools when stale.
build_shim() {
	local src=$SRC/tests/tools/pidstat_shim.c
	mkdir -p "$BUILD/tools"
	if [ ! -f "$SHIM" ] || [ "$src" -nt "$SHIM" ]; then
		cc -O2 -g -shared -fPIC -Wall -o "$SHIM.tmp.$$" "$src" -ldl || return 1
		mv -f "$SHIM.tmp.$$" "$SHIM"
	fi
}

# base_env ENVSTR: fills the caller's array envv with the environment both
# tools run in (in the shell: a case costs two tool runs, not more forks).
# Locale cases set their own LC_*/LANG; every other case runs in LC_ALL=C.
# TZ is UTC.
base_env() {
	envv=(PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC S_COLORS=never)
	case " $1 " in
	*" LC_"* | *" LANG="*) envv+=(LANG=C) ;;
	*) envv+=(LC_ALL=C) ;;
	esac
	[ -n "${ASAN_OPTIONS:-}" ] && envv+=("ASAN_OPTIONS=$ASAN_OPTIONS")
	[ -n "${UBSAN_OPTIONS:-}" ] && envv+=("UBSAN_OPTIONS=$UBSAN_OPTIONS")
	return 0
}

# launch OUTPREFIX ENVSTR CMD...: runs CMD with stdout to OUTPREFIX.out,
# stderr to .err, exit code to .rc. Markers in ENVSTR: CLOSEOUT=1 runs it
# with stdout closed; TTYROWS=N puts stdout on a pseudo-terminal of N rows.
launch() {
	local out=$1 envstr=$2 rows=""
	shift 2
	[[ " $envstr " =~ \ TTYROWS=([0-9]+)\  ]] && rows=${BASH_REMATCH[1]}
	if [[ " $envstr " == *" CLOSEOUT=1 "* ]]; then
		"$@" >&- 2>"$out.err" </dev/null
		echo $? >"$out.rc"
		: >"$out.out"
	elif [ -n "$rows" ]; then
		"$PY" "$SRC/tests/tools/ptyrun.py" "$rows" 200 "$@" >"$out.out" 2>"$out.err"
		echo $? >"$out.rc"
	else
		"$@" >"$out.out" 2>"$out.err" </dev/null
		echo $? >"$out.rc"
	fi
}

# run_real FIXTURE_DIR OUTPREFIX ENVSTR ARGS...: the real pidstat under the
# shim; writes OUTPREFIX.out, .err, .rc. argv[0] is "pidstat" as installed.
run_real() {
	local fx=$1 out=$2 envstr=$3
	shift 3
	local -a envv
	base_env "$envstr"
	# shellcheck disable=SC2086
	launch "$out" "$envstr" env -i "${envv[@]}" $envstr PIDSTAT_SHIM_ROOT="$fx" \
		LD_PRELOAD="$SHIM" bash -c 'exec -a pidstat "$0" "$@"' "$ORACLE_PIDSTAT" "$@"
}

# run_ours FIXTURE_DIR OUTPREFIX ENVSTR ARGS...: triage pidstat --root FIXTURE.
run_ours() {
	local fx=$1 out=$2 envstr=$3
	shift 3
	local -a envv
	base_env "$envstr"
	# shellcheck disable=SC2086
	launch "$out" "$envstr" env -i "${envv[@]}" $envstr "$TRIAGE" pidstat --root "$fx" "$@"
}

# fixture_pid FIXTURE_DIR COMM: the PID whose step1 comm is COMM.
fixture_pid() {
	local f c
	for f in "$1"/step1/proc/[0-9]*/stat; do
		c=$(sed -e 's/^[0-9]* (//' -e 's/) [A-Za-z] .*$//' "$f")
		if [ "$c" = "$2" ]; then
			basename "$(dirname "$f")"
			return 0
		fi
	done
	echo 999998 # a PID that is in no fixture
}
