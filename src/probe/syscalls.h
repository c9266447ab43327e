/*
 * triage probe syscalls, user side: loads syscalls.bpf.c, reads its maps
 * into reports (whole run, or per interval as deltas of the cumulative
 * counters) and renders them as a table or JSON.
 */
#ifndef TRIAGE_PROBE_SYSCALLS_H
#define TRIAGE_PROBE_SYSCALLS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/maps.h"
#include "probe/session.h"
#include "util/json.h"

#define SC_MAX_NR 512	/* = SC_NR_SLOTS of the BPF side */
#define SC_LAT_SLOTS 32 /* = SC_HIST_SLOTS: log2 of microseconds */

struct sc_counts {
	uint64_t count;	  /* calls entered (exact) */
	uint64_t returns; /* calls that returned while traced: the latency sample */
	uint64_t errors;
	uint64_t total_ns;
	uint64_t max_ns; /* since the probe started, also in interval reports */
};

struct sc_errno_count {
	uint32_t nr;  /* syscall */
	uint32_t err; /* positive errno */
	uint64_t count;
};

struct sc_row {
	unsigned nr; /* SC_MAX_NR - 1 collects every larger number */
	struct sc_counts c;
	const uint64_t *hist;		   /* SC_LAT_SLOTS log2(us) slots, or NULL */
	const struct sc_errno_count *errs; /* most frequent first */
	size_t nerrs;
};

/* One process and syscall, counted when every task is traced. */
struct sc_pid_row {
	uint32_t pid; /* tgid */
	unsigned nr;
	uint64_t count, errors, total_ns;
	char comm[PROBE_COMM_LEN];
};

/* A process's share of a system-wide report. */
struct sc_proc {
	uint32_t pid;
	char comm[PROBE_COMM_LEN];
	uint64_t calls, errors, total_ns;
	unsigned top_nr; /* its most frequent syscall */
	uint64_t top_count;
};

/*
 * Sums rows per process, most calls first, into *procs (malloc'ed).
 * Pure; 0 or -ENOMEM.
 */
int sc_procs_from_rows(const struct sc_pid_row *rows, size_t n, struct sc_proc **procs,
		       size_t *nprocs);

struct sc_report {
	struct probe_target target;
	struct sc_proc *procs; /* every task traced: per process, most calls first */
	size_t nprocs;
	uint64_t procs_lost; /* calls not counted per process: no room (cumulative) */
	double elapsed_s;    /* of this report's window */
	double since_start_s;
	bool final;
	bool target_exited;
	uint64_t calls, errors;
	struct sc_row *rows; /* most calls first, then by number */
	size_t nrows;
	struct sc_errno_count *errs; /* storage behind rows[].errs */
	uint64_t *hist;		     /* storage behind rows[].hist, or NULL */
};

void sc_report_release(struct sc_report *r);

/* The name of an errno value: "ENOENT", kernel-internal "ERESTARTSYS", or "E<n>". */
const char *sc_errno_name(uint32_t err, char *buf, size_t len);
/* The name of a syscall row: "openat", or "syscall_<n>" / "syscall_511+". */
const char *sc_row_name(unsigned nr, char *buf, size_t len);

void sc_report_print(FILE *out, const struct sc_report *r, bool hist);
/* One element of the "reports" array. */
void sc_report_json(struct json_writer *w, const struct sc_report *r, bool hist);

/*
 * Builds a report from two cumulative snapshots (prev may be all zero):
 * counts and errors are the deltas, max is cur's. Pure; used by the run
 * loop and the unit tests. Returns 0 or -ENOMEM.
 */
struct sc_snapshot {
	struct sc_counts c[SC_MAX_NR];
	uint64_t *hist;		     /* SC_MAX_NR * SC_LAT_SLOTS, or NULL */
	struct sc_errno_count *errs; /* sorted by nr, err */
	size_t nerrs;
};
int sc_report_delta(const struct sc_snapshot *cur, const struct sc_snapshot *prev,
		    struct sc_report *r);
void sc_snapshot_release(struct sc_snapshot *s);

/* Where reports go; attached() is called once the probes are live. */
struct sc_sink {
	void (*attached)(void *ctx, const struct probe_target *t);
	int (*report)(void *ctx, const struct sc_report *r);
	void *ctx;
};

enum sc_flags {
	SC_HIST = 1,	   /* latency histograms */
	SC_NO_LATENCY = 2, /* counts and errors only: no entry timestamps (cheaper) */
};

/*
 * Runs the probe until a signal, the target's exit, -d or the count-th
 * interval. Returns 0 or -errno with *stage naming the failed step.
 */
int sc_run(const struct probe_opts *opts, unsigned flags, const struct sc_sink *sink,
	   const char **stage);

/*
 * The probe's skeleton alone, for other cores (triage report's
 * enrichment): start it following target (every task when
 * probe_target_all(): then counts are also kept per process), read the
 * per-process rows, stop it.
 */
int sc_probe_start(const struct probe_target *target, unsigned flags, void **skel,
		   const char **stage);
void sc_probe_detach(void *skel);
void sc_probe_stop(void **skel);
enum { SC_MAP_PIDS = 0, SC_CTR_ROWS_FULL = 0 };
/* The maps of the skeleton sc_probe_start() made. */
void sc_probe_maps(void *skel, struct probe_maps *m);
/*
 * The per-process rows gathered so far (malloc'ed into *rows); drain
 * deletes what it reads, so the next read holds only what came after.
 */
int sc_read_pid_rows(const struct probe_maps *m, bool drain, struct sc_pid_row **rows, size_t *n);

/*
 * Loads and attaches the probe (targeting this process) and detaches it
 * again: what 'triage doctor' uses to say whether the probe works here.
 */
int sc_selftest(const char **stage);

#endif
