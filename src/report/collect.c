/*
 * The report's window: host counters at its start and end, tasks sampled
 * through it (pidstat core) at a period that fits a CPU budget, the run
 * queue every second, D tasks at both ends (load core), cgroups, the
 * kernel log. The run-loop clock paces it: live, a one-second grid cut at
 * the window's end; over a fixture root every stepN/ is one sample
 * (docs/fixtures.md). A stop signal ends the window early.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procfs/host.h"
#include "procfs/hostread.h"
#include "procfs/task_info.h"
#include "report/cgroups.h"
#include "report/collect.h"
#include "report/enrich.h"
#include "report/sources.h"
#include "report/thresholds.h"
#include "runloop/clock.h"

void report_data_release(struct report_data *d)
{
	report_enrich_free(d);
	free(d->procs);
	d->procs = NULL;
	d->nprocs = 0;
}

static double ts_s(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

/* ---- the live source: /proc under the root (or a fixture's current step) ---- */

static int live_read_host(void *ctx, struct report_host_snap *h)
{
	struct window *w = ctx;

	report_host_read(&w->rd, h);
	return 0;
}

static int live_read_load(void *ctx, struct loadavg *la)
{
	struct window *w = ctx;

	return procfs_hostread_loadavg(w->pf, la);
}

static int live_read_dtasks(void *ctx, struct task_sampler *ts, struct dtask_look *out)
{
	struct window *w = ctx;

	return report_task_sampler_dtasks(ts, w->pf, out);
}

static int live_read_placement(void *ctx, struct rp_proc *p)
{
	struct window *w = ctx;

	return report_read_placement(w->pf, p);
}

static int live_read_fs_writers(void *ctx, int mnt_id, pid_t *pids, size_t max, size_t *n)
{
	struct window *w = ctx;

	return procfs_fsread_writers(w->pf, mnt_id, pids, max, n);
}

static int live_read_fd_usage(void *ctx, pid_t pid, struct fd_usage *out)
{
	struct window *w = ctx;

	return procfs_limits_read_fd_usage(w->pf, pid, out);
}

static int live_read_futex_waiters(void *ctx, pid_t pid, struct futex_waiters *out)
{
	struct window *w = ctx;

	return procfs_task_read_futex_waiters(w->pf, pid, out);
}

static void live_source(struct window *w)
{
	w->live = (struct report_source){
		.ctx = w,
		.host = w->host,
		.self = w->self,
		.wall0 = w->wall0,
		.read_host = live_read_host,
		.read_load = live_read_load,
		.read_dtasks = live_read_dtasks,
		.read_placement = live_read_placement,
		.read_fs_writers = live_read_fs_writers,
		.read_fd_usage = live_read_fd_usage,
		.read_futex_waiters = live_read_futex_waiters,
	};
	w->src = &w->live;
	report_host_reader_init(&w->rd, w->pf);
	w->rd.statfs = procfs_fs_statvfs_for(w->host.fixture);
}

/* One run-queue sample: the kernel's runnable count less ourselves. */
static void sample_runnable(struct window *w)
{
	struct loadavg la;

	w->have_last_load = !w->src->read_load(w->src->ctx, &la);
	if (!w->have_last_load)
		return;
	w->last_load = la;
	/* the one looking is in the count while it reads it */
	w->runnable_sum += la.runnable > 0 && w->self ? la.runnable - 1 : la.runnable;
	w->runnable_n++;
}

static int take_task_sample(struct window *w)
{
	int rc = report_task_sampler_sample(w->ts);

	w->task_samples++;
	return rc;
}

/*
 * The start of the window: everything read once, then the clock (live: a
 * one-second grid over the window, starting now; a fixture: its steps)
 * and the first task sample.
 */
static int window_begin(struct window *w)
{
	struct timespec span = runloop_seconds(w->o->seconds);
	int rc;

	report_host_find_netns(&w->rd);
	w->src->read_host(w->src->ctx, &w->h[0]);
	snprintf(w->cg_prefix, sizeof(w->cg_prefix), "%s", w->host.fixture ? "step1/" : "");
	if (report_cg_scan_start(w->pf, w->cg_prefix, &w->cg, &w->cg_mounted) == -ENOMEM)
		return -ENOMEM;
	rc = report_task_sampler_open(&w->ts, w->pf, &w->host, w->o->pids, w->o->npids,
				      w->o->fd_budget, w->o->task_io);
	if (rc)
		return rc;
	runloop_clock_window(&w->clk, &span);
	runloop_clock_arm(&w->clk);
	w->t0 = ts_s(&w->clk.origin);
	return 0;
}

/* Seconds between task samples: the cost of one sample within the budget. */
static double task_period(const struct window *w)
{
	double p = w->sample_cost / REPORT_TASK_SAMPLE_BUDGET;

	if (p < 1)
		p = 1;
	if (p > w->o->seconds / 2)
		p = w->o->seconds / 2;
	return p;
}

