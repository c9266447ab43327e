/*
 * Field formatting shared by every pidstat block: decimals (--dec), units
 * (--human) and colours, with sysstat's exact widths and thresholds.
 */
#include "pidstat/fmt.h"

#include <locale.h>
#include <math.h>
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

/* Right-aligns len bytes of s in width columns after a leading space. */
static void put_field(FILE *f, int width, const char *s, size_t len)
{
	char pad[64];
	size_t n = width > (int)len ? (size_t)width - len : 0;

	if (n >= sizeof(pad))
		n = sizeof(pad) - 1;
	pad[0] = ' ';
	memset(pad + 1, ' ', n);
	pidstat_write(f, pad, n + 1);
	pidstat_write(f, s, len);
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

void pidstat_put_uint(FILE *f, int width, unsigned long long v)
{
	char buf[32], *p = utoa_end(buf + sizeof(buf), v);

	put_field(f, width, p, (size_t)(buf + sizeof(buf) - p));
}

/*
 * " %*.*f" without printf's multi-precision path, for decimals 0..2 and
 * moderate values: v * 10^wd is exact in long double (53 + 7 bits), so
 * rounding to nearest with ties to even gives printf's exact result.
 */
static bool put_fixed_fast(FILE *f, int wi, int wd, double v)
{
	static const unsigned scale[] = { 1, 10, 100 };
	char buf[48], *p = buf + sizeof(buf);
	long double x, ip, frac;
	unsigned long long q;

	if (wd < 0 || wd > 2 || !(fabs(v) < 1e15))
		return false;
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
	put_field(f, wi, p, (size_t)(buf + sizeof(buf) - p));
	return true;
}

static void put_fixed(const struct pidstat_out *o, int wi, int wd, double v)
{
	if (!o->fast || !put_fixed_fast(o->f, wi, wd, v))
		fprintf(o->f, " %*.*f", wi, wd, v);
}

static const char units[] = "sBkMGTP?";

/* A value scaled to the largest unit (sysstat's cprintf_unit). */
static void put_unit(const struct pidstat_out *o, int unit, int wi, double v)
{
	if (wi < 4)
		wi = 4;
	while (v >= 1024) {
		v /= 1024;
		unit++;
	}
	put_fixed(o, wi - 1, o->dec ? 1 : 0, v);
	pidstat_puts(o->col.normal, o->f);
	fputc_unlocked(units[unit < (int)sizeof(units) - 1 ? unit : (int)sizeof(units) - 2], o->f);
}

void pidstat_put_pc(const struct pidstat_out *o, int wi, int wd, double v)
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
	pidstat_puts(c, o->f);
	put_fixed(o, wi, wd, v);
	pidstat_puts(o->col.normal, o->f);
	if (o->human)
		fputc_unlocked('%', o->f);
}

void pidstat_put_f(const struct pidstat_out *o, int unit, int wi, int wd, double v)
{
	double lim = 0.005;
	bool zero;

	if (wd > 0 && o->dec >= 0)
		wd = o->dec;
	if (wd == 1)
		lim = 0.05;
	zero = (wd > 0 && v < lim && v > -lim) || (wd == 0 && v <= 0.5 && v >= -0.5);
	pidstat_puts(zero ? o->col.zero : o->col.nz, o->f);
	if (unit < 0) {
		put_fixed(o, wi, wd, v);
		pidstat_puts(o->col.normal, o->f);
	} else {
		put_unit(o, unit, wi, v);
	}
}

void pidstat_put_u64(const struct pidstat_out *o, int unit, int wi, uint64_t v)
{
	pidstat_puts(v ? o->col.nz : o->col.zero, o->f);
	if (unit < 0) {
		pidstat_put_uint(o->f, wi, v);
		pidstat_puts(o->col.normal, o->f);
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
