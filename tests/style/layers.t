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
mkdir -p "$tmp/build/src/ping" "$tmp/build/src/pong"
echo 'int pong(int); int ping(int n) { return n ? pong(n - 1) : 0; }' >"$tmp/ping.c"
echo 'int ping(int); int pong(int n) { return n ? ping(n - 1) : 1; }' >"$tmp/pong.c"
# (as the Makefile's: members named by their paths, longer than ar's 15 characters)
cc -c -o "$tmp/build/src/ping/ping.o" "$tmp/ping.c" &&
	cc -c -o "$tmp/build/src/pong/pong.o" "$tmp/pong.c" &&
	(cd "$tmp" && ar rcsP lib.a build/src/ping/ping.o build/src/pong/pong.o) || exit 1
out=$(scripts/check-layers.sh "$tmp/lib.a") && { echo "FAIL: a cycle passed: $out"; exit 1; }
case $out in
*"ping.o -> build/src/pong/pong.o (pong)"*"pong.o -> build/src/ping/ping.o (ping)"* | \
	*"pong.o -> build/src/ping/ping.o (ping)"*"ping.o -> build/src/pong/pong.o (pong)"*) ;;
*) echo "FAIL: the cycle is not named: $out"; exit 1 ;;
esac
CYCLES_PENDING="ping pong" scripts/check-layers.sh "$tmp/lib.a" >/dev/null ||
	{ echo "FAIL: a pending module's cycle failed the check"; exit 1; }
CYCLES_PENDING="ping" scripts/check-layers.sh "$tmp/lib.a" >/dev/null &&
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
exit $rc
