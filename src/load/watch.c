#include "load/watch.h"
#include "util/grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LOAD_FREQ is 5 s + 1 tick; 1/250 s is the common tick. */
#define KERNEL_PERIOD_S (LOAD_PERIOD_S + 0.004)
/* How late a fold may come before we fold on our own. */
#define OVERDUE_GRACE_S 0.6

void load_avg_figures(const char *text, char *out, size_t size)
{
	const char *p = text;
	int spaces = 0;
	size_t n;

	while (*p && *p != '\n' && !(*p == ' ' && ++spaces == 3))
		p++;
	n = (size_t)(p - text);
	if (n >= size)
		n = size - 1;
	memcpy(out, text, n);
	out[n] = '\0';
}

void load_watch_init(struct watch_state *ws, const char *loadavg_text, double now, int ncpu)
{
	memset(ws, 0, sizeof(*ws));
	if (procfs_loadavg_parse(loadavg_text, strlen(loadavg_text), &ws->kernel) == 0) {
		for (int k = 0; k < 3; k++) {
			ws->total[k] = load_fixed_from_double(ws->kernel.load[k]);
			ws->before[k] = ws->total[k] << (WATCH_FINE_SHIFT - LOAD_FSHIFT);
		}
	}
	load_avg_figures(loadavg_text, ws->last_figures, sizeof(ws->last_figures));
	ws->start = ws->last_step = now;
	ws->period = KERNEL_PERIOD_S;
	ws->next_due = now + ws->period;
	ws->ncpu = ncpu;
}

void load_watch_release(struct watch_state *ws)
{
	free(ws->tasks);
	free(ws->cgs);
	memset(ws, 0, sizeof(*ws));
}

static void fold_pair(uint64_t v[3], uint64_t active)
{
	for (int k = 0; k < 3; k++)
		v[k] = load_calc(v[k], load_exp[k], active);
}

/*
 * The share of one period: the mean of its samples or, when no scan fell in
 * it (a scan costs more than one period's budget), the last mean, held.
 */
static uint64_t period_share(uint32_t hits, uint32_t n, uint64_t one, uint64_t *hold)
{
	if (n)
		*hold = ((uint64_t)hits * one + n / 2) / n;
	return *hold;
}

static bool all_zero(const uint64_t a[3], const uint64_t b[3])
{
	return !(a[0] | a[1] | a[2] | b[0] | b[1] | b[2]);
}

/* One kernel period ends: fold every average with this period's mean counts. */
static void watch_fold(struct watch_state *ws)
{
	uint32_t n = ws->samples;
	size_t keep = 0;

	fold_pair(ws->total,
		  period_share((uint32_t)ws->polls_r, ws->polls, LOAD_FIXED_1, &ws->hold_r) +
		      period_share((uint32_t)ws->hits_d, n, LOAD_FIXED_1, &ws->hold_d));
	fold_pair(ws->before, 0);
	for (size_t i = 0; i < ws->ntasks; i++) {
		struct watch_task *t = &ws->tasks[i];

		fold_pair(t->r, period_share(t->hits_r, n, WATCH_FINE_1, &t->hold_r));
		fold_pair(t->d, period_share(t->hits_d, n, WATCH_FINE_1, &t->hold_d));
		t->hits_r = t->hits_d = 0;
		/* A task whose share has decayed to exactly 0 no longer matters. */
		if (!all_zero(t->r, t->d) || t->hold_r || t->hold_d)
			ws->tasks[keep++] = *t;
	}
	ws->ntasks = keep;
	for (size_t i = 0; i < ws->ncgs; i++) {
		struct watch_cgroup *c = &ws->cgs[i];

		fold_pair(c->r, period_share(c->hits_r, n, WATCH_FINE_1, &c->hold_r));
		fold_pair(c->d, period_share(c->hits_d, n, WATCH_FINE_1, &c->hold_d));
		c->hits_r = c->hits_d = 0;
	}
	if (!n)
		ws->held_steps++;
	ws->samples = 0;
	ws->hits_d = 0;
	ws->polls = 0;
	ws->polls_r = 0;
	ws->steps++;
}

static int find_cgroup(struct watch_state *ws, const char *path)
{
	for (size_t i = 0; i < ws->ncgs; i++)
		if (!strcmp(ws->cgs[i].path, path))
			return (int)i;
	if (util_grow(&ws->cgs, &ws->cgcap, ws->ncgs + 1, sizeof(*ws->cgs)))
		return -ENOMEM;
	memset(&ws->cgs[ws->ncgs], 0, sizeof(ws->cgs[0]));
	snprintf(ws->cgs[ws->ncgs].path, sizeof(ws->cgs[0].path), "%s", path);
	return (int)ws->ncgs++;
}