/* Live: the enrichment chooses whose syscalls to count from each sample (0 s: the first). */
static void tell_enrichment(struct window *w, bool first)
{
	double now = runloop_mono_s();
	int curr;
	const struct pidstat_table *tb = report_task_sampler_table(w->ts, &curr);

	if (w->d)
		report_enrich_sampled(w->d, tb, curr, first ? 0 : now - w->last_task_s, w->host.hz,
				      (int)w->self);
	w->last_task_s = now;
}

/* A task sample and what the enrichment takes from it; sets its CPU cost and the period. */
static int costed_task_sample(struct window *w, bool first)
{
	double c0 = runloop_clock_s(CLOCK_PROCESS_CPUTIME_ID);
	int rc = take_task_sample(w);

	if (!rc)
		tell_enrichment(w, first);
	w->sample_cost = runloop_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	w->task_period = task_period(w);
	return rc;
}

/*
 * The first sample. Its cost holds one-time work (a table entry for every
 * task, the files kept open), so it does not set the period: the second
 * sample comes at the least period, 1 s, and each later sample's own cost
 * sets the next period. Priced by the first, a sanitized or loaded run's
 * `-d 3` got two intervals where memory-growth needs three.
 */
static int first_sample(struct window *w)
{
	int rc = costed_task_sample(w, true);

	w->next_task = 1;
	sample_runnable(w);
	return rc;
}

/* Live, second k of the window: the run queue, and the tasks when due. */
static int live_tick(struct window *w, unsigned k)
{
	int rc = 0;

	sample_runnable(w);
	if (k >= w->next_task) {
		rc = costed_task_sample(w, false);
		w->next_task = k + w->task_period;
	}
	if (w->o->progress)
		w->o->progress(w->o->progress_ctx, k, w->o->seconds);
	return rc;
}

/* One sample of the window (runloop_run): k = 0 at its start, then one per tick or step. */
static int window_sample(void *ctx, unsigned k)
{
	struct window *w = ctx;

	if (!k)
		return first_sample(w);
	if (!w->host.fixture)
		return live_tick(w, k);
	sample_runnable(w);
	return take_task_sample(w);
}

/* Samples until the window ends (live), no step is left (fixture) or a stop signal. */
static int window_run(struct window *w)
{
	int rc = runloop_run(&w->clk, 0, window_sample, w);

	if (w->host.fixture) {
		w->last_step = w->clk.step;
		return rc;
	}
	if (!rc)
		rc = take_task_sample(w);
	w->t1 = runloop_mono_s();
	return rc;
}

static int window_end(struct window *w)
{
	w->src->read_host(w->src->ctx, &w->h[1]);
	if (w->pf) {
		if (w->host.fixture)
			snprintf(w->cg_prefix, sizeof(w->cg_prefix), "step%d/", w->last_step);
		report_cg_scan_end(w->pf, w->cg_prefix, &w->cg);
	}
	w->have_load = !w->src->read_load(w->src->ctx, &w->load);
	return w->src->read_dtasks(w->src->ctx, w->ts, &w->d1);
}

