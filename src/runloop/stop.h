/*
 * Stop signals for sampling loops. SIGINT and SIGTERM (and any signal
 * added, e.g. SIGCHLD for pidstat -e) are blocked once the loop is armed
 * and taken with sigtimedwait() while it waits: no handler, no global
 * flag, and no signal lost between a check and a sleep. Before arming,
 * they keep their default action (a Ctrl-C at start-up just ends us).
 * A loop that polls other fds too (the probes) asks for runloop_stop_fd()
 * instead and calls runloop_stop_drain() when it becomes readable.
 */
#ifndef TRIAGE_RUNLOOP_STOP_H
#define TRIAGE_RUNLOOP_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

struct runloop_stop {
	sigset_t set;	/* the stop signals */
	sigset_t saved; /* the mask before runloop_stop_arm() */
	bool armed;
	bool stopped; /* a stop signal came: sticky, every later wait returns at once */
	int signo;    /* the first stop signal taken, 0 if none */
	int fd;	      /* the signalfd from runloop_stop_fd(), -1 until asked for */
};

/* SIGINT and SIGTERM. */
void runloop_stop_init(struct runloop_stop *s);
/* One more stop signal; add it before arming. */
void runloop_stop_add(struct runloop_stop *s, int sig);
/* Blocks the stop signals (idempotent); from now on they end the loop, not the process. */
void runloop_stop_arm(struct runloop_stop *s);
/*
 * Restores the mask from before arming and closes the fd. A pending stop
 * signal then takes its default action: callers that must finish their
 * output stay armed (or drain first).
 */
void runloop_stop_disarm(struct runloop_stop *s);
/*
 * Waits until deadline (CLOCK_MONOTONIC, absolute; NULL: until a signal).
 * Returns 1 if a stop signal came (now or earlier), 0 at the deadline.
 */
int runloop_stop_wait(struct runloop_stop *s, const struct timespec *deadline);
/* Whether a stop signal came, without waiting. */
bool runloop_stop_requested(struct runloop_stop *s);
/*
 * Arms, then returns a non-blocking signalfd for the stop signals, for a
 * poll() loop; the same fd on every call, closed by disarm. -errno on failure.
 */
int runloop_stop_fd(struct runloop_stop *s);
/*
 * Takes every pending stop signal from the fd without waiting; returns
 * whether a stop signal came (now or earlier), as runloop_stop_requested().
 */
bool runloop_stop_drain(struct runloop_stop *s);

#endif
