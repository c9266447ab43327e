/*
 * pidstat_sleepers N [SECONDS]: starts N threads (64 KiB stacks) that only
 * sleep, for the pidstat cost measurements; exits after SECONDS (default
 * 3600) or when killed. Prints its PID once every thread is up.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int secs = argc > 2 ? atoi(argv[2]) : 3600;
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &attr, sleeper, NULL)) {
			perror("pthread_create");
			return 1;
		}
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	sleep((unsigned)secs);
	return 0;
}
