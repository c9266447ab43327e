#!/bin/sh
# The command layer (src/main.c, src/cmd/) sits on top of the cores in
# libtriage.a: a core never names a cmd_* symbol nor includes a cmd/ header;
# and struct procfs is opaque outside src/procfs/.
# Usage: scripts/check-layers.sh LIBTRIAGE.A [CMD_OBJECT...]
# With the command objects given, also fails when the library needs any
# symbol that only they define. Exit 0 clean, 1 with the offenders listed.
set -u
lib=$1
shift
src=$(dirname "$0")/../src
bad=0

syms=$(nm -A "$lib" | awk '$NF ~ /^cmd_/')
if [ -n "$syms" ]; then
	echo "check-layers: libtriage.a names cmd_* symbols (cores must not call the command layer):"
	echo "$syms" | sed 's/^/  /'
	bad=1
fi

incs=$(grep -rn --include='*.[ch]' '#include "cmd' "$src" | grep -v "^$src/cmd/" |
	grep -v "^$src/main.c:")
if [ -n "$incs" ]; then
	echo "check-layers: a core includes a command-layer header:"
	echo "$incs" | sed 's/^/  /'
	bad=1
fi

priv=$(grep -rln --include='*.[ch]' '#include "procfs/procfs_impl.h"' "$src" | grep -v "^$src/procfs/")
if [ -n "$priv" ]; then
	echo "check-layers: struct procfs is opaque outside src/procfs/, but these include procfs_impl.h:"
	echo "$priv" | sed 's/^/  /'
	bad=1
fi

if [ $# -gt 0 ]; then
	tmp=$(mktemp -d) || exit 1
	nm -g --defined-only "$@" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/cmd"
	nm -g --undefined-only "$lib" | awk '{ print $NF }' | sort -u >"$tmp/lib"
	up=$(comm -12 "$tmp/cmd" "$tmp/lib")
	rm -rf "$tmp"
	if [ -n "$up" ]; then
		echo "check-layers: libtriage.a needs symbols defined only in the command layer:"
		echo "$up" | sed 's/^/  /'
		bad=1
	fi
fi
exit $bad
