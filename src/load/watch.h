/*
 * --watch: the kernel's load average rebuilt from task samples, and split
 * into per-task and per-cgroup shares.
 *
 * The kernel counts nr_running + nr_uninterruptible once per LOAD_FREQ and
 * folds the count into three fixed-point averages. The average is linear in
 * the count, so one average per task (and per cgroup, runnable and D kept
 * apart) sums to the whole. We sample task states several times per
 * period, use the mean count of each task as its expected contribution to
 * the kernel's point sample, and fold at the moments /proc/loadavg changes,
 * so both sides decay in step. A decaying "before" bucket, seeded from
 * /proc/loadavg, holds what the tasks did before we started.
 *
 * The machine-wide figure takes its runnable part from the kernel's own
 * nr_running in /proc/loadavg (minus the reader), read at every poll, and
 * its D part from the task scans: runnable counts change fast and polls
 * are cheap, D waits are long and need a scan to be seen. What the
 * per-task shares do not cover of it is reported as unattributed.
 */
#ifndef TRIAGE_LOAD_WATCH_H
#define TRIAGE_LOAD_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "load/avg.h"
#include "load/snapshot.h"
#include "load/verdict.h"

/* Per-task shares keep 10 more fractional bits than the kernel's 11. */
#define WATCH_FINE_SHIFT (LOAD_FSHIFT + 10)
#define WATCH_FINE_1 (1ULL << WATCH_FINE_SHIFT)
#define WATCH_TOP_DEFAULT 10
#define WATCH_TOP_CG 5

struct watch_task {
	pid_t pid, tid;
	unsigned long long starttime;
	char comm[COMM_MAX];
	int cg;		      /* index into watch_state.cgs */
	struct d_verdict why; /* the last D reason seen */
	bool kernel_thread;
	uint64_t r[3], d[3];	 /* fine fixed point */
	uint32_t hits_r, hits_d; /* samples in this period */
	uint64_t hold_r, hold_d; /* the last period's mean, for periods without a scan */
};

struct watch_cgroup {
	char path[CGROUP_PATH_MAX];
	uint64_t r[3], d[3];
	uint32_t hits_r, hits_d;
	uint64_t hold_r, hold_d;
};

struct watch_state {
	uint64_t total[3];	  /* the reconstruction, kernel fixed point */
	uint64_t before[3];	  /* fine fixed point */
	struct watch_task *tasks; /* sorted by tid */
	size_t ntasks, cap;
	struct watch_cgroup *cgs;
	size_t ncgs, cgcap;
	uint32_t samples; /* in this period */
	uint64_t hits_d;  /* counted D tasks summed over this period's scans */
	uint64_t hold_d;  /* the last period's mean D count, kernel fixed point */
	uint64_t polls_r; /* runnable counts summed over this period's polls */
	uint32_t polls;
	uint64_t hold_r;     /* the last period's mean runnable count, kernel fixed point */
	unsigned held_steps; /* folds of periods without a scan of their own */
	unsigned steps;
	unsigned forced_steps; /* folds at a predicted time: /proc/loadavg did not move */
	bool last_forced;
	double start, last_step, next_due, period;
	char last_figures[64]; /* the three averages' text in /proc/loadavg */
	struct loadavg kernel; /* latest */
	unsigned frozen_now;
	int ncpu;
	bool have_psi_io, have_psi_cpu;
	double psi_io_some10, psi_cpu_some10;
};

/* Starts from the kernel's figures: seeds the total and the "before" bucket. */
void load_watch_init(struct watch_state *ws, const char *loadavg_text, double now, int ncpu);
void load_watch_release(struct watch_state *ws);

/*
 * Reads the kernel's side: the /proc/loadavg text and the time (seconds,
 * any origin). Folds a period when the kernel has folded one (its figures
 * changed since the previous call) or one is overdue; a period without a
 * scan folds with the last period's means. Cheap: call it often (10 Hz)
 * so the folds keep the kernel's phase even when scans are seconds apart.
 * Returns 1 if it folded, else 0.
 */
int load_watch_kernel_tick(struct watch_state *ws, const char *loadavg_text, double now);

/* Adds one task scan to the current period. Returns 0 or -ENOMEM. */
int load_watch_add_scan(struct watch_state *ws, const struct load_snapshot *snap);

/* Both, for a scan taken right after reading loadavg_text. */
int load_watch_tick(struct watch_state *ws, const char *loadavg_text,
		    const struct load_snapshot *snap, double now);

/* One task or cgroup in the report, 1-minute shares. */
struct watch_contrib {
	pid_t pid, tid;
	char name[CGROUP_PATH_MAX]; /* comm, or the cgroup path */
	char cgroup[CGROUP_PATH_MAX];
	double runnable, d;
	struct d_verdict why;
};

struct watch_report {
	double elapsed;
	double kernel[3], recon[3];
	double runnable[3], d[3], before[3]; /* sums of the per-task shares */
	double unattributed[3];		     /* recon - before - the task sums */
	double reason1[D_REASON_COUNT];	     /* 1-minute D share by reason */
	double error1_pct;		     /* (recon - kernel) / kernel, 1 minute */
	unsigned steps, forced_steps, held_steps;
	unsigned ntracked;
	struct watch_contrib *top; /* up to the max_top asked for, largest first */
	int ntop, max_top;
	struct watch_contrib topcg[WATCH_TOP_CG];
	int ntopcg;
	/* Filled by the sampler loop. */
	double rate_hz, cpu_pct, scan_ms;
	unsigned threads;
	bool realtime;
	int ncpu;
	unsigned frozen_now;
};

/* Builds r with the max_top largest tasks; returns 0 or -ENOMEM. */
int load_watch_report_build(const struct watch_state *ws, double now, int max_top,
			    struct watch_report *r);
void load_watch_report_release(struct watch_report *r);

/* The verdict of an interval, from the 1-minute shares. */
void load_verdict_input_from_watch(const struct watch_report *r, const struct watch_state *ws,
				   struct verdict_input *in);

/*
 * The sampling period that keeps a scan costing cost_s CPU seconds within
 * budget (fraction of one CPU), bounded to [min_s, max_s].
 */
double load_watch_period_for_budget(double cost_s, double budget, double min_s, double max_s);

/* Copies the three averages of a /proc/loadavg text ("1.11 0.37 0.13"). */
void load_avg_figures(const char *text, char *out, size_t size);

#endif
