/* Strict number parsing for command lines and files: no silent garbage. */
#ifndef TRIAGE_PARSE_H
#define TRIAGE_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Parses a whole string of decimal digits into *out, with no sign, space or
 * trailing text. Returns 0, -EINVAL for anything else, -ERANGE if it does
 * not fit in max.
 */
int parse_u64(const char *s, uint64_t max, uint64_t *out);

/* Same, for an unsigned int in [min, max]. */
int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);

/* Parses a positive decimal number of seconds such as "2" or "0.5". */
int parse_seconds(const char *s, double *out);

/*
 * The one duration syntax of every option that takes one: a number with a
 * unit, ms, s, m, h or d ("500ms", "10s", "1m", "1.5h"), or a sum of them
 * ("1h30m"); a bare number ("10", "0.5") is in bare_unit seconds (1 for
 * most options; 3600 for a count of hours). No sign, exponent or space.
 * Returns 0, -EINVAL for anything else, -ERANGE for zero.
 */
int parse_duration_in(const char *s, double bare_unit, double *out);
/* parse_duration_in(s, 1, out): a bare number is seconds. */
int parse_duration(const char *s, double *out);

/*
 * "PID,PID,..." (each 1 to 2^30) appended to pids[*n], at most max in all.
 * Returns 0, or -EINVAL for an empty list, a bad PID or too many.
 */
int parse_pid_list(const char *s, pid_t *pids, size_t max, size_t *n);

/*
 * The index of s among the n words (an exact match), or -EINVAL when it is
 * none of them: for option values such as "--color never".
 */
int parse_keyword(const char *s, const char *const *words, size_t n);

#endif
