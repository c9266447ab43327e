/*
 * report_mutex THREADS HOLD_US SECS [timers]: THREADS threads take turns
 * on one mutex, each holding it across a HOLD_US sleep: at any moment one
 * sleeps holding it and the others wait in futex(FUTEX_WAIT). The process
 * uses almost no CPU and switches voluntarily one to three times per
 * hand-over (1e6 / HOLD_US hand-overs a second). Prints "locker PID", then
 * "ready" once every thread has held the lock once.
 * With "timers", the lock is taken once at the start only: each thread then
 * sleeps HOLD_US on its own timer in a loop, switching as often per
 * thread, on as little CPU, with no thread in futex (the negative case).
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <pthread.h>
#include <string.h>

struct shared {
	pthread_mutex_t lock;
	pthread_barrier_t started;
	long hold_ns;
	int timers; /* sleep without the lock after the first turn */
};

static void hold_once(struct shared *s)
{
	struct timespec t = { s->hold_ns / 1000000000L, s->hold_ns % 1000000000L };

	pthread_mutex_lock(&s->lock);
	nanosleep(&t, NULL);
	pthread_mutex_unlock(&s->lock);
}

static void *take_turns(void *arg)
{
	struct shared *s = arg;

	struct timespec t = { s->hold_ns / 1000000000L, s->hold_ns % 1000000000L };

	hold_once(s);
	pthread_barrier_wait(&s->started);
	for (;;) {
		if (s->timers)
			nanosleep(&t, NULL);
		else
			hold_once(s);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct shared s = { .lock = PTHREAD_MUTEX_INITIALIZER };
	int n;
	long hold_us;

	if (argc < 4 || argc > 5 || (n = atoi(argv[1])) < 2 || n > 256 ||
	    (hold_us = atol(argv[2])) < 1 || (argc == 5 && strcmp(argv[4], "timers")))
		rw_usage("report_mutex THREADS HOLD_US SECS [timers]");
	s.timers = argc == 5;
	rw_lifetime(argv[3]);
	s.hold_ns = hold_us * 1000;
	pthread_barrier_init(&s.started, NULL, (unsigned)n + 1);
	rw_say("locker %d", getpid());
	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, take_turns, &s))
			return 1;
	}
	pthread_barrier_wait(&s.started);
	rw_say("ready");
	for (;;)
		pause();
}
