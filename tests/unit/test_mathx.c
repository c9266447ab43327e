/*
 * util/mathx.h against the C library's floor, lround and llround (libm, the
 * oracle): edge cases, then a sweep of values around every halfway point and
 * integer a run of doubles can reach.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "util/mathx.h"

static const double edges[] = {
	0.0,
	-0.0,
	0.5,
	-0.5,
	1.5,
	-1.5,
	2.5,
	-2.5,
	0.49999999999999994,
	-0.49999999999999994,
	0.50000000000000011,
	1e-300,
	-1e-300,
	DBL_MIN,
	-DBL_MIN,
	1.0 - DBL_EPSILON / 2,
	-1.0 + DBL_EPSILON / 2,
	4503599627370495.5,
	-4503599627370495.5,
	4503599627370496.0,
	-4503599627370497.0,
	9007199254740991.0,
	1e15 + 0.5,
	-1e15 - 0.5,
	1700000000.999999,
	-1700000000.000001,
	123456.5,
	-123456.5,
	1e18,
	-1e18,
};

static int same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0; /* -0.0 and 0.0 differ */
}

TEST(edges_match_libm)
{
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		double x = edges[i];

		if (!same_double(util_floor(x), floor(x)))
			UNIT_FAIL_("util_floor(%.17g) = %.17g, floor says %.17g", x, util_floor(x),
				   floor(x));
		if (util_llround(x) != llround(x))
			UNIT_FAIL_("util_llround(%.17g) = %lld, llround says %lld", x,
				   util_llround(x), llround(x));
		if (util_lround(x) != lround(x))
			UNIT_FAIL_("util_lround(%.17g) = %ld, lround says %ld", x, util_lround(x),
				   lround(x));
	}
}

TEST(floor_passes_nan_and_infinity)
{
	ASSERT_TRUE(isnan(util_floor(NAN)));
	ASSERT_TRUE(util_floor(INFINITY) == INFINITY);
	ASSERT_TRUE(util_floor(-INFINITY) == -INFINITY);
}

/* Each halfway point and integer from -3000 to 3000 in steps of 1/4, and
 * the doubles next to them, at several magnitudes. */
TEST(sweep_matches_libm)
{
	static const double scale[] = { 1, 1e3, 1e6, 1e9, 1e12 };

	for (size_t s = 0; s < sizeof(scale) / sizeof(scale[0]); s++)
		for (int q = -12000; q <= 12000; q++) {
			double c = q / 4.0 * scale[s];
			double xs[] = { c, nextafter(c, INFINITY), nextafter(c, -INFINITY), c + 0.5,
					c - 0.5 };

			for (size_t k = 0; k < sizeof(xs) / sizeof(xs[0]); k++) {
				double x = xs[k];

				if (!same_double(util_floor(x), floor(x)))
					UNIT_FAIL_("util_floor(%.17g) = %.17g, floor says %.17g", x,
						   util_floor(x), floor(x));
				if (util_llround(x) != llround(x))
					UNIT_FAIL_("util_llround(%.17g) = %lld, llround says %lld",
						   x, util_llround(x), llround(x));
			}
		}
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, edges_match_libm);
	RUN(&st, floor_passes_nan_and_infinity);
	RUN(&st, sweep_matches_libm);
	UNIT_MAIN_END(&st);
}
