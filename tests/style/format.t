# test: shared -- clang-format over the sources
# Every C source is clang-formatted (make format fixes it).
cd "$SRC" || exit 1
command -v clang-format >/dev/null || { echo "clang-format is not installed"; exit 77; }
files=$(git ls-files 'src/*.[ch]' 'tests/*.[ch]' 2>/dev/null)
[ -n "$files" ] || { echo "not a git checkout"; exit 77; }
# shellcheck disable=SC2086
clang-format --dry-run -Werror $files
