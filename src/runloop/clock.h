/*
 * The sampling clock of a run loop: real (sleeps to absolute deadlines
 * origin + k * interval on CLOCK_MONOTONIC, so a slow sample delays no
 * later one and a late one is taken at once) or fixture (each wait moves a
 * fixture root to its next stepN/ instead of sleeping; docs/fixtures.md).
 * Both end on a stop signal; a fixture also ends, as if interrupted, when
 * no step is left.
 *
 * Typical use (a command sampling for N seconds):
 *	runloop_stop_init(&stop);
 *	runloop_clock_real(&clk, &stop, &interval);  // or runloop_clock_fixture()
 *	runloop_clock_arm(&clk);                     // stop signals now end the loop
 *	do sample(); while (more && !runloop_clock_wait(&clk));
 */
#ifndef TRIAGE_RUNLOOP_CLOCK_H
#define TRIAGE_RUNLOOP_CLOCK_H

#include <stdbool.h>
#include <time.h>

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
	/* fixture */
	struct procfs *fixture; /* NULL for the real clock */
	enum runloop_step_kind kind;
	int step;     /* the current step */
	time_t epoch; /* wall time of the start (meta epoch) */
};

/* A real clock; its grid starts now. */
void runloop_clock_real(struct runloop_clock *c, struct runloop_stop *stop,
			const struct timespec *interval);
/* A fixture clock over pf, whose current step is step (0: none yet). */
void runloop_clock_fixture(struct runloop_clock *c, struct runloop_stop *stop,
			   struct procfs *pf, enum runloop_step_kind kind, int step, time_t epoch);
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

#endif
