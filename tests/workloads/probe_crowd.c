/*
 * More runnable threads than CPUs, for the runq test. After SIGUSR1 it
 * starts N spinning threads for SECONDS; each prints, as it ends, its own
 * run-queue wait from /proc/thread-self/schedstat (field 2, run_delay in
 * ns, the kernel's sched_info accounting): "tid=T run_delay_ns=N".
 *
 *   probe_crowd THREADS SECONDS [cpu]
 *
 * SECONDS is wall time (a crowd of a known length, for run-queue waits), or
 * with "cpu" each thread's own CPU time (a known amount of CPU to sample,
 * however busy the machine is).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double seconds;
static clockid_t spin_clock = CLOCK_MONOTONIC;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(spin_clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *spinner(void *arg)
{
	double end = now_s() + seconds;
	volatile uint64_t x = 1;
	unsigned long long exec, delay = 0, pcount;
	FILE *f;

	while (now_s() < end)
		for (int i = 0; i < 10000; i++)
			x = x * 3 + 1;
	f = fopen("/proc/thread-self/schedstat", "r");
	if (f && fscanf(f, "%llu %llu %llu", &exec, &delay, &pcount) != 3)
		delay = 0;
	if (f)
		fclose(f);
	pthread_mutex_lock(&out_lock);
	printf("tid=%ld run_delay_ns=%llu\n", (long)syscall(SYS_gettid), delay);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc == 3 || argc == 4 ? atoi(argv[1]) : 0;
	pthread_t *t;
	sigset_t set;
	int sig;

	if (n <= 0) {
		fprintf(stderr, "usage: probe_crowd THREADS SECONDS [cpu]\n");
		return 2;
	}
	if (argc == 4)
		spin_clock = CLOCK_THREAD_CPUTIME_ID;
	seconds = atof(argv[2]);
	t = calloc(n, sizeof(*t));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready\n");
	fflush(stdout);
	sigwait(&set, &sig);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, spinner, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
