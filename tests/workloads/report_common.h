/*
 * Shared by the report_* workloads (test code). Each workload announces
 * what it is ("hog PID", ...) and then "ready" on stdout, which the tests
 * make a fifo: the test reads until "ready", so it never guesses with a
 * sleep. Every process bounds its own life with alarm(), so a workload
 * never outlives a crashed test for long.
 */
#ifndef REPORT_WORKLOAD_COMMON_H
#define REPORT_WORKLOAD_COMMON_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* One line to stdout in one write(): atomic on a fifo, even from forked children. */
static inline void rw_say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(1, line, n) != n)
		_exit(1);
}

/* Dies by SIGALRM after SECS seconds (rounded up, at least 1). */
static inline void rw_lifetime(const char *secs)
{
	double s = atof(secs);

	alarm(s < 1 ? 1 : (unsigned)(s + 0.999));
}

/* Sleeps until *next + ns on the monotonic clock and makes that the new *next: a steady pace. */
static inline void rw_pace(struct timespec *next, long ns)
{
	next->tv_nsec += ns;
	while (next->tv_nsec >= 1000000000L) {
		next->tv_sec++;
		next->tv_nsec -= 1000000000L;
	}
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL);
}

static inline void rw_usage(const char *text)
{
	fprintf(stderr, "usage: %s\n", text);
	exit(2);
}
#endif
