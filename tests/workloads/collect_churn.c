/*
 * collect_churn RATE SECONDS: creates RATE short-lived children a second
 * for SECONDS, then prints how many it created and the seconds it took
 * ("N S"). Each child is made with vfork() and exits at once, so when
 * vfork returns it has exited (the kernel reaps it: SIGCHLD is ignored);
 * vfork skips copying the page tables, which is what keeps fork() to a few
 * hundred a second on a small VM. Process churn for scrapes to survive.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "pidstat_common.h"

int main(int argc, char **argv)
{
	double rate = argc > 1 ? atof(argv[1]) : 1000, t0 = wl_now();
	double secs = argc > 2 ? atof(argv[2]) : 5, t;
	long n = 0;

	signal(SIGCHLD, SIG_IGN);
	while ((t = wl_now() - t0) < secs) {
		pid_t p;

		/* keep to the rate: a child only when behind schedule */
		if (n >= t * rate) {
			struct timespec ts = { 0, 200000 };

			nanosleep(&ts, NULL);
			continue;
		}
		p = vfork();
		if (p == 0)
			_exit(0);
		if (p > 0)
			n++;
	}
	printf("%ld %.3f\n", n, wl_now() - t0);
	return 0;
}
