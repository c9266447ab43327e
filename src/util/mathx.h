/*
 * floor, lround and llround without libm. triage's own code needs only
 * these three, and linking libm for them costs every command a library to
 * map and relocate at start (docs/performance.md, start-up). Same results
 * as C99's functions for every finite double whose result fits the return
 * type; NaN and infinities pass through util_floor unchanged.
 */
#ifndef TRIAGE_UTIL_MATHX_H
#define TRIAGE_UTIL_MATHX_H

/* 2^52: from here on every double is an integer. */
#define UTIL_MATHX_INTEGRAL 4503599627370496.0

/* The largest integer not above x (-0.0 and integers unchanged). */
static inline double util_floor(double x)
{
	double t;

	if (!(x > -UTIL_MATHX_INTEGRAL && x < UTIL_MATHX_INTEGRAL) || x == 0)
		return x;	  /* already integral, or NaN, or a zero keeping its sign */
	t = (double)(long long)x; /* toward zero, exact in this range */
	return t > x ? t - 1 : t; /* below zero, toward zero went up */
}

/*
 * x rounded to the nearest integer, halfway cases away from zero. The
 * fraction x - trunc(x) is exact, so 0.49999999999999994 rounds to 0
 * (x + 0.5 would round up first).
 */
static inline long long util_llround(double x)
{
	long long t;
	double frac;

	if (!(x > -UTIL_MATHX_INTEGRAL && x < UTIL_MATHX_INTEGRAL))
		return (long long)x; /* integral already (out of range: undefined, as llround) */
	t = (long long)x;
	frac = x - (double)t;
	if (frac >= 0.5)
		t++;
	else if (frac <= -0.5)
		t--;
	return t;
}

static inline long util_lround(double x)
{
	return (long)util_llround(x);
}

#endif
