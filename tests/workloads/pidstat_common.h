/* Shared helpers for the test workloads (test code): a monotonic clock, a run time. */
#ifndef PIDSTAT_WORKLOAD_COMMON_H
#define PIDSTAT_WORKLOAD_COMMON_H
#include <stdlib.h>
#include <time.h>

static inline double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* argv[1] = run time in seconds (default 30): workloads never outlive a test for long. */
static inline double wl_duration(int argc, char **argv)
{
	return argc > 1 ? atof(argv[1]) : 30.0;
}
#endif
