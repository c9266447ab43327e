/* Cgroup CPU throttling, memory events and I/O limits over the report's window. */
#ifndef TRIAGE_REPORT_CGROUPS_H
#define TRIAGE_REPORT_CGROUPS_H

#include "procfs/hoststats.h"
#include "procfs/procfs.h"
#include "report/report.h"

struct cg_values {
	struct cg_cpu_stat cpu;
	struct cg_mem_events mem;
	uint64_t failcnt; /* v1 memory.failcnt */
	struct cg_io_stat io;
};

struct cg_track {
	char dir[512]; /* relative to the root (and the prefix) */
	int version;
	bool cpu, mem;
	double quota_cpus;
	bool io;		       /* limits I/O */
	struct cg_io_limit io_limit;   /* the first limited device */
	char io_device[DISK_NAME_MAX]; /* its name */
	struct cg_values start, end;
	bool have_end;
};

struct cg_set {
	struct cg_track *t;
	size_t n, cap;
};

/*
 * Finds the cgroups to track and reads their counters; *any_mount: a
 * hierarchy was there. prefix goes before every path: "" for a live root,
 * "stepN/" for a fixture's step N (its own sys/fs/cgroup).
 */
int report_cg_scan_start(const struct procfs *pf, const char *prefix, struct cg_set *set,
			 bool *any_mount);
void report_cg_scan_end(const struct procfs *pf, const char *prefix, struct cg_set *set);
/* The window's deltas, cgroups with events first; returns how many were written. */
size_t report_cg_results(const struct procfs *pf, const char *prefix, const struct cg_set *set,
			 struct rp_cgroup *out, size_t max);
void report_cg_set_release(struct cg_set *set);

#endif
