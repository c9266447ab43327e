# test: exclusive -- reads every thread of the machine through two doors, milliseconds apart
# The two task doors (src/procfs/tasksrc.h) agree: every live thread read
# through the BPF iterator and through /proc within a few milliseconds,
# thread by thread, field by field (tests/procfs/compare_doors.py says how
# threads that ran meanwhile are judged). Workloads: a process with a busy
# thread and a switching one, and two spinners, so that moving counters
# (utime/stime through cputime_adjust, switches, run delay, faults) are
# covered next to idle ones. Also: the override chooses the door, and a
# fixture root always gets /proc.
set -u
. "$SRC/tests/load/lib.sh"
command -v python3 >/dev/null || { echo "python3 is missing"; exit 1; }
skip() { echo "$1"; exit 77; }

out=$("$TRIAGE" doctor --dump-tasks=bpf 2>&1 >/dev/null)
rc=$?
[ $rc = 3 ] && skip "no BPF task iterator here: $out"
[ $rc = 0 ] || { echo "dump-tasks=bpf failed ($rc): $out"; exit 1; }

setsid "$BUILD/workloads/pidstat_threads" 30 >/dev/null 2>&1 </dev/null &
LOAD_PIDS+=($!)
disown $!
load_start load_spin 2 30 || exit 1
sleep 0.3

fails=0
for round in 1 2 3; do
	"$TRIAGE" doctor --dump-tasks=bpf,proc,bpf >"$LOAD_TMP/dump.$round" ||
		{ echo "dump failed"; exit 1; }
	if python3 "$SRC/tests/procfs/compare_doors.py" "$LOAD_TMP/dump.$round"; then
		:
	else
		fails=$((fails + 1))
	fi
done
[ $fails = 0 ] || { echo "FAIL: the doors disagreed in $fails of 3 rounds"; exit 1; }

# Our workloads were seen, with their threads, through both doors.
for p in "${LOAD_PIDS[@]}"; do
	n_bpf=$(awk -v p="$p" '/^# door/ { d++ } d == 1 && $1 == p' "$LOAD_TMP/dump.1" | wc -l)
	n_proc=$(awk -v p="$p" '/^# door/ { d++ } d == 2 && $1 == p' "$LOAD_TMP/dump.1" | wc -l)
	[ "$n_bpf" -ge 3 ] && [ "$n_bpf" = "$n_proc" ] ||
		{ echo "FAIL: workload $p: $n_bpf threads via bpf, $n_proc via proc"; exit 1; }
done

# doctor names the door; the override picks it.
"$TRIAGE" doctor --json >"$LOAD_TMP/doc.json"
grep -q '"task_source"' "$LOAD_TMP/doc.json" || { echo "FAIL: doctor has no task_source check"; exit 1; }
grep -q '"bpf: task iterator' "$LOAD_TMP/doc.json" ||
	{ echo "FAIL: doctor does not report the bpf door: $(grep -A3 task_source "$LOAD_TMP/doc.json")"; exit 1; }
for door in proc bpf; do
	TRIAGE_TASK_SOURCE=$door "$TRIAGE" load --verbose >"$LOAD_TMP/load.$door" 2>&1 ||
		{ echo "FAIL: load with TRIAGE_TASK_SOURCE=$door: $(tail -3 "$LOAD_TMP/load.$door")"; exit 1; }
	grep -q "task source: $door" "$LOAD_TMP/load.$door" ||
		{ echo "FAIL: load --verbose does not say 'task source: $door'"; exit 1; }
done
echo "ok"
