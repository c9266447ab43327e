/* Sampling clocks: absolute deadlines in production, fixture steps in tests. */
#define _GNU_SOURCE
#include "pidstat/pidstat.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/parse.h"

static time_t real_now(struct pidstat_clock *c)
{
	(void)c;
	return time(NULL);
}

static void real_arm(struct pidstat_clock *c)
{
	struct pidstat_realclock *rc = c->ctx;

	clock_gettime(CLOCK_MONOTONIC, &rc->deadline);
	rc->deadline.tv_sec += rc->interval;
}

static bool reached(const struct timespec *now, const struct timespec *d)
{
	return now->tv_sec > d->tv_sec || (now->tv_sec == d->tv_sec && now->tv_nsec >= d->tv_nsec);
}

/*
 * Sleeps until the deadline (or forever with no interval: -e waits for its
 * child), then moves the deadline one interval on. A late cycle is not
 * skipped: the next sample is taken at once and the grid is kept.
 */
static int real_wait(struct pidstat_clock *c)
{
	struct pidstat_realclock *rc = c->ctx;

	for (;;) {
		struct timespec now, rel, *tp = NULL;

		if (*rc->stop)
			return 1;
		if (rc->interval) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (reached(&now, &rc->deadline)) {
				rc->deadline.tv_sec += rc->interval;
				return 0;
			}
			rel.tv_sec = rc->deadline.tv_sec - now.tv_sec;
			rel.tv_nsec = rc->deadline.tv_nsec - now.tv_nsec;
			if (rel.tv_nsec < 0) {
				rel.tv_nsec += 1000000000L;
				rel.tv_sec--;
			}
			tp = &rel;
		}
		/* the stop signals are delivered only here, atomically with the sleep */
		ppoll(NULL, 0, tp, &rc->sleep_mask);
	}
}

void pidstat_realclock_init(struct pidstat_clock *c, struct pidstat_realclock *rc)
{
	c->now = real_now;
	c->wait = real_wait;
	c->arm = real_arm;
	c->ctx = rc;
}

/* Step 1 is the start-up time (meta epoch); later steps carry stepN/time. */
static time_t fix_now(struct pidstat_clock *c)
{
	struct pidstat_fixclock *fc = c->ctx;
	char path[64], buf[64];
	uint64_t v;
	ssize_t n;

	if (fc->step <= 1)
		return fc->epoch;
	snprintf(path, sizeof(path), "step%d/time", fc->step);
	n = procfs_read_root(fc->pf, path, buf, sizeof(buf));
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (n <= 0 || parse_u64(buf, INT64_MAX, &v))
		return fc->epoch;
	return (time_t)v;
}

/* The next step, or a stop as after Ctrl-C when none is left. */
static int fix_wait(struct pidstat_clock *c)
{
	struct pidstat_fixclock *fc = c->ctx;

	if (*fc->stop || procfs_step(fc->pf, fc->step + 1))
		return 1;
	fc->step++;
	return 0;
}

void pidstat_fixclock_init(struct pidstat_clock *c, struct pidstat_fixclock *fc)
{
	c->now = fix_now;
	c->wait = fix_wait;
	c->arm = NULL;
	c->ctx = fc;
}