/* The tracked task for t, created when first seen; NULL on ENOMEM. */
static struct watch_task *find_task(struct watch_state *ws, const struct load_task *t)
{
	size_t lo = 0, hi = ws->ntasks;
	struct watch_task *w;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ws->tasks[mid].tid < t->tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ws->ntasks && ws->tasks[lo].tid == t->tid) {
		w = &ws->tasks[lo];
		if (w->starttime == t->starttime)
			return w;
		/* The TID was reused: the old task's share keeps decaying under its cgroup only. */
	} else {
		if (util_grow(&ws->tasks, &ws->cap, ws->ntasks + 1, sizeof(*ws->tasks)))
			return NULL;
		memmove(&ws->tasks[lo + 1], &ws->tasks[lo], (ws->ntasks - lo) * sizeof(*w));
		ws->ntasks++;
		w = &ws->tasks[lo];
	}
	memset(w, 0, sizeof(*w));
	w->pid = t->pid;
	w->tid = t->tid;
	w->starttime = t->starttime;
	w->kernel_thread = t->kernel_thread;
	w->cg = -1;
	return w;
}

static int add_task(struct watch_state *ws, const struct load_task *t)
{
	struct watch_task *w = find_task(ws, t);
	int cg;

	if (!w)
		return -ENOMEM;
	snprintf(w->comm, sizeof(w->comm), "%s", t->comm);
	cg = find_cgroup(ws, t->cgroup);
	if (cg < 0)
		return cg;
	w->cg = cg;
	if (t->state == 'R') {
		w->hits_r++;
		ws->cgs[cg].hits_r++;
	} else {
		w->hits_d++;
		ws->cgs[cg].hits_d++;
		w->why = t->why;
		ws->hits_d++;
	}
	return 0;
}

/* Whether a kernel fold happened since the previous sample, or is overdue. */
static bool fold_due(struct watch_state *ws, const char *figures, double now)
{
	bool moved = strcmp(figures, ws->last_figures) != 0;

	snprintf(ws->last_figures, sizeof(ws->last_figures), "%s", figures);
	/* A change soon after a fold we forced is that same fold arriving late. */
	if (moved && ws->last_forced && now - ws->last_step < ws->period / 2) {
		ws->last_forced = false;
		ws->next_due = now + ws->period;
		return false;
	}
	if (moved) {
		ws->last_forced = false;
		ws->last_step = now;
		ws->next_due = now + ws->period;
		return true;
	}
	if (now >= ws->next_due + OVERDUE_GRACE_S) {
		ws->forced_steps++;
		ws->last_forced = true;
		ws->last_step = ws->next_due;
		ws->next_due += ws->period;
		return true;
	}
	return false;
}

int load_watch_kernel_tick(struct watch_state *ws, const char *loadavg_text, double now)
{
	char figures[64];
	bool folded;

	load_avg_figures(loadavg_text, figures, sizeof(figures));
	procfs_loadavg_parse(loadavg_text, strlen(loadavg_text), &ws->kernel);
	folded = fold_due(ws, figures, now);
	if (folded)
		watch_fold(ws);
	/* Read after the fold it may show: this count belongs to the new period. */
	if (ws->kernel.runnable > 0) {
		ws->polls_r += ws->kernel.runnable - 1; /* the reader was running */
		ws->polls++;
	}
	return folded;
}

int load_watch_add_scan(struct watch_state *ws, const struct load_snapshot *snap)
{
	int err;

	ws->samples++;
	ws->frozen_now = snap->n_frozen;
	ws->have_psi_io = snap->have_psi[PSI_IO];
	ws->psi_io_some10 = snap->psi[PSI_IO].some.avg10;
	ws->have_psi_cpu = snap->have_psi[PSI_CPU];
	ws->psi_cpu_some10 = snap->psi[PSI_CPU].some.avg10;
	for (size_t i = 0; i < snap->ntasks; i++) {
		if (!snap->tasks[i].counts)
			continue;
		err = add_task(ws, &snap->tasks[i]);
		if (err < 0)
			return err;
	}
	return 0;
}

int load_watch_tick(struct watch_state *ws, const char *loadavg_text,
		    const struct load_snapshot *snap, double now)
{
	/* The scan was taken after a kernel fold seen here: it belongs to the next period. */
	int folded = load_watch_kernel_tick(ws, loadavg_text, now);
	int err = load_watch_add_scan(ws, snap);

	return err < 0 ? err : folded;
}

double load_watch_period_for_budget(double cost_s, double budget, double min_s, double max_s)
{
	double p = budget > 0 ? cost_s / budget : max_s;

	if (!(p >= min_s))
		p = min_s;
	if (p > max_s)
		p = max_s;
	return p;
}
