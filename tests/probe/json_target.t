#!/usr/bin/env bash
# test: shared -- one sleeping process of its own, one-second probes
# Every probe's JSON names its target in one shape (docs/probe.md):
# "target": {"pid", "comm", "all"}, and no top-level pid, comm or all
# beside it. For -p the comm is the kernel's (/proc/PID/comm); -C gives
# the name and a null pid; no -p and no -C gives all true. And profile
# without -F samples at the default its --help states.
. "$SRC/tests/probe/lib.sh"
require_bpf
name=tgtjson_sleep # a comm of its own: -C matches this process alone
cp "$(command -v sleep)" "$SCRATCH/$name"
"$SCRATCH/$name" 60 &
PID=$!
started="$started $PID"
comm=$(cat "/proc/$PID/comm") || fail "no /proc/$PID/comm"
[ "$comm" = "$name" ] || fail "the kernel calls the sleeper '$comm'"
# probe name, then its arguments; each runs one second, all at once
runs=()
# (profile, offcpu and runq share one writer: -C and no target once each)
for p in profile offcpu runq syscalls "trace nanosleep,clock_nanosleep"; do
	runs+=("p|$p -p $PID")
done
runs+=("C|profile -C $name" "C|syscalls -C $name" "C|trace nanosleep,clock_nanosleep -C $name")
runs+=("all|runq" "all|syscalls")
pids=()
for i in "${!runs[@]}"; do
	# shellcheck disable=SC2086 # the probe's words
	"$TRIAGE" probe ${runs[$i]#*|} -d 1 --json >"$SCRATCH/$i.json" 2>"$SCRATCH/$i.err" &
	pids+=($!)
	started="$started $!"
done
for i in "${!runs[@]}"; do
	wait "${pids[$i]}" || fail "probe ${runs[$i]#*|} exited $?: $(cat "$SCRATCH/$i.err")"
done
for i in "${!runs[@]}"; do
	case ${runs[$i]%%|*} in
	p) want="{\"pid\":$PID,\"comm\":\"$comm\",\"all\":false}" ;;
	C) want="{\"pid\":null,\"comm\":\"$comm\",\"all\":false}" ;;
	all) want='{"pid":null,"comm":null,"all":true}' ;;
	esac
	jq -e --argjson w "$want" '.target == $w and (has("pid") or has("comm") | not)
		and (.all | type) != "boolean"' "$SCRATCH/$i.json" >/dev/null ||
		fail "probe ${runs[$i]#*|}: $(jq -c '{target, pid, comm, all}' "$SCRATCH/$i.json"), want target $want"
done
# profile ran without -F: it sampled at the default its --help gives
hz=$("$TRIAGE" probe profile --help | sed -n '/-F, --frequency/{n;s/.*(default \([0-9]*\)).*/\1/p}')
[ -n "$hz" ] || fail "profile --help gives no default for -F"
jq -e --argjson hz "$hz" '.frequency_hz == $hz' "$SCRATCH/0.json" >/dev/null ||
	fail "profile sampled at $(jq .frequency_hz "$SCRATCH/0.json") Hz, its --help says $hz by default"
echo "ok: ${#runs[@]} probe runs name their target as {pid, comm, all}; profile's default -F is $hz, as its help says"
