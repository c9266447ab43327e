#include "load/sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int load_source_open(struct load_source *s, const char *root)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->step.root_fd = s->step.proc_fd = -1;
	err = procfs_open(&s->top, root);
	if (err)
		return err;
	err = host_facts_load(&s->facts, &s->top);
	if (err) {
		procfs_close(&s->top);
		return err;
	}
	s->fixture = s->facts.fixture;
	if (!s->fixture)
		s->step = s->top;
	return 0;
}

void load_source_close(struct load_source *s)
{
	if (s->fixture)
		procfs_close(&s->step);
	procfs_close(&s->top);
}

/* Fixture: opens the next stepN; returns 1 when there is none. */
int load_source_next_step(struct load_source *s)
{
	char name[32];
	int fd;

	snprintf(name, sizeof(name), "step%d", s->stepno + 1);
	fd = openat(s->top.root_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	if (s->stepno)
		procfs_close(&s->step);
	s->step.root_fd = fd;
	s->step.proc_fd = openat(fd, "proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	s->stepno++;
	return 0;
}

/* The sample's clock: the step's uptime in a fixture, the monotonic clock live. */
static double source_now(const struct load_source *s)
{
	char buf[128];
	uint64_t cs;
	ssize_t n;

	if (!s->fixture)
		return clock_s(CLOCK_MONOTONIC);
	n = procfs_read(&s->step, "uptime", buf, sizeof(buf));
	if (n <= 0 || uptime_parse(buf, (size_t)n, &cs))
		return 0;
	return (double)cs / 100.0;
}

/* Sleeps until t (monotonic seconds); returns 1 if a stop signal came. */
static int wait_until(double t, const sigset_t *stop)
{
	double d = t - clock_s(CLOCK_MONOTONIC);
	struct timespec ts;

	if (d <= 0)
		d = 0;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
	for (;;) {
		int sig = sigtimedwait(stop, NULL, &ts);

		if (sig > 0)
			return 1;
		if (errno == EAGAIN)
			return 0;
		if (errno != EINTR)
			return 0;
	}
}

struct loop {
	const struct watch_opts *o;
	struct load_source src;
	bool rt;
	struct watch_state ws;
	struct load_scan_opts scan;
	double cost_avg, cpu_start, wall_start, next_print, last_print;
	unsigned samples_since_print, threads, printed;
};

/* One sample: /proc/loadavg first, then the task scan, then the tracker. */
static int sample(struct loop *L, bool first)
{
	double cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), now, cost;
	struct load_snapshot snap;
	char text[256];
	ssize_t n;
	int err;

	n = procfs_read(&L->src.step, "loadavg", text, sizeof(text));
	if (n <= 0)
		return n < 0 ? (int)n : -ENOENT;
	now = source_now(&L->src);
	err = load_snapshot_take(&L->src.step, &L->scan, &snap);
	if (err)
		return err;
	if (first)
		watch_init(&L->ws, text, now, L->src.facts.ncpu);
	err = watch_tick(&L->ws, text, &snap, now);
	L->threads = snap.threads_scanned;
	load_snapshot_release(&snap);
	cost = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	L->cost_avg = first ? cost : 0.8 * L->cost_avg + 0.2 * cost;
	L->samples_since_print++;
	return err < 0 ? err : 0;
}

static int emit_report(struct loop *L, double now, watch_emit_fn emit, void *ctx)
{
	struct watch_report r;
	struct verdict_input in;
	struct load_verdict v;
	double wall = L->src.fixture ? now - L->ws.start : clock_s(CLOCK_MONOTONIC) - L->wall_start;
	double span = now - L->last_print;

	if (watch_report_build(&L->ws, now, L->o->top, &r))
		return -ENOMEM;
	r.rate_hz = span > 0 ? L->samples_since_print / span : 0;
	r.scan_ms = L->cost_avg * 1e3;
	r.cpu_pct =
	    wall > 0 ? 100.0 * (clock_s(CLOCK_PROCESS_CPUTIME_ID) - L->cpu_start) / wall : 0;
	r.threads = L->threads;
	r.realtime = L->rt;
	verdict_input_from_watch(&r, &L->ws, &in);
	load_verdict_build(&in, &v);
	emit(ctx, &r, &v);
	watch_report_release(&r);
	L->samples_since_print = 0;
	L->last_print = now;
	L->printed++;
	return 0;
}

static int run_loop(struct loop *L, const sigset_t *stop, watch_emit_fn emit, void *ctx)
{
	double period = L->o->min_period_s, next = clock_s(CLOCK_MONOTONIC), now;
	int err;

	for (;;) {
		if (L->src.fixture) {
			if (load_source_next_step(&L->src))
				break;
		} else {
			next += period;
			if (wait_until(next, stop))
				break;
		}
		err = sample(L, false);
		if (err)
			return err;
		/* Aim below the budget: rendering and the clock reads cost too. */
		period = watch_period_for_budget(L->cost_avg, 0.85 * L->o->budget,
						 L->o->min_period_s, L->o->max_period_s);
		now = source_now(&L->src);
		if (now >= L->next_print) {
			err = emit_report(L, now, emit, ctx);
			if (err)
				return err;
			if (L->o->count && L->printed >= L->o->count)
				return 0;
			L->next_print += L->o->interval_s;
		}
	}
	/* Interrupted or out of steps: a last report unless one was just printed. */
	if (L->samples_since_print)
		return emit_report(L, source_now(&L->src), emit, ctx);
	return 0;
}

int load_watch_run(const struct watch_opts *o, watch_emit_fn emit, void *ctx)
{
	struct loop L = { .o = o };
	sigset_t stop, old;
	int err;

	err = load_source_open(&L.src, o->root);
	if (err)
		return err;
	L.scan.skip_pid = L.src.fixture ? 0 : getpid();
	L.scan.want_stacks = o->stacks;
	if (L.src.fixture && load_source_next_step(&L.src)) {
		load_source_close(&L.src);
		return -ENOENT;
	}
	if (o->realtime && !L.src.fixture) {
		struct sched_param sp = { .sched_priority = 1 };

		/* A short, budgeted sampler that is not starved sees what the tick sees. */
		L.rt = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	L.cpu_start = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	L.wall_start = clock_s(CLOCK_MONOTONIC);
	err = sample(&L, true);
	if (!err) {
		L.last_print = L.ws.start;
		L.next_print = L.ws.start + o->interval_s;
		err = run_loop(&L, &stop, emit, ctx);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	watch_release(&L.ws);
	load_source_close(&L.src);
	return err;
}
