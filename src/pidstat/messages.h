/*
 * sysstat's texts and exit statuses: usage, version, failures
 * (src/pidstat/messages.c, with sysstat's message catalogue).
 */
#ifndef TRIAGE_PIDSTAT_MESSAGES_H
#define TRIAGE_PIDSTAT_MESSAGES_H

#include <stdio.h>

/* pidstat_loop() results besides 0; the shell prints sysstat's message. */
enum pidstat_err {
	PIDSTAT_E_UPTIME = 1001, /* "Cannot read /proc/uptime", exit 2 */
	PIDSTAT_E_STAT,		 /* "Cannot open /proc/stat: ...", exit 2 */
	PIDSTAT_E_OPENDIR,	 /* "opendir: ...", exit 4 */
	PIDSTAT_E_NOMEM,	 /* "malloc: ...", exit 4 */
	PIDSTAT_E_STDOUT,	 /* "stdout: ...", exit 6 */
	PIDSTAT_DONE_NO_AVG,	 /* internal: no task left, no Average */
};

/* sysstat's texts, from its message catalogue (src/pidstat/messages.c). */
void pidstat_bind_messages(void);
void pidstat_write_usage(FILE *f, const char *progname);
void pidstat_write_version(FILE *f);
void pidstat_write_no_activity(FILE *f);
const char *pidstat_average_label(void);
/* Prints sysstat's message for a pidstat_loop() result; returns the exit status. */
int pidstat_write_failure(FILE *f, int rc, int err);

#endif
