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
