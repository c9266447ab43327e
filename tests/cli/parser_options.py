#!/usr/bin/env python3
"""The options each command's parser accepts, read from the parser's own
tables in the source: getopt short-option strings (and *_SHORTOPTS macros),
struct option arrays, the words compared with strcmp/strncmp, and the
letters of pidstat's cluster switch (parse_cluster). Prints "CMD OPTION"
lines. Usage: parser_options.py SRC_ROOT | --commands
A new command adds its parser's files to SOURCES (tests/cli/manpages.t
fails until it does)."""
import re
import sys
from pathlib import Path

# Where each command's command line is parsed ("triage" itself: main.c).
SOURCES = {
    "triage": ["src/main.c"],
    "report": ["src/cmd/report.c"],
    "collect": ["src/cmd/collect.c"],
    "load": ["src/cmd/load.c"],
    "doctor": ["src/cmd/doctor.c"],
    "version": ["src/cmd/version.c"],
    "probe": ["src/cmd/probe.c", "src/cmd/probe_syscalls.c", "src/cmd/probe_trace.c",
              "src/cmd/probe_stack.c", "src/cmd/probe_cmds.h"],
    "u32": ["src/cmd/u32.c", "src/cmd/u32_tools.c", "src/u32/profile.c"],
    "pidstat": ["src/pidstat/opts.c", "src/cmd/pidstat.c"],
    "record": ["src/cmd/record.c"],
    "replay": ["src/cmd/replay.c"],
    "plot": ["src/cmd/plot.c"],
    "fleet": ["src/cmd/fleet.c"],
}

LONG = re.compile(r'\{\s*"([a-z][a-z0-9.-]*)"\s*,\s*(?:no|required|optional)_argument')
GETOPT = re.compile(r'getopt(?:_long)?\s*\([^;]*?,\s*"([^"]*)"', re.S)
SHORTOPTS_MACRO = re.compile(r'#define\s+\w*SHORTOPTS\s+"([^"]*)"')
CMP = re.compile(r'\bstrn?cmp\s*\([^,;]+,\s*"(-[^"]*)"')


def cluster_letters(text):
    m = re.search(r'\nstatic int parse_cluster\(.*?\n}\n', text, re.S)
    return re.findall(r"case '(.)':", m.group(0)) if m else []


def options(text):
    found = set()
    found.update("--" + n for n in LONG.findall(text))
    for optstring in GETOPT.findall(text) + SHORTOPTS_MACRO.findall(text):
        found.update("-" + c for c in optstring if c not in ":+")
    for word in CMP.findall(text):
        word = word.rstrip("=")
        if word not in ("-", "--"):
            found.add(word)
    found.update("-" + c for c in cluster_letters(text))
    return found


def main():
    if sys.argv[1] == "--commands":  # the commands this script knows
        print("\n".join(c for c in SOURCES if c != "triage"))
        return
    root = Path(sys.argv[1])
    for cmd, files in SOURCES.items():
        found = set()
        for f in files:
            found |= options((root / f).read_text())
        for opt in sorted(found):
            print(cmd, opt)


main()
