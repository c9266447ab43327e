/*
 * load_spin N SECONDS: N threads that spin on the CPU for SECONDS, named
 * "load_spin". Prints "spin PID TID" per thread to stdout, then "ready".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pidstat_common.h"

static double seconds_left;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t started;

static void *spin(void *arg)
{
	double end = wl_now() + seconds_left;
	volatile unsigned long x = 0;

	(void)arg;
	prctl(PR_SET_NAME, "load_spin");
	pthread_mutex_lock(&out_lock);
	printf("spin %d %ld\n", getpid(), (long)syscall(SYS_gettid));
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	pthread_barrier_wait(&started);
	while (wl_now() < end)
		for (int i = 0; i < 100000; i++)
			x += i;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t *t;

	seconds_left = argc > 2 ? atof(argv[2]) : 30;
	if (n < 1 || n > 256) {
		fprintf(stderr, "usage: load_spin N SECONDS\n");
		return 2;
	}
	t = calloc(n, sizeof(*t));
	pthread_barrier_init(&started, NULL, n + 1);
	prctl(PR_SET_NAME, "load_spin_main");
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	pthread_barrier_wait(&started);
	printf("ready\n");
	fflush(stdout);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
