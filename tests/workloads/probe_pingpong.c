/*
 * A context-switch-heavy target for the stack-probe benchmark: two threads
 * bounce a byte over a pair of pipes ROUNDS times after SIGUSR1, then print
 * "cpu_ns=N wall_ns=N" (process CPU time and wall time of the exchange).
 *
 *   probe_pingpong ROUNDS
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int ab[2], ba[2];
static long rounds;

static long long ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((noinline)) static void *ponger(void *arg)
{
	char c;

	for (long i = 0; i < rounds; i++)
		if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
			break;
	return NULL;
}

__attribute__((noinline)) static void pinger(void)
{
	char c = 'x';

	for (long i = 0; i < rounds; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
}

int main(int argc, char **argv)
{
	long long c0, w0;
	pthread_t t;
	sigset_t set;
	int sig;

	rounds = argc == 2 ? atol(argv[1]) : 0;
	if (rounds <= 0 || pipe(ab) || pipe(ba)) {
		fprintf(stderr, "usage: probe_pingpong ROUNDS\n");
		return 2;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pthread_create(&t, NULL, ponger, NULL);
	printf("ready\n");
	fflush(stdout);
	sigwait(&set, &sig);
	c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
	w0 = ns(CLOCK_MONOTONIC);
	pinger();
	pthread_join(t, NULL);
	printf("cpu_ns=%lld wall_ns=%lld\n", ns(CLOCK_PROCESS_CPUTIME_ID) - c0,
	       ns(CLOCK_MONOTONIC) - w0);
	return 0;
}
