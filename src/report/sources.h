/*
 * The report's use of the existing cores, kept behind one small interface
 * so that changes inside them stay local to sources.c:
 *   - task sampling: the pidstat core (every process and all its threads:
 *     utime/stime, switches, run-queue wait, faults, processor);
 *   - D tasks and why they wait: the load core's judgement (load_task_judge)
 *     of the threads the last sample found in D.
 */
#ifndef TRIAGE_REPORT_SOURCES_H
#define TRIAGE_REPORT_SOURCES_H

#include "procfs/host.h"
#include "procfs/procfs.h"
#include "report/report.h"

struct pidstat_table;

struct task_sampler;

/*
 * Opens a sampler over pf (whose proc dir a fixture run moves step by
 * step). pids/npids: only those processes (npids 0: all of them). io: also
 * read each process's I/O counters (for a caller that exports them).
 */
int report_task_sampler_open(struct task_sampler **out, struct procfs *pf,
			     const struct host_facts *h, const pid_t *pids, size_t npids,
			     long fd_budget, bool io);
struct pidstat_source;
struct dtask_look;
/* Samples from src instead of /proc from now on (a recording replayed). */
void report_task_sampler_set_source(struct task_sampler *ts, const struct pidstat_source *src);
/* The D threads as recorded (out->t filled by the caller): whether each slept through. */
void report_task_sampler_mark_whole_window(const struct task_sampler *ts, struct dtask_look *out);
/* Takes one sample of every task; window_start_ticks: the window's start since boot. */
int report_task_sampler_sample(struct task_sampler *ts);
/*
 * Takes as the next sample a table the caller read itself (snapshot curr),
 * with threads and without --whole: one read of the tasks serves both (the
 * recorder's). The sampler's own /proc or source is not read.
 */
int report_task_sampler_feed(struct task_sampler *ts, const struct pidstat_table *tb, int curr);
/*
 * The processes seen in the last sample, with their figures between the
 * first sample and the last (seconds apart), busiest first. Skips self.
 */
int report_task_sampler_results(struct task_sampler *ts, double seconds, pid_t self,
				struct rp_proc **out, size_t *n, unsigned *threads);
/*
 * Calls fn for each process of the last sample with its figures over the
 * last step alone (the sample before it to it, seconds apart; a process new
 * in the step brings all of its counters), in the accumulators' order: what
 * triage record stores for each interval. Skips self; stops at fn's first
 * nonzero return and returns it.
 */
typedef int (*report_step_fn)(void *ctx, const struct rp_proc *p);
int report_task_sampler_each_step(struct task_sampler *ts, double seconds, pid_t self,
				  report_step_fn fn, void *ctx);
void report_task_sampler_close(struct task_sampler *ts);
/*
 * A rolling window: the last sample becomes the start of the next window
 * (every task's counters there are its new baseline); the tasks that exited
 * during the window are forgotten.
 */
void report_task_sampler_rebase(struct task_sampler *ts);
/*
 * Before each rebase of a rolling window whose windows are too short to
 * judge memory growth (collect): the window that ended (it began at
 * ended_start, monotonic s) joins each process's RSS history of the last
 * MEM_GROWTH_WINDOWS windows, and the next begins at now. Its results then
 * give RSS growth over the history and the window (rp_proc.mem_span_s).
 */
void report_task_sampler_keep_rss(struct task_sampler *ts, double ended_start, double now);
/* The pidstat table of the last sample and its snapshot index (NULL before one). */
const struct pidstat_table *report_task_sampler_table(const struct task_sampler *ts, int *curr);

/* The D threads of the last sample, judged by the load core (where they wait, whether they count).
 */
struct dtask_look {
	struct rp_dtask t[RP_MAX_DTASKS];
	size_t n;
	unsigned counted; /* every counted D thread (may exceed n) */
};

int report_task_sampler_dtasks(struct task_sampler *ts, const struct procfs *pf,
			       struct dtask_look *out);

#endif
