/* Shared definitions for every triage module. */
#ifndef TRIAGE_COMMON_H
#define TRIAGE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define UNUSED __attribute__((unused))

/* Exit statuses of every triage command (pidstat mode uses sysstat's). */
enum triage_exit {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,   /* a runtime failure */
	EXIT_USAGE = 2,	    /* bad command line or bad input file */
	EXIT_NOSUPPORT = 3, /* missing privilege or kernel support */
};

#define TRIAGE_VERSION "0.1.0"

#endif
