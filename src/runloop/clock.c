#include "runloop/clock.h"

#include <stdint.h>
#include <stdio.h>

#include "runloop/timespec.h"
#include "util/parse.h"

void runloop_clock_real(struct runloop_clock *c, struct runloop_stop *stop,
			const struct timespec *interval)
{
	*c = (struct runloop_clock){ .stop = stop, .interval = *interval };
	clock_gettime(CLOCK_MONOTONIC, &c->origin);
	c->deadline = c->origin;
}

void runloop_clock_fixture(struct runloop_clock *c, struct runloop_stop *stop, struct procfs *pf,
			   enum runloop_step_kind kind, int step, time_t epoch)
{
	*c = (struct runloop_clock){
		.stop = stop, .fixture = pf, .kind = kind, .step = step, .epoch = epoch
	};
}

void runloop_clock_list(struct runloop_clock *c, struct runloop_stop *stop, const time_t *times,
			int nsteps)
{
	*c = (struct runloop_clock){
		.stop = stop, .step = 1, .times = times, .nsteps = nsteps, .epoch = times[0]
	};
}

int runloop_clock_open(struct runloop_clock *c, struct runloop_stop *stop, struct procfs *pf,
		       const struct host_facts *facts, const struct timespec *interval)
{
	int err;

	if (!facts->fixture) {
		runloop_clock_real(c, stop, interval);
		return 0;
	}
	err = procfs_step(pf, 1);
	if (err)
		return err;
	runloop_clock_fixture(c, stop, pf, RUNLOOP_STEP_PROC, 1, facts->start_time);
	return 0;
}

void runloop_clock_window(struct runloop_clock *c, const struct timespec *span)
{
	if (c->fixture)
		return;
	clock_gettime(CLOCK_MONOTONIC, &c->origin);
	c->deadline = c->origin;
	c->end = runloop_ts_add(c->origin, span);
	c->has_end = true;
}

double runloop_clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double runloop_mono_s(void)
{
	return runloop_clock_s(CLOCK_MONOTONIC);
}

int64_t runloop_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * RUNLOOP_NS_PER_S + ts.tv_nsec;
}

struct timespec runloop_seconds(double s)
{
	struct timespec ts = { 0, 0 };

	if (s > 0) {
		ts.tv_sec = (time_t)s;
		ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	}
	return ts;
}

void runloop_clock_arm(struct runloop_clock *c)
{
	runloop_stop_arm(c->stop);
	if (!c->fixture && !c->times)
		c->deadline = runloop_ts_add(c->origin, &c->interval);
}

static bool has_interval(const struct runloop_clock *c)
{
	return c->interval.tv_sec || c->interval.tv_nsec;
}

static int fixture_next(struct runloop_clock *c)
{
	int err;

	if (runloop_stop_requested(c->stop))
		return 1;
	if (c->kind == RUNLOOP_STEP_ROOT)
		err = procfs_step_root(c->fixture, c->step + 1);
	else
		err = procfs_step(c->fixture, c->step + 1);
	if (err)
		return 1; /* no step left: as after Ctrl-C */
	c->step++;
	return 0;
}

int runloop_clock_wait(struct runloop_clock *c)
{
	if (c->times) {
		if (runloop_stop_requested(c->stop) || c->step >= c->nsteps)
			return 1;
		c->step++;
		return 0;
	}
	if (c->fixture)
		return fixture_next(c);
	if (c->has_end && (!has_interval(c) || runloop_ts_reached(&c->deadline, &c->end))) {
		runloop_stop_wait(c->stop, &c->end);
		return 1; /* the window is over (or a stop came first) */
	}
	if (!has_interval(c))
		return runloop_stop_wait(c->stop, NULL);
	if (runloop_stop_wait(c->stop, &c->deadline))
		return 1;
	/* the grid is kept: a late sample is taken at once, none is skipped */
	c->deadline = runloop_ts_add(c->deadline, &c->interval);
	return 0;
}

time_t runloop_clock_now(const struct runloop_clock *c)
{
	char path[64], buf[64];
	uint64_t v;
	ssize_t n;

	if (c->times)
		return c->times[c->step - 1];
	if (!c->fixture)
		return time(NULL);
	if (c->step <= 1)
		return c->epoch;
	if (c->kind == RUNLOOP_STEP_ROOT)
		snprintf(path, sizeof(path), "time"); /* the root is the step */
	else
		snprintf(path, sizeof(path), "step%d/time", c->step);
	n = procfs_read_root(c->fixture, path, buf, sizeof(buf));
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (n <= 0 || parse_u64(buf, INT64_MAX, &v))
		return c->epoch;
	return (time_t)v;
}

int runloop_run(struct runloop_clock *c, unsigned count, runloop_sample_fn sample, void *ctx)
{
	for (unsigned k = 0; !count || k < count; k++) {
		int rc;

		if (k && runloop_clock_wait(c))
			return 0;
		rc = sample(ctx, k);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	return 0;
}
