/* Connection deadlines and room (see httpguard.h). Pure: no sockets, no clock. */
#include "collect/httpguard.h"

void http_guard_init(struct guard_table *t, size_t room)
{
	*t = (struct guard_table){ .room = room ? room : 1 };
}

static bool waiting_for_client(const struct guard_conn *c)
{
	return !c->kicked && c->phase != GUARD_ANSWERING;
}

/* The connection that has waited longest for its client. */
static struct guard_conn *longest_waiting(struct guard_table *t, double now)
{
	struct guard_conn *c, *best = NULL;
	double best_wait = -1;

	for (c = t->head; c; c = c->next)
		if (waiting_for_client(c) && now - c->since > best_wait) {
			best = c;
			best_wait = now - c->since;
		}
	return best;
}

static void kick(struct guard_table *t, struct guard_conn *c)
{
	c->kicked = true;
	t->live--;
}

struct guard_conn *http_guard_add(struct guard_table *t, struct guard_conn *c, double now)
{
	struct guard_conn *victim = NULL;

	if (t->live >= t->room) {
		victim = longest_waiting(t, now);
		if (victim)
			kick(t, victim);
	}
	c->phase = GUARD_NEW;
	c->since = now;
	c->kicked = false;
	c->next = NULL;
	c->prev = t->tail;
	if (t->tail)
		t->tail->next = c;
	else
		t->head = c;
	t->tail = c;
	t->live++;
	return victim;
}

void http_guard_remove(struct guard_table *t, struct guard_conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		t->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		t->tail = c->prev;
	if (!c->kicked)
		t->live--;
	c->prev = c->next = NULL;
}

void http_guard_request_line(struct guard_conn *c, double now)
{
	/* a new connection's deadline runs from its accept, not from here */
	if (c->phase == GUARD_IDLE) {
		c->phase = GUARD_HEADERS;
		c->since = now;
	}
}

void http_guard_headers_done(struct guard_conn *c, double now)
{
	c->phase = GUARD_ANSWERING;
	c->since = now;
}

void http_guard_response_done(struct guard_conn *c, double now)
{
	c->phase = GUARD_IDLE;
	c->since = now;
}

double http_guard_deadline(const struct guard_conn *c)
{
	switch (c->phase) {
	case GUARD_ANSWERING:
		return c->since + GUARD_ANSWER_S;
	case GUARD_IDLE:
		return c->since + GUARD_IDLE_S;
	default:
		return c->since + GUARD_REQUEST_S;
	}
}

struct guard_conn *http_guard_overdue(struct guard_table *t, double now, double *next_due)
{
	struct guard_conn *c;

	for (c = t->head; c; c = c->next) {
		double due;

		if (c->kicked)
			continue;
		due = http_guard_deadline(c);
		if (due <= now) {
			kick(t, c);
			return c;
		}
		if (due < *next_due)
			*next_due = due;
	}
	return NULL;
}
