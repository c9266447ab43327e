# The command layer is on top: libtriage.a (what unit tests and fuzzers
# link) names no cmd_* symbol, includes no cmd/ header, and needs nothing
# that only main.c or src/cmd/ defines.
cd "$SRC" || exit 1
command -v nm >/dev/null || { echo "nm is not installed"; exit 77; }
[ -f "$BUILD/libtriage.a" ] || { echo "FAIL: $BUILD/libtriage.a is missing"; exit 1; }
scripts/check-layers.sh "$BUILD/libtriage.a" "$BUILD/src/main.o" "$BUILD"/src/cmd/*.o
