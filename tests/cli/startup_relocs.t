# test: shared -- reads the binary's relocation table with readelf; runs nothing
# Start-up (issue 24): the dynamic loader writes every relocation of the
# position-independent binary at every start of every command, and each
# page it writes is a copy-on-write page fault (20-50 us on the VMs we
# measure on, where sysstat's whole `pidstat -p PID 1 1` is 4-10 ms). Our
# own tables hold their strings in place (src/util/inplace.h) and the
# commands build their option tables on the stack, so what the loader
# writes is libbpf's and libelf's static tables (7 kB), the GOT and
# .dynamic, and little of ours. The oracle is the binary's own relocation
# table as readelf decodes it: the distinct pages holding a relocation
# target, at most PAGES (main before this change: 10; sysstat's pidstat:
# 2; after it: 5).
set -u
PAGES=5
[ "${TRIAGE_SAN:-0}" = 1 ] && { echo "sanitizer build: its runtime's tables are not the shipped binary's"; exit 77; }
command -v readelf >/dev/null || { echo "no readelf (binutils)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PAGE=$(getconf PAGESIZE)

readelf -hW "$TRIAGE" | grep -q 'Type:.*DYN' || { echo "not position-independent: nothing to relocate"; exit 77; }
readelf -rW "$TRIAGE" >"$T/r" || { echo "FAIL: readelf -r $TRIAGE"; exit 1; }

# Targets: the first column of RELA rows (R_X86_64_RELATIVE, GLOB_DAT,
# JUMP_SLOT, ...) and the offsets binutils 2.38-2.40 list under .relr.dyn
# (one per line after "N offsets"); a listing in another shape is skipped
# rather than miscounted.
awk '
	/^Relocation section/ { relr = ($0 ~ /\.relr/); next }
	relr && /^ *[0-9]+ offsets$/ { want += $1; next }
	relr && /^[0-9a-f]+$/ { print $1; got++; next }
	!relr && /^[0-9a-f]+ +[0-9a-f]+ +R_/ { print $1 }
	END { if (want != got) { print "relr " want " " got > "/dev/stderr"; exit 3 } }
' "$T/r" >"$T/targets" 2>"$T/err"
rc=$?
if [ $rc = 3 ]; then
	echo "readelf lists .relr.dyn in a shape this test does not read ($(cat "$T/err"))"
	exit 77
fi
[ -s "$T/targets" ] || { echo "FAIL: no relocation targets read from readelf -r"; exit 1; }

pages=$(python3 -c '
import sys
page = int(sys.argv[1])
print(len({int(l, 16) // page for l in open(sys.argv[2]) if l.strip()}))' "$PAGE" "$T/targets")
n=$(wc -l <"$T/targets")
if [ "$pages" -gt "$PAGES" ]; then
	echo "FAIL: the loader writes $pages pages of triage at every start ($n relocations), at most $PAGES:"
	echo "a table of pointers (const char *name, a function pointer) in a command's path; see src/util/inplace.h"
	exit 1
fi
echo "ok: $n relocations in $pages pages (at most $PAGES)"
