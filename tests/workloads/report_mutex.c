/*
 * report_mutex THREADS HOLD_US SECS [timers|relay]: THREADS threads take
 * turns on one mutex, each holding it across a HOLD_US sleep: at any moment
 * one sleeps holding it and the others wait in futex(FUTEX_WAIT) on the
 * mutex's word. The process uses almost no CPU and switches voluntarily one
 * to three times per hand-over (1e6 / HOLD_US hand-overs a second). Prints
 * "locker PID", then "ready" once every thread has held the lock once.
 * The look-alikes (the lock is taken once at the start only):
 *   timers  each thread sleeps HOLD_US on its own timer in a loop: as many
 *           switches per thread, as little CPU, no thread in futex;
 *   relay   the threads pass a token round a ring, each sleeping HOLD_US
 *           with it: the others wait in futex, each on its own condition
 *           variable's word (message passing, no lock queue), switching
 *           as often as the locker.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

enum mode { LOCK, TIMERS, RELAY };

struct mailbox {
	pthread_mutex_t m;
	pthread_cond_t c;
};

struct shared {
	pthread_mutex_t lock;
	pthread_barrier_t started;
	struct timespec hold;
	enum mode mode;
	int n;
	atomic_int token; /* relay: whose turn */
	atomic_int next_id;
	struct mailbox box[256];
};

static void hold_once(struct shared *s)
{
	pthread_mutex_lock(&s->lock);
	nanosleep(&s->hold, NULL);
	pthread_mutex_unlock(&s->lock);
}

/* Waits in its own mailbox for the token, keeps it HOLD_US, hands it on. */
static void relay_once(struct shared *s, int me)
{
	struct mailbox *mine = &s->box[me], *next = &s->box[(me + 1) % s->n];

	pthread_mutex_lock(&mine->m);
	while (atomic_load(&s->token) != me)
		pthread_cond_wait(&mine->c, &mine->m);
	pthread_mutex_unlock(&mine->m);
	nanosleep(&s->hold, NULL);
	pthread_mutex_lock(&next->m);
	atomic_store(&s->token, (me + 1) % s->n);
	pthread_cond_signal(&next->c);
	pthread_mutex_unlock(&next->m);
}

static void *take_turns(void *arg)
{
	struct shared *s = arg;
	int me = atomic_fetch_add(&s->next_id, 1);

	hold_once(s);
	pthread_barrier_wait(&s->started);
	for (;;) {
		if (s->mode == TIMERS)
			nanosleep(&s->hold, NULL);
		else if (s->mode == RELAY)
			relay_once(s, me);
		else
			hold_once(s);
	}
	return NULL;
}

static int parse_mode(int argc, char **argv, enum mode *m)
{
	*m = LOCK;
	if (argc == 4)
		return 0;
	if (!strcmp(argv[4], "timers"))
		*m = TIMERS;
	else if (!strcmp(argv[4], "relay"))
		*m = RELAY;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct shared s = { .lock = PTHREAD_MUTEX_INITIALIZER };
	long hold_us;

	if (argc < 4 || argc > 5 || (s.n = atoi(argv[1])) < 2 || s.n > 256 ||
	    (hold_us = atol(argv[2])) < 1 || parse_mode(argc, argv, &s.mode))
		rw_usage("report_mutex THREADS HOLD_US SECS [timers|relay]");
	rw_lifetime(argv[3]);
	s.hold = (struct timespec){ hold_us / 1000000L, hold_us % 1000000L * 1000L };
	for (int i = 0; i < s.n; i++) {
		pthread_mutex_init(&s.box[i].m, NULL);
		pthread_cond_init(&s.box[i].c, NULL);
	}
	pthread_barrier_init(&s.started, NULL, (unsigned)s.n + 1);
	rw_say("locker %d", getpid());
	for (int i = 0; i < s.n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, take_turns, &s))
			return 1;
	}
	pthread_barrier_wait(&s.started);
	rw_say("ready");
	for (;;)
		pause();
}
