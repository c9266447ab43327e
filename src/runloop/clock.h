/*
 * The sampling clock of a run loop: real (sleeps to absolute deadlines
 * origin + k * interval on CLOCK_MONOTONIC, so a slow sample delays no
 * later one and a late one is taken at once) or fixture (each wait moves a
 * fixture root to its next stepN/ instead of sleeping; docs/fixtures.md).
 * Both end on a stop signal; a fixture also ends, as if interrupted, when
 * no step is left.
 *
 * Typical use (a command sampling every second for N seconds, --root aware):
 *	procfs_open(&pf, root); procfs_host_facts_load(&facts, pf);
 *	runloop_stop_init(&stop);
 *	runloop_clock_open(&clk, &stop, pf, &facts, &(struct timespec){ 1, 0 });
 *	runloop_clock_arm(&clk);    // SIGINT/SIGTERM now end the loop, not us
 *	runloop_run(&clk, N + 1, sample, ctx);
 */
#ifndef TRIAGE_RUNLOOP_CLOCK_H
#define TRIAGE_RUNLOOP_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "procfs/host.h"
#include "procfs/procfs.h"
#include "runloop/stop.h"

/* How a fixture step moves the root: see procfs_step() and procfs_step_root(). */
enum runloop_step_kind {
	RUNLOOP_STEP_PROC, /* only /proc moves to stepN/proc (pidstat fixtures) */
	RUNLOOP_STEP_ROOT, /* stepN/ is a whole root (load fixtures) */
};

struct runloop_clock {
	struct runloop_stop *stop;
	/* real */
	struct timespec interval; /* zero: each wait lasts until a stop signal */
	struct timespec origin;	  /* when the clock was made: the grid's start */
	struct timespec deadline;
	struct timespec end; /* runloop_clock_window(): the last wait ends here */
	bool has_end;
	/* fixture */
	struct procfs *fixture; /* NULL for the real clock */
	enum runloop_step_kind kind;
	int step;     /* the current step */
	time_t epoch; /* wall time of the start (meta epoch) */
	/* list: steps 1..nsteps at these wall times (a recording replayed) */
	const time_t *times;
	int nsteps;
};

/* A real clock; its grid starts now. */
void runloop_clock_real(struct runloop_clock *c, struct runloop_stop *stop,
			const struct timespec *interval);
/* A fixture clock over pf, whose current step is step (0: none yet). */
void runloop_clock_fixture(struct runloop_clock *c, struct runloop_stop *stop, struct procfs *pf,
			   enum runloop_step_kind kind, int step, time_t epoch);
/*
 * A clock over nsteps recorded samples (triage replay): step 1 is current,
 * each wait makes the next one current, and the end of the list ends the
 * loop as a stop would; times[k - 1] is step k's wall time.
 */
void runloop_clock_list(struct runloop_clock *c, struct runloop_stop *stop, const time_t *times,
			int nsteps);
/*
 * The clock for a root: a fixture root (facts->fixture) steps from its
 * step1, made current here (-ENOENT if it has none), only /proc moving;
 * any other root gets a real clock with interval.
 */
int runloop_clock_open(struct runloop_clock *c, struct runloop_stop *stop, struct procfs *pf,
		       const struct host_facts *facts, const struct timespec *interval);
/*
 * Makes a real clock a window of span starting now: its grid restarts now
 * and the wait that would pass now + span ends there instead, returning 1
 * as on a stop (span need not be a whole number of intervals). A fixture
 * clock is left alone: its steps are the window. Call before arming.
 */
void runloop_clock_window(struct runloop_clock *c, const struct timespec *span);
/* Interval in seconds (>= 0) as a timespec. */
struct timespec runloop_seconds(double s);

/* Arms the stop signals and, for a real clock, the first deadline: origin + interval. */
void runloop_clock_arm(struct runloop_clock *c);
/*
 * Waits for the next sample: the next deadline, or the next fixture step
 * (made current). Returns 0 when the sample is due, 1 to stop.
 */
int runloop_clock_wait(struct runloop_clock *c);
/*
 * Wall-clock time of the current sample: time(NULL), or for a fixture the
 * meta epoch until step 2, then stepN/time.
 */
time_t runloop_clock_now(const struct runloop_clock *c);

/*
 * The clocks everything else reads: seconds on clock id (CLOCK_MONOTONIC for
 * durations and deadlines, CLOCK_*_CPUTIME_ID for costs, CLOCK_REALTIME for
 * wall-time grids), and CLOCK_MONOTONIC in seconds and in nanoseconds.
 */
double runloop_clock_s(clockid_t id);
double runloop_mono_s(void);
int64_t runloop_mono_ns(void);

/* One sample; k counts from 0. Nonzero ends the loop (< 0: an error). */
typedef int (*runloop_sample_fn)(void *ctx, unsigned k);
/*
 * The loop itself: sample at once, then once per wait, until count samples
 * were taken (0: no limit), a stop, or sample() returns nonzero. Arm the
 * clock first. Returns sample()'s negative result, or 0.
 */
int runloop_run(struct runloop_clock *c, unsigned count, runloop_sample_fn sample, void *ctx);

#endif
