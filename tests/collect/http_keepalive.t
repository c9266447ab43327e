#!/usr/bin/env bash
# test: shared -- claimed free port
# The collector's HTTP server as Prometheus and curl use it (issue 27), and
# its --listen errors (issue 25 row 7):
#   - curl fetching two URLs reuses its connection (keep-alive: curl's
#     %{num_connects} is 0 for the second);
#   - three requests written at once on one socket (pipelined) get three
#     answers in their order: /healthz "ok", /metrics with its families,
#     a 404; the connection stays open after them;
#   - a taken port is one line naming the address and the kernel's reason,
#     exit 1; a host name (localhost) is resolved as node_exporter does.
. "$SRC/tests/collect/lib.sh" http_keepalive
command -v curl >/dev/null || skip "curl missing"
command -v python3 >/dev/null || skip "python3 missing"
port=$(free_port)
"$TRIAGE" collect -i 1 --listen "localhost:$port" 2>"$work/collect.err" &
started="$started $!"
wait_port "$port" 10 || fail "collector not listening on localhost: $(cat "$work/collect.err")"
for ((i = 0; i < 100; i++)); do
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 200 ] && break
	sleep 0.1
done

conns=$(curl -s -o /dev/null -o /dev/null -w '%{num_connects}\n' \
	"http://127.0.0.1:$port/healthz" "http://127.0.0.1:$port/metrics" | tr '\n' ' ')
[ "$conns" = "1 0 " ] || fail "curl's connections for two fetches: '$conns', want '1 0 ' (the second reused)"

python3 - "$port" >"$work/pipelined" <<'PY' || fail "pipelining: $(cat "$work/pipelined")"
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
          b"GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n"
          b"GET /nothing HTTP/1.1\r\nHost: a\r\n\r\n")
f = s.makefile("rb")
answers = []
for _ in range(3):
    status = f.readline().split()[1].decode()
    length, close = 0, False
    while True:
        line = f.readline().strip()
        if not line:
            break
        k, v = line.decode().split(":", 1)
        length = int(v) if k.lower() == "content-length" else length
        close = close or (k.lower() == "connection" and "close" in v.lower())
    body = f.read(length).decode()
    answers.append((status, body, close))
want = [("200", "ok\n"), ("200", "# HELP triage_"), ("404", "not found")]
for (status, body, close), (ws, wb) in zip(answers, want):
    if status != ws or not body.startswith(wb) or close:
        print("answers", [(a, b[:30], c) for a, b, c in answers])
        sys.exit(1)
# still open: a fourth request on the same connection is answered
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
print("fourth:", f.readline().decode().strip())
PY
grep -q "fourth: HTTP/1.1 200" "$work/pipelined" || fail "after three pipelined answers: $(cat "$work/pipelined")"

# the port is taken now: one line, the address and the reason, exit 1
"$TRIAGE" collect --listen "127.0.0.1:$port" >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" = 1 ] || fail "taken port: exit $rc, want 1: $(cat "$work/err")"
want="triage collect: cannot listen on 127.0.0.1:$port: Address already in use"
[ "$(cat "$work/err")" = "$want" ] || fail "taken port said: '$(cat "$work/err")', want '$want'"
echo "ok: keep-alive (curl connects once for two), 3 pipelined answers in order, '$want'"
