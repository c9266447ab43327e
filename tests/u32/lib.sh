# Shared by tests/u32/*.t: a private work directory ($work, removed on exit)
# holding the golden captures of gen_captures.py, and the failure flag.
# Usage: . "$SRC/tests/u32/lib.sh" NAME
# shellcheck shell=bash
set -u
: "${TRIAGE:?}" "${SRC:?}"
work=$(mktemp -d "/tmp/u32-$1.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
python3 "$SRC/tests/u32/gen_captures.py" "$work" || exit 1
