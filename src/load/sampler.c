#include "load/sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runloop/clock.h"
#include "runloop/fdlimit.h"

int load_source_open(struct load_source *s, const char *root, enum task_door door, long fd_budget,
		     unsigned scans)
{
	/* load reads each thread's stat only, for its state and wait channel */
	struct task_work w = { .tasks = 0, .files = 1, .scans = scans };
	int err;

	memset(s, 0, sizeof(*s));
	err = procfs_open(&s->pf, root);
	if (err)
		return err;
	err = procfs_host_facts_load(&s->facts, s->pf);
	if (!err) {
		s->fixture = s->facts.fixture;
		err = procfs_task_source_open_for(&s->tasks, s->pf, s->fixture, door,
						  TASK_WANT_ACTIVE_ONLY, fd_budget, &w);
	}
	if (err) {
		procfs_close(s->pf);
		s->pf = NULL;
		return err;
	}
	return 0;
}

void load_source_close(struct load_source *s)
{
	procfs_task_set_release(&s->set);
	procfs_task_source_close(s->tasks);
	s->tasks = NULL;
	procfs_close(s->pf);
	s->pf = NULL;
}

int load_source_first_step(struct load_source *s)
{
	return procfs_step_root(s->pf, 1) ? 1 : 0;
}

/* The sample's clock: the step's uptime in a fixture, the monotonic clock live. */
static double source_now(const struct load_source *s)
{
	char buf[128];
	uint64_t cs;
	ssize_t n;

	if (!s->fixture)
		return runloop_mono_s();
	n = procfs_read(s->pf, "uptime", buf, sizeof(buf));
	if (n <= 0 || procfs_uptime_parse(buf, (size_t)n, &cs))
		return 0;
	return (double)cs / 100.0;
}

/* How often the kernel's figures are read: folds are found within this. */
#define POLL_S 0.1

struct loop {
	struct runloop_stop stop;
	struct runloop_clock clk; /* POLL_S ticks, or fixture steps */
	const struct watch_opts *o;
	struct load_source src;
	bool rt;
	struct watch_state ws;
	struct load_scan_opts scan;
	double cost_avg, cpu_start, wall_start, next_print, last_print;
	unsigned samples_since_print, threads, printed;
};

/* The kernel's side: /proc/loadavg, cheap enough to read at POLL_S. */
static int poll_kernel(struct loop *L, char *text, size_t size, double *now)
{
	ssize_t n = procfs_read(L->src.pf, "loadavg", text, size);

	if (n <= 0)
		return n < 0 ? (int)n : -ENOENT;
	*now = source_now(&L->src);
	return 0;
}

/* One task scan, after the kernel's side was read; measures its CPU cost. */
static int scan(struct loop *L, const char *text, double now, bool first)
{
	double cpu0 = runloop_clock_s(CLOCK_PROCESS_CPUTIME_ID), cost;
	struct load_snapshot snap;
	int err = load_snapshot_take(L->src.pf, &L->scan, &snap);

	if (err)
		return err;
	if (first) {
		load_watch_init(&L->ws, text, now, L->src.facts.ncpu);
		load_watch_kernel_tick(&L->ws, text, now); /* the first poll, no fold */
	}
	err = load_watch_add_scan(&L->ws, &snap);
	L->threads = snap.threads_scanned;
	load_snapshot_release(&snap);
	cost = runloop_clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	L->cost_avg = first ? cost : 0.8 * L->cost_avg + 0.2 * cost;
	L->samples_since_print++;
	return err;
}

static int emit_report(struct loop *L, double now, watch_emit_fn emit, void *ctx)
{
	struct watch_report r;
	struct verdict_input in;
	struct load_verdict v;
	double wall = L->src.fixture ? now - L->ws.start : runloop_mono_s() - L->wall_start;
	double span = now - L->last_print;

	if (load_watch_report_build(&L->ws, now, L->o->top, &r))
		return -ENOMEM;
	r.rate_hz = span > 0 ? L->samples_since_print / span : 0;
	r.scan_ms = L->cost_avg * 1e3;
	r.cpu_pct = wall > 0
			? 100.0 * (runloop_clock_s(CLOCK_PROCESS_CPUTIME_ID) - L->cpu_start) / wall
			: 0;
	r.threads = L->threads;
	r.realtime = L->rt;
	load_verdict_input_from_watch(&r, &L->ws, &in);
	load_verdict_build(&in, &v);
	emit(ctx, &r, &v);
	load_watch_report_release(&r);
	L->samples_since_print = 0;
	L->last_print = now;
	L->printed++;
	return 0;
}

