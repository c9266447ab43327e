# test: shared -- loads the report's probes beside other tests; judges no finding
# triage report's eBPF parts through light skeletons: the kernel's loader
# resolves BTF, so the report never opens /sys/kernel/btf/vmlinux (strace
# is the oracle), and -v names the loader of each part; with
# TRIAGE_BPF_LOADER=libbpf the same five parts load through libbpf's
# skeletons, which do open it. Either way every part runs (no ebpf-*
# entry in skipped). (doctor.t checks doctor's report_loader line.)
. "$SRC/tests/probe/lib.sh"
require_bpf
command -v strace >/dev/null || fail "strace is missing (scripts/deps.sh installs it)"
read -r major minor _ <<<"$(uname -r | tr '.-' '  ')"
[ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "$minor" -ge 1 ]; } ||
	skip "light skeletons with unpreallocated maps need Linux 6.1 (this is $(uname -r))"

# run_report TAG [ENV...]: report -d 1 -v under strace; files in $SCRATCH/TAG.*
run_report() {
	local tag=$1
	shift
	# LeakSanitizer cannot run under ptrace: the sanitized build's leak check is off for this one run
	env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$@" strace -f -qq -e trace=openat -o "$SCRATCH/$tag.strace" \
		"$TRIAGE" report -d 1 -v --json >"$SCRATCH/$tag.json" 2>"$SCRATCH/$tag.err" ||
		fail "$tag: report exited $?: $(tail -3 "$SCRATCH/$tag.err")"
	jq -e '[.skipped[] | select(.what | startswith("ebpf"))] == []' "$SCRATCH/$tag.json" >/dev/null ||
		fail "$tag: eBPF parts skipped: $(jq -c '.skipped' "$SCRATCH/$tag.json")"
	grep '^triage report: eBPF loaded: ' "$SCRATCH/$tag.err" >"$SCRATCH/$tag.line" ||
		fail "$tag: -v did not say how the probes were loaded: $(cat "$SCRATCH/$tag.err")"
}

# each_part TAG LOADER: every one of the five parts named with LOADER
each_part() {
	for p in runq profile syscalls offcpu forks; do
		grep -q "ebpf-$p: $2, [0-9.]* ms CPU" "$SCRATCH/$1.line" ||
			fail "$1: ebpf-$p not loaded as '$2': $(cat "$SCRATCH/$1.line")"
	done
	echo "ok: $1: $(cat "$SCRATCH/$1.line")"
}

run_report light
each_part light "light skeleton"
! grep -q '/sys/kernel/btf/vmlinux' "$SCRATCH/light.strace" ||
	fail "light: the report opened the kernel's BTF: $(grep btf/vmlinux "$SCRATCH/light.strace" | head -2)"
echo "ok: light: /sys/kernel/btf/vmlinux never opened"

run_report libbpf TRIAGE_BPF_LOADER=libbpf
each_part libbpf "libbpf skeleton"
grep -q '/sys/kernel/btf/vmlinux' "$SCRATCH/libbpf.strace" ||
	fail "libbpf: strace saw no open of the kernel's BTF: is strace seeing the report's opens?"
echo "ok: libbpf: the fallback parses the kernel's BTF, as strace shows"

