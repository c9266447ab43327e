/*
 * Field formatting shared by every pidstat block: decimals (--dec), units
 * (--human) and colours, with sysstat's exact widths and thresholds.
 */
#include "pidstat/fmt.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* sysstat 12.6.1's percentage colour thresholds */
#define PERCENT_HIGH 75.0
#define PERCENT_LOW 50.0

static void set_sgr(char *dst, const char *code)
{
	snprintf(dst, 16, "\x1b[%sm", code);
}

/* S_COLORS_SGR entries "X=digits;..." of 3 to 7 characters (spec 3.9). */
static void apply_sgr(struct pidstat_colors *c, const char *sgr)
{
	const char *p = sgr;

	while (*p) {
		size_t n = strcspn(p, ":");
		char e[8];

		if (n >= 3 && n <= 7 && p[1] == '=') {
			memcpy(e, p, n);
			e[n] = '\0';
			if (strspn(e + 2, ";0123456789") == n - 2) {
				char *dst = e[0] == 'H'	  ? c->high
					    : e[0] == 'M' ? c->low
					    : e[0] == 'Z' ? c->zero
					    : e[0] == 'N' ? c->nz
					    : e[0] == 'I' ? c->item
							  : NULL;
				if (dst)
					set_sgr(dst, e + 2);
			}
		}
		p += n;
		while (*p == ':')
			p++;
	}
}

void pidstat_colors_init(struct pidstat_colors *c, const char *s_colors, const char *sgr,
			 bool stdout_tty)
{
	bool on = s_colors
		      ? strcmp(s_colors, "never") && (!strcmp(s_colors, "always") || stdout_tty)
		      : stdout_tty;

	memset(c, 0, sizeof(*c));
	if (!on)
		return;
	set_sgr(c->high, "31;1");
	set_sgr(c->low, "35;1");
	set_sgr(c->zero, "34;22");
	set_sgr(c->nz, "34;1");
	set_sgr(c->item, "32;22");
	set_sgr(c->normal, "0");
	if (sgr)
		apply_sgr(c, sgr);
}

bool pidstat_fast_numbers(void)
{
	const struct lconv *lc = localeconv();

	return lc && !strcmp(lc->decimal_point, ".");
}

void pidstat_out_flush(struct pidstat_out *o)
{
	if (o->row_len)
		fwrite_unlocked(o->row, 1, o->row_len, o->f);
	o->row_len = 0;
}

void pidstat_write_long(struct pidstat_out *o, const char *s, size_t len)
{
	pidstat_out_flush(o);
	if (len <= sizeof(o->row)) {
		memcpy(o->row, s, len);
		o->row_len = len;
	} else {
		fwrite_unlocked(s, 1, len, o->f);
	}
}

void pidstat_printf(struct pidstat_out *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(buf)) {
		pidstat_write(o, buf, (size_t)n);
		return;
	}
	pidstat_out_flush(o);
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

/*
 * Right-aligns len bytes of s in width columns after a leading space
 * (" %*s"; padding past 63 is cut to 63: no sysstat width comes near).
 */
static void put_field(struct pidstat_out *o, int width, const char *s, size_t len)
{
	size_t n = width > (int)len ? (size_t)width - len : 0;
	char *p;

	if (n > 63)
		n = 63;
	if (1 + n + len > sizeof(o->row) - o->row_len) {
		pidstat_out_flush(o);
		if (1 + n + len > sizeof(o->row)) {
			fprintf(o->f, "%*s", (int)n + 1, "");
			fwrite_unlocked(s, 1, len, o->f);
			return;
		}
	}
	p = o->row + o->row_len;
	memset(p, ' ', n + 1);
	memcpy(p + n + 1, s, len);
	o->row_len += 1 + n + len;
}

