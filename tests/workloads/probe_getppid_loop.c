/*
 * The benchmark loop: N raw getppid() calls, then one line
 * "calls=N cpu_ns_per_call=X wall_ns_per_call=Y" on stdout, where CPU is
 * this process's own CPU time (CLOCK_PROCESS_CPUTIME_ID), the figure that
 * stays meaningful on a busy shared machine.
 * Usage: probe_getppid_loop N [READYFILE]; with READYFILE it writes its pid
 * there and waits for SIGUSR1 before the loop, so a tracer can attach first.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	double c0, w0, c1, w1;

	if (argc > 2) {
		sigset_t set;
		int sig;
		FILE *f;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		f = fopen(argv[2], "w");
		if (!f)
			return 1;
		fprintf(f, "%d\n", getpid());
		fclose(f);
		sigwait(&set, &sig);
	}
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	w0 = now(CLOCK_MONOTONIC);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	w1 = now(CLOCK_MONOTONIC);
	printf("calls=%ld cpu_ns_per_call=%.1f wall_ns_per_call=%.1f\n", n, (c1 - c0) / n,
	       (w1 - w0) / n);
	return 0;
}
