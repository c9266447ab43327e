/*
 * Deadlines and room for the HTTP server's connections, so a slow or idle
 * crowd cannot starve it. libmicrohttpd's own timeout restarts with every
 * byte (a client trickling one header byte every few seconds keeps its
 * connection forever); these deadlines do not:
 *   - a new connection has GUARD_REQUEST_S to deliver its first request's
 *     headers (TLS handshake included);
 *   - a kept-alive connection may idle GUARD_IDLE_S after a response, and
 *     once a request line arrives its headers are due within
 *     GUARD_REQUEST_S;
 *   - a response must be taken within GUARD_ANSWER_S.
 * And when the table holds `room` connections, a new one pushes out the
 * connection that has waited longest for its client (never one being
 * answered), so a crowd of idle connections cannot keep a scrape out.
 * The table only decides: the caller shuts down the sockets it names.
 */
#ifndef TRIAGE_COLLECT_HTTPGUARD_H
#define TRIAGE_COLLECT_HTTPGUARD_H

#include <stdbool.h>
#include <stddef.h>

#define GUARD_REQUEST_S 10.0
#define GUARD_IDLE_S 75.0 /* covers a 1-minute scrape interval, as nginx's keepalive_timeout */
#define GUARD_ANSWER_S 30.0

enum guard_phase {
	GUARD_NEW,	 /* accepted, no request yet (TLS handshake, request line) */
	GUARD_HEADERS,	 /* a kept-alive connection's next request line came */
	GUARD_ANSWERING, /* headers complete: ours to answer */
	GUARD_IDLE,	 /* kept alive after a response */
};

struct guard_conn {
	int fd;
	enum guard_phase phase;
	double since; /* when the phase's deadline started, monotonic seconds */
	bool kicked;  /* shut down; waiting for the server to notice */
	struct guard_conn *prev, *next;
};

struct guard_table {
	struct guard_conn *head, *tail; /* in order of arrival */
	size_t live;			/* not kicked */
	size_t room;
};

void http_guard_init(struct guard_table *t, size_t room);
/*
 * Adds c (fd set by the caller) as new at now. When the table was full,
 * returns the connection to push out (already marked kicked), else NULL.
 */
struct guard_conn *http_guard_add(struct guard_table *t, struct guard_conn *c, double now);
void http_guard_remove(struct guard_table *t, struct guard_conn *c);
/* The server's events: a request line, complete headers, a response sent. */
void http_guard_request_line(struct guard_conn *c, double now);
void http_guard_headers_done(struct guard_conn *c, double now);
void http_guard_response_done(struct guard_conn *c, double now);
/* When c's phase must end. */
double http_guard_deadline(const struct guard_conn *c);
/*
 * The next connection past its deadline at now (marked kicked), or NULL;
 * call until NULL. *next_due: the earliest deadline still ahead, if any
 * is earlier than its value on entry.
 */
struct guard_conn *http_guard_overdue(struct guard_table *t, double now, double *next_due);

#endif