/* Digits of v at the end of buf; returns where they start. */
static char *utoa_end(char *end, unsigned long long v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void pidstat_put_uint(struct pidstat_out *o, int width, unsigned long long v)
{
	char buf[32], *p = utoa_end(buf + sizeof(buf), v);

	put_field(o, width, p, (size_t)(buf + sizeof(buf) - p));
}

/*
 * " %*.*f" without printf's multi-precision path, for decimals 0..2 and
 * moderate values: v * 10^wd is exact in long double (53 + 7 bits), so
 * rounding to nearest with ties to even gives printf's exact result. Most
 * of a -p ALL report is idle threads' +0.0: that one needs no arithmetic.
 */
static bool put_fixed_fast(struct pidstat_out *o, int wi, int wd, double v)
{
	static const unsigned scale[] = { 1, 10, 100 };
	static const char *const zeros[] = { "0", "0.0", "0.00" };
	char buf[48], *p = buf + sizeof(buf);
	long double x, ip, frac;
	unsigned long long q;

	if (wd < 0 || wd > 2 || !(fabs(v) < 1e15))
		return false;
	if (v == 0.0 && !signbit(v)) {
		put_field(o, wi, zeros[wd], (size_t)wd + (wd > 0) + 1);
		return true;
	}
	x = fabsl((long double)v * scale[wd]);
	ip = floorl(x);
	frac = x - ip;
	q = (unsigned long long)ip;
	if (frac > 0.5L || (frac == 0.5L && (q & 1)))
		q++;
	for (int i = 0; i < wd; i++) {
		*--p = (char)('0' + q % 10);
		q /= 10;
	}
	if (wd)
		*--p = '.';
	p = utoa_end(p, q);
	if (signbit(v))
		*--p = '-';
	put_field(o, wi, p, (size_t)(buf + sizeof(buf) - p));
	return true;
}

static void put_fixed(struct pidstat_out *o, int wi, int wd, double v)
{
	if (!o->fast || !put_fixed_fast(o, wi, wd, v))
		pidstat_printf(o, " %*.*f", wi, wd, v);
}

static const char units[] = "sBkMGTP?";

/* A value scaled to the largest unit (sysstat's cprintf_unit). */
static void put_unit(struct pidstat_out *o, int unit, int wi, double v)
{
	if (wi < 4)
		wi = 4;
	while (v >= 1024) {
		v /= 1024;
		unit++;
	}
	put_fixed(o, wi - 1, o->dec ? 1 : 0, v);
	pidstat_puts(o, o->col.normal);
	pidstat_putc(o, units[unit < (int)sizeof(units) - 1 ? unit : (int)sizeof(units) - 2]);
}

void pidstat_put_pc(struct pidstat_out *o, int wi, int wd, double v)
{
	double lim = 0.005;
	const char *c;

	if (wd > 0 && o->dec >= 0)
		wd = o->dec;
	if (o->human) {
		if (wi < 4)
			wi = 4;
		wi -= 1;
		if (wd > 1)
			wd -= 1;
	}
	if (wd == 1)
		lim = 0.05;
	if (v >= PERCENT_HIGH)
		c = o->col.high;
	else if (v >= PERCENT_LOW)
		c = o->col.low;
	else if ((wd > 0 && v < lim) || (wd == 0 && v <= 0.5))
		c = o->col.zero;
	else
		c = o->col.nz;
	pidstat_puts(o, c);
	put_fixed(o, wi, wd, v);
	pidstat_puts(o, o->col.normal);
	if (o->human)
		pidstat_putc(o, '%');
}

void pidstat_put_f(struct pidstat_out *o, int unit, int wi, int wd, double v)
{
	double lim = 0.005;
	bool zero;

	if (wd > 0 && o->dec >= 0)
		wd = o->dec;
	if (wd == 1)
		lim = 0.05;
	zero = (wd > 0 && v < lim && v > -lim) || (wd == 0 && v <= 0.5 && v >= -0.5);
	pidstat_puts(o, zero ? o->col.zero : o->col.nz);
	if (unit < 0) {
		put_fixed(o, wi, wd, v);
		pidstat_puts(o, o->col.normal);
	} else {
		put_unit(o, unit, wi, v);
	}
}

void pidstat_put_u64(struct pidstat_out *o, int unit, int wi, uint64_t v)
{
	pidstat_puts(o, v ? o->col.nz : o->col.zero);
	if (unit < 0) {
		pidstat_put_uint(o, wi, v);
		pidstat_puts(o, o->col.normal);
	} else {
		put_unit(o, unit, wi, (double)v);
	}
}

double pidstat_sp_value(uint64_t prev, uint64_t curr, uint64_t itv)
{
	return (double)(curr - prev) / (double)itv * 100;
}

double pidstat_s_value(uint64_t prev, uint64_t curr, uint64_t itv)
{
	return (double)(curr - prev) / (double)itv * 100;
}

uint64_t pidstat_interval(uint64_t prev, uint64_t curr)
{
	uint64_t itv = curr - prev;

	return itv ? itv : 1;
}
