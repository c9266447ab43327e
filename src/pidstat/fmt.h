/*
 * Number formatting and colours as sysstat prints them (cprintf_* and the
 * rate arithmetic of spec 7.4), in src/pidstat/fmt.c.
 */
#ifndef TRIAGE_PIDSTAT_FMT_H
#define TRIAGE_PIDSTAT_FMT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Colours (spec 3.9). Empty strings when colours are off. */
struct pidstat_colors {
	char high[16], low[16], zero[16], nz[16], item[16], normal[16];
};

void pidstat_colors_init(struct pidstat_colors *c, const char *s_colors, const char *sgr,
			 bool stdout_tty);

/*
 * The renderers' writes: a dozen short pieces a row (2,000 threads and four
 * reports are 100,000 an interval). One thread writes, so the stream's lock
 * is skipped. (Writing into glibc's FILE buffer directly, as its putc macro
 * does, was tried and overflowed the buffer of a line-buffered terminal
 * stream: tests/hostile/names.t, replay pidstat -t on a pty.)
 */
static inline void pidstat_write(FILE *f, const char *s, size_t len)
{
	fwrite_unlocked(s, 1, len, f);
}

/* fputs for the renderers: nothing for "" (every colour string when colours are off). */
static inline void pidstat_puts(const char *s, FILE *f)
{
	if (s[0])
		pidstat_write(f, s, strlen(s));
}

/* Everything the renderers need besides the task. */
struct pidstat_out {
	FILE *f;
	struct pidstat_colors col;
	int dec; /* -1 default */
	bool human;
	bool fast; /* the locale writes '.': numbers may skip printf */
};

/* Whether the current LC_NUMERIC lets pidstat format numbers itself. */
bool pidstat_fast_numbers(void);
/* " %*llu" */
void pidstat_put_uint(FILE *f, int width, unsigned long long v);

/* Low-level field printers: sysstat's cprintf_* (the shared formatting rules). */
void pidstat_put_pc(const struct pidstat_out *o, int wi, int wd, double val);
void pidstat_put_f(const struct pidstat_out *o, int unit, int wi, int wd, double val);
void pidstat_put_u64(const struct pidstat_out *o, int unit, int wi, uint64_t val);
enum { UNIT_NONE = -1, UNIT_BYTE = 1, UNIT_KILOBYTE = 2 };

/* Rate arithmetic (spec 7.4): pure. */
double pidstat_sp_value(uint64_t prev, uint64_t curr, uint64_t itv);
double pidstat_s_value(uint64_t prev, uint64_t curr, uint64_t itv);
uint64_t pidstat_interval(uint64_t prev, uint64_t curr);

#endif
