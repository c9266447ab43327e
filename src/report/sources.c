/*
 * Adapter from the pidstat and load cores to the report's data (see
 * sources.h). The pidstat core reads every process and all its threads
 * (--whole semantics: switches and run-queue wait summed over threads);
 * this file keeps, per task, its first and last counters and the CPUs it
 * was seen running on, merged each sample in the table's sorted order.
 */
#include "report/sources.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/snapshot.h"
#include "procfs/task_info.h"
#include "report/thresholds.h"
#include "pidstat/pidstat.h"
#include "util/kmerge.h"
#include "util/text.h"

/* One task's window: counters at its first and last sample. */
struct acc {
	pid_t pid, tid; /* tid 0: the process row */
	uint64_t start;
	uint64_t usr0, sys0, nv0, niv0, w0, maj0;
	uint64_t usr, sys, nv, niv, w, maj;
	/* bytes read and written (the sampler's table read with I/O); no_io: unreadable once */
	uint64_t rd0, wr0, rd, wr;
	bool no_io, no_io_last; /* since the window's start; at the last sample */
	/* the counters at the sample before the last (the last step's start), and the last one's
	 * number */
	uint64_t usr_p, sys_p, nv_p, niv_p, w_p, rd_p, wr_p;
	bool no_io_p;
	unsigned at;
	/*
	 * memory-growth: the memory it judges (kB: anonymous, RssAnon, where the
	 * samples have it, as mem_anon says; else RSS) at its first and last
	 * sample, and the sample intervals it grew in; rss: RSS at the last
	 */
	uint64_t mem0, mem, rss;
	unsigned mem_steps, mem_grew;
	bool mem_anon;
	/*
	 * Kept across rolling windows (report_task_sampler_keep_rss): the memory at each
	 * of the last hist_n window starts, oldest first, and the steps and
	 * rises of each of those windows.
	 */
	uint64_t hist_mem[MEM_GROWTH_WINDOWS];
	unsigned char hist_steps[MEM_GROWTH_WINDOWS], hist_grew[MEM_GROWTH_WINDOWS];
	unsigned hist_n;
	/* process-churn: its parent, and the CPU of its reaped children (cutime + cstime) */
	pid_t ppid;
	int64_t child0, child;
	struct cpuset ran;
	unsigned nthreads, seen;
	bool from_start; /* read at the window's first sample */
	bool gone;	 /* not in the last sample: its figures cover the part it lived */
	char comm[RP_COMM_MAX];
};

struct task_sampler {
	struct pidstat_opts opts;
	struct pidstat_run run;
	struct host_facts host;
	unsigned nsamples;
	/* rolling windows' starts (monotonic s), oldest first, when RSS history is kept */
	bool keep_rss;
	double hist_t[MEM_GROWTH_WINDOWS], cur_t;
	unsigned hist_n;
	struct kmerge accs; /* struct acc, sorted by (pid, tid) */
};

