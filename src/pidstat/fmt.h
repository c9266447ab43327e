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
 * Everything the renderers need besides the task. A plain row is built in
 * row[] and goes to f in one fwrite when it is done (pidstat_out_flush):
 * 2,000 threads and four reports are 100,000 short pieces an interval, and
 * an fwrite each was a third of pidstat's instructions. Pieces that do not
 * fit flush the row first and go to f directly, so the bytes and their
 * order are the same either way.
 */
#define PIDSTAT_ROW_MAX 1024
struct pidstat_out {
	FILE *f;
	struct pidstat_colors col;
	int dec; /* -1 default */
	bool human;
	bool fast; /* the locale writes '.': numbers may skip printf */
	size_t row_len;
	char row[PIDSTAT_ROW_MAX];
};

/* Writes the row built so far to f (one thread writes: no stream lock). */
void pidstat_out_flush(struct pidstat_out *o);
/* pidstat_write's slow path: a piece longer than the room left. */
void pidstat_write_long(struct pidstat_out *o, const char *s, size_t len);

static inline void pidstat_write(struct pidstat_out *o, const char *s, size_t len)
{
	if (len <= sizeof(o->row) - o->row_len) {
		memcpy(o->row + o->row_len, s, len);
		o->row_len += len;
	} else {
		pidstat_write_long(o, s, len);
	}
}

/* fputs for the renderers: nothing for "" (every colour string when colours are off). */
static inline void pidstat_puts(struct pidstat_out *o, const char *s)
{
	if (s[0])
		pidstat_write(o, s, strlen(s));
}

static inline void pidstat_putc(struct pidstat_out *o, char c)
{
	if (o->row_len == sizeof(o->row))
		pidstat_out_flush(o);
	o->row[o->row_len++] = c;
}

/* fprintf into the row. */
void pidstat_printf(struct pidstat_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether the current LC_NUMERIC lets pidstat format numbers itself. */
bool pidstat_fast_numbers(void);
/* " %*llu" */
void pidstat_put_uint(struct pidstat_out *o, int width, unsigned long long v);

/* Low-level field printers: sysstat's cprintf_* (the shared formatting rules). */
void pidstat_put_pc(struct pidstat_out *o, int wi, int wd, double val);
void pidstat_put_f(struct pidstat_out *o, int unit, int wi, int wd, double val);
void pidstat_put_u64(struct pidstat_out *o, int unit, int wi, uint64_t val);
enum { UNIT_NONE = -1, UNIT_BYTE = 1, UNIT_KILOBYTE = 2 };

/* Rate arithmetic (spec 7.4): pure. */
double pidstat_sp_value(uint64_t prev, uint64_t curr, uint64_t itv);
double pidstat_s_value(uint64_t prev, uint64_t curr, uint64_t itv);
uint64_t pidstat_interval(uint64_t prev, uint64_t curr);

#endif
