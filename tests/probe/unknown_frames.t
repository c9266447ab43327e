# test: exclusive -- a whole-machine profile
# A whole-machine profile (probe profile -d 2 --svg) over two workloads whose
# frames cannot all be named, for known reasons: probe_paths lost spins with
# %rbp on a loop of bogus frame records (what code without frame pointers
# leaves behind: the walk reads return addresses that are no code until its
# 127-frame limit), and a stripped copy of probe_paths (strip(1) is the
# oracle: no .symtab, no debug file) spins in hash_block. Each run of unknown
# frames must be one frame, in the report and in the flame graph, and a note
# must say why symbols are missing and what helps, in both.
. "$SRC/tests/probe/lib.sh"
. "$SRC/tests/probe/stack_lib.sh"
require_bpf
command -v strip >/dev/null || fail "strip is missing (binutils)"

cp "$BUILD/workloads/probe_paths" "$SCRATCH/paths_stripped"
strip "$SCRATCH/paths_stripped"
! readelf -S "$SCRATCH/paths_stripped" | grep -q '\.symtab' || fail "strip left a symbol table"
start_stack_workload probe_paths lost 30
LOST=$WPID
WOUT="$SCRATCH/stripped.out"
"$SCRATCH/paths_stripped" cpu 30 >"$WOUT" &
STRIPPED=$!
started="$started $STRIPPED"
wait_for_file "$WOUT" '^ready' || fail "the stripped workload did not start"
kill -USR1 "$STRIPPED"

"$TRIAGE" probe profile -d 2 --svg "$SCRATCH/all.svg" >"$SCRATCH/all.txt" 2>"$SCRATCH/all.err" ||
	fail "profile exited $?: $(cat "$SCRATCH/all.err")"
kill "$LOST" "$STRIPPED"
A="$SCRATCH/all.txt"

# 1. The report: runs of unknown frames are one line each.
awk -v p="$LOST" '$1 ~ /^#/ { on = ($3 == p) } on' "$A" >"$SCRATCH/lost.txt"
grep -qx '    spin_with_lost_chain \[probe_paths\]' "$SCRATCH/lost.txt" ||
	fail "no stack of the lost-chain workload in the report: $(head -40 "$A")"
grep -qE '^    \[unknown\] x[0-9]+ \(broken-chain\)$' "$SCRATCH/lost.txt" ||
	fail "the bogus frames are not one [unknown] line: $(head -20 "$SCRATCH/lost.txt")"
# (unknown frames of different files or causes, a JIT's code then a broken
# chain, stay apart: each says something else)
pair=$(awk '/^    \[unknown\]/ { k = $0; sub(/^    \[unknown\]( x[0-9]+)?/, "", k)
	if (prev != "" && k == prev) { print last; print $0; exit } prev = k; last = $0; next }
	{ prev = "" }' "$A")
[ -z "$pair" ] || fail "a run of unknown frames split in two lines: $pair"
echo "ok report: $(grep -m1 -E '^    \[unknown\] x' "$SCRATCH/lost.txt" | sed 's/^ *//')"

# 2. The note in the report: the broken chain after probe_paths and the
#    stripped file, each with what helps.
sed -n '/^Frames without symbols/,$p' "$A" >"$SCRATCH/note.txt"
[ -s "$SCRATCH/note.txt" ] || fail "no note on frames without symbols: $(tail -20 "$A")"
grep -qE 'frame-pointer chain broke.*after .*probe_paths' "$SCRATCH/note.txt" ||
	fail "the note does not name probe_paths's broken chain: $(cat "$SCRATCH/note.txt")"
grep -qE 'stripped binary.*in .*paths_stripped' "$SCRATCH/note.txt" ||
	fail "the note does not name the stripped file: $(cat "$SCRATCH/note.txt")"
grep -q -- '-fno-omit-frame-pointer' "$SCRATCH/note.txt" && grep -q 'debug symbols' "$SCRATCH/note.txt" ||
	fail "the note says nothing of what helps: $(cat "$SCRATCH/note.txt")"
echo "ok note in the report"

# 3. The flame graph: spin_with_lost_chain sits on one [unknown] frame above
#    its process (all; probe_paths; [unknown]; spin_with_lost_chain), not
#    on 126 of them, and the same note is under the graph.
python3 "$SRC/tests/probe/flame_svg.py" "$SCRATCH/all.svg" >"$SCRATCH/frames.json" ||
	fail "the SVG is not valid XML"
#    The heaviest spin_with_lost_chain frame is the broken chain's. A sample
#    can also land where %rbp is still the real one (the clock_gettime call
#    between two spins), drawn a little higher above main, so the deepest one
#    may sit at 4 or 5, never near the walk's 127-frame limit.
depths=$(jq -r '(.[] | select(.name == "all") | .y) as $y0
	| [.[] | select(.name == "spin_with_lost_chain") | {d: (($y0 - .y) / .h | round), v: .value}]
	| "\(max_by(.v).d) \(map(.d) | max)"' "$SCRATCH/frames.json")
read -r depth deepest <<<"$depths"
[ "$depth" = 3 ] || fail "spin_with_lost_chain drawn at depth $depth, not 3"
[ "$deepest" -le 8 ] || fail "a spin_with_lost_chain frame drawn at depth $deepest: a run of unknown frames was not merged"
height=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$SCRATCH/all.svg")
python3 - "$SCRATCH/all.svg" >"$SCRATCH/svgnote.txt" <<'PY' || fail "no note in the SVG"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
lines = [t.text or "" for t in ET.parse(sys.argv[1]).getroot().iter(ns + "text")
         if t.get("class") == "note"]
print("\n".join(lines))
sys.exit(0 if lines else 1)
PY
tr '\n' ' ' <"$SCRATCH/svgnote.txt" | grep -qE 'frame-pointer chain broke.*-fno-omit-frame-pointer' ||
	fail "the SVG note lacks the frame-pointer advice: $(cat "$SCRATCH/svgnote.txt")"
grep -q 'paths_stripped' "$SCRATCH/svgnote.txt" || fail "the SVG note does not name the stripped file"
echo "ok flame graph: depth $depth (deepest $deepest), ${height} px tall, note of $(wc -l <"$SCRATCH/svgnote.txt") lines"
