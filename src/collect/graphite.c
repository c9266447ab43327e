/* Graphite plaintext sender (see graphite.h). */
#define _GNU_SOURCE
#include "collect/graphite.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "runloop/clock.h"

int graphite_out_init(struct graphite_out *g, const char *hostport, size_t max_batches,
		      size_t max_bytes)
{
	const char *colon = strrchr(hostport, ':');
	size_t hl;

	memset(g, 0, sizeof(*g));
	g->fd = -1;
	if (!colon || !colon[1] || max_batches < 1 || max_bytes < 1)
		return -EINVAL;
	hl = (size_t)(colon - hostport);
	if (hl >= 2 && hostport[0] == '[' && hostport[hl - 1] == ']') {
		hostport++;
		hl -= 2;
	}
	if (!hl || hl >= sizeof(g->host) || strlen(colon + 1) >= sizeof(g->port))
		return -EINVAL;
	memcpy(g->host, hostport, hl);
	snprintf(g->port, sizeof(g->port), "%s", colon + 1);
	g->b = calloc(max_batches, sizeof(*g->b));
	if (!g->b)
		return -ENOMEM;
	g->cap = max_batches;
	g->max_bytes = max_bytes;
	g->backoff = 1;
	return 0;
}

static struct graphite_batch *batch_at(const struct graphite_out *g, size_t i)
{
	return &g->b[(g->head + i) % g->cap];
}

static void free_head(struct graphite_out *g)
{
	struct graphite_batch *b = batch_at(g, 0);

	g->bytes -= b->len;
	free(b->text);
	*b = (struct graphite_batch){ 0 };
	g->head = (g->head + 1) % g->cap;
	g->n--;
}

void graphite_out_release(struct graphite_out *g)
{
	while (g->n)
		free_head(g);
	free(g->b);
	if (g->fd >= 0)
		close(g->fd);
	g->b = NULL;
	g->fd = -1;
}

static bool live(const struct graphite_out *g)
{
	return g->fd >= 0 && !g->connecting;
}

/* Bytes of this connection's stream the peer's TCP has acknowledged. */
static uint64_t acked_bytes(const struct graphite_out *g)
{
	int outq = 0;

	if (!live(g) || ioctl(g->fd, SIOCOUTQ, &outq) || outq < 0)
		return 0;
	if (g->fin_sent && outq > 0)
		outq--; /* the FIN takes a sequence number */
	return g->conn_sent > (uint64_t)outq ? g->conn_sent - (uint64_t)outq : 0;
}

/* Lines of b not acknowledged (acked: the stream's acknowledged bytes). */
static long unacked_lines(const struct graphite_batch *b, uint64_t acked)
{
	size_t from = 0;
	long lines = 0;

	if (b->acked)
		return 0;
	if (b->off && acked > b->start)
		from = acked - b->start < b->len ? (size_t)(acked - b->start) : b->len;
	if (!from)
		return b->points;
	for (const char *p = b->text + from; (p = memchr(p, '\n', (size_t)(b->text + b->len - p)));
	     p++)
		lines++;
	return lines;
}

/*
 * Lines of b written whole and transmitted but not acknowledged: stream bytes
 * [acked, sent_end). carbon's kernel may hold them (its ACK delayed or on the
 * way), and a reset does not take them back.
 */
static long lines_on_the_wire(const struct graphite_batch *b, uint64_t acked, uint64_t sent_end)
{
	uint64_t lo = acked > b->start ? acked - b->start : 0;
	uint64_t hi = sent_end > b->start ? sent_end - b->start : 0;
	long lines = 0;

	if (hi > b->off)
		hi = b->off;
	for (uint64_t i = lo; i < hi; i++)
		lines += b->text[i] == '\n';
	return lines;
}

/*
 * One look at the socket: the stream's acknowledged bytes, and where the
 * bytes transmitted end (the send queue's untransmitted part, SIOCOUTQNSD,
 * never left). Both from the same moment, so a line is never counted both
 * acknowledged and on the wire.
 */
