/* argv[1] sleeping threads with small stacks (benchmark background load);
 * prints "ready" on stdout once all exist, then sleeps until killed or
 * argv[2] seconds (default 600) pass. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "pidstat_common.h"

static void *sleep_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000;
	double dur = argc > 2 ? atof(argv[2]) : 600;
	pthread_attr_t attr;
	long made = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN > 32768 ? PTHREAD_STACK_MIN : 32768);
	for (long i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &attr, sleep_forever, NULL))
			break;
		made++;
	}
	printf("ready %ld\n", made);
	fflush(stdout);
	sleep((unsigned)dur);
	return 0;
}
