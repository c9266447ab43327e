# Helpers for the plot tests (sourced): a scratch dir, started processes
# killed by pid at exit, fail/skip.
set -u
SCRATCH=$(mktemp -d /tmp/triage-plot-test.XXXXXX)
STARTED_PIDS=()
cleanup_started() {
	local p
	for p in "${STARTED_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$SCRATCH"
}
trap cleanup_started EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }

# page_json PAGE: the data JSON embedded in a page, on stdout.
page_json() {
	python3 -c '
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<script type=\"application/json\" id=\"triage-data\">(.*?)</script>", s, re.S)
sys.stdout.write(m.group(1) if m else "")' "$1"
}
