#!/bin/bash
# test: exclusive -- its premise is a spinner found CPU-bound: CPU-share sensitive
# The views hand out text as the report's plain text has it (issue 27):
# a spinner named with a terminal escape, a C1 control and a newline gets
# a cpu-bound finding; the finding table keeps its name raw (the premise),
# and `SELECT * FROM v_findings` (docs/record.md's example) gives it back
# with each control as \xNN or \u00NN and no control byte at all. The
# expected text is made here by Python from the name's bytes.
. "$SRC/tests/record/lib.sh" viewstext
evil=$'sp\e[31m\xc2\x9bx\ny'
"$BUILD/workloads/collect_named" "$evil" spin 30 >"$work/named.pid" &
wpid=$!
started="$started $wpid"
for _ in $(seq 50); do
	[ -s "$work/named.pid" ] && break
	sleep 0.1
done
db=$work/v.db
"$TRIAGE" record -o "$db" -i 0.5 -d 3 --window 1 -p "$wpid" 2>"$work/err" || fail "record: $(cat "$work/err")"
raw=$(q "$db" "SELECT count(*) FROM finding WHERE instr(subject, char(27)) > 0")
[ "$raw" -ge 1 ] || fail "no finding names the spinner raw: $(q "$db" 'SELECT rule, subject FROM finding')"
q "$db" 'SELECT * FROM v_findings' >"$work/view"
/usr/bin/python3 - "$work/view" "$evil" <<'PY' || fail "v_findings: $(cat -v "$work/view" | head -5)"
import sys
text = open(sys.argv[1], "rb").read().decode("utf-8")
name = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8")
want = "".join("\\x%02x" % ord(c) if ord(c) < 0x20 or ord(c) == 0x7f else
               "\\u%04x" % ord(c) if 0x80 <= ord(c) <= 0x9f else c for c in name)
bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
assert not bad, f"control characters in the view's text: {bad!r}"
assert want in text, f"{want!r} not in the view's text"
PY
echo "ok: v_findings gives the spinner's name as plain text gives it, no control byte"
