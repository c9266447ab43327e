/*
 * The kernel's load-average arithmetic (kernel/sched/loadavg.c,
 * include/linux/sched/loadavg.h), reproduced in user space so that a
 * reconstruction decays exactly as /proc/loadavg does: 11 fractional bits,
 * one step every LOAD_FREQ (5 s + 1 tick), per-step decay factors
 * 2048*e^(-5/60), e^(-5/300), e^(-5/900) rounded to integers.
 */
#ifndef TRIAGE_LOAD_AVG_H
#define TRIAGE_LOAD_AVG_H

#include <stdint.h>

#define LOAD_FSHIFT 11
#define LOAD_FIXED_1 (1UL << LOAD_FSHIFT)
#define LOAD_EXP_1 1884UL
#define LOAD_EXP_5 2014UL
#define LOAD_EXP_15 2037UL
#define LOAD_PERIOD_S 5.0 /* plus one tick: 5.004 s at HZ=250 */

/* The three decay factors, in the order of /proc/loadavg. */
extern const unsigned long load_exp[3];

/*
 * One step: load*exp + active*(FIXED_1-exp), divided by FIXED_1, rounded up
 * while the load rises (active >= load) and down otherwise, so that a
 * constant count is reached exactly and an idle machine decays to 0.
 * load and active share one fixed-point scale: FIXED_1 for the kernel's
 * own figures, a finer one for per-task figures (the formula does not
 * depend on it).
 */
uint64_t load_calc(uint64_t load, unsigned long exp, uint64_t active);

/* n steps with the same active count, as calc_load_n() does after NO_HZ idle. */
uint64_t load_calc_n(uint64_t load, unsigned long exp, uint64_t active, unsigned n);

/* x^n in fixed point (kernel fixed_power_int), rounding each product. */
uint64_t load_fixed_power(uint64_t x, unsigned frac_bits, unsigned n);

/*
 * /proc/loadavg's text of a fixed-point value: it adds FIXED_1/200 and
 * prints the integer part and two truncated decimals. Writes them to
 * *ipart and *hundredths.
 */
void load_fixed_format(uint64_t fixed, unsigned long *ipart, unsigned *hundredths);

/*
 * The fixed-point value at the middle of the range that prints as
 * ipart.hundredths in /proc/loadavg: how a reconstruction is seeded.
 */
uint64_t load_fixed_from_printed(unsigned long ipart, unsigned hundredths);

/* Same, from a parsed double such as procfs_loadavg_parse() gives (e.g. 2.35). */
uint64_t load_fixed_from_double(double printed);

static inline double load_fixed_to_double(uint64_t fixed, unsigned shift)
{
	return (double)fixed / (double)(1ULL << shift);
}

#endif
