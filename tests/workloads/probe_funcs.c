/*
 * A target with known function names for the offcpu and profile tests.
 * Built with frame pointers (the Makefile's workload rule), functions
 * noinline so each has its own frame and symbol.
 *
 *   probe_funcs half-sleep CYCLES MS [SLEEP_MS]
 *                                      after SIGUSR1: CYCLES times, spin MS ms
 *                                      (wall) then sleep MS (or SLEEP_MS) ms; prints its own
 *                                      measurements and exits:
 *                                      "sleep_ns=N run_ns=N nvcsw=N nivcsw=N"
 *                                      (time inside nanosleep, the whole loop, and
 *                                      getrusage's context switch counts of the loop)
 *   probe_funcs burn SECONDS           after SIGUSR1: spin for SECONDS of its own CPU time, print
 *                                      "cpu_ns=N" (its CPU time) and exit
 *   probe_funcs work N                 after SIGUSR1: N fixed rounds of arithmetic,
 *                                      print "cpu_ns=N" and exit (for benchmarks)
 *
 * Before SIGUSR1 it prints "ready" and blocks, so a test can attach a
 * probe first. With PROBE_FUNCS_COMM set, it renames itself to that
 * (a hostile name for the escaping tests).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static volatile uint64_t sink;

static int64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

__attribute__((noinline)) void fixed_work_in_known_function(long rounds)
{
	uint64_t x = sink;

	for (long r = 0; r < rounds; r++)
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
}

/* Spins until CLOCK has advanced by NS: the wall clock for a duty cycle,
 * the thread's own CPU clock for an amount of CPU that no load on the
 * machine can shrink. */
__attribute__((noinline)) void burn_cycles_in_known_function(int64_t ns, clockid_t clock)
{
	int64_t end = clock_ns(clock) + ns;
	uint64_t x = sink;

	do {
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sink = x;
	} while (clock_ns(clock) < end);
}

/* libc's nanosleep has no frame pointer: its caller's frame is lost, so
 * sleep_in_known_function stays visible through this extra level. */
__attribute__((noinline)) void nap_through_libc(int64_t ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	while (nanosleep(&ts, &ts))
		;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) int64_t sleep_in_known_function(int64_t ns)
{
	int64_t t0 = now_ns();

	nap_through_libc(ns);
	__asm__ volatile("" ::: "memory");
	return now_ns() - t0;
}

static void wait_for_go(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready\n");
	fflush(stdout);
	sigwait(&set, &sig);
}

int main(int argc, char **argv)
{
	if (getenv("PROBE_FUNCS_COMM"))
		prctl(PR_SET_NAME, getenv("PROBE_FUNCS_COMM"));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "half-sleep")) {
		int cycles = atoi(argv[2]);
		int64_t ms = atoll(argv[3]) * 1000000, slept = 0, t0, t1;
		int64_t sleep_ms = argc == 5 ? atoll(argv[4]) * 1000000 : ms;
		struct rusage r0, r1;

		wait_for_go();
		getrusage(RUSAGE_THREAD, &r0);
		t0 = now_ns();
		for (int i = 0; i < cycles; i++) {
			burn_cycles_in_known_function(ms, CLOCK_MONOTONIC);
			slept += sleep_in_known_function(sleep_ms);
		}
		t1 = now_ns();
		getrusage(RUSAGE_THREAD, &r1);
		printf("sleep_ns=%lld run_ns=%lld nvcsw=%ld nivcsw=%ld\n", (long long)slept,
		       (long long)(t1 - t0), r1.ru_nvcsw - r0.ru_nvcsw,
		       r1.ru_nivcsw - r0.ru_nivcsw);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "work")) {
		struct timespec c0, c1;

		wait_for_go();
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
		fixed_work_in_known_function(atol(argv[2]));
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
		printf("cpu_ns=%lld\n",
		       (long long)(c1.tv_sec - c0.tv_sec) * 1000000000 + (c1.tv_nsec - c0.tv_nsec));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "burn")) {
		struct timespec cpu;

		wait_for_go();
		burn_cycles_in_known_function((int64_t)(atof(argv[2]) * 1e9),
					      CLOCK_THREAD_CPUTIME_ID);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		printf("cpu_ns=%lld\n", (long long)cpu.tv_sec * 1000000000 + cpu.tv_nsec);
		return 0;
	}
	fprintf(stderr,
		"usage: probe_funcs half-sleep CYCLES MS [SLEEP_MS] | burn SECONDS | work N\n");
	return 2;
}