/* How many stat files a scan may keep open: room is left for everything else. */
static size_t fd_room(void)
{
	rlim_t n = runloop_raise_nofile(1 << 20);

	return n > 256 ? (size_t)(n - 256) : 0;
}

/* Live: a poll every POLL_S from now; fixture: one step per wait. */
static void make_clock(struct loop *L)
{
	if (L->src.fixture) {
		runloop_clock_fixture(&L->clk, &L->stop, L->src.pf, RUNLOOP_STEP_ROOT, 1, 0);
	} else {
		struct timespec poll = runloop_seconds(POLL_S);

		runloop_clock_real(&L->clk, &L->stop, &poll);
	}
}

static int maybe_report(struct loop *L, double now, watch_emit_fn emit, void *ctx)
{
	int err;

	if (now < L->next_print)
		return 0;
	err = emit_report(L, now, emit, ctx);
	if (err)
		return err;
	L->next_print += L->o->interval_s;
	return L->o->count && L->printed >= L->o->count ? 1 : 0;
}

static int run_loop(struct loop *L, watch_emit_fn emit, void *ctx)
{
	double now = 0;
	double next_scan =
	    runloop_mono_s() + load_watch_period_for_budget(L->cost_avg, 0.85 * L->o->budget,
							    L->o->min_period_s, L->o->max_period_s);
	char text[256];
	int err;

	runloop_clock_arm(&L->clk);
	while (!runloop_clock_wait(&L->clk)) {
		err = poll_kernel(L, text, sizeof(text), &now);
		if (!err)
			load_watch_kernel_tick(&L->ws, text, now);
		/* A fixture step is one scan; live scans run as often as the budget allows. */
		if (!err && (L->src.fixture || runloop_mono_s() >= next_scan)) {
			double start = runloop_mono_s();

			err = scan(L, text, now, false);
			/* Aim below the budget: polls, clocks and reports cost too. */
			next_scan = start + load_watch_period_for_budget(
						L->cost_avg, 0.85 * L->o->budget,
						L->o->min_period_s, L->o->max_period_s);
		}
		if (!err)
			err = maybe_report(L, now, emit, ctx);
		if (err)
			return err < 0 ? err : 0;
	}
	/* Interrupted or out of steps: a last report unless one was just printed. */
	if (L->samples_since_print)
		return emit_report(L, source_now(&L->src), emit, ctx);
	return 0;
}

int load_watch_run(const struct watch_opts *o, watch_emit_fn emit, void *ctx)
{
	struct loop L = { .o = o };
	char text[256];
	double now = 0;
	int err;

	err = load_source_open(&L.src, o->root, o->door, (long)fd_room(), 0);
	if (err)
		return err;
	if (o->on_door)
		o->on_door(ctx, L.src.tasks);
	L.scan.skip_pid = L.src.fixture ? 0 : getpid();
	L.scan.want_stacks = o->stacks;
	L.scan.tasks = L.src.tasks;
	L.scan.set = &L.src.set;
	if (L.src.fixture && load_source_first_step(&L.src)) {
		load_source_close(&L.src);
		return -ENOENT;
	}
	if (o->realtime && !L.src.fixture) {
		struct sched_param sp = { .sched_priority = 1 };

		/* A short, budgeted sampler that is not starved sees what the tick sees. */
		L.rt = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
	}
	runloop_stop_init(&L.stop);
	runloop_stop_arm(&L.stop);
	L.cpu_start = runloop_clock_s(CLOCK_PROCESS_CPUTIME_ID);
	L.wall_start = runloop_mono_s();
	err = poll_kernel(&L, text, sizeof(text), &now);
	if (!err)
		err = scan(&L, text, now, true);
	if (!err) {
		L.last_print = L.ws.start;
		L.next_print = L.ws.start + o->interval_s;
		make_clock(&L);
		err = run_loop(&L, emit, ctx);
	}
	runloop_stop_disarm(&L.stop);
	load_watch_release(&L.ws);
	load_source_close(&L.src);
	return err;
}

int load_look(struct load_source *src, const struct load_scan_opts *scan,
	      struct load_snapshot *snap, struct load_verdict *v)
{
	struct verdict_input in;
	int err;

	if (src->fixture && load_source_first_step(src))
		return -ENOENT;
	err = load_snapshot_take(src->pf, scan, snap);
	if (err)
		return err;
	if (!snap->have_loadavg) {
		load_snapshot_release(snap);
		return -ENOENT;
	}
	snap->ncpu = src->facts.ncpu;
	load_verdict_input_from_snapshot(snap, &in);
	load_verdict_build(&in, v);
	return 0;
}
