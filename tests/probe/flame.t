# test: exclusive -- profiles the machine; CPU-time oracles
# triage probe profile|offcpu --svg: the SVG flame graph. Oracles: the XML
# parser (python3's xml.etree), the workload's known hot function, and the
# probe's own --json counts of the same run (widths must match them).
. "$SRC/tests/probe/lib.sh"
. "$SRC/tests/probe/stack_lib.sh"
FRAMES="$SRC/tests/probe/flame_svg.py"

# Usage and file errors need no BPF: an unwritable --svg fails at once (exit 1, one line).
"$TRIAGE" probe profile --svg "$SCRATCH/no/such/dir/x.svg" -d 1 >"$SCRATCH/u.out" 2>"$SCRATCH/u.err"
rc=$?
[ "$rc" = 1 ] || fail "unwritable --svg exited $rc: $(cat "$SCRATCH/u.err")"
grep -q "^triage probe: profile: cannot write '.*x.svg': No such file or directory$" "$SCRATCH/u.err" ||
	fail "unwritable --svg message: $(cat "$SCRATCH/u.err")"
! grep -q Tracing "$SCRATCH/u.err" || fail "traced before failing on the --svg path"
"$TRIAGE" probe runq --svg "$SCRATCH/r.svg" -d 1 >/dev/null 2>"$SCRATCH/u.err"
[ $? = 2 ] || fail "runq accepted --svg (it has no stacks)"
echo "ok usage"

require_bpf

# 1. profile: the hot function is the widest frame by self width, and each
#    frame's width is its share of the samples the JSON report gives.
start_stack_workload probe_funcs burn 1.0
run_probe_on_trigger "$SCRATCH/p.json" "$SCRATCH/p.err" profile -p "$WPID" -F 199 --json \
	--top 100000 --svg "$SCRATCH/p.svg"
wait "$WPID"
python3 "$FRAMES" "$SCRATCH/p.svg" >"$SCRATCH/p.frames" || fail "profile SVG is not valid XML"
xmllint --noout "$SCRATCH/p.svg" 2>/dev/null || ! command -v xmllint >/dev/null ||
	fail "xmllint rejects the SVG"
top=$(jq -r '.[0].name' "$SCRATCH/p.frames")
[ "$top" = burn_cycles_in_known_function ] ||
	fail "widest self frame is $top: $(jq -c '.[:3]' "$SCRATCH/p.frames")"
total=$(jq '[.stacks[].samples] | add' "$SCRATCH/p.json")
hot=$(jq '[.stacks[] | select(any(.user[]; .symbol == "burn_cycles_in_known_function")) | .samples] | add' \
	"$SCRATCH/p.json")
jq -e --argjson t "$total" --argjson h "$hot" '
	(.[] | select(.name == "all")) as $all
	| ([.[] | select(.name == "burn_cycles_in_known_function")] | map(.w) | add) as $w
	| $all.value == $t and $all.w == 1180 and (($w - 1180 * $h / $t) | fabs) < 0.02' \
	"$SCRATCH/p.frames" >/dev/null ||
	fail "widths vs JSON ($hot of $total samples in burn_cycles_in_known_function):" \
		"$(jq -c '[.[] | select(.name == "all" or .name == "burn_cycles_in_known_function")]' \
			"$SCRATCH/p.frames")"
grep -q '<script' "$SCRATCH/p.svg" || fail "no inline script (zoom, search)"
! grep -qiE 'https?://[^"]*\.(js|css)|<script[^>]* src=' "$SCRATCH/p.svg" || fail "SVG loads something"
echo "ok profile: $hot of $total samples in burn_cycles_in_known_function, widest self frame"

