#!/bin/sh
# The command layer (src/main.c, src/cmd/) sits on top of the cores in
# libtriage.a: a core never names a cmd_* symbol nor includes a cmd/ header;
# struct procfs is opaque outside src/procfs/; a header marked "Internal to
# src/X" is included only inside src/X/.
# No two objects of the library need each other, directly or around a
# cycle (from nm: object A needs B when B defines a symbol A leaves
# undefined); a cycle is named with the objects in it and the symbols that
# tie them. The archive keeps its members' paths (ar P) to tell
# src/report/render.o from src/pidstat/render.o.
# Usage: scripts/check-layers.sh LIBTRIAGE.A [CMD_OBJECT...]
# With the command objects given, also fails when the library needs any
# symbol that only they define. Exit 0 clean, 1 with the offenders listed.
#
# CYCLES_PENDING: modules whose cycles are reported but do not fail the
# check, while they are being taken apart. None now: src/report's are gone
# (issue 23), so a cycle anywhere fails.
set -u
export LC_ALL=C
lib=$1
shift
src=$(dirname "$0")/../src
bad=0
CYCLES_PENDING=${CYCLES_PENDING-}

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

# Prints "SCC obj obj ..." for each set of objects that need each other, then
# "EDGE from to symbol" for the ties inside it. Input: "from to symbol" lines.
object_cycles() {
	awk '
	function visit(v,   i, w, comp, n) {
		idx[v] = low[v] = ++counter
		stack[++sp] = v
		onstack[v] = 1
		for (i = 1; i <= nout[v]; i++) {
			w = out[v, i]
			if (!(w in idx)) {
				visit(w)
				if (low[w] < low[v])
					low[v] = low[w]
			} else if (onstack[w] && idx[w] < low[v])
				low[v] = idx[w]
		}
		if (low[v] != idx[v])
			return
		comp = ""
		n = 0
		do {
			w = stack[sp--]
			onstack[w] = 0
			comp = comp " " w
			scc[w] = v
			n++
		} while (w != v)
		if (n > 1)
			print "SCC" comp
	}
	{
		if (!(($1, $2) in sym)) {
			sym[$1, $2] = $3
			out[$1, ++nout[$1]] = $2
			from[++nedges] = $1
			to[nedges] = $2
		}
		node[$1]
		node[$2]
	}
	END {
		for (v in node)
			if (!(v in idx))
				visit(v)
		for (e = 1; e <= nedges; e++)
			if (scc[from[e]] == scc[to[e]])
				print "EDGE", from[e], to[e], sym[from[e], to[e]]
	}'
}

# The module (src/X/) of an object path.
module_of() {
	echo "$1" | sed -n 's|.*src/\([^/]*\)/[^/]*\.o$|\1|p'
}

# Exported names carry their module's prefix: each global symbol an object
# of src/X/ defines starts with one of X's prefixes (its own name, or one of
# its files' where a file is a small library of its own); names from "__"
# are the compiler's and the sanitizers'. Every module of src/ is listed
# (one that is not fails);
# procfs, report and record have their module's name alone (issue 23). util's pcap_, MHD_,
# yaml_, gnutls_, crypt_r, curl_ and sqlite3_ (json-c: json_) are the shims of src/util/dl_*.c: libraries loaded at first use,
# whose functions they define under the library's own names.
module_prefixes() {
	cat <<-EOT
		collect collect_ graphite_ http_ group_table_ metric_
		flame flame_
		fleet fleet_
		load load_
		pidstat pidstat_
		plot plot_
		procfs procfs_
		record record_
		report report_
		probe probe_ doctor_ elf_ hist_ offcpu_ profile_ runq_ stack_ stacks_ symtab_ syscall_ syms_ sp_ sc_ tr_
		runloop runloop_
		u32 u32_
		util util_ json_ text_ xml_ csv_ utf8_ caps_ parse_ kmerge_ outfile_ dlib_ pcap_ MHD_ yaml_ gnutls_ crypt_r curl_ sqlite3_
	EOT
}

tmp=$(mktemp -d) || exit 1
module_prefixes >"$tmp/prefixes"
nm -A -g --defined-only "$lib" 2>/dev/null |
	awk 'NF == 3 { n = split($1, a, ":"); print a[n - 1], $3 }' |
	awk 'NR == FNR { for (i = 2; i <= NF; i++) pre[$1, ++npre[$1]] = $i; next }
	{
		m = $1
		sub(/\/[^\/]*$/, "", m)
		sub(/.*\//, "", m)
		if ($2 ~ /^__/)
			next
		if (!(m in npre)) { # a new module: its prefix is to be listed
			if (!(m in unlisted))
				print "  src/" m "/: a module not in module_prefixes"
			unlisted[m]
			next
		}
		for (i = 1; i <= npre[m]; i++)
			if (index($2, pre[m, i]) == 1)
				next
		print "  " $1 ": " $2
	}' "$tmp/prefixes" - >"$tmp/unprefixed"
if [ -s "$tmp/unprefixed" ]; then
	echo "check-layers: exported names without their module's prefix (see module_prefixes):"
	cat "$tmp/unprefixed"
	bad=1
fi
nm -A -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { n = split($1, a, ":"); print $3, a[n - 1] }' |
	sort -u >"$tmp/def"
nm -A -u "$lib" 2>/dev/null | awk '{ n = split($1, a, ":"); print $NF, a[n - 1] }' | sort -u >"$tmp/und"
join "$tmp/und" "$tmp/def" | awk '$2 != $3 { print $2, $3, $1 }' | object_cycles >"$tmp/cycles"
grep '^SCC' "$tmp/cycles" | while read -r _ objs; do
	pending=1
	for o in $objs; do
		case " $CYCLES_PENDING " in
		*" $(module_of "$o") "*) ;;
		*) pending=0 ;;
		esac
	done
	if [ $pending = 1 ]; then
		echo "check-layers: (pending, not failing) objects that need each other: $objs"
	else
		echo "check-layers: objects that need each other (a cycle): $objs"
	fi
	for o in $objs; do
		awk -v o="$o" '$1 == "EDGE" && $2 == o { print "  " $2 " -> " $3 " (" $4 ")" }' "$tmp/cycles"
	done
	[ $pending = 1 ] || echo fail >>"$tmp/failed"
done
[ -e "$tmp/failed" ] && bad=1
rm -rf "$tmp"

# A header whose first comment says "Internal to src/X" is X's own: no other
# core includes it (report/collect.h, the window's private state, above all).
for h in $(grep -rl --include='*.h' 'Internal to src/' "$src"); do
	rel=${h#"$src"/}
	owner=$(sed -n 's|.*Internal to src/\([a-z0-9_]*\).*|\1|p' "$h" | head -n 1)
	[ -n "$owner" ] || continue
	users=$(grep -rln --include='*.[ch]' "#include \"$rel\"" "$src" | grep -v "^$src/$owner/")
	if [ -n "$users" ]; then
		echo "check-layers: $rel is internal to src/$owner/, but these include it:"
		echo "$users" | sed 's/^/  /'
		bad=1
	fi
done

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
