/* CLOCK_MONOTONIC arithmetic for the run loop's deadlines. */
#ifndef TRIAGE_RUNLOOP_TIMESPEC_H
#define TRIAGE_RUNLOOP_TIMESPEC_H

#include <stdbool.h>
#include <time.h>

#define RUNLOOP_NS_PER_S 1000000000L

static inline bool runloop_ts_reached(const struct timespec *now, const struct timespec *d)
{
	return now->tv_sec > d->tv_sec || (now->tv_sec == d->tv_sec && now->tv_nsec >= d->tv_nsec);
}

static inline struct timespec runloop_ts_add(struct timespec a, const struct timespec *b)
{
	a.tv_sec += b->tv_sec;
	a.tv_nsec += b->tv_nsec;
	if (a.tv_nsec >= RUNLOOP_NS_PER_S) {
		a.tv_nsec -= RUNLOOP_NS_PER_S;
		a.tv_sec++;
	}
	return a;
}

/* a - b, for a after b. */
static inline struct timespec runloop_ts_sub(const struct timespec *a, const struct timespec *b)
{
	struct timespec d = { a->tv_sec - b->tv_sec, a->tv_nsec - b->tv_nsec };

	if (d.tv_nsec < 0) {
		d.tv_nsec += RUNLOOP_NS_PER_S;
		d.tv_sec--;
	}
	return d;
}

#endif
