/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The load-average arithmetic against the kernel's definition.
 *
 * The expected values come from a second implementation written here from
 * include/linux/sched/loadavg.h and fs/proc/loadavg.c: one step is
 * (load*exp + active*(2048-exp)) / 2048, divided rounding up while the
 * count is at or above the load and down otherwise; /proc/loadavg prints
 * x + 2048/200 as integer part and two truncated decimals. The last test
 * uses the running kernel itself as the oracle.
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "load/avg.h"
#include "load/watch.h"
#include "procfs/parsers.h"
#include "unit.h"

static const unsigned long ref_exp[3] = { 1884, 2014, 2037 };

/* The step, written as a floor or a ceiling of an exact quotient. */
static uint64_t ref_step(uint64_t load, unsigned long e, uint64_t active)
{
	uint64_t num = load * e + active * (2048 - e);
	uint64_t q = num / 2048, rem = num % 2048;

	if (active >= load && rem)
		q++;
	return q;
}

static void ref_print(uint64_t x, unsigned long *ip, unsigned *frac)
{
	uint64_t v = x + 10; /* FIXED_1/200 = 10.24 truncated to 10 */

	*ip = (unsigned long)(v / 2048);
	*frac = (unsigned)((v % 2048) * 100 / 2048);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

TEST(constants_are_the_kernels)
{
	ASSERT_EQ(LOAD_FIXED_1, 2048);
	/* 2048 * e^(-5/T) for T = 60, 300, 900 s, rounded to integers. */
	ASSERT_EQ(LOAD_EXP_1, (unsigned long)lround(2048 * exp(-5.0 / 60)));
	ASSERT_EQ(LOAD_EXP_5, (unsigned long)lround(2048 * exp(-5.0 / 300)));
	ASSERT_EQ(LOAD_EXP_15, (unsigned long)lround(2048 * exp(-5.0 / 900)));
}

TEST(random_step_sequences_match_reference)
{
	for (int k = 0; k < 3; k++) {
		uint64_t mine = 0, ref = 0;

		for (int i = 0; i < 20000; i++) {
			uint64_t active = (rng() % 40) * 2048; /* 0..39 tasks */

			if (i % 7 == 0)
				active = rng() % (64 * 2048); /* fractional counts too */
			mine = load_calc(mine, load_exp[k], active);
			ref = ref_step(ref, ref_exp[k], active);
			ASSERT_UEQ(mine, ref);
		}
	}
}

TEST(fine_scale_sequences_match_reference)
{
	uint64_t mine = 0, ref = 0;

	for (int i = 0; i < 5000; i++) {
		uint64_t active = rng() % (3 * WATCH_FINE_1);

		mine = load_calc(mine, LOAD_EXP_5, active);
		ref = ref_step(ref, 2014, active);
		ASSERT_UEQ(mine, ref);
	}
}

TEST(step_response_and_limits)
{
	uint64_t x = 0;
	double expect;

	/* One task that becomes active at t=0: after 12 folds (~60 s) 1-e^-1. */
	for (int i = 0; i < 12; i++)
		x = load_calc(x, LOAD_EXP_1, LOAD_FIXED_1);
	expect = 1 - pow(1884.0 / 2048.0, 12);
	ASSERT_NEAR(x / 2048.0, expect, 12.0 / 2048);
	ASSERT_NEAR(x / 2048.0, 1 - exp(-60.0 / 60.0), 0.01);
	/* The rounding rule makes a constant count exact and idle reach 0. */
	for (int i = 0; i < 2000; i++)
		x = load_calc(x, LOAD_EXP_15, 3 * LOAD_FIXED_1);
	ASSERT_UEQ(x, 3 * 2048);
	for (int i = 0; i < 4000; i++)
		x = load_calc(x, LOAD_EXP_15, 0);
	ASSERT_UEQ(x, 0);
}

TEST(fixed_power_and_catch_up)
{
	for (unsigned n = 0; n < 200; n++) {
		double want = pow(1884.0 / 2048.0, n) * 2048;

		/* Each product is rounded: the error grows with log2(n). */
		ASSERT_NEAR((double)load_fixed_power(LOAD_EXP_1, LOAD_FSHIFT, n), want, 8.0);
	}
	ASSERT_UEQ(load_calc_n(5000, LOAD_EXP_1, 2048, 1), ref_step(5000, 1884, 2048));
	ASSERT_UEQ(load_calc_n(5000, LOAD_EXP_1, 0, 0), 5000);
}

TEST(printing_matches_proc_loadavg)
{
	for (uint64_t x = 0; x < 40 * 2048; x++) {
		unsigned long ip, rip;
		unsigned f, rf;

		load_fixed_format(x, &ip, &f);
		ref_print(x, &rip, &rf);
		ASSERT_UEQ(ip, rip);
		ASSERT_UEQ(f, rf);
	}
}

TEST(seed_prints_back_to_the_same_text)
{
	for (uint64_t x = 0; x < 40 * 2048; x++) {
		unsigned long ip, ip2;
		unsigned f, f2;
		uint64_t seed;

		ref_print(x, &ip, &f);
		seed = load_fixed_from_printed(ip, f);
		ref_print(seed, &ip2, &f2);
		ASSERT_UEQ(ip2, ip);
		ASSERT_UEQ(f2, f);
		/* From the parsed double, as load_watch_init seeds. */
		ASSERT_UEQ(load_fixed_from_double(ip + f / 100.0), seed);
	}
}

/* Every value of the old text's range, folded with n tasks, printed. */
static bool fold_explains(double old, double new, unsigned long e, unsigned n)
{
	uint64_t seed = load_fixed_from_double(old), lo = seed, hi = seed;
	unsigned long ip;
	unsigned f, want_ip = (unsigned)(new + 0.005), want_f;

	want_f = (unsigned)lround(new * 100) % 100;
	while (lo > 0) {
		ref_print(lo - 1, &ip, &f);
		if (fabs(ip + f / 100.0 - old) > 0.001)
			break;
		lo--;
	}
	for (;; hi++) {
		ref_print(hi + 1, &ip, &f);
		if (fabs(ip + f / 100.0 - old) > 0.001)
			break;
	}
	for (uint64_t a = lo; a <= hi; a++) {
		ref_print(ref_step(a, e, (uint64_t)n * 2048), &ip, &f);
		if (ip == want_ip && f == want_f)
			return true;
	}
	return false;
}

static bool read_loadavg(char *buf, size_t size, struct loadavg *la)
{
	FILE *f = fopen("/proc/loadavg", "r");
	bool ok = f && fgets(buf, (int)size, f) && procfs_loadavg_parse(buf, strlen(buf), la) == 0;

	if (f)
		fclose(f);
	return ok;
}

static void *spin(void *arg)
{
	bool *stop = arg;
	volatile unsigned long x = 0;

	while (!__atomic_load_n(stop, __ATOMIC_ACQUIRE))
		x++;
	return NULL;
}

/*
 * The kernel as oracle: across one of its folds, the three new figures must
 * come from the old ones through one integer count of active tasks. A
 * spinning thread keeps the machine from idling (no NO_HZ catch-up) and
 * makes a visible change likely.
 */
TEST(kernel_fold_is_explained_by_one_count)
{
	char a[128], b[128], fa[64], fb[64];
	struct loadavg before, after;
	bool stop = false;
	pthread_t t;
	bool found = false, seen = false;

	pthread_create(&t, NULL, spin, &stop);
	ASSERT_TRUE(read_loadavg(a, sizeof(a), &before));
	for (int i = 0; i < 150 && !seen; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		if (!read_loadavg(b, sizeof(b), &after))
			break;
		load_avg_figures(a, fa, sizeof(fa));
		load_avg_figures(b, fb, sizeof(fb));
		if (strcmp(fa, fb)) {
			seen = true;
			break;
		}
		memcpy(a, b, sizeof(a));
		before = after;
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	ASSERT_TRUE(seen);
	for (unsigned n = 0; n < 4096 && !found; n++)
		found = fold_explains(before.load[0], after.load[0], 1884, n) &&
			fold_explains(before.load[1], after.load[1], 2014, n) &&
			fold_explains(before.load[2], after.load[2], 2037, n);
	if (!found)
		fprintf(stderr, "no count explains %s -> %s", fa, fb);
	ASSERT_TRUE(found);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, constants_are_the_kernels);
	RUN(&st, random_step_sequences_match_reference);
	RUN(&st, fine_scale_sequences_match_reference);
	RUN(&st, step_response_and_limits);
	RUN(&st, fixed_power_and_catch_up);
	RUN(&st, printing_matches_proc_loadavg);
	RUN(&st, seed_prints_back_to_the_same_text);
	RUN(&st, kernel_fold_is_explained_by_one_count);
	UNIT_MAIN_END(&st);
}