static void wire_state(const struct graphite_out *g, uint64_t *acked, uint64_t *sent_end)
{
	int outq = 0, unsent = 0;

	*acked = *sent_end = 0;
	if (!live(g) || ioctl(g->fd, SIOCOUTQ, &outq) || ioctl(g->fd, SIOCOUTQNSD, &unsent) ||
	    outq < 0 || unsent < 0)
		return;
	*sent_end = g->conn_sent > (uint64_t)unsent ? g->conn_sent - (uint64_t)unsent : 0;
	if (g->fin_sent && outq > 0)
		outq--; /* the FIN takes a sequence number */
	*acked = g->conn_sent > (uint64_t)outq ? g->conn_sent - (uint64_t)outq : 0;
}

long graphite_pending_points(const struct graphite_out *g)
{
	uint64_t acked = acked_bytes(g);
	long p = 0;

	for (size_t i = 0; i < g->n; i++)
		p += unacked_lines(batch_at(g, i), acked);
	return p;
}

static void note(struct graphite_out *g, const char *what, int err)
{
	if (err)
		snprintf(g->why, sizeof(g->why), "%s: %s", what, strerror(err));
	else
		snprintf(g->why, sizeof(g->why), "%s", what);
}

/* The next attempt after a failure: 1, 2, 4, then 8 s at most. */
static void back_off(struct graphite_out *g, double now)
{
	g->next_try = now + g->backoff;
	g->backoff = g->backoff * 2 > GRAPHITE_BACKOFF_MAX ? GRAPHITE_BACKOFF_MAX : g->backoff * 2;
}

/*
 * Ends the connection; everything buffered goes again, from each batch's
 * start, on the next. reset: discard what the socket still holds (RST),
 * so that nothing of it reaches the peer after we stopped counting it.
 */
