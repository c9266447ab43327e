#!/usr/bin/env python3
"""Applies the project's name-escaping rule to sysstat's output.

    escape_names.py FIXTURE_DIR < sysstat.out > expected.out

sysstat prints process names raw; triage escapes control characters in
them (HELPERS.md: names are attacker-controlled; src/util/text.h states
the rule: C0 control bytes and DEL become \\xNN, UTF-8 C1 controls become
\\u0080..\\u009f, everything else is unchanged). This is the one intended
difference from sysstat's bytes. The names are taken from the fixture's
stat files (comm) and cmdline files (as -l shows them), and each raw
occurrence in sysstat's output is replaced by its escaped form.
"""
import glob
import os
import sys


def escape(b):
    out, i = bytearray(), 0
    while i < len(b):
        c = b[i]
        if c < 0x20 or c == 0x7F:
            out += b"\\x%02x" % c
        elif c == 0xC2 and i + 1 < len(b) and 0x80 <= b[i + 1] <= 0x9F:
            out += b"\\u%04x" % b[i + 1]
            i += 1
        else:
            out.append(c)
        i += 1
    return bytes(out)


def names(root):
    found = set()
    for path in glob.glob(os.path.join(root, "step*/proc/[0-9]*/**/stat"), recursive=True):
        data = open(path, "rb").read()
        found.add(data[data.index(b"(") + 1:data.rindex(b")")])
    for path in glob.glob(os.path.join(root, "step*/proc/[0-9]*/cmdline")):
        found.add(open(path, "rb").read().rstrip(b"\0").replace(b"\0", b" "))
    return sorted((n for n in found if escape(n) != n), key=len, reverse=True)


def main():
    data = sys.stdin.buffer.read()
    for n in names(sys.argv[1]):
        data = data.replace(n, escape(n))
    sys.stdout.buffer.write(data)


if __name__ == "__main__":
    main()
