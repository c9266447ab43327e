/* The --watch report: the reconstruction beside the kernel, and the top shares. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/watch.h"

static double fine(uint64_t v)
{
	return load_fixed_to_double(v, WATCH_FINE_SHIFT);
}

/* Inserts c into top (descending by runnable + d), keeping at most max entries. */
static void top_insert(struct watch_contrib *top, int *n, int max, const struct watch_contrib *c)
{
	double v = c->runnable + c->d;
	int i = *n < max ? (*n)++ : max;

	if (i == max) {
		if (v <= top[max - 1].runnable + top[max - 1].d)
			return;
		i = max - 1;
	}
	while (i > 0 && top[i - 1].runnable + top[i - 1].d < v) {
		top[i] = top[i - 1];
		i--;
	}
	top[i] = *c;
}

static void add_tasks(const struct watch_state *ws, struct watch_report *r)
{
	for (size_t i = 0; i < ws->ntasks; i++) {
		const struct watch_task *t = &ws->tasks[i];
		struct watch_contrib c = { 0 };

		for (int k = 0; k < 3; k++) {
			r->runnable[k] += fine(t->r[k]);
			r->d[k] += fine(t->d[k]);
		}
		r->reason1[t->why.reason] += fine(t->d[0]);
		c.pid = t->pid;
		c.tid = t->tid;
		snprintf(c.name, sizeof(c.name), "%s", t->comm);
		if (t->cg >= 0)
			snprintf(c.cgroup, sizeof(c.cgroup), "%s", ws->cgs[t->cg].path);
		c.runnable = fine(t->r[0]);
		c.d = fine(t->d[0]);
		c.why = t->why;
		if (c.runnable + c.d >= 0.005)
			top_insert(r->top, &r->ntop, r->max_top, &c);
	}
}

static void add_cgroups(const struct watch_state *ws, struct watch_report *r)
{
	for (size_t i = 0; i < ws->ncgs; i++) {
		struct watch_contrib c = { 0 };

		snprintf(c.name, sizeof(c.name), "%s", ws->cgs[i].path);
		c.runnable = fine(ws->cgs[i].r[0]);
		c.d = fine(ws->cgs[i].d[0]);
		if (c.runnable + c.d >= 0.005)
			top_insert(r->topcg, &r->ntopcg, WATCH_TOP_CG, &c);
	}
}

void load_watch_report_release(struct watch_report *r)
{
	free(r->top);
	r->top = NULL;
	r->ntop = 0;
}

int load_watch_report_build(const struct watch_state *ws, double now, int max_top,
			    struct watch_report *r)
{
	memset(r, 0, sizeof(*r));
	r->max_top = max_top > 0 ? max_top : 1;
	r->top = calloc((size_t)r->max_top, sizeof(*r->top));
	if (!r->top)
		return -ENOMEM;
	r->elapsed = now - ws->start;
	for (int k = 0; k < 3; k++) {
		r->kernel[k] = ws->kernel.load[k];
		r->recon[k] = load_fixed_to_double(ws->total[k], LOAD_FSHIFT);
		r->before[k] = fine(ws->before[k]);
	}
	r->error1_pct = r->kernel[0] > 0 ? 100.0 * (r->recon[0] - r->kernel[0]) / r->kernel[0] : 0;
	r->steps = ws->steps;
	r->forced_steps = ws->forced_steps;
	r->held_steps = ws->held_steps;
	r->ntracked = (unsigned)ws->ntasks;
	r->ncpu = ws->ncpu;
	r->frozen_now = ws->frozen_now;
	add_tasks(ws, r);
	add_cgroups(ws, r);
	for (int k = 0; k < 3; k++)
		r->unattributed[k] = r->recon[k] - r->before[k] - r->runnable[k] - r->d[k];
	return 0;
}

void load_verdict_input_from_watch(const struct watch_report *r, const struct watch_state *ws,
				   struct verdict_input *in)
{
	memset(in, 0, sizeof(*in));
	in->averaged = true;
	in->load1 = r->kernel[0];
	in->ncpu = r->ncpu;
	in->runnable = r->runnable[0];
	in->d_counted = r->d[0];
	in->before = r->before[0];
	in->unattributed = r->unattributed[0];
	/* Each fold leaves EXP_1/FIXED_1 of the older weight. */
	in->coverage =
	    1 - (double)load_fixed_power(LOAD_EXP_1, LOAD_FSHIFT, r->steps) / LOAD_FIXED_1;
	for (int k = 0; k < D_REASON_COUNT; k++)
		in->reason[k] = r->reason1[k];
	in->frozen = r->frozen_now;
	in->have_psi_io = ws->have_psi_io;
	in->psi_io_some10 = ws->psi_io_some10;
	in->have_psi_cpu = ws->have_psi_cpu;
	in->psi_cpu_some10 = ws->psi_cpu_some10;
}
