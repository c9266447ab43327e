#include "load/avg.h"

const unsigned long load_exp[3] = { LOAD_EXP_1, LOAD_EXP_5, LOAD_EXP_15 };

uint64_t load_calc(uint64_t load, unsigned long exp, uint64_t active)
{
	uint64_t next = load * exp + active * (LOAD_FIXED_1 - exp);

	if (active >= load)
		next += LOAD_FIXED_1 - 1;
	return next / LOAD_FIXED_1;
}

uint64_t load_fixed_power(uint64_t x, unsigned frac_bits, unsigned n)
{
	uint64_t result = 1ULL << frac_bits;

	if (n) {
		for (;;) {
			if (n & 1) {
				result *= x;
				result += 1ULL << (frac_bits - 1);
				result >>= frac_bits;
			}
			n >>= 1;
			if (!n)
				break;
			x *= x;
			x += 1ULL << (frac_bits - 1);
			x >>= frac_bits;
		}
	}
	return result;
}

uint64_t load_calc_n(uint64_t load, unsigned long exp, uint64_t active, unsigned n)
{
	return load_calc(load, (unsigned long)load_fixed_power(exp, LOAD_FSHIFT, n), active);
}

void load_fixed_format(uint64_t fixed, unsigned long *ipart, unsigned *hundredths)
{
	uint64_t v = fixed + LOAD_FIXED_1 / 200;

	*ipart = (unsigned long)(v >> LOAD_FSHIFT);
	*hundredths = (unsigned)(((v & (LOAD_FIXED_1 - 1)) * 100) >> LOAD_FSHIFT);
}

/* Smallest fixed value that prints at least ipart.hundredths. */
static uint64_t first_printing(unsigned long ipart, unsigned hundredths)
{
	/* v = fixed + 10 prints h when floor(frac(v)*100/2048) >= h. */
	uint64_t frac = ((uint64_t)hundredths * LOAD_FIXED_1 + 99) / 100;
	uint64_t v = ((uint64_t)ipart << LOAD_FSHIFT) + frac;

	return v >= LOAD_FIXED_1 / 200 ? v - LOAD_FIXED_1 / 200 : 0;
}

uint64_t load_fixed_from_printed(unsigned long ipart, unsigned hundredths)
{
	uint64_t lo = first_printing(ipart, hundredths), hi;

	if (hundredths >= 99)
		hi = first_printing(ipart + 1, 0);
	else
		hi = first_printing(ipart, hundredths + 1);
	return hi > lo ? lo + (hi - 1 - lo) / 2 : lo;
}

uint64_t load_fixed_from_double(double printed)
{
	uint64_t cents;

	if (!(printed >= 0) || printed > 1e12)
		return 0;
	cents = (uint64_t)(printed * 100.0 + 0.5);
	return load_fixed_from_printed((unsigned long)(cents / 100), (unsigned)(cents % 100));
}
