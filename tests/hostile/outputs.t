#!/usr/bin/env bash
# test: shared -- its own nodes and a tmpfs mounted inside its scratch dir
# Every file triage writes (issue 27, Files): plot -o, record -o and probe
# --svg aimed at what is not a regular file. A scratch directory holds a
# character device node with /dev/full's numbers (1,7; made by mknod here,
# the real /dev is never touched), a FIFO, a symlink to an empty file, a
# dangling symlink and a directory. Each command must refuse each target
# with one line on stderr and status 1, and leave it as it was: the node
# still a node with its numbers, the FIFO a FIFO, the links links (the
# empty file still empty, the dangling link's target never created).
# Then "-" writes to stdout, a regular file is replaced, and a read-only
# mount (a tmpfs mounted ro here, unmounted by the trap) is named as such.
. "$SRC/tests/lib.sh" hostile-outputs
export LC_ALL=C
d=$work/targets
mkdir -p "$d"
mknod "$d/full" c 1 7 2>/dev/null || skip "cannot mknod (needs CAP_MKNOD)"
mkfifo "$d/fifo"
: >"$d/empty"
ln -s "$d/empty" "$d/link"
ln -s "$d/nowhere" "$d/dangling"
mkdir "$d/dir"
db=$work/fixture.db
"$TRIAGE" record -o "$db" --root "$SRC/tests/fixtures/pidstat/workloads" 2>"$work/err" ||
	fail "record of the fixture: $(cat "$work/err")"

# state PATH: what the file system says PATH is, without following links
state() {
	stat -c '%F %t:%T %s' "$1" 2>/dev/null
	[ -L "$1" ] && readlink "$1"
	return 0
}
# refused WHAT TARGET CMD...: CMD exits 1 with one line naming TARGET, TARGET unchanged
refused() {
	local what=$1 target=$2 before after st lines
	shift 2
	before=$(state "$target")
	"$@" >"$work/out" 2>"$work/err"
	st=$?
	after=$(state "$target")
	lines=$(wc -l <"$work/err")
	[ "$st" = 1 ] || fail "$what -> $(basename "$target"): status $st, not 1 ($(head -c 300 "$work/err"))"
	[ "$lines" = 1 ] || fail "$what -> $(basename "$target"): $lines lines on stderr, not one: $(cat "$work/err")"
	grep -qF "$target" "$work/err" || fail "$what: the message does not name $target: $(cat "$work/err")"
	[ "$before" = "$after" ] || fail "$what changed $(basename "$target"): '$before' became '$after'"
}
n=0
for t in full fifo link dangling dir; do
	refused "plot -o" "$d/$t" "$TRIAGE" plot "$db" -o "$d/$t"
	refused "record -o" "$d/$t" "$TRIAGE" record -o "$d/$t" --root "$SRC/tests/fixtures/pidstat/workloads"
	# --svg is opened before any tracing: no BPF needed to be refused
	refused "probe profile --svg" "$d/$t" "$TRIAGE" probe profile -d 1 --svg "$d/$t"
	n=$((n + 3))
done
[ -s "$d/empty" ] && fail "the link's target was written"
[ -e "$d/nowhere" ] && fail "the dangling link's target was created"
[ "$(stat -c '%F %t:%T' "$d/full")" = "character special file 1:7" ] || fail "the device node changed"
# no temporary left beside the targets
leftover=$(find "$d" -name '*.tmp.*' | head -3)
[ -z "$leftover" ] || fail "temporary files left: $leftover"

# "-" is stdout, written in place; a regular file is replaced by the page
"$TRIAGE" plot "$db" -o - >"$work/stdout.html" 2>"$work/err" || fail "plot -o -: $(cat "$work/err")"
grep -q '<html' "$work/stdout.html" || fail "plot -o - wrote no page to stdout"
echo old >"$d/page.html"
"$TRIAGE" plot "$db" -o "$d/page.html" 2>"$work/err" || fail "plot over a regular file: $(cat "$work/err")"
cmp -s "$work/stdout.html" "$d/page.html" || fail "the page in a regular file differs from the one on stdout"

# a read-only file system is named as such
ro=$work/ro
mkdir "$ro"
mount -t tmpfs -o ro,size=1m triage-test-ro "$ro" 2>/dev/null || {
	echo "ok: $n refusals; read-only part skipped (cannot mount a tmpfs here)"
	exit 0
}
trap 'umount "$ro" 2>/dev/null; cleanup' EXIT
for cmd in "plot $db -o $ro/p.html" "record -o $ro/r.db --root $SRC/tests/fixtures/pidstat/workloads"; do
	# shellcheck disable=SC2086 # the words of cmd
	"$TRIAGE" $cmd 2>"$work/err" && fail "$cmd succeeded on a read-only mount"
	grep -qi "read-only file system" "$work/err" || fail "$cmd: not named read-only: $(cat "$work/err")"
	[ "$(wc -l <"$work/err")" = 1 ] || fail "$cmd: more than one line: $(cat "$work/err")"
done
echo "ok: $n refusals (device node, FIFO, link, dangling link, directory x plot, record, probe --svg), stdout and a regular file written, read-only mount named"
