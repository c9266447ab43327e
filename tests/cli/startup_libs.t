# test: shared -- the loader's own account of libraries; judges no figure of the machine
# Start-up (issue 24): the commands that serve no HTTP and read no capture
# load neither libmicrohttpd (and its GnuTLS, nettle, gmp, p11-kit) nor
# libpcap (and its D-Bus, libsystemd, gcrypt), nor fleet's libcurl (and its
# OpenSSL, nghttp2) and json-c, nor SQLite (and libm). The oracle is the dynamic
# loader itself: LD_DEBUG=libs names every library it initialises. Then
# u32, which reads a capture, does load libpcap (the shim's first use).
set -u
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FORBIDDEN='microhttpd|gnutls|nettle|hogweed|gmp|p11-kit|pcap|dbus|systemd|gcrypt|curl|json-c|ssl|nghttp2|sqlite|/libm\.so'

# libs CMD...: the libraries the loader initialised for one run of triage
# CMD; in the ASan build libm is the sanitizer runtime's, not triage's
libs() {
	LD_DEBUG=libs "$TRIAGE" "$@" >/dev/null 2>"$T/ld"
	sed -n 's/.*calling init: //p' "$T/ld" | sort -u >"$T/libs"
	if grep -q '/libasan\.so' "$T/libs"; then
		grep -v '/libm\.so' "$T/libs"
	else
		cat "$T/libs"
	fi
}

probe_out=$(LD_DEBUG=libs "$TRIAGE" version 2>&1 >/dev/null | grep -c 'calling init')
[ "$probe_out" -gt 0 ] || { echo "LD_DEBUG=libs says nothing here (static or secure-exec binary)"; exit 77; }

for c in "version" "version --json" "pidstat -p $$" "pidstat -u -w -p $$ 1 1" "load" \
	"report -d 1 --no-bpf --json"; do
	# shellcheck disable=SC2086
	got=$(libs $c | grep -E "$FORBIDDEN")
	if [ -n "$got" ]; then
		echo "FAIL: triage $c loads $(echo "$got" | xargs -n1 basename | tr '\n' ' ')"
		fail=1
	fi
done

# version loads nothing but libc: libbpf, libelf and zlib are linked from
# their static archives (the Makefile's STATIC_LIBS; a build made with
# STATIC_LIBS= says so with TRIAGE_DYNAMIC_LIBS=1), SQLite is loaded at first
# use and libm is not needed; the sanitizers' runtimes are the ASan build's
# own
if [ "${TRIAGE_DYNAMIC_LIBS:-0}" != 1 ]; then
	got=$(libs version | grep -vE '/libc\.so' | grep -vE 'ld-linux|linux-vdso|lib(asan|ubsan|stdc\+\+|gcc_s)\.so')
	if [ -n "$got" ]; then
		echo "FAIL: triage version loads $(echo "$got" | xargs -n1 basename | tr '\n' ' ')"
		fail=1
	fi
fi

# a recording loads SQLite at first use, and is written: one sample
LD_DEBUG=libs "$TRIAGE" record -o "$T/r.db" -i 1 -d 1 >/dev/null 2>"$T/ld"
rc=$?
grep -q 'calling init: .*libsqlite3' "$T/ld" ||
	{ echo "FAIL: record did not load libsqlite3 (status $rc)"; fail=1; }
[ "$rc" = 0 ] && [ -s "$T/r.db" ] ||
	{ echo "FAIL: record -d 1: status $rc, $(ls -l "$T/r.db" 2>&1)"; fail=1; }

# a capture read by u32 loads libpcap at first use, and works: one
# Ethernet + IPv4 packet (pcap, microseconds, DLT_EN10MB)
python3 - "$T/one.pcap" <<'PY'
import struct, sys
ip = bytes.fromhex("450000140000000040060000c0a80001c0a80002")
frame = bytes(12) + b"\x08\x00" + ip
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    f.write(struct.pack("<IIII", 1, 0, len(frame), len(frame)) + frame)
PY
LD_DEBUG=libs "$TRIAGE" u32 test --json '-m u32 --u32 "0>>22&0x3C@0=0"' "$T/one.pcap" \
	>"$T/out" 2>"$T/ld"
rc=$?
grep -q 'calling init: .*libpcap' "$T/ld" ||
	{ echo "FAIL: u32 test over a capture did not load libpcap (status $rc)"; fail=1; }
[ "$rc" = 0 ] && grep -q '"packets"' "$T/out" ||
	{ echo "FAIL: u32 test over a capture: status $rc, $(head -c 200 "$T/out")"; fail=1; }
# fleet asks its store through libcurl, loaded at first use: a closed
# loopback port is enough to make the request
LD_DEBUG=libs "$TRIAGE" fleet --prometheus http://127.0.0.1:1 --timeout 2 >/dev/null 2>"$T/ld"
rc=$?
grep -q 'calling init: .*libcurl' "$T/ld" ||
	{ echo "FAIL: fleet did not load libcurl (status $rc)"; fail=1; }
[ "$rc" = 1 ] || { echo "FAIL: fleet against a closed port: status $rc, want 1"; fail=1; }
exit $fail
