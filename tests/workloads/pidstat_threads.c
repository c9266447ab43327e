/* Multi-threaded process whose leader sleeps: one busy thread (about half
 * a core: 5 ms spin, 5 ms sleep) and one thread switching 100 times a
 * second, for argv[1] seconds. The leader only waits, so sysstat's
 * process-row cswch/s (leader only) differs from the sum of the threads. */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include "pidstat_common.h"

static double end_time;

static void *busy(void *arg)
{
	volatile unsigned long x = 0;
	struct timespec pause_5ms = { 0, 5000000 };

	(void)arg;
	pthread_setname_np(pthread_self(), "wl-busy");
	while (wl_now() < end_time) {
		double until = wl_now() + 0.005;

		while (wl_now() < until)
			x++;
		nanosleep(&pause_5ms, NULL);
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	struct timespec t10ms = { 0, 10000000 };

	(void)arg;
	pthread_setname_np(pthread_self(), "wl-sleep");
	while (wl_now() < end_time)
		nanosleep(&t10ms, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	end_time = wl_now() + wl_duration(argc, argv);
	pthread_create(&a, NULL, busy, NULL);
	pthread_create(&b, NULL, sleeper, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
