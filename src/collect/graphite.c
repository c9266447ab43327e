/* Graphite plaintext sender (see graphite.h). */
#define _GNU_SOURCE
#include "collect/graphite.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "runloop/clock.h"

int graphite_out_init(struct graphite_out *g, const char *hostport, size_t max_batches)
{
	const char *colon = strrchr(hostport, ':');
	size_t hl;

	memset(g, 0, sizeof(*g));
	g->fd = -1;
	if (!colon || !colon[1] || max_batches < 1)
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
	g->backoff = 1;
	return 0;
}

static struct graphite_batch *batch_at(const struct graphite_out *g, size_t i)
{
	return &g->b[(g->head + i) % g->cap];
}

static void drop_head(struct graphite_out *g)
{
	free(batch_at(g, 0)->text);
	g->head = (g->head + 1) % g->cap;
	g->n--;
}

void graphite_out_release(struct graphite_out *g)
{
	while (g->n)
		drop_head(g);
	free(g->b);
	if (g->fd >= 0)
		close(g->fd);
	g->b = NULL;
	g->fd = -1;
}

void graphite_enqueue(struct graphite_out *g, char *text, size_t len, long points)
{
	struct graphite_batch *b;

	if (g->n == g->cap) {
		struct graphite_batch *old = batch_at(g, 0);

		/* a batch sent and only retained for replay was not lost */
		if (old->off < old->len || g->fd < 0)
			g->dropped += (uint64_t)old->points;
		drop_head(g);
	}
	b = batch_at(g, g->n++);
	*b = (struct graphite_batch){ .text = text, .len = len, .points = points };
}

long graphite_pending_points(const struct graphite_out *g)
{
	long p = 0;

	for (size_t i = 0; i < g->n; i++)
		if (batch_at(g, i)->off < batch_at(g, i)->len)
			p += batch_at(g, i)->points;
	return p;
}

/* Lost connection: everything still buffered goes again on the next one. */
static void disconnect(struct graphite_out *g, double now)
{
	close(g->fd);
	g->fd = -1;
	for (size_t i = 0; i < g->n; i++)
		batch_at(g, i)->off = 0;
	g->next_try = now + g->backoff;
}

/* Whether carbon closed or reset the connection (it never writes to us). */
static bool peer_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };
	char c;

	if (poll(&p, 1, 0) <= 0)
		return false;
	if (p.revents & (POLLERR | POLLHUP | POLLRDHUP))
		return true;
	return recv(fd, &c, 1, MSG_DONTWAIT) <= 0 && errno != EAGAIN;
}

static int connect_timeout(const struct addrinfo *ai, int timeout_ms)
{
	int fd =
	    socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
	struct pollfd p = { .events = POLLOUT };
	int err = 0;
	socklen_t el = sizeof(err);

	if (fd < 0)
		return -errno;
	if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
		return fd;
	if (errno != EINPROGRESS)
		goto fail;
	p.fd = fd;
	if (poll(&p, 1, timeout_ms) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) || err)
		goto fail;
	return fd;
fail:
	close(fd);
	return -ECONNREFUSED;
}

static void try_connect(struct graphite_out *g, double now)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;

	if (now < g->next_try)
		return;
	if (!getaddrinfo(g->host, g->port, &hints, &res)) {
		for (struct addrinfo *ai = res; ai && g->fd < 0; ai = ai->ai_next) {
			int fd = connect_timeout(ai, 1000);

			if (fd >= 0)
				g->fd = fd;
		}
		freeaddrinfo(res);
	}
	if (g->fd >= 0) {
		g->backoff = 1;
		g->reconnects++;
		return;
	}
	g->next_try = now + g->backoff;
	g->backoff = g->backoff * 2 > GRAPHITE_BACKOFF_MAX ? GRAPHITE_BACKOFF_MAX : g->backoff * 2;
}

/* Sends buffered bytes until the socket is full; -errno when the connection broke. */
static int send_some(struct graphite_out *g)
{
	for (size_t i = 0; i < g->n; i++) {
		struct graphite_batch *b = batch_at(g, i);

		while (b->off < b->len) {
			ssize_t w = send(g->fd, b->text + b->off, b->len - b->off,
					 MSG_DONTWAIT | MSG_NOSIGNAL);

			if (w < 0)
				return errno == EAGAIN || errno == EINTR ? 0 : -errno;
			b->off += (size_t)w;
			if (b->off == b->len)
				b->sent_seq = g->seq;
		}
	}
	return 0;
}

/* Retires batches sent GRAPHITE_RETAIN ticks ago on a connection still open. */
static void retire(struct graphite_out *g)
{
	while (g->n) {
		struct graphite_batch *b = batch_at(g, 0);

		if (b->off < b->len || b->sent_seq + GRAPHITE_RETAIN > g->seq)
			break;
		drop_head(g);
	}
}

void graphite_tick(struct graphite_out *g, double now)
{
	g->seq++;
	if (g->fd >= 0 && peer_gone(g->fd))
		disconnect(g, now);
	if (g->fd < 0)
		try_connect(g, now);
	if (g->fd < 0)
		return;
	retire(g);
	if (send_some(g))
		disconnect(g, now);
}

int graphite_flush(struct graphite_out *g, double timeout)
{
	double end = runloop_mono_s() + timeout;

	while (graphite_pending_points(g) && runloop_mono_s() < end) {
		if (g->fd < 0) {
			g->next_try = 0;
			try_connect(g, runloop_mono_s());
		}
		if (g->fd >= 0 && send_some(g)) {
			disconnect(g, runloop_mono_s());
			continue;
		}
		if (g->fd >= 0 && graphite_pending_points(g)) {
			struct pollfd p = { .fd = g->fd, .events = POLLOUT };

			poll(&p, 1, 100);
		} else if (g->fd < 0) {
			struct timespec ts = { 0, 200 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	if (g->fd >= 0)
		shutdown(g->fd, SHUT_WR); /* carbon reads to the end before it sees the close */
	return graphite_pending_points(g) ? -ETIMEDOUT : 0;
}
