# Shared helpers for bench/*.sh.
# bench_write_section NAME FILE: replaces the NAME section of
# docs/performance.md with the contents of FILE.
bench_write_section() {
	local name=$1 file=$2 doc
	doc="$(dirname "${BASH_SOURCE[0]}")/../docs/performance.md"
	python3 - "$doc" "$name" "$file" <<'PY'
import sys, re
doc, name, body = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().rstrip() + "\n"
text = open(doc).read()
begin, end = f"<!-- BEGIN {name} -->\n", f"<!-- END {name} -->"
if begin in text:
    a = text.index(begin) + len(begin)
    b = text.index(end)
    text = text[:a] + body + text[b:]
else:
    text = text.rstrip() + f"\n\n\n{begin}{body}{end}\n"
open(doc, "w").write(text)
PY
}
