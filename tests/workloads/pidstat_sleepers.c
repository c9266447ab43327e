/*
 * pidstat_sleepers N [SECONDS [TICK_MS]]: starts N threads (64 KiB stacks)
 * that only sleep, for the pidstat cost measurements; exits after SECONDS
 * (default 3600) or when killed. Prints its PID once every thread is up.
 * With TICK_MS > 0 each thread wakes every TICK_MS milliseconds instead of
 * sleeping for good, so every thread's voluntary switch count moves in any
 * interval longer than TICK_MS (tests that need N changing threads).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	long tick_ms = *(const long *)arg;
	struct timespec tick = { tick_ms / 1000, (tick_ms % 1000) * 1000000L };

	for (;;) {
		if (tick_ms > 0)
			nanosleep(&tick, NULL);
		else
			pause();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int secs = argc > 2 ? atoi(argv[2]) : 3600;
	static long tick_ms;
	pthread_attr_t attr;

	tick_ms = argc > 3 ? atol(argv[3]) : 0;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &attr, sleeper, &tick_ms)) {
			perror("pthread_create");
			return 1;
		}
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	sleep((unsigned)secs);
	return 0;
}