/* By process, then the process row (tid 0) before its threads. */
static int acc_key_cmp(const void *entry, const void *key)
{
	const struct acc *a = entry, *b = key;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

/* The merge's order: an accumulator whose ids a new task has reused is before it (gone). */
static int acc_walk_cmp(const void *entry, const void *key)
{
	const struct acc *a = entry, *b = key;
	int c = acc_key_cmp(a, b);

	return c ? c : a->start == b->start ? 0 : -1;
}

/* The accumulators as an array, and how many. */
static struct acc *accs(const struct task_sampler *ts, size_t *n)
{
	*n = ts->accs.nlast;
	return kmerge_at(&ts->accs, 0);
}

int report_task_sampler_open(struct task_sampler **out, struct procfs *pf,
			     const struct host_facts *h, const pid_t *pids, size_t npids,
			     long fd_budget, bool io)
{
	struct task_sampler *ts = calloc(1, sizeof(*ts));
	struct pidstat_env env = {
		.out = stderr, .fd_budget = fd_budget, .taskstats = true, .anon = true
	};
	int rc = 0;

	if (!ts)
		return -ENOMEM;
	ts->host = *h;
	kmerge_init(&ts->accs, sizeof(struct acc));
	ts->opts.act = ACT_CPU | ACT_CTXSW | ACT_MEM | (io ? ACT_IO : 0);
	ts->opts.tsk = TSK_TASK;
	ts->opts.whole = true; /* switches and run-queue wait over all threads */
	ts->opts.dec = -1;
	ts->opts.all_pids = npids == 0;
	ts->opts.pid_given = npids > 0;
	for (size_t i = 0; i < npids && !rc; i++)
		rc = pidstat_opts_add_pid(&ts->opts, pids[i]);
	env.s_colors = "never";
	if (!rc)
		rc = pidstat_run_init(&ts->run, &ts->opts, pf, &ts->host, &env);
	if (rc) {
		report_task_sampler_close(ts);
		return rc;
	}
	*out = ts;
	return 0;
}

void report_task_sampler_close(struct task_sampler *ts)
{
	if (!ts)
		return;
	pidstat_run_release(&ts->run);
	pidstat_opts_release(&ts->opts);
	kmerge_release(&ts->accs);
	free(ts);
}

/*
 * What memory-growth judges: anonymous memory (a leak's), not RSS, which
 * also counts the pages of mapped files a process reads; RSS where the
 * sample has no RssAnon (a recording older than schema 6).
 */
static uint64_t judged_kb(const struct pidstat_snap *s)
{
	return s->anon_ok ? s->rss_anon : s->rss;
}

static void acc_first(struct acc *a, const struct pidstat_snap *s, bool at_start)
{
	/* a task that appears during the window spent all its counters in it */
	a->usr0 = at_start ? s->utime : 0;
	a->sys0 = at_start ? s->stime : 0;
	a->nv0 = at_start ? s->nvcsw : 0;
	a->niv0 = at_start ? s->nivcsw : 0;
	a->w0 = at_start ? s->wtime : 0;
	a->maj0 = at_start ? s->majflt : 0;
	a->child0 = at_start ? s->cutime + s->cstime : 0;
	a->mem0 = judged_kb(s); /* a level, not a counter: where it was first seen */
	a->rd0 = at_start ? s->read_bytes : 0;
	a->wr0 = at_start ? s->write_bytes : 0;
	/* the step it appeared in has all of its counters too, as the window */
	a->usr_p = a->usr0;
	a->sys_p = a->sys0;
	a->nv_p = a->nv0;
	a->niv_p = a->niv0;
	a->w_p = a->w0;
	a->rd_p = a->rd0;
	a->wr_p = a->wr0;
}

/* An accumulator seen before: its last counters start the step to this sample. */
static void acc_step(struct acc *a)
{
	a->usr_p = a->usr;
	a->sys_p = a->sys;
	a->nv_p = a->nv;
	a->niv_p = a->niv;
	a->w_p = a->w;
	a->rd_p = a->rd;
	a->wr_p = a->wr;
	a->no_io_p = a->no_io_last;
}

static void acc_update(struct acc *a, const struct pidstat_task *t, const struct pidstat_snap *s,
		       unsigned sample)
{
	/* a thread that used CPU since the last sample ran on (at least) its last CPU */
	if (t->leader && a->seen && s->utime + s->stime > a->usr + a->sys)
		procfs_cpuset_add(&a->ran, s->processor);
	if (a->seen) {
		a->mem_steps++;
		a->mem_grew += judged_kb(s) > a->mem;
		acc_step(a);
	}
	a->seen++;
	a->at = sample;
	a->mem = judged_kb(s);
	a->mem_anon = s->anon_ok;
	a->rss = s->rss;
	a->child = s->cutime + s->cstime;
	a->ppid = t->ppid;
	a->usr = s->utime;
	a->sys = s->stime;
	a->nv = s->nvcsw;
	a->niv = s->nivcsw;
	a->w = s->wtime;
	a->maj = s->majflt;
	a->rd = s->read_bytes;
	a->wr = s->write_bytes;
	a->no_io_last = t->flags & TASK_NO_IO;
	a->no_io = a->no_io || a->no_io_last;
	a->nthreads = t->nthreads;
	text_copy(a->comm, sizeof(a->comm), t->comm);
}

/*
 * --whole's figures for process row i of a table read without it: the
 * process's switches and run-queue wait as running sums of its threads'
 * increments since the last sample (a thread new to the table brings all of
 * its counters), added to what the accumulator held. The pidstat core's
 * --whole arithmetic (pidstat_whole_add), run here so that one table read
 * serves a caller's own views and the report's window. The report keeps no
 * blkio: out keeps the process's own.
 */
static void whole_from_threads(const struct pidstat_table *tb, size_t i, int curr,
			       const struct acc *held, struct pidstat_snap *out)
{
	const struct pidstat_task *p = tb->order[i];
	struct pidstat_whole w = { 0 };

	if (held) {
		w.nvcsw = held->nv;
		w.nivcsw = held->niv;
		w.wtime = held->w;
	}
	for (size_t j = i + 1; j < tb->len && tb->order[j]->leader == p; j++)
		pidstat_whole_add(&w, &tb->order[j]->snap[curr], &tb->order[j]->snap[curr ^ 1]);
	*out = p->snap[curr];
	out->nvcsw = w.nvcsw;
	out->nivcsw = w.nivcsw;
	out->wtime = w.wtime;
}

/* Whether accumulator a is task t's (not a task that has since reused its ids). */
static bool holds(const struct acc *a, const struct pidstat_task *t)
{
	return a->pid == (t->leader ? t->leader->pid : t->pid) &&
	       a->tid == (t->leader ? t->pid : 0) && a->start == t->start;
}

static void update_one(struct acc *a, const struct pidstat_table *tb, size_t i, int curr,
		       bool sum_threads, unsigned sample)
{
	const struct pidstat_task *t = tb->order[i];
	const struct pidstat_snap *s = &t->snap[curr];
	struct pidstat_snap whole;

	if (sum_threads && !t->leader) {
		whole_from_threads(tb, i, curr, a, &whole);
		s = &whole;
	}
	acc_update(a, t, s, sample);
}

/* Keeps a task that the table no longer lists: what it did in the window still counts. */
static void keep_gone(struct task_sampler *ts, const struct acc *a)
{
	struct acc *n = kmerge_push(&ts->accs); /* merge_order reserved its room */

	*n = *a;
	n->gone = true;
}

static bool all_gone(const struct acc *acc, size_t nacc, size_t from)
{
	for (size_t j = from; j < nacc; j++)
		if (!acc[j].gone)
			return false;
	return true;
}

/*
 * The quiet interval's case: while tb lists the tasks held, in their order
 * (gone ones aside), they are updated where they are. Returns how far it
 * got in tb (*j: in the accumulators).
 */
static size_t update_in_place(struct task_sampler *ts, const struct pidstat_table *tb, int curr,
			      bool sum_threads, size_t *j)
{
	size_t i = 0, nacc;
	struct acc *acc = accs(ts, &nacc);

	*j = 0;
	for (; ts->nsamples && i < tb->len; i++, ++*j) {
		while (*j < nacc && acc[*j].gone && !holds(&acc[*j], tb->order[i]))
			++*j;
		if (*j == nacc || !holds(&acc[*j], tb->order[i]))
			break;
		acc[*j].gone = false;
		update_one(&acc[*j], tb, i, curr, sum_threads, ts->nsamples);
	}
	return i;
}

/*
 * Merges tb's order (sorted by process, then thread) into the accumulators.
 * sum_threads: tb was read without --whole; process rows get its figures
 * from their threads (whole_from_threads). A task tb no longer lists stays,
 * marked gone, until the window ends (report_task_sampler_rebase): a process that
 * burnt a CPU and exited is still the window's answer.
 */
static int merge_order(struct task_sampler *ts, const struct pidstat_table *tb, int curr,
		       bool sum_threads)
{
	size_t j, nacc, i = update_in_place(ts, tb, curr, sum_threads, &j);
	const struct acc *acc = accs(ts, &nacc);
	const struct acc *held;

	if (ts->nsamples && i == tb->len && all_gone(acc, nacc, j))
		return 0;
	kmerge_begin(&ts->accs);
	if (kmerge_reserve(&ts->accs, tb->len + nacc + 1) || kmerge_carry(&ts->accs, j))
		return -ENOMEM;
	for (; i < tb->len; i++) {
		const struct pidstat_task *t = tb->order[i];
		const struct pidstat_snap *s = &t->snap[curr];
		const struct acc key = { .pid = t->leader ? t->leader->pid : t->pid,
					 .tid = t->leader ? t->pid : 0,
					 .start = t->start };
		struct pidstat_snap whole;
		struct acc *a;

		/* the tasks before it are gone; so is one whose ids it has reused */
		while ((held = kmerge_pass(&ts->accs, &key, acc_walk_cmp)))
			keep_gone(ts, held);
		held = kmerge_take(&ts->accs, &key, acc_walk_cmp);
		if (sum_threads && !t->leader) {
			whole_from_threads(tb, i, curr, held, &whole);
			s = &whole;
		}
		a = kmerge_push(&ts->accs);
		if (held) {
			*a = *held;
			a->gone = false;
		} else {
			*a = key;
			acc_first(a, s, ts->nsamples == 0);
			a->from_start = ts->nsamples == 0;
		}
		acc_update(a, t, s, ts->nsamples);
	}
	while ((held = kmerge_next(&ts->accs)))
		keep_gone(ts, held);
	kmerge_end(&ts->accs); /* the merged list becomes the accumulators */
	return 0;
}

void report_task_sampler_set_source(struct task_sampler *ts, const struct pidstat_source *src)
{
	ts->run.src = src;
}

int report_task_sampler_sample(struct task_sampler *ts)
{
	int curr = (int)(ts->nsamples & 1);
	int rc = pidstat_read_tasks(&ts->run, curr);

	if (!rc)
		rc = merge_order(ts, &ts->run.table, curr, false);
	if (!rc)
		ts->nsamples++;
	return rc;
}

int report_task_sampler_feed(struct task_sampler *ts, const struct pidstat_table *tb, int curr)
{
	int rc = merge_order(ts, tb, curr, true);

	if (!rc)
		ts->nsamples++;
	return rc;
}

/* Pushes v onto a history of at most MEM_GROWTH_WINDOWS, dropping the oldest. */
#define HIST_PUSH(arr, n, v)                                                  \
	do {                                                                  \
		if ((n) == MEM_GROWTH_WINDOWS)                                \
			memmove(&(arr)[0], &(arr)[1],                         \
				sizeof((arr)[0]) * (MEM_GROWTH_WINDOWS - 1)); \
		(arr)[(n) == MEM_GROWTH_WINDOWS ? (n)-1 : (n)] = (v);         \
	} while (0)

/* The window ending now joins the process row's RSS history. */
static void keep_rss(struct acc *a)
{
	if (a->tid)
		return;
	HIST_PUSH(a->hist_mem, a->hist_n, a->mem0);
	HIST_PUSH(a->hist_steps, a->hist_n,
		  (unsigned char)(a->mem_steps > 255 ? 255 : a->mem_steps));
	HIST_PUSH(a->hist_grew, a->hist_n, (unsigned char)(a->mem_grew > 255 ? 255 : a->mem_grew));
	if (a->hist_n < MEM_GROWTH_WINDOWS)
		a->hist_n++;
}

void report_task_sampler_keep_rss(struct task_sampler *ts, double ended_start, double now)
{
	ts->keep_rss = true;
	HIST_PUSH(ts->hist_t, ts->hist_n, ended_start);
	if (ts->hist_n < MEM_GROWTH_WINDOWS)
		ts->hist_n++;
	ts->cur_t = now;
}

/*
 * A process with RSS history: its growth over the kept windows and this
 * one, from the first window's start (seconds: this window's length).
 */
static void rss_history(const struct task_sampler *ts, const struct acc *a, double seconds,
			struct rp_proc *p)
{
	if (!ts->keep_rss || !a->hist_n || a->hist_n > ts->hist_n || !a->from_start)
		return;
	p->mem0_kb = a->hist_mem[0];
	for (unsigned i = 0; i < a->hist_n; i++) {
		p->mem_steps += a->hist_steps[i];
		p->mem_grew += a->hist_grew[i];
	}
	p->mem_span_s = seconds + ts->cur_t - ts->hist_t[ts->hist_n - a->hist_n];
}

/* The next window starts here: the tasks gone in this one are forgotten. */
void report_task_sampler_rebase(struct task_sampler *ts)
{
	size_t k = 0, nacc;
	struct acc *acc = accs(ts, &nacc);

	for (size_t i = 0; i < nacc; i++) {
		struct acc *a = &acc[i];

		if (a->gone)
			continue;
		if (ts->keep_rss && a->from_start)
			keep_rss(a);
		a->usr0 = a->usr;
		a->sys0 = a->sys;
		a->nv0 = a->nv;
		a->niv0 = a->niv;
		a->w0 = a->w;
		a->maj0 = a->maj;
		a->rd0 = a->rd;
		a->wr0 = a->wr;
		a->no_io = a->no_io_last;
		a->child0 = a->child;
		a->mem0 = a->mem;
		a->mem_steps = a->mem_grew = 0;
		a->from_start = true;
		memset(&a->ran, 0, sizeof(a->ran));
		if (k != i)
			acc[k] = *a;
		k++;
	}
	kmerge_truncate(&ts->accs, k);
}

const struct pidstat_table *report_task_sampler_table(const struct task_sampler *ts, int *curr)
{
	if (!ts->nsamples)
		return NULL;
	*curr = (int)((ts->nsamples - 1) & 1);
	return &ts->run.table;
}

static double pct_of(uint64_t ticks, long hz, double seconds)
{
	return seconds > 0 && hz > 0 ? 100.0 * (double)ticks / (double)hz / seconds : 0;
}

/* Fills p from the process row a and its thread rows a[1..]; returns rows used. */
static size_t fold_process(const struct acc *a, size_t left, long hz, double seconds,
			   struct rp_proc *p)
{
	size_t k = 1;

	memset(p, 0, sizeof(*p));
	p->pid = a->pid;
	p->exited = a->gone;
	snprintf(p->comm, sizeof(p->comm), "%s", a->comm);
	p->usr_pct = pct_of(a->usr - a->usr0, hz, seconds);
	p->sys_pct = pct_of(a->sys - a->sys0, hz, seconds);
	p->cswch_s = seconds > 0 ? (double)(a->nv - a->nv0) / seconds : 0;
	p->nvcswch_s = seconds > 0 ? (double)(a->niv - a->niv0) / seconds : 0;
	p->wait_pct = pct_of(a->w - a->w0, hz, seconds);
	p->majflt_s = seconds > 0 ? (double)(a->maj - a->maj0) / seconds : 0;
	if (seconds > 0 && !a->no_io && a->rd >= a->rd0 && a->wr >= a->wr0) {
		p->read_Bps = (double)(a->rd - a->rd0) / seconds;
		p->write_Bps = (double)(a->wr - a->wr0) / seconds;
	}
	p->ppid = a->ppid;
	p->from_start = a->from_start;
	p->mem0_kb = a->mem0;
	p->mem_kb = a->mem;
	p->mem_anon = a->mem_anon;
	p->rss_kb = a->rss;
	p->mem_steps = a->mem_steps;
	p->mem_grew = a->mem_grew;
	p->child_pct =
	    a->child > a->child0 ? pct_of((uint64_t)(a->child - a->child0), hz, seconds) : 0;
	if (a->gone && a->child >= 0) {
		p->life_pct = pct_of(a->usr + a->sys + (uint64_t)a->child, hz, seconds);
		p->life_reaped_pct = pct_of((uint64_t)a->child, hz, seconds);
	}
	for (; k < left && a[k].pid == a->pid && a[k].tid; k++) {
		double pct = pct_of(a[k].usr - a[k].usr0 + a[k].sys - a[k].sys0, hz, seconds);
		double demand = pct + pct_of(a[k].w - a[k].w0, hz, seconds);

		p->nthreads++;
		for (int w = 0; w < CPUSET_WORDS; w++)
			p->ran.w[w] |= a[k].ran.w[w];
		if (demand > p->top_demand_pct)
			p->top_demand_pct = demand;
		if (pct > p->top_thread_pct || !p->top_tid) {
			p->top_thread_pct = pct;
			p->top_tid = a[k].tid;
		}
	}
	if (!p->nthreads)
		p->nthreads = a->nthreads;
	return k;
}

static int by_cpu_desc(const void *x, const void *y)
{
	const struct rp_proc *a = x, *b = y;
	double ca = a->usr_pct + a->sys_pct, cb = b->usr_pct + b->sys_pct;

	if (ca != cb)
		return ca < cb ? 1 : -1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

int report_task_sampler_results(struct task_sampler *ts, double seconds, pid_t self,
				struct rp_proc **out, size_t *n, unsigned *threads)
{
	size_t i = 0, m = 0, nacc;
	const struct acc *acc = accs(ts, &nacc);
	struct rp_proc *v = calloc(nacc + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	*threads = 0;
	while (i < nacc) {
		size_t used;

		if (acc[i].tid) { /* a thread whose process row is gone */
			i++;
			continue;
		}
		used = fold_process(&acc[i], nacc - i, ts->host.hz, seconds, &v[m]);
		rss_history(ts, &acc[i], seconds, &v[m]);
		*threads += (unsigned)(used > 1 ? used - 1 : 1);
		if (v[m].pid != self)
			m++;
		i += used;
	}
	qsort(v, m, sizeof(*v), by_cpu_desc);
	*out = v;
	*n = m;
	return 0;
}

/* One process of the last sample over the last step alone (a its row, then its threads). */
static size_t fold_step(const struct acc *a, size_t left, long hz, double seconds, unsigned last,
			struct rp_proc *p)
{
	size_t k = 1;

	memset(p, 0, sizeof(*p));
	p->pid = a->pid;
	snprintf(p->comm, sizeof(p->comm), "%s", a->comm);
	p->usr_pct = pct_of(a->usr - a->usr_p, hz, seconds);
	p->sys_pct = pct_of(a->sys - a->sys_p, hz, seconds);
	p->cswch_s = seconds > 0 ? (double)(a->nv - a->nv_p) / seconds : 0;
	p->nvcswch_s = seconds > 0 ? (double)(a->niv - a->niv_p) / seconds : 0;
	p->wait_pct = pct_of(a->w - a->w_p, hz, seconds);
	if (seconds > 0 && !a->no_io_p && !a->no_io_last && a->rd >= a->rd_p && a->wr >= a->wr_p) {
		p->read_Bps = (double)(a->rd - a->rd_p) / seconds;
		p->write_Bps = (double)(a->wr - a->wr_p) / seconds;
	}
	p->rss_kb = a->rss;
	for (; k < left && a[k].pid == a->pid && a[k].tid; k++)
		p->nthreads += a[k].at == last && !a[k].gone;
	if (!p->nthreads)
		p->nthreads = a->nthreads;
	return k;
}

int report_task_sampler_each_step(struct task_sampler *ts, double seconds, pid_t self,
				  report_step_fn fn, void *ctx)
{
	size_t i = 0, nacc;
	const struct acc *acc = accs(ts, &nacc);
	unsigned last = ts->nsamples ? ts->nsamples - 1 : 0;
	struct rp_proc p; /* one at a time: a recorder calls this every interval */
	int rc = 0;

	while (i < nacc && !rc) {
		size_t used = 1;

		if (!acc[i].tid && !acc[i].gone && acc[i].at == last) {
			used = fold_step(&acc[i], nacc - i, ts->host.hz, seconds, last, &p);
			if (p.pid != self)
				rc = fn(ctx, &p);
		}
		i += used;
	}
	return rc;
}

/*
 * Whether a thread slept through the whole window: read at the first
 * sample, and neither a context switch nor a tick of CPU since. A thread
 * that never switched stayed in the sleep it was in before the window.
 */
static bool slept_through(const struct task_sampler *ts, pid_t pid, pid_t tid)
{
	const struct acc key = { .pid = pid, .tid = tid };
	size_t nacc, i = kmerge_lower_bound(&ts->accs, &key, acc_key_cmp);
	const struct acc *acc = accs(ts, &nacc), *a;

	/* a gone task whose ids a live one reused comes first */
	while (i < nacc && !acc_key_cmp(&acc[i], &key) && acc[i].gone)
		i++;
	if (i == nacc || acc_key_cmp(&acc[i], &key))
		return false;
	a = &acc[i];
	return a->from_start && a->nv == a->nv0 && a->niv == a->niv0 &&
	       a->usr + a->sys == a->usr0 + a->sys0;
}

void report_task_sampler_mark_whole_window(const struct task_sampler *ts, struct dtask_look *out)
{
	for (size_t i = 0; i < out->n; i++)
		out->t[i].whole_window = slept_through(ts, out->t[i].pid, out->t[i].tid);
}

/* The load core's judgement of one D thread: where it waits, whether it counts. */
static void judge_d_thread(const struct procfs *pf, const struct pidstat_task *t,
			   struct load_task *lt, struct task_cgroups *cg)
{
	int frozen = 0;

	memset(lt, 0, sizeof(*lt));
	memset(cg, 0, sizeof(*cg));
	lt->pid = t->leader->pid;
	lt->tid = t->pid;
	lt->state = 'D';
	lt->starttime = t->start;
	snprintf(lt->comm, sizeof(lt->comm), "%s", t->comm);
	if (procfs_task_read_cgroups(pf, lt->pid, cg) == 0)
		frozen = procfs_cgroup_is_frozen(pf, cg);
	if (procfs_task_read_wchan(pf, lt->pid, lt->tid, lt->wchan, sizeof(lt->wchan)) < 0)
		lt->wchan[0] = '\0';
	if (procfs_task_read_stack(pf, lt->pid, lt->tid, &lt->stack) < 0)
		lt->stack.nframes = 0;
	load_task_judge(lt, frozen);
}

int report_task_sampler_dtasks(struct task_sampler *ts, const struct procfs *pf,
			       struct dtask_look *out)
{
	const struct pidstat_table *tb = &ts->run.table;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < tb->len; i++) {
		const struct pidstat_task *t = tb->order[i];
		struct task_cgroups cg;
		struct load_task lt;
		struct rp_dtask *d;

		if (!t->leader || t->state != 'D')
			continue;
		judge_d_thread(pf, t, &lt, &cg);
		if (!lt.counts)
			continue;
		out->counted++;
		if (out->n >= RP_MAX_DTASKS)
			continue;
		d = &out->t[out->n++];
		d->pid = lt.pid;
		d->tid = lt.tid;
		snprintf(d->comm, sizeof(d->comm), "%s", lt.comm);
		snprintf(d->reason, sizeof(d->reason), "%s",
			 load_dreason_words(lt.why.reason, false));
		snprintf(d->reason_key, sizeof(d->reason_key), "%s",
			 load_dreason_key(lt.why.reason));
		d->whole_window = slept_through(ts, lt.pid, lt.tid);
		snprintf(d->frame, sizeof(d->frame), "%s", lt.why.frame);
		/* the group whose I/O limits hold it (io-stall) */
		snprintf(d->io_cgroup, sizeof(d->io_cgroup), "%s",
			 procfs_task_cgroups_path(&cg, CGC_IO));
	}
	return 0;
}
