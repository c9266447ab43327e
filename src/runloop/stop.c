#include "runloop/stop.h"

#include <errno.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "runloop/timespec.h"

void runloop_stop_init(struct runloop_stop *s)
{
	sigemptyset(&s->set);
	sigaddset(&s->set, SIGINT);
	sigaddset(&s->set, SIGTERM);
	sigemptyset(&s->saved);
	s->armed = s->stopped = false;
	s->signo = 0;
	s->fd = -1;
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
	if (s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
	}
	if (!s->armed)
		return;
	sigprocmask(SIG_SETMASK, &s->saved, NULL);
	s->armed = false;
}

static void record_stop(struct runloop_stop *s, int sig)
{
	if (!s->stopped)
		s->signo = sig;
	s->stopped = true;
}

/*
 * Takes a stop signal within *rel (NULL: no limit); 1 if one came. With
 * timed_out, says whether all of *rel passed (EAGAIN) rather than an
 * interruption (EINTR) cutting it short.
 */
static int take_signal_within(struct runloop_stop *s, const struct timespec *rel, bool *timed_out)
{
	int sig;

	do
		sig = sigtimedwait(&s->set, NULL, rel);
	while (sig < 0 && errno == EINTR && !rel);
	if (timed_out)
		*timed_out = sig < 0 && errno == EAGAIN;
	if (sig > 0)
		record_stop(s, sig);
	return s->stopped;
}

static int take_signal(struct runloop_stop *s, const struct timespec *rel)
{
	return take_signal_within(s, rel, NULL);
}

int runloop_stop_wait(struct runloop_stop *s, const struct timespec *deadline)
{
	struct timespec now, rel;
	bool timed_out;

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
		/*
		 * EINTR (another signal, a debugger) comes back here for the rest.
		 * A timeout is the deadline (the kernel's timer never fires
		 * early): no second wait to look for a signal, one system
		 * call per interval instead of two.
		 */
		if (take_signal_within(s, &rel, &timed_out))
			return 1;
		if (timed_out)
			return 0;
	}
}

bool runloop_stop_requested(struct runloop_stop *s)
{
	return s->stopped || take_signal(s, &(struct timespec){ 0, 0 });
}

int runloop_stop_fd(struct runloop_stop *s)
{
	int fd;

	if (s->fd >= 0)
		return s->fd;
	runloop_stop_arm(s);
	fd = signalfd(-1, &s->set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		return -errno;
	s->fd = fd;
	return fd;
}

bool runloop_stop_drain(struct runloop_stop *s)
{
	struct signalfd_siginfo si;

	/* all of them: a second Ctrl-C must not kill us once disarm unblocks */
	while (s->fd >= 0 && read(s->fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		record_stop(s, (int)si.ssi_signo);
	return s->stopped;
}
