/*
 * pidstat_ctl: a process whose task set changes only when it is told to,
 * so a test can start and end tasks at moments it chooses (between two
 * samples of both samplers) instead of after a sleep.
 *
 * The main thread burns 1 ms of every 10 ms and reads one-letter commands
 * from stdin; each thread it starts wakes 100 times a second. At start it
 * runs one thread, "wl-early", and prints "ready TID". Commands:
 *   s   start a thread "wl-late"; prints "started TID" once it is named
 *   x   end "wl-early"; prints "ended TID" once it is joined
 *   EOF exit (status 0)
 * A joined thread may linger in /proc for a moment; the caller waits for
 * /proc/PID/task/TID to go. argv[1] bounds the lifetime (default 60 s).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pidstat_common.h"

struct worker {
	const char *name;
	int stop[2];  /* written to end the thread */
	int ready[2]; /* the thread writes its TID once named */
	pthread_t th;
	pid_t tid;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pollfd p = { .fd = w->stop[0], .events = POLLIN };

	pthread_setname_np(pthread_self(), w->name);
	w->tid = gettid();
	if (write(w->ready[1], "x", 1) != 1)
		return NULL;
	while (poll(&p, 1, 10) == 0)
		;
	return NULL;
}

static int start_worker(struct worker *w, const char *name)
{
	char c;

	w->name = name;
	if (pipe(w->stop) || pipe(w->ready) || pthread_create(&w->th, NULL, work, w))
		return -1;
	return read(w->ready[0], &c, 1) == 1 ? 0 : -1;
}

static void end_worker(struct worker *w)
{
	if (write(w->stop[1], "x", 1) == 1)
		pthread_join(w->th, NULL);
}

/* One command from stdin: 0 to go on, 1 on EOF, -1 on error. */
static int command(struct worker *early, struct worker *late)
{
	char c;
	ssize_t n = read(STDIN_FILENO, &c, 1);

	if (n <= 0)
		return n == 0 ? 1 : -1;
	if (c == 's') {
		if (start_worker(late, "wl-late"))
			return -1;
		printf("started %d\n", (int)late->tid);
	} else if (c == 'x') {
		end_worker(early);
		printf("ended %d\n", (int)early->tid);
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	static struct worker early, late;
	double end = wl_now() + (argc > 1 ? atof(argv[1]) : 60.0);
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	volatile unsigned long x = 0;
	int rc = 0;

	if (start_worker(&early, "wl-early"))
		return 1;
	printf("ready %d\n", (int)early.tid);
	fflush(stdout);
	while (rc == 0 && wl_now() < end) {
		double until = wl_now() + 0.001;

		while (wl_now() < until)
			x++;
		if (poll(&in, 1, 9) > 0)
			rc = command(&early, &late);
	}
	return rc < 0;
}
