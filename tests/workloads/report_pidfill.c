/*
 * report_pidfill SECS: fills its pids cgroup. Forks children that sleep
 * in pause() until fork() fails with EAGAIN (the cgroup's pids.max), then
 * tries one more fork every 50 ms, as a server that keeps spawning would;
 * each of those is refused too. Prints "filler PID", "children N" (how
 * many it got) and "ready". Every child dies by its own alarm().
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <errno.h>
#include <signal.h>
#include <string.h>

static pid_t spawn(const char *secs)
{
	pid_t p = fork();

	if (p == 0) {
		rw_lifetime(secs); /* alarm() is not inherited across fork() */
		for (;;)
			pause();
	}
	return p;
}

int main(int argc, char **argv)
{
	struct timespec next;
	unsigned n = 0;
	pid_t p;

	if (argc != 2)
		rw_usage("report_pidfill SECS");
	rw_lifetime(argv[1]);
	signal(SIGCHLD, SIG_IGN); /* no zombies: a child that dies frees its slot at once */
	rw_say("filler %d", getpid());
	while ((p = spawn(argv[1])) > 0)
		if (++n > 100000)
			return 1;
	if (errno != EAGAIN) {
		fprintf(stderr, "report_pidfill: fork: %s\n", strerror(errno));
		return 1;
	}
	rw_say("children %u", n);
	rw_say("ready");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (spawn(argv[1]) > 0)
			n++;
		rw_pace(&next, 50000000L);
	}
}
