/*
 * report_forks LOOPS RATE SECS: a fork storm. LOOPS "spawner" processes
 * (children of this one) each run /bin/true again and again, fork, exec,
 * wait, like `while :; do /bin/true; done`: RATE a second each (0: as
 * fast as they can). Every child lives a millisecond or so, too short for
 * a sampler to see. Prints "spawner PID" for each loop, then "ready" once
 * every loop has run its first child.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <string.h>
#include <sys/wait.h>

static int run_true(void)
{
	int status;
	pid_t p = fork();

	if (p < 0)
		return -1;
	if (p == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	return waitpid(p, &status, 0) == p && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static void spawner(long rate, int ready_fd, const char *secs)
{
	struct timespec next;

	rw_lifetime(secs); /* alarm() is not inherited across fork() */
	if (run_true() || write(ready_fd, "x", 1) != 1)
		_exit(1);
	close(ready_fd);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (run_true())
			_exit(1);
		if (rate > 0)
			rw_pace(&next, 1000000000L / rate);
	}
}

int main(int argc, char **argv)
{
	int loops, p[2];
	long rate;
	char c;

	if (argc != 4 || (loops = atoi(argv[1])) < 1 || loops > 64 || (rate = atol(argv[2])) < 0)
		rw_usage("report_forks LOOPS RATE SECS");
	rw_lifetime(argv[3]);
	if (pipe(p))
		return 1;
	for (int i = 0; i < loops; i++) {
		pid_t s = fork();

		if (s < 0)
			return 1;
		if (s == 0) {
			close(p[0]);
			spawner(rate, p[1], argv[3]);
		}
		rw_say("spawner %d", s);
	}
	close(p[1]);
	for (int i = 0; i < loops; i++)
		if (read(p[0], &c, 1) != 1)
			return 1;
	rw_say("ready");
	for (;;)
		pause();
}
