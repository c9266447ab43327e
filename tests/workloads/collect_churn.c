/*
 * collect_churn RATE SECONDS: forks RATE short-lived children a second
 * (each exits at once; SIGCHLD ignored, so the kernel reaps them without the
 * parent waiting for each to be scheduled) for SECONDS, then prints how many
 * it forked. Process churn for scrapes to survive.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double rate = argc > 1 ? atof(argv[1]) : 1000, t0 = now();
	double secs = argc > 2 ? atof(argv[2]) : 5;
	long n = 0;

	signal(SIGCHLD, SIG_IGN);
	while (now() - t0 < secs) {
		pid_t p;

		/* keep to the rate: fork only when behind schedule */
		if (n >= (now() - t0) * rate) {
			struct timespec ts = { 0, 200000 };

			nanosleep(&ts, NULL);
			continue;
		}
		p = fork();
		if (p == 0)
			_exit(0);
		if (p > 0)
			n++;
	}
	printf("%ld\n", n);
	return 0;
}
