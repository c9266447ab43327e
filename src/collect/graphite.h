/*
 * Graphite plaintext over TCP with a bounded in-memory buffer. Each
 * interval's lines are one batch. Batches stay buffered until sent and
 * then for GRAPHITE_RETAIN more intervals on a connection still open, so
 * that when carbon goes away the lines it may not have stored are sent
 * again after the reconnect (a point sent twice lands on the same
 * timestamp, so resending is harmless). Past the buffer's size the oldest
 * batches are dropped and their points counted.
 */
#ifndef TRIAGE_COLLECT_GRAPHITE_H
#define TRIAGE_COLLECT_GRAPHITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GRAPHITE_RETAIN 5
#define GRAPHITE_BACKOFF_MAX 8.0 /* seconds between reconnection attempts, at most */

struct graphite_batch {
	char *text;
	size_t len, off;   /* off: bytes sent on the current connection */
	long points;	   /* lines */
	uint64_t sent_seq; /* the tick it was completely sent in */
};

struct graphite_out {
	char host[256], port[16];
	int fd;
	struct graphite_batch *b; /* a ring of cap batches */
	size_t head, n, cap;
	uint64_t seq;		  /* ticks so far */
	uint64_t dropped;	  /* points dropped past the buffer */
	double backoff, next_try; /* monotonic seconds */
	unsigned reconnects;
};

/* "HOST:PORT" ([v6]:port too); max_batches >= 1. 0, -EINVAL or -ENOMEM. */
int graphite_out_init(struct graphite_out *g, const char *hostport, size_t max_batches);
void graphite_out_release(struct graphite_out *g);
/* Takes ownership of text (malloc'd); drops the oldest batch when full. */
void graphite_enqueue(struct graphite_out *g, char *text, size_t len, long points);
/* One tick: checks the connection, reconnects when due, sends what it can. */
void graphite_tick(struct graphite_out *g, double now);
/* Sends everything buffered, waiting up to timeout seconds; 0 or -errno (-ETIMEDOUT). */
int graphite_flush(struct graphite_out *g, double timeout);
/* Points buffered and not yet sent. */
long graphite_pending_points(const struct graphite_out *g);

#endif
