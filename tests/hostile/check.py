#!/usr/bin/env python3
"""Checks one captured output of triage for hostile-name damage.

    check.py term FILE       bytes a terminal would get (stdout on a pty, or stderr)
    check.py text FILE       the same, with no colour allowed (a pipe)
    check.py json FILE       one JSON document
    check.py jsonl FILE      one JSON document per line
    check.py lines FILE REGEX   every non-empty line matches REGEX (a line format)
    check.py --manifest FILE    each line MODE<TAB>FILE[<TAB>REGEX]: all of them

term: valid UTF-8; ESC only as the SGR colours triage writes itself
(ESC [ digits/; m) and in CR ESC [ K (its progress line); no other C0 byte but \\n, \\t and \\r before \\n (the
pty's onlcr); no DEL, no C1 control (U+0080..U+009F); and no line starts
with FORGED (each hostile name carries "\\nFORGED" or "\\rFORGED").
json/jsonl: the same bytes rules (JSON escapes every control), then each
document parses strictly (no raw control inside strings).
Exit 1 with the offending excerpt on failure.
"""
import json
import re
import sys

# triage's own terminal output: SGR colours, and "CR, erase line" before
# each progress line on stderr
OWN = re.compile(r"\x1b\[[0-9;]*m|\r\x1b\[K")


def fail(path, what, text=""):
    print(f"FAIL {path}: {what}: {text[:200]!r}")
    sys.exit(1)


def text_rules(path, data, allow_sgr):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(path, "not valid UTF-8", data[max(0, e.start - 40):e.end + 40].decode("latin-1"))
    if allow_sgr:
        text = OWN.sub("", text)
    text = text.replace("\r\n", "\n")
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 0x20 and ch not in "\n\t") or 0x7f <= c <= 0x9f:
            fail(path, f"raw control U+{c:04X}", text[max(0, i - 60):i + 20])
    for line in text.split("\n"):
        if re.match(r"\s*FORGED", line):
            fail(path, "forged line", line)
    return text


def check(mode, path, rx=None):
    data = open(path, "rb").read()
    if mode == "term":
        text_rules(path, data, True)
    elif mode == "text":
        text_rules(path, data, False)
    elif mode == "json":
        text = text_rules(path, data, False)
        try:
            json.loads(text)
        except ValueError as e:
            fail(path, f"JSON: {e}", text)
    elif mode == "jsonl":
        text = text_rules(path, data, False)
        n = 0
        for line in text.splitlines():
            if not line.strip():
                continue
            n += 1
            try:
                json.loads(line)
            except ValueError as e:
                fail(path, f"JSON line {n}: {e}", line)
        if n == 0:
            fail(path, "no JSON document")
    elif mode == "lines":
        text = text_rules(path, data, False)
        for line in text.splitlines():
            if line and not re.fullmatch(rx, line):
                fail(path, "line out of format", line)
    else:
        fail(path, "unknown mode " + mode)


def main():
    if sys.argv[1] == "--manifest":
        # one check a line: MODE<TAB>FILE[<TAB>REGEX] (one python start for all)
        for line in open(sys.argv[2], encoding="utf-8"):
            check(*line.rstrip("\n").split("\t"))
    else:
        check(*sys.argv[1:4])


if __name__ == "__main__":
    main()
