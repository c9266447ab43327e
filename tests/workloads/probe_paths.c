/*
 * A target with known call paths for the stack-merging and unknown-frame
 * tests of probe profile and offcpu. Built with frame pointers (the
 * Makefile's workload rule); functions noinline so each has its frame.
 *
 *   probe_paths cpu SECONDS    after SIGUSR1: SECONDS of its own CPU time in
 *                              hash_block, three rounds through via_alpha for
 *                              each one through via_beta; prints
 *                              "alpha_ns=N beta_ns=N" (CPU time of each path)
 *   probe_paths sleep N MS     after SIGUSR1: N rounds: sleep MS ms three times
 *                              through via_alpha, once through via_beta (both in
 *                              nap_in_known_function); prints "alpha_ns=N beta_ns=N"
 *   probe_paths lost SECONDS   prints "ready" and at once spins in
 *                              spin_with_lost_chain for SECONDS of wall time with
 *                              %rbp pointing at a loop of bogus frame records, as
 *                              code built without frame pointers leaves it: a
 *                              frame-pointer walk reads return addresses that are
 *                              no code (0x10, 0x20...) until its depth limit
 *
 * cpu and sleep print "ready" and block until SIGUSR1, so a probe can
 * attach first.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile uint64_t sink;

static int64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

__attribute__((noinline)) void store_block(uint64_t x)
{
	sink = x;
}

/*
 * A hot loop of several instructions, so samples land at different
 * offsets. It calls store_block so that it is no leaf: GCC omits the frame
 * pointer of leaf functions, which would hide its caller.
 */
__attribute__((noinline)) void hash_block(long rounds)
{
	uint64_t x = sink;

	for (long r = 0; r < rounds; r++) {
		for (int i = 0; i < 5000; i++)
			x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15ULL + (uint64_t)i;
		store_block(x);
	}
}

__attribute__((noinline)) void nap_in_known_function(int64_t ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	while (nanosleep(&ts, &ts))
		;
	__asm__ volatile("" ::: "memory");
}

/* Path A and path B to the same functions; the asm keeps them from being merged. */
__attribute__((noinline)) void via_alpha(int sleeping, int64_t arg)
{
	if (sleeping)
		nap_in_known_function(arg);
	else
		hash_block(arg);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void via_beta(int sleeping, int64_t arg)
{
	if (sleeping)
		nap_in_known_function(arg);
	else
		hash_block(arg);
	__asm__ volatile("nop" ::: "memory");
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

/* Runs f(sleeping, arg) and adds the time of clock it took to *acc. */
static void timed(void (*f)(int, int64_t), int sleeping, int64_t arg, clockid_t clock, int64_t *acc)
{
	int64_t t0 = clock_ns(clock);

	f(sleeping, arg);
	*acc += clock_ns(clock) - t0;
}

static void run_cpu(double seconds)
{
	int64_t end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + (int64_t)(seconds * 1e9);
	int64_t alpha = 0, beta = 0;

	wait_for_go();
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
		for (int i = 0; i < 3; i++)
			timed(via_alpha, 0, 20, CLOCK_THREAD_CPUTIME_ID, &alpha);
		timed(via_beta, 0, 20, CLOCK_THREAD_CPUTIME_ID, &beta);
	}
	printf("alpha_ns=%lld beta_ns=%lld\n", (long long)alpha, (long long)beta);
}

static void run_sleep(int rounds, int64_t ms)
{
	int64_t alpha = 0, beta = 0;

	wait_for_go();
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < 3; i++)
			timed(via_alpha, 1, ms * 1000000, CLOCK_MONOTONIC, &alpha);
		timed(via_beta, 1, ms * 1000000, CLOCK_MONOTONIC, &beta);
	}
	printf("alpha_ns=%lld beta_ns=%lld\n", (long long)alpha, (long long)beta);
}

/* A frame record as the x86-64 frame-pointer walk reads it: saved %rbp, return address. */
struct frame_record {
	struct frame_record *next;
	uintptr_t ret;
};

static struct frame_record bogus[8];

/*
 * Spins with %rbp at bogus[0]: each record's return address is no code and
 * the chain loops, so the walk only ends at its depth limit, as it does in
 * a binary whose functions use %rbp as a general register.
 */
__attribute__((noinline)) void spin_with_lost_chain(int64_t ns)
{
	int64_t end = clock_ns(CLOCK_MONOTONIC) + ns;

	for (int i = 0; i < 8; i++) {
		bogus[i].next = &bogus[(i + 1) % 8];
		bogus[i].ret = 0x10 * (uintptr_t)(i + 1);
	}
	while (clock_ns(CLOCK_MONOTONIC) < end) {
		uint64_t x = sink;

		__asm__ volatile("mov %%rbp, %%r11\n\t"
				 "mov %1, %%rbp\n\t"
				 "mov $200000, %%ecx\n"
				 "1:\n\t"
				 "imul $0x5851f42d, %0, %0\n\t"
				 "add $1, %0\n\t"
				 "dec %%ecx\n\t"
				 "jnz 1b\n\t"
				 "mov %%r11, %%rbp"
				 : "+r"(x)
				 : "r"(&bogus[0])
				 : "rcx", "r11", "memory", "cc");
		sink = x;
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "cpu")) {
		run_cpu(atof(argv[2]));
	} else if (argc == 4 && !strcmp(argv[1], "sleep")) {
		run_sleep(atoi(argv[2]), atoll(argv[3]));
	} else if (argc == 3 && !strcmp(argv[1], "lost")) {
		printf("ready\n");
		fflush(stdout);
		spin_with_lost_chain((int64_t)(atof(argv[2]) * 1e9));
	} else {
		fprintf(stderr, "usage: probe_paths cpu SECONDS | sleep N MS | lost SECONDS\n");
		return 2;
	}
	fflush(stdout);
	return 0;
}
