#!/usr/bin/env bash
# test: shared -- renders the man pages into its own scratch dir (not the build's)
# The manual pages (docs/man/*.scd, built by make man) and --help come from
# one source: each page renders with man -l without a warning, every
# command of triage's table has its page, and every option its parser
# accepts (read from the parser's own tables by parser_options.py) is in
# both the page and the command's --help. triage help CMD is CMD --help.
set -u
[ "${TRIAGE_SAN:-0}" = 1 ] && { echo "documentation test: run on the plain build only"; exit 77; }
command -v scdoc >/dev/null || { echo "scdoc missing (scripts/deps.sh test)"; exit 77; }
command -v man >/dev/null || { echo "man missing (scripts/deps.sh test)"; exit 77; }
# ASCII, and no hyphenation: an option is never split at a line's end
export LC_ALL=C MANROFFOPT=-rHY=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# into a scratch output of its own: cli/install.t makes the build's pages,
# and may run beside this test
make --no-print-directory -s -C "$SRC" OUTPUT="$T/out" man >"$T/log" 2>&1 ||
	{ echo "FAIL: make man: $(tail -3 "$T/log")"; exit 1; }

# Every page renders cleanly (groff's warnings on), and says its own name.
for src in "$SRC"/docs/man/*.1.scd; do
	page=$(basename "$src" .scd)
	# one rendering a page, kept for the checks below
	MANWIDTH=80 man -l --warnings=all "$T/out/man/$page" >"$T/page.${page%.1}" 2>"$T/warn"
	[ -s "$T/warn" ] && { echo "FAIL: man -l $page warns:"; head -5 "$T/warn"; fail=1; }
	grep -q "^NAME" "$T/page.${page%.1}" && grep -q "${page%.1}" "$T/page.${page%.1}" ||
		{ echo "FAIL: $page renders without its NAME"; fail=1; }
done

# Every command of main.c's table has a page, and triage(1) names it.
cmds=$(sed -n 's/^[[:space:]]*{ "\([a-z0-9]*\)", cmd_.*/\1/p' "$SRC/src/main.c")
[ -n "$cmds" ] || { echo "FAIL: no commands read from src/main.c"; exit 1; }
for c in $cmds; do
	[ -f "$SRC/docs/man/triage-$c.1.scd" ] || { echo "FAIL: no docs/man/triage-$c.1.scd"; fail=1; }
	grep -q "triage-$c(1)" "$T/page.triage" || { echo "FAIL: triage(1) does not name triage-$c(1)"; fail=1; }
	"$TRIAGE" help "$c" >"$T/help1" 2>&1
	"$TRIAGE" "$c" --help >"$T/help2" 2>&1
	cmp -s "$T/help1" "$T/help2" || { echo "FAIL: triage help $c differs from triage $c --help"; fail=1; }
done

# Every option the parsers accept, in the page and in --help. Word
# boundaries: -d must not be found inside --dec.
known=$(python3 "$SRC/tests/cli/parser_options.py" --commands | sort)
[ "$known" = "$(echo "$cmds" | sort)" ] ||
	{ echo "FAIL: parser_options.py SOURCES [$(echo $known)] vs main.c [$(echo $cmds)]"; fail=1; }
python3 "$SRC/tests/cli/parser_options.py" "$SRC" >"$T/options" ||
	{ echo "FAIL: parser_options.py"; exit 1; }
[ "$(wc -l <"$T/options")" -gt 100 ] || { echo "FAIL: too few options read: $(wc -l <"$T/options")"; fail=1; }
documented() { # file option
	grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|$)" "$1"
}
checked=0
for c in $(cut -d' ' -f1 "$T/options" | sort -u); do
	if [ "$c" = triage ]; then
		"$TRIAGE" --help >"$T/help.$c" 2>&1
	else
		"$TRIAGE" "$c" --help >"$T/help.$c" 2>&1
	fi
done
while read -r c opt; do
	p=triage-$c
	[ "$c" = triage ] && p=triage
	documented "$T/page.$p" "$opt" || { echo "FAIL: $opt of '$c' is not in its man page"; fail=1; }
	# test-only options: in the page's TESTING section, kept out of --help
	if [ "$c $opt" = "doctor --dump-tasks" ]; then
		! documented "$T/help.$c" "$opt" || { echo "FAIL: $opt of '$c' is in its --help"; fail=1; }
	else
		documented "$T/help.$c" "$opt" || { echo "FAIL: $opt of '$c' is not in its --help"; fail=1; }
	fi
	checked=$((checked + 1))
done <"$T/options"
echo "$checked options checked in man pages and --help"
exit $fail
