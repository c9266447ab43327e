/*
 * Graphite plaintext over TCP with a bounded in-memory buffer. Each
 * interval's lines are one batch, and only whole batches go on a
 * connection: a batch is sent from its first byte on a connection (a
 * broken one's batches are sent again, from their start, on the next),
 * and when a batch already partly on the wire must go (the buffer is
 * full), the connection is reset, so no line is ever glued to another.
 *
 * A point counts as delivered once the peer's TCP has acknowledged it (the
 * socket's unacknowledged bytes, SIOCOUTQ, are still buffered) and the
 * connection then stayed open GRAPHITE_RETAIN more ticks; until then its
 * batch is kept, and sent again after a reconnect (a point sent twice
 * lands on the same timestamp, so resending is harmless). A point that
 * leaves the buffer undelivered is counted in dropped, once.
 *
 * Connects are non-blocking: a tick starts one and later ticks finish it,
 * so the caller's thread never waits on carbon (name resolution aside:
 * give an address to be sure).
 */
#ifndef TRIAGE_COLLECT_GRAPHITE_H
#define TRIAGE_COLLECT_GRAPHITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GRAPHITE_RETAIN 5
#define GRAPHITE_BACKOFF_MAX 8.0     /* seconds between reconnection attempts, at most */
#define GRAPHITE_CONNECT_TIMEOUT 5.0 /* seconds a connect may take */

struct graphite_batch {
	char *text;
	size_t len, off;    /* off: bytes sent on the current connection */
	uint64_t start;	    /* where it starts in the current connection's stream */
	long points;	    /* lines */
	bool acked;	    /* all of it acknowledged on the current connection */
	uint64_t acked_seq; /* the tick that was seen in */
};

enum graphite_event {
	GRAPHITE_QUIET,
	GRAPHITE_UP,   /* delivering (again): "connected" / "reconnected" */
	GRAPHITE_DOWN, /* an outage begins; why says what happened */
};

struct graphite_out {
	char host[256], port[16];
	int fd;
	bool connecting;	  /* fd's connect still in progress */
	bool fin_sent;		  /* shut down for writing (graphite_flush) */
	double connect_start;	  /* monotonic seconds */
	unsigned addr_next;	  /* which resolved address the next attempt tries */
	struct graphite_batch *b; /* a ring of cap batches */
	size_t head, n, cap;
	size_t bytes, max_bytes;    /* the batches' text, and its bound */
	uint64_t conn_sent;	    /* bytes sent on the current connection */
	uint64_t seq;		    /* ticks so far */
	uint64_t dropped;	    /* points that left the buffer undelivered */
	uint64_t dropped_in_flight; /* of those, written whole and unacknowledged at a reset */
	uint64_t points;	    /* points ever enqueued */
	double backoff, next_try;   /* monotonic seconds */
	unsigned reconnects;
	int state;     /* 0 not yet known, 1 up, -1 down */
	char why[320]; /* the reason of the last failure */
};

/*
 * "HOST:PORT" ([v6]:port too); max_batches >= 1; max_bytes >= 1 bounds the
 * buffered text (the newest batch is kept whatever its size). 0, -EINVAL or -ENOMEM.
 */
int graphite_out_init(struct graphite_out *g, const char *hostport, size_t max_batches,
		      size_t max_bytes);
void graphite_out_release(struct graphite_out *g);
/* Takes ownership of text (malloc'd); drops the oldest batches past the bounds. */
void graphite_enqueue(struct graphite_out *g, char *text, size_t len, long points);
/* One tick at monotonic time now: connection checks, connects, sends. What changed. */
enum graphite_event graphite_tick(struct graphite_out *g, double now);
/*
 * At exit: sends everything buffered and waits for carbon to close its end
 * (it has then read it all), up to timeout seconds; 0 or -ETIMEDOUT.
 */
int graphite_flush(struct graphite_out *g, double timeout);
/* Points still buffered, delivery not known (after graphite_flush: not sent). */
long graphite_unconfirmed_points(const struct graphite_out *g);
/* Points buffered and not yet acknowledged by the peer. */
long graphite_pending_points(const struct graphite_out *g);

#endif
