# test: shared -- nm over the library; scratch fixtures
# The command layer is on top: libtriage.a (what unit tests and fuzzers
# link) names no cmd_* symbol, includes no cmd/ header, and needs nothing
# that only main.c or src/cmd/ defines; and no two of its objects need each other.
cd "$SRC" || exit 1
command -v nm >/dev/null || { echo "nm is not installed"; exit 77; }
[ -f "$BUILD/libtriage.a" ] || { echo "FAIL: $BUILD/libtriage.a is missing"; exit 1; }
scripts/check-layers.sh "$BUILD/libtriage.a" "$BUILD/src/main.o" "$BUILD"/src/cmd/*.o
rc=$?

# The cycle check itself: two objects that need each other fail it, named;
# the same pair in a pending module is reported without failing.
command -v cc >/dev/null || { echo "no cc to build the cycle fixture"; exit $rc; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# (modules that exist, names with their prefixes: only the cycle is wrong)
mkdir -p "$tmp/build/src/load" "$tmp/build/src/u32"
echo 'int u32_pong(int); int load_ping(int n) { return n ? u32_pong(n - 1) : 0; }' >"$tmp/ping.c"
echo 'int load_ping(int); int u32_pong(int n) { return n ? load_ping(n - 1) : 1; }' >"$tmp/pong.c"
# (as the Makefile's: members named by their paths, longer than ar's 15 characters)
cc -c -o "$tmp/build/src/load/ping.o" "$tmp/ping.c" &&
	cc -c -o "$tmp/build/src/u32/pong.o" "$tmp/pong.c" &&
	(cd "$tmp" && ar rcsP lib.a build/src/load/ping.o build/src/u32/pong.o) || exit 1
out=$(scripts/check-layers.sh "$tmp/lib.a") && { echo "FAIL: a cycle passed: $out"; exit 1; }
case $out in
*"ping.o -> build/src/u32/pong.o (u32_pong)"*"pong.o -> build/src/load/ping.o (load_ping)"* | \
	*"pong.o -> build/src/load/ping.o (load_ping)"*"ping.o -> build/src/u32/pong.o (u32_pong)"*) ;;
*) echo "FAIL: the cycle is not named: $out"; exit 1 ;;
esac
CYCLES_PENDING="load u32" scripts/check-layers.sh "$tmp/lib.a" >/dev/null ||
	{ echo "FAIL: a pending module's cycle failed the check"; exit 1; }
CYCLES_PENDING="load" scripts/check-layers.sh "$tmp/lib.a" >/dev/null &&
	{ echo "FAIL: a cycle half outside the pending modules passed"; exit 1; }

# The prefix check: a util object exporting a name without util's prefixes fails.
mkdir -p "$tmp/build/src/util"
echo 'int util_fine(void) { return 1; } int unprefixed_name(void) { return 2; }' >"$tmp/naming.c"
cc -c -o "$tmp/build/src/util/naming.o" "$tmp/naming.c" &&
	(cd "$tmp" && ar rcsP names.a build/src/util/naming.o) || exit 1
out=$(scripts/check-layers.sh "$tmp/names.a") && { echo "FAIL: an unprefixed name passed"; exit 1; }
case $out in
*"naming.o: unprefixed_name"*) ;;
*) echo "FAIL: the unprefixed name is not named: $out"; exit 1 ;;
esac
case $out in
*util_fine*) echo "FAIL: a prefixed name was named: $out"; exit 1 ;;
esac
# ... and so do procfs, report and record objects (issue 23: set_str,
# pid_list, window_results), and any object of a module with no prefix listed.
mkdir -p "$tmp/build/src/report" "$tmp/build/src/record" "$tmp/build/src/procfs" "$tmp/build/src/newmod"
echo 'int report_fine(void) { return 1; } int set_str(void) { return 2; }' >"$tmp/rp.c"
echo 'int record_fine(void) { return 1; } int tcache_find(void) { return 2; }' >"$tmp/rc.c"
echo 'int procfs_fine(void) { return 1; } int meminfo_parse(void) { return 2; }' >"$tmp/pf.c"
echo 'int newmod_thing(void) { return 1; }' >"$tmp/nm.c"
cc -c -o "$tmp/build/src/report/findings.o" "$tmp/rp.c" &&
	cc -c -o "$tmp/build/src/record/tcache.o" "$tmp/rc.c" &&
	cc -c -o "$tmp/build/src/procfs/parsers.o" "$tmp/pf.c" &&
	cc -c -o "$tmp/build/src/newmod/thing.o" "$tmp/nm.c" &&
	(cd "$tmp" && ar rcsP cores.a build/src/report/findings.o build/src/record/tcache.o \
		build/src/procfs/parsers.o build/src/newmod/thing.o) || exit 1
out=$(scripts/check-layers.sh "$tmp/cores.a") && { echo "FAIL: unprefixed report and record names passed"; exit 1; }
for want in "findings.o: set_str" "tcache.o: tcache_find" "parsers.o: meminfo_parse" \
	"src/newmod/: a module not in module_prefixes"; do
	case $out in
	*"$want"*) ;;
	*) echo "FAIL: '$want' is not named: $out"; exit 1 ;;
	esac
done
case $out in
*_fine*) echo "FAIL: a prefixed name was named: $out"; exit 1 ;;
esac

# A header marked "Internal to src/X" included by another core fails, named.
mkdir -p "$tmp/tree/scripts" "$tmp/tree/src/alpha" "$tmp/tree/src/beta"
cp scripts/check-layers.sh "$tmp/tree/scripts/"
printf '/* Internal to src/alpha: its private state. */\nstruct alpha_state;\n' >"$tmp/tree/src/alpha/state.h"
echo '#include "alpha/state.h"' >"$tmp/tree/src/alpha/alpha.c"
echo '#include "alpha/state.h"' >"$tmp/tree/src/beta/beta.c"
out=$("$tmp/tree/scripts/check-layers.sh" "$tmp/lib.a" 2>&1)
case $out in
*"alpha/state.h is internal to src/alpha/"*"beta/beta.c"*) ;;
*) echo "FAIL: another core's include of an internal header is not refused: $out"; exit 1 ;;
esac
case $out in
*"alpha/alpha.c"*) echo "FAIL: the owner's own include was refused: $out"; exit 1 ;;
esac
exit $rc
