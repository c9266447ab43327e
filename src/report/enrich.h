/* eBPF enrichment of the report (see enrich.c); a no-op when it cannot run. */
#ifndef TRIAGE_REPORT_ENRICH_H
#define TRIAGE_REPORT_ENRICH_H

#include "report/report.h"

/* Starts the probes before the window (live roots only), or lists why not in d->skipped. */
void report_enrich_start(const struct report_opts *o, bool fixture, struct report_data *d);
/* Stops them after the window; parts that did not run go to d->skipped. */
void report_enrich_stop(struct report_data *d);
void report_enrich_free(struct report_data *d);

struct pidstat_table;
/*
 * After a task sample of the window (tb, snapshot curr; seconds since the
 * previous one, 0 for the first; hz its clock tick): the syscalls part
 * starts counting each process that spent REPORT_SYSCALL_WATCH_PCT of one
 * CPU in the kernel (see enrich.c), self excepted. A no-op without eBPF.
 */
void report_enrich_sampled(struct report_data *d, const struct pidstat_table *tb, int curr,
			   double seconds, long hz, int self);

#endif
