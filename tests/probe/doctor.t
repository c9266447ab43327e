# test: shared -- doctor's verdicts against the kernel's files
# triage doctor --json: valid JSON with the expected keys, and verdicts that
# agree with what actually happens (the probes run or not; the kernel's own
# files for tracefs, kallsyms, perf_event_paranoid, kprobe/uprobe PMUs).
. "$SRC/tests/probe/lib.sh"
command -v jq >/dev/null || fail "jq is missing"
J="$SCRATCH/doctor.json"
"$TRIAGE" doctor --json >"$J"
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || fail "doctor exited $rc"
jq -e 'has("kernel") and has("bpf_built") and (.checks | type == "array") and (.probes | type == "array")' \
	"$J" >/dev/null || fail "missing top-level keys: $(head -c 300 "$J")"
jq -e 'all(.checks[]; has("name") and has("detail") and has("fix") and (.status | IN("ok","warn","missing")))' \
	"$J" >/dev/null || fail "a check lacks name/status/detail/fix"
status() { jq -r --arg n "$1" '.checks[] | select(.name == $n) | .status' "$J"; }
works() { jq -r --arg n "$1" '.probes[] | select(.name == $n) | .works' "$J"; }
for n in syscalls trace offcpu runq profile; do
	[ -n "$(works $n)" ] || fail "no verdict for probe $n"
done
# How the report's eBPF parts load: light skeletons wherever the probes work
# on Linux 6.1 or later (report_loader.t checks the loader against strace).
if [ "$(works runq)" = true ]; then
	read -r major minor _ <<<"$(uname -r | tr '.-' '  ')"
	want="libbpf skeleton|light skeleton"
	{ [ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "$minor" -ge 1 ]; }; } && want="light skeleton"
	for p in runq profile syscalls offcpu forks; do
		jq -e --arg p "$p" --arg w "$want" '.checks[] | select(.name == "report_loader")
			| .detail | test($p + " (" + $w + ") [(][0-9.]+ ms CPU[)]")' "$J" >/dev/null ||
			fail "report_loader: $p not as $want: $(jq -c '.checks[] | select(.name == "report_loader")' "$J")"
	done
fi
# Exit status: 0 exactly when every probe works.
all=$(jq -r 'all(.probes[]; .works)' "$J")
{ [ "$all" = true ] && [ $rc = 0 ]; } || { [ "$all" = false ] && [ $rc = 3 ]; } ||
	fail "exit $rc but all-probes-work=$all"

if [ "$(jq -r .bpf_built "$J")" = true ]; then
	for n in privileges btf tracefs kallsyms perf_event_paranoid kprobe fentry uprobe tp_btf \
		raw_tracepoint perf_event libc_frame_pointers bpf ringbuf; do
		[ -n "$(status $n)" ] || fail "no check named $n"
	done
	# The verdicts for syscalls and trace agree with running them.
	sleep 30 &
	S=$!
	started="$started $S"
	"$TRIAGE" probe syscalls -p "$S" -d 0.2 >/dev/null 2>&1
	src=$?
	[ "$(works syscalls)" = "$([ $src = 0 ] && echo true || echo false)" ] ||
		fail "doctor says syscalls works=$(works syscalls), the probe exited $src"
	"$TRIAGE" probe trace openat -p "$S" -d 0.2 >/dev/null 2>&1
	trc=$?
	[ "$(works trace)" = "$([ $trc = 0 ] && echo true || echo false)" ] ||
		fail "doctor says trace works=$(works trace), the probe exited $trc"
	# So do those for the stack probes: doctor loads and attaches their real programs too.
	for n in offcpu runq profile; do
		"$TRIAGE" probe "$n" -p "$S" -d 0.2 >/dev/null 2>&1
		prc=$?
		[ "$(works $n)" = "$([ $prc = 0 ] && echo true || echo false)" ] ||
			fail "doctor says $n works=$(works $n), the probe exited $prc"
		jq -e --arg n "$n" '.probes[] | select(.name == $n) | .detail | startswith("loading and attaching its BPF programs")' \
			"$J" >/dev/null || fail "$n verdict is not from loading its programs"
	done
	# kprobe/uprobe attach needs their PMUs (or tracefs for legacy kprobes).
	if [ ! -e /sys/bus/event_source/devices/kprobe ] &&
		[ ! -e /sys/kernel/tracing/kprobe_events ]; then
		[ "$(status kprobe)" = missing ] || fail "kprobe ok without a kprobe PMU or kprobe_events"
	fi
	if [ -e /sys/bus/event_source/devices/uprobe ] && [ "$(id -u)" = 0 ]; then
		[ "$(status uprobe)" = ok ] || fail "uprobe PMU present but uprobe: $(status uprobe)"
	fi
else
	[ "$(works syscalls)" = false ] || fail "a build without BPF says syscalls works"
fi

# tracefs: mounted (per stat -f) <=> not the "not mounted" warning.
if [ "$(stat -f -c %T /sys/kernel/tracing 2>/dev/null)" = tracefs ]; then
	jq -e '.checks[] | select(.name == "tracefs") | .detail | startswith("mounted")' "$J" >/dev/null ||
		fail "tracefs is mounted but doctor says otherwise"
else
	[ "$(status tracefs)" = warn ] || fail "tracefs not mounted but status $(status tracefs)"
fi
# kallsyms: real addresses <=> ok.
if awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms; then
	[ "$(status kallsyms)" = ok ] || fail "kallsyms has addresses, doctor: $(status kallsyms)"
else
	[ "$(status kallsyms)" = missing ] || fail "kallsyms hidden, doctor: $(status kallsyms)"
fi
p=$(cat /proc/sys/kernel/perf_event_paranoid)
jq -e --arg p "$p" '.checks[] | select(.name == "perf_event_paranoid") | .detail | startswith($p + " ")' \
	"$J" >/dev/null || fail "perf_event_paranoid detail does not show $p"
echo "ok doctor as $(id -un)"

# Unprivileged: privileges missing, no probe works, exit 3, still valid JSON.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$TRIAGE" doctor --json >"$SCRATCH/nobody.json" 2>/dev/null
	rc=$?
	[ $rc = 3 ] || fail "unprivileged doctor exited $rc, expected 3"
	J="$SCRATCH/nobody.json"
	jq -e . "$J" >/dev/null || fail "unprivileged: invalid JSON"
	[ "$(status privileges)" = missing ] || fail "unprivileged: privileges $(status privileges)"
	[ "$(works syscalls)" = false ] || fail "unprivileged: syscalls said to work"
	echo "ok doctor unprivileged"
fi