# The script, in a real browser (plain build only: this tests the SVG's
# script, not memory safety): hover, click-to-zoom, Escape, search.
if [ "${TRIAGE_SAN:-0}" = 0 ] && command -v chromium >/dev/null; then
	# a frame narrower than the whole, to zoom into; else the hot function itself
	frame=$(jq -r '[.[] | select(.w >= 6 and .w < 1000)] | max_by(.w) | .name // empty' "$SCRATCH/p.frames")
	frame=${frame:-burn_cycles_in_known_function}
	python3 "$SRC/tests/probe/flame_js.py" "$SCRATCH/p.svg" "$frame" '^burn_cycles' 19210 19219 \
		"$SCRATCH" >"$SCRATCH/js.json" 2>"$SCRATCH/js.err" || fail "flame_js: $(tail -3 "$SCRATCH/js.err")"
	want=$(jq -r '[.[] | select(.name | test("^burn_cycles")) | .w] | add * 100 / 1180 * 10 | round / 10
		| "Matched: \(if . == (. | floor) then "\(.).0" else "\(.)" end)%"' "$SCRATCH/p.frames")
	jq -e --arg f "$frame" --arg m "$want" '.errors == [] and (.details | startswith($f + " ("))
		and .zoomed.x == 10 and .zoomed.w == 1180 and .rootZoomed.w == 1180
		and .reset == .before and .hiddenAfterReset == 0 and .matched == $m and .magenta > 0' \
		"$SCRATCH/js.json" >/dev/null || fail "SVG script (frame $frame, want '$want'): $(cat "$SCRATCH/js.json")"
	echo "ok SVG script in Chromium: zoom into $frame, reset, search ($want)"
else
	echo "note: SVG script not run in a browser (SAN build or no chromium)"
fi

# 2. offcpu: microseconds; the sleeping function's width is its share of
#    the off-CPU time in the JSON report of the same run.
start_stack_workload probe_funcs half-sleep 20 10
run_probe_on_trigger "$SCRATCH/o.json" "$SCRATCH/o.err" offcpu -p "$WPID" --json --top 100000 \
	--svg "$SCRATCH/o.svg"
wait "$WPID"
python3 "$FRAMES" "$SCRATCH/o.svg" >"$SCRATCH/o.frames" || fail "offcpu SVG is not valid XML"
jq -e '.[0].unit == "us"' "$SCRATCH/o.frames" >/dev/null || fail "offcpu unit is not us"
# Folded rows are rounded to whole us per (comm, frames), so allow 1 us a stack.
jq -e --slurpfile j "$SCRATCH/o.json" '
	($j[0].stacks | map(select(any(.user[]; .symbol == "sleep_in_known_function")) | .total_ns)
		| add / 1000) as $want
	| ($j[0].stacks | length) as $n
	| ([.[] | select(.name == "sleep_in_known_function") | .value] | add) as $got
	| $want > 0 and ($got - $want | fabs) <= $n + 1' "$SCRATCH/o.frames" >/dev/null ||
	fail "sleep_in_known_function in SVG vs JSON: $(jq -c '[.[] | select(.name ==
		"sleep_in_known_function")]' "$SCRATCH/o.frames")"
echo "ok offcpu"

# 3. A hostile process name stays text: the document parses and the root's
#    child frame carries the name as the folded output spells it.
PROBE_FUNCS_COMM=$'<b>&"\e;x\'y' start_stack_workload probe_funcs half-sleep 5 5
run_probe_on_trigger "$SCRATCH/h.out" "$SCRATCH/h.err" offcpu -p "$WPID" --svg "$SCRATCH/h.svg"
python3 "$FRAMES" "$SCRATCH/h.svg" >"$SCRATCH/h.frames" || fail "hostile-name SVG is not valid XML"
jq -e '[.[] | .name] | index("<b>&\"\\x1b_x'"'"'y") != null' "$SCRATCH/h.frames" >/dev/null ||
	fail "hostile comm frame: $(jq -c '[.[] | .name]' "$SCRATCH/h.frames")"
! grep -q $'\e' "$SCRATCH/h.svg" || fail "an escape byte reached the SVG"
echo "ok hostile name"
