#!/usr/bin/env bash
# test: exclusive -- runs the whole-machine probes (offcpu, runq, profile, syscalls): their cost grows with all else that runs, and beside a package build `probe offcpu -d 1` under ASan passed its 60 s guard
# Hostile names in the whole-machine probes (issue 13, part 5; the other
# commands are tests/hostile/names.t): the same seven processes
# (tests/hostile/lib.sh), two of them spinning, seen by `probe offcpu`,
# `runq`, `profile` (plain on a pseudo-terminal, JSON, --folded, with
# their flame graphs) and `syscalls` over the whole machine. Asserted
# (tests/hostile/check.py): no raw control byte but \n and \t (and
# triage's own SGR colours on a terminal), valid UTF-8, every JSON document
# parses, no line starts with a FORGED text, folded lines keep their
# format; each flame graph is well-formed XML without a raw control byte.
. "$SRC/tests/hostile/lib.sh" probes
run syscalls-all-tty term "$TRIAGE" probe syscalls -d 1 --no-latency
for p in offcpu runq profile; do
	run "$p-tty" term "$TRIAGE" probe "$p" -d 1
	svg=()
	[ "$p" = runq ] || svg=(--svg "$work/$p.svg") # flame graphs ride along
	run "$p-json" json "$TRIAGE" probe "$p" -d 1 --json "${svg[@]}"
done
run profile-folded lines "$TRIAGE" probe profile -d 1 --folded
want lines "$work/profile-folded.out" '\S.* [0-9]+'
join
python3 - "$work" <<'PY' || fail "flame graphs"
import os, sys, xml.etree.ElementTree as ET
work = sys.argv[1]
for svg in ("profile.svg", "offcpu.svg"):
    path = os.path.join(work, svg)
    if os.path.exists(path):  # absent when the probe lacked privilege (3)
        raw = open(path, "rb").read()
        if any(c < 32 and c not in b"\n\t" for c in raw):
            sys.exit(f"{svg}: raw control byte")
        ET.fromstring(raw)  # well-formed XML or an exception
PY
python3 "$check" --manifest "$work/manifest" || fail "see above"
echo "ok: $nrun whole-machine probe runs over 7 hostile names, no control byte, no forged line, JSON parses"
