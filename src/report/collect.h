/* Internal to src/report: the window's state between collection and results. */
#ifndef TRIAGE_REPORT_COLLECT_H
#define TRIAGE_REPORT_COLLECT_H

#include "procfs/host.h"
#include "procfs/hoststats.h"
#include "procfs/parsers.h"
#include "procfs/procfs.h"
#include "report/cgroups.h"
#include "report/report.h"
#include "report/sources.h"
#include "runloop/clock.h"

/* Host counters at one end of the window. */
struct host_snap {
	struct cpu_stat cpu;
	struct psi psi[RP_PSI_COUNT];
	struct meminfo mem;
	struct vmstat vm;
	struct disk_stats disks;
	struct iface_stats ifaces;
	struct tcp_counters tcp[RP_MAX_NETNS + 1];
	uint64_t uptime_cs;
	bool have_cpu, have_psi[RP_PSI_COUNT], have_mem, have_vm, have_disks, have_ifaces,
	    have_uptime, have_tcp[RP_MAX_NETNS + 1];
};

struct window {
	const struct report_opts *o;
	/* a recorded window (triage replay): no procfs; cgroups and kernel log not kept */
	bool recorded;
	struct procfs *pf;
	struct host_facts host;
	pid_t self;
	time_t wall0;
	struct runloop_clock clk; /* the window's pace: seconds live, steps in a fixture */
	double t0, t1;		  /* monotonic: first and last task sample (live) */
	int last_step;		  /* fixture: the last step read */
	char cg_prefix[32];	  /* "" live, "stepN/" in a fixture */
	struct host_snap h[2];
	/* network namespaces: [0] is ours */
	struct rp_netns ns[RP_MAX_NETNS + 1];
	char ns_id[RP_MAX_NETNS + 1][64];
	size_t nns;
	struct cg_set cg;
	bool cg_mounted;
	struct dtask_look d1;
	struct loadavg load;
	bool have_load;
	struct task_sampler *ts;
	unsigned task_samples;
	double sample_cost; /* CPU seconds of the first task sample */
	double task_period; /* seconds between task samples (live) */
	double next_task;   /* live: the window's second of the next task sample */
	double runnable_sum;
	unsigned runnable_n;
	struct loadavg last_load; /* the last run-queue sample's */
	bool have_last_load;
};

/* The kernel log's events within the window and the recent past. */
void kmsg_results(const struct window *w, struct report_data *d);

/* Turns the window's readings into the rules' data. */
int window_results(struct window *w, struct report_data *d);

#endif
