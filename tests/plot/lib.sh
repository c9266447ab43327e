# Helpers for the plot tests (sourced): tests/lib.sh (a scratch dir, here
# also $SCRATCH; started processes killed by pid at exit; fail/skip).
# shellcheck shell=bash
. "$SRC/tests/lib.sh" triage-plot-test
# shellcheck disable=SC2034 # the tests' name for it
SCRATCH=$work

# page_json PAGE: the data JSON embedded in a page, on stdout.
page_json() {
	python3 -c '
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<script type=\"application/json\" id=\"triage-data\">(.*?)</script>", s, re.S)
sys.stdout.write(m.group(1) if m else "")' "$1"
}
