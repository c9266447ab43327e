/*
 * The --watch loop: samples at a rate that fits a CPU budget, feeds the
 * tracker, and hands one report per interval to an emitter. Live, it
 * sleeps between samples; over a fixture root (docs/fixtures.md) each
 * stepN/ is one sample and its /proc/uptime is the clock.
 */
#ifndef TRIAGE_LOAD_SAMPLER_H
#define TRIAGE_LOAD_SAMPLER_H

#include <stdbool.h>

#include "load/watch.h"
#include "procfs/host.h"
#include "procfs/tasksrc.h"

/* Where samples come from: the running system, or a fixture's steps. */
struct load_source {
	struct procfs *pf; /* the root given; a fixture's /proc is its current stepN */
	bool fixture;
	struct host_facts facts;
	struct task_source *tasks; /* the task door over pf */
	struct task_set set;
};

/*
 * Opens root (NULL: "/"), loads its host facts and opens the task door
 * (door: TASK_DOOR_AUTO unless a test forces one; fd_budget: /proc stat
 * files the proc door may keep open for repeated scans). A fixture starts
 * before step1.
 */
/* scans: how many the caller will take (1: a one-shot look), 0: open-ended (--watch). */
int load_source_open(struct load_source *s, const char *root, enum task_door door, long fd_budget,
		     unsigned scans);
/* Fixture: makes step1 current (the clock moves on from there); 1 if there is none. */
int load_source_first_step(struct load_source *s);
void load_source_close(struct load_source *s);

/*
 * The one-shot look: a snapshot of the source (a fixture's step1) and its
 * verdict. Returns 0, -ENOENT when there is no /proc/loadavg, or -errno;
 * on success the caller releases snap.
 */
int load_look(struct load_source *src, const struct load_scan_opts *scan,
	      struct load_snapshot *snap, struct load_verdict *v);

struct watch_opts {
	const char *root; /* NULL or "/" for the running system */
	double interval_s;
	unsigned count; /* reports to print; 0 = until interrupted */
	double budget;	/* fraction of one CPU, e.g. 0.02 */
	double min_period_s, max_period_s;
	bool realtime;	     /* try SCHED_FIFO for the sampler */
	enum task_door door; /* TASK_DOOR_AUTO but in tests */
	/* called once the task door is open (e.g. --verbose names it); may be NULL */
	void (*on_door)(void *ctx, const struct task_source *tasks);
	bool stacks; /* read kernel stacks of D tasks */
	int top;     /* tasks per report */
};

typedef void (*watch_emit_fn)(void *ctx, const struct watch_report *r,
			      const struct load_verdict *v);

/*
 * Runs the loop until count reports, SIGINT/SIGTERM, or the last fixture
 * step. Returns 0, -ENOENT (no /proc/loadavg), or another -errno.
 */
int load_watch_run(const struct watch_opts *o, watch_emit_fn emit, void *ctx);

#endif