static int open_source(struct window *w, const char *root)
{
	int rc = procfs_open(&w->pf, root), fd;

	if (rc)
		return rc;
	rc = procfs_host_facts_load(&w->host, w->pf);
	if (rc)
		return rc;
	/* a fixture moves to its step1 here; a live clock's grid starts in window_begin */
	rc = runloop_clock_open(&w->clk, w->o->stop, w->pf, &w->host, &(struct timespec){ 1, 0 });
	if (rc)
		return rc;
	fd = procfs_openat(w->pf, ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -ENOENT;
	close(fd);
	return 0;
}

int report_collect(const struct report_opts *o, struct report_data *d)
{
	struct window *w = calloc(1, sizeof(*w));
	int rc;

	memset(d, 0, sizeof(*d));
	if (!w)
		return -ENOMEM;
	w->o = o;
	rc = open_source(w, o->root);
	if (!rc) {
		w->self = w->host.fixture ? 0 : getpid();
		w->wall0 = w->host.fixture ? w->host.start_time : time(NULL);
		live_source(w);
		report_enrich_start(o, w->host.fixture, d);
		w->d = w->host.fixture ? NULL : d;
		rc = window_begin(w);
	}
	if (!rc)
		rc = window_run(w);
	report_enrich_stop(d);
	if (!rc)
		rc = window_end(w);
	if (!rc)
		rc = report_window_results(w, d);
	report_task_sampler_close(w->ts);
	report_cg_set_release(&w->cg);
	procfs_close(w->pf);
	free(w);
	return rc;
}

/* ---- a rolling window (report.h): the caller's pace, one sample per call ---- */

struct report_window {
	struct window w;
	unsigned calls;
};

int report_window_open(struct report_window **out, const struct report_opts *o)
{
	struct report_window *rw = calloc(1, sizeof(*rw));
	struct window *w;
	int rc, fd;

	if (!rw)
		return -ENOMEM;
	w = &rw->w;
	w->o = o;
	rc = procfs_open(&w->pf, o->root);
	rc = rc ? rc : procfs_host_facts_load(&w->host, w->pf);
	if (!rc) {
		fd = procfs_openat(w->pf, ".", O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			rc = -ENOENT;
		else
			close(fd);
	}
	if (!rc) {
		w->self = w->host.fixture ? 0 : getpid();
		live_source(w);
		rc = report_task_sampler_open(&w->ts, w->pf, &w->host, o->pids, o->npids,
					      o->fd_budget, o->task_io);
	}
	if (rc) {
		report_window_close(rw);
		return rc;
	}
	*out = rw;
	return 0;
}

void report_window_close(struct report_window *rw)
{
	if (!rw)
		return;
	report_task_sampler_close(rw->w.ts);
	report_cg_set_release(&rw->w.cg);
	procfs_close(rw->w.pf);
	free(rw);
}

const struct pidstat_table *report_window_tasks(const struct report_window *rw, int *curr)
{
	return report_task_sampler_table(rw->w.ts, curr);
}

void report_window_host(const struct report_window *rw, struct report_host_view *v)
{
	/* after every sample, h[0] holds its readings (read, or the end's copied) */
	const struct report_host_snap *h = &rw->w.h[0];

	memset(v, 0, sizeof(*v));
	if (!rw->calls)
		return;
	v->cpu = h->have_cpu ? &h->cpu : NULL;
	for (int r = 0; r < RP_PSI_COUNT; r++)
		v->psi[r] = h->have_psi[r] ? &h->psi[r] : NULL;
	v->mem = h->have_mem ? &h->mem : NULL;
	v->disks = h->have_disks ? &h->disks : NULL;
	v->ifaces = h->have_ifaces ? &h->ifaces : NULL;
	v->load = rw->w.have_last_load ? &rw->w.last_load : NULL;
}

/*
 * The start of a window at the sample just taken: the host counters (read
 * now, or the previous window's end), cgroups, network namespaces, and the
 * tasks' counters as their baselines.
 */
static int rolling_begin(struct window *w, bool first, double now)
{
	report_host_find_netns(&w->rd);
	if (first) {
		w->src->read_host(w->src->ctx, &w->h[0]);
	} else {
		w->h[0] = w->h[1];
		report_host_read_tcp(&w->rd, &w->h[0]); /* the namespaces may have changed */
	}
	report_cg_set_release(&w->cg);
	if (report_cg_scan_start(w->pf, w->cg_prefix, &w->cg, &w->cg_mounted) == -ENOMEM)
		return -ENOMEM;
	/* one task sample a window: memory-growth is judged over the last windows */
	if (!first)
		report_task_sampler_keep_rss(w->ts, w->t0, now);
	report_task_sampler_rebase(w->ts);
	w->wall0 = time(NULL);
	w->t0 = now;
	w->task_samples = 1;
	w->runnable_sum = 0;
	w->runnable_n = 0;
	if (first) {
		sample_runnable(w);
	} else if (w->have_last_load) { /* the end's run-queue sample also begins this one */
		unsigned r = w->last_load.runnable;

		w->runnable_sum = r > 0 && w->self ? r - 1 : r;
		w->runnable_n = 1;
	}
	return 0;
}

int report_window_sample(struct report_window *rw, struct report_data *d, bool *have)
{
	struct window *w = &rw->w;
	int rc = report_task_sampler_sample(w->ts);
	double now = runloop_mono_s();

	*have = false;
	if (rc)
		return rc;
	if (rw->calls++ == 0)
		return rolling_begin(w, true, now);
	memset(d, 0, sizeof(*d));
	w->task_samples++;
	sample_runnable(w);
	w->t1 = now;
	rc = window_end(w);
	rc = rc ? rc : report_window_results(w, d);
	if (rc) {
		report_data_release(d);
		return rc;
	}
	*have = true;
	return rolling_begin(w, false, now);
}

/* ---- a window over another source's steps (a recording) ---- */

/* The run queue and, unless fed, the tasks at every step from the current one to the last. */
static int source_steps(struct window *w, bool fed)
{
	int rc = 0;

	do {
		sample_runnable(w);
		if (fed)
			w->task_samples++;
		else
			rc = take_task_sample(w);
	} while (!rc && !(rc = w->src->next(w->src->ctx)));
	return rc == -ENOENT ? 0 : rc;
}

int report_collect_source(const struct report_source *src, struct task_sampler *fed,
			  struct report_data *d)
{
	struct window *w = calloc(1, sizeof(*w));
	int rc = 0;

	memset(d, 0, sizeof(*d));
	if (!w)
		return -ENOMEM;
	w->src = src;
	w->host = src->host;
	w->host.fixture = true; /* paced by steps: the window's length is their uptime */
	w->self = src->self;
	w->wall0 = src->wall0;
	w->ts = fed;
	if (!fed) {
		rc = report_task_sampler_open(&w->ts, NULL, &w->host, NULL, 0, 0, false);
		if (!rc)
			report_task_sampler_set_source(w->ts, src->tasks);
	}
	rc = rc ? rc : src->read_host(src->ctx, &w->h[0]);
	rc = rc ? rc : source_steps(w, fed != NULL);
	rc = rc ? rc : window_end(w);
	rc = rc ? rc : report_window_results(w, d);
	if (!fed)
		report_task_sampler_close(w->ts);
	free(w);
	return rc;
}
