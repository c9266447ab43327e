/*
 * bench/u32.sh helper: bytes per second of triage's bm and kmp searches
 * (the kernel's algorithms) against glibc memmem on the same text.
 * Usage: u32_search MiB  -> lines "algo patlen MB/s", CPU time measured.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "u32/strmatch.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t n = (size_t)(argc > 1 ? atoi(argv[1]) : 64) << 20;
	uint8_t *text = malloc(n), pat[U32_STR_MAX_PATTERN];
	static struct u32_bm_tables bt;
	unsigned lens[] = {4, 16, 64};
	unsigned seed = 1;
	volatile long sink = 0;

	if (!text)
		return 1;
	/* DNS-like text: lower-case letters and length bytes; the pattern is absent */
	for (size_t k = 0; k < n; k++) {
		seed = seed * 1103515245u + 12345u;
		text[k] = (uint8_t)((seed >> 16) % 27 ? 'a' + (seed >> 16) % 26 : 7);
	}
	for (unsigned li = 0; li < 3; li++) {
		unsigned m = lens[li];
		for (unsigned k = 0; k < m; k++)
			pat[k] = (uint8_t)('a' + k % 26);
		pat[m - 1] = 0; /* never in the text */
		u32_str_bm_prepare(&bt, pat, m, false);
		double t0 = cpu_now();
		sink += u32_str_bm_search(&bt, text, n);
		double t1 = cpu_now();
		sink += u32_str_kmp_search(pat, m, false, text, n);
		double t2 = cpu_now();
		sink += memmem(text, n, pat, m) != NULL;
		double t3 = cpu_now();
		printf("bm %u %.0f\nkmp %u %.0f\nmemmem %u %.0f\n", m, n / (t1 - t0) / 1e6, m,
		       n / (t2 - t1) / 1e6, m, n / (t3 - t2) / 1e6);
	}
	free(text);
	return sink == 12345 ? 1 : 0;
}
