/*
 * triage collect's use of the existing cores, kept behind one small
 * interface so changes inside them stay local to sources.c: per-process
 * counters come from the pidstat table the report core's rolling window
 * read (all threads: --whole semantics; one read serves both), host
 * counters from the host files the same sample read (report_window_host).
 */
#ifndef TRIAGE_COLLECT_SOURCES_H
#define TRIAGE_COLLECT_SOURCES_H

#include <stdint.h>
#include <sys/types.h>

#include "collect/model.h"
#include "procfs/host.h"
#include "procfs/procfs.h"
#include "report/report.h"

/* One process as the pidstat core read it; counters since the task started. */
struct proc_row {
	pid_t pid;
	uint64_t start; /* with pid, identifies the process */
	const char *comm;
	uint64_t utime, stime, wtime; /* ticks; wtime: run-queue wait over its threads */
	uint64_t nvcsw, nivcsw;	      /* over its threads */
	uint64_t read_bytes, write_bytes, rss_kb;
	unsigned nthreads;
};

typedef int (*proc_row_fn)(void *ctx, const struct proc_row *r);

struct pidstat_table;

/*
 * Calls fn for each process of a pidstat table (snapshot curr), in
 * ascending pid order, its threads summed into it. NULL tb: no rows.
 */
int collect_task_rows(const struct pidstat_table *tb, int curr, proc_row_fn fn, void *ctx);

/*
 * Appends the host's metrics (CPU, load, PSI, memory, disks, network) from
 * the files the report window's sample read; what is missing is skipped.
 */
int collect_host_metrics(const struct report_host_view *v, const struct host_facts *h,
			 struct metric_set *m);

#endif