static void disconnect(struct graphite_out *g, double now, bool reset)
{
	if (reset) {
		struct linger l = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(g->fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	}
	close(g->fd);
	g->fd = -1;
	g->connecting = false;
	g->fin_sent = false;
	g->conn_sent = 0;
	for (size_t i = 0; i < g->n; i++) {
		batch_at(g, i)->off = 0;
		batch_at(g, i)->acked = false;
	}
	back_off(g, now);
}

/*
 * The oldest batch leaves the buffer: what of it was not acknowledged is
 * dropped (counted once). If some of it is on the wire unacknowledged,
 * the connection is reset: the rest of it must not reach the peer after
 * it was counted, nor the next batch follow a cut line.
 */
static void evict_head(struct graphite_out *g)
{
	struct graphite_batch *b = batch_at(g, 0);
	uint64_t acked, sent_end;

	wire_state(g, &acked, &sent_end);
	g->dropped += (uint64_t)unacked_lines(b, acked);
	if (live(g) && b->off && !b->acked) {
		/* counted dropped, and again here as lines carbon may have */
		g->dropped_in_flight += (uint64_t)lines_on_the_wire(b, acked, sent_end);
		free_head(g);
		note(g, "buffer full while carbon was not reading: connection reset", 0);
		disconnect(g, runloop_mono_s(), true);
		return;
	}
	free_head(g);
}

void graphite_enqueue(struct graphite_out *g, char *text, size_t len, long points)
{
	struct graphite_batch *b;

	if (g->n == g->cap)
		evict_head(g);
	b = batch_at(g, g->n++);
	*b = (struct graphite_batch){ .text = text, .len = len, .points = points };
	g->points += (uint64_t)points;
	g->bytes += len;
	while (g->n > 1 && g->bytes > g->max_bytes)
		evict_head(g);
}

/* Marks the batches the peer has acknowledged in full. */
static void update_acks(struct graphite_out *g)
{
	uint64_t acked = acked_bytes(g);

	for (size_t i = 0; i < g->n; i++) {
		struct graphite_batch *b = batch_at(g, i);

		if (b->acked || b->off < b->len || b->start + b->len > acked)
			continue;
		b->acked = true;
		b->acked_seq = g->seq;
	}
}

/* Whether carbon closed or reset the connection (it never writes to us). */
static bool peer_gone(struct graphite_out *g)
{
	struct pollfd p = { .fd = g->fd, .events = POLLIN | POLLRDHUP };
	int err = 0;
	socklen_t el = sizeof(err);
	char c;

	if (poll(&p, 1, 0) <= 0)
		return false;
	if (!getsockopt(g->fd, SOL_SOCKET, SO_ERROR, &err, &el) && err) {
		note(g, "connection lost", err);
		return true;
	}
	if (p.revents & (POLLERR | POLLHUP | POLLRDHUP)) {
		note(g, "connection closed by carbon", 0);
		return true;
	}
	if (recv(g->fd, &c, 1, MSG_DONTWAIT) <= 0 && errno != EAGAIN) {
		note(g, "connection lost", errno);
		return true;
	}
	return false;
}

/* Starts a non-blocking connect to the next resolved address. */
static void start_connect(struct graphite_out *g, double now)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL, *ai;
	unsigned i = 0;
	int rc = getaddrinfo(g->host, g->port, &hints, &res), fd;

	if (rc) {
		snprintf(g->why, sizeof(g->why), "cannot resolve %s: %s", g->host,
			 gai_strerror(rc));
		back_off(g, now);
		return;
	}
	for (ai = res; ai && i < g->addr_next; ai = ai->ai_next)
		i++;
	if (!ai) {
		ai = res;
		g->addr_next = 0;
	}
	g->addr_next++;
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
	if (fd < 0) {
		note(g, "socket", errno);
	} else if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		note(g, "connect", errno);
		close(fd);
	} else {
		g->fd = fd;
		g->connecting = true;
		g->connect_start = now;
	}
	freeaddrinfo(res);
	if (g->fd < 0)
		back_off(g, now);
}

/* A connect in progress: done, still going, or failed (timed out). */
static void finish_connect(struct graphite_out *g, double now, int wait_ms)
{
	struct pollfd p = { .fd = g->fd, .events = POLLOUT };
	int err = 0;
	socklen_t el = sizeof(err);

	if (poll(&p, 1, wait_ms) == 1) {
		if (getsockopt(g->fd, SOL_SOCKET, SO_ERROR, &err, &el))
			err = errno;
		if (!err) {
			g->connecting = false;
			g->conn_sent = 0;
			g->reconnects++;
			return;
		}
		note(g, "connect", err);
	} else if (now - g->connect_start < GRAPHITE_CONNECT_TIMEOUT) {
		return;
	} else {
		note(g, "connect timed out", 0);
	}
	disconnect(g, now, false);
}

/* Sends buffered batches, whole, until the socket is full; -errno when the connection broke. */
static int send_some(struct graphite_out *g)
{
	for (size_t i = 0; i < g->n; i++) {
		struct graphite_batch *b = batch_at(g, i);

		if (!b->off)
			b->start = g->conn_sent;
		while (b->off < b->len) {
			ssize_t w = send(g->fd, b->text + b->off, b->len - b->off,
					 MSG_DONTWAIT | MSG_NOSIGNAL);

			if (w < 0)
				return errno == EAGAIN || errno == EINTR ? 0 : -errno;
			b->off += (size_t)w;
			g->conn_sent += (uint64_t)w;
		}
	}
	return 0;
}

/* Retires batches acknowledged GRAPHITE_RETAIN ticks ago on a connection still open. */
static void retire(struct graphite_out *g)
{
	while (g->n) {
		struct graphite_batch *b = batch_at(g, 0);

		if (!b->acked || b->acked_seq + GRAPHITE_RETAIN > g->seq)
			break;
		free_head(g);
	}
}

