# Shared by tests/pkg/*.t: a scratch directory ($work, removed on exit),
# fail/skip helpers, and a copy of the source tree without build outputs.
# Usage: . "$SRC/tests/pkg/lib.sh" NAME
# shellcheck shell=bash
set -u
: "${TRIAGE:?}" "${SRC:?}"
work=$(mktemp -d "/tmp/pkg-$1.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}
skip() {
	echo "$*"
	exit 77
}
# copy_tree DIR: the source tree (tracked and new files, as git sees them;
# without git, everything but the build directories) into DIR.
copy_tree() {
	mkdir -p "$1"
	if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$SRC" ls-files -co --exclude-standard -z |
			(cd "$SRC" && tar --null -T - -cf -) | tar -xf - -C "$1"
	else
		tar -C "$SRC" --exclude=./build --exclude=./build-san --exclude=./build-fuzz \
			--exclude=./debian/triage -cf - . | tar -xf - -C "$1"
	fi
}
