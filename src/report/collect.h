/* Internal to src/report: the window's state between collection and results. */
#ifndef TRIAGE_REPORT_COLLECT_H
#define TRIAGE_REPORT_COLLECT_H

#include "procfs/host.h"
#include "procfs/hoststats.h"
#include "procfs/parsers.h"
#include "procfs/procfs.h"
#include "report/cgroups.h"
#include "report/report.h"
#include "report/source.h"
#include "report/sources.h"
#include "runloop/clock.h"

struct window {
	const struct report_opts *o; /* live; NULL over another source */
	const struct report_source *src;
	struct report_source live;    /* the source over pf (live, or a fixture) */
	struct report_host_reader rd; /* live: the host reader over pf */
	struct procfs *pf;	      /* live; NULL over another source */
	struct host_facts host;
	pid_t self;
	time_t wall0;
	struct runloop_clock clk; /* the window's pace: seconds live, steps in a fixture */
	double t0, t1;		  /* monotonic: first and last task sample (live) */
	int last_step;		  /* fixture: the last step read */
	char cg_prefix[32];	  /* "" live, "stepN/" in a fixture */
	struct report_host_snap h[2];
	struct cg_set cg;
	bool cg_mounted;
	struct dtask_look d1;
	struct loadavg load;
	bool have_load;
	struct task_sampler *ts;
	unsigned task_samples;
	double sample_cost; /* CPU seconds of the latest task sample */
	double task_period; /* seconds between task samples (live) */
	double next_task;   /* live: the window's second of the next task sample */
	double runnable_sum;
	unsigned runnable_n;
	struct loadavg last_load; /* the last run-queue sample's */
	bool have_last_load;
	struct report_data *d; /* live: its eBPF enrichment hears of each task sample */
	double last_task_s;    /* live: monotonic time of the last task sample */
};

/* The kernel log's events within the window and the recent past. */
void report_kmsg_results(const struct window *w, struct report_data *d);
/* report_softnet_results.c: the CPUs whose backlog dropped packets over the window */
void report_softnet_results(const struct window *w, struct report_data *d);

/* results_procs.c: memory-growth, pid-exhaustion and process-churn's parents */
/* seconds: between the window's first and last task samples */
void report_growth_results(const struct window *w, double seconds, struct report_data *d);
void report_pids_results(const struct window *w, struct report_data *d);
int report_spawner_results(const struct window *w, struct report_data *d);

/* Turns the window's readings into the rules' data. */
int report_window_results(struct window *w, struct report_data *d);

#endif
