#include "runloop/stop.h"

#include <errno.h>

#include "runloop/timespec.h"

void runloop_stop_init(struct runloop_stop *s)
{
	sigemptyset(&s->set);
	sigaddset(&s->set, SIGINT);
	sigaddset(&s->set, SIGTERM);
	sigemptyset(&s->saved);
	s->armed = s->stopped = false;
}

void runloop_stop_add(struct runloop_stop *s, int sig)
{
	sigaddset(&s->set, sig);
}

void runloop_stop_arm(struct runloop_stop *s)
{
	if (s->armed)
		return;
	sigprocmask(SIG_BLOCK, &s->set, &s->saved);
	s->armed = true;
}

void runloop_stop_disarm(struct runloop_stop *s)
{
	if (!s->armed)
		return;
	sigprocmask(SIG_SETMASK, &s->saved, NULL);
	s->armed = false;
}

/* Takes a stop signal within *rel (NULL: no limit); 1 if one came. */
static int take_signal(struct runloop_stop *s, const struct timespec *rel)
{
	int sig;

	do
		sig = sigtimedwait(&s->set, NULL, rel);
	while (sig < 0 && errno == EINTR && !rel);
	if (sig > 0)
		s->stopped = true;
	return s->stopped;
}

int runloop_stop_wait(struct runloop_stop *s, const struct timespec *deadline)
{
	struct timespec now, rel;

	for (;;) {
		if (s->stopped)
			return 1;
		if (!deadline) {
			take_signal(s, NULL);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (runloop_ts_reached(&now, deadline))
			return take_signal(s, &(struct timespec){ 0, 0 });
		rel = runloop_ts_sub(deadline, &now);
		/* EINTR (another signal, a debugger) comes back here for the rest */
		if (take_signal(s, &rel))
			return 1;
	}
}

bool runloop_stop_requested(struct runloop_stop *s)
{
	return s->stopped || take_signal(s, &(struct timespec){ 0, 0 });
}