/* Whether this connection has carried a batch to the peer since an earlier tick. */
static bool delivering(const struct graphite_out *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (batch_at(g, i)->acked && batch_at(g, i)->acked_seq < g->seq)
			return true;
	return false;
}

/* The state seen now against the one reported: an event when it changed. */
static enum graphite_event report(struct graphite_out *g, bool up, bool down)
{
	if (up && g->state != 1) {
		g->state = 1;
		return GRAPHITE_UP;
	}
	if (down && g->state != -1) {
		g->state = -1;
		return GRAPHITE_DOWN;
	}
	return GRAPHITE_QUIET;
}

static void pump(struct graphite_out *g, double now)
{
	int err;

	if (!live(g))
		return;
	update_acks(g);
	retire(g);
	err = send_some(g);
	if (err) {
		note(g, "send", -err);
		disconnect(g, now, false);
	}
}

enum graphite_event graphite_tick(struct graphite_out *g, double now)
{
	bool down = false, up;

	g->seq++;
	if (live(g) && peer_gone(g)) {
		disconnect(g, now, false);
		down = true;
	}
	if (g->fd < 0 && now >= g->next_try)
		start_connect(g, now);
	if (g->connecting)
		finish_connect(g, now, 0);
	/* an outage: the connection is gone or was never made */
	down = down || (g->fd < 0 && g->why[0]);
	update_acks(g);
	up = live(g) && (delivering(g) || !g->n);
	pump(g, now);
	if (g->fd < 0)
		down = true;
	return report(g, up, down && !up);
}

/*
 * After everything is acknowledged: our end is shut and the peer's end
 * awaited. Carbon closes when it has read to the end of a connection, so
 * its end (EOF) proves it read every byte; a reset instead means it did
 * not, and everything goes again on a new connection.
 */
static bool peer_read_all(struct graphite_out *g, int wait_ms)
{
	struct pollfd p = { .fd = g->fd, .events = POLLIN };
	char buf[256];
	ssize_t r;

	if (!g->fin_sent) {
		if (shutdown(g->fd, SHUT_WR)) {
			note(g, "shutdown", errno);
			disconnect(g, runloop_mono_s(), false);
			return false;
		}
		g->fin_sent = true;
	}
	if (poll(&p, 1, wait_ms) != 1)
		return false;
	r = recv(g->fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (!r)
		return true;
	if (r < 0 && errno != EAGAIN && errno != EINTR) {
		note(g, "connection lost at exit", errno);
		disconnect(g, runloop_mono_s(), false);
	}
	return false;
}

int graphite_flush(struct graphite_out *g, double timeout)
{
	double end = runloop_mono_s() + timeout;

	while (g->n && runloop_mono_s() < end) {
		double left = end - runloop_mono_s();
		int wait_ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;

		if (g->fd < 0)
			start_connect(g, runloop_mono_s());
		if (g->connecting) {
			finish_connect(g, runloop_mono_s(), wait_ms);
			if (g->fd < 0)
				poll(NULL, 0, wait_ms); /* refused: not a busy loop */
			continue;
		}
		if (g->fd < 0) {
			poll(NULL, 0, wait_ms);
			continue;
		}
		if (!g->fin_sent) {
			pump(g, runloop_mono_s());
			if (!live(g))
				continue;
			if (graphite_pending_points(g)) {
				/* the peer's acknowledgements come without a wake-up for us */
				poll(NULL, 0, wait_ms < 20 ? wait_ms : 20);
				continue;
			}
		}
		if (peer_read_all(g, wait_ms))
			while (g->n)
				free_head(g);
	}
	return g->n ? -ETIMEDOUT : 0;
}

long graphite_unconfirmed_points(const struct graphite_out *g)
{
	long p = 0;

	for (size_t i = 0; i < g->n; i++)
		p += batch_at(g, i)->points;
	return p;
}
