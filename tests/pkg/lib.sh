# Shared by tests/pkg/*.t: tests/lib.sh (a scratch directory $work removed
# on exit, the processes started killed by PID, fail/skip), and a copy of
# the source tree without build outputs.
# Usage: . "$SRC/tests/pkg/lib.sh" NAME
# shellcheck shell=bash
. "$SRC/tests/lib.sh" "pkg-$1"
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
