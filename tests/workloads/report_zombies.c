/*
 * report_zombies N SECS: forks N children that exit at once and never
 * waits for them: N zombies under one parent until it dies (then init
 * reaps them). Prints "parent PID", then "ready" once every child has
 * exited (waitid with WNOWAIT sees each exit without reaping it).
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <sys/wait.h>

int main(int argc, char **argv)
{
	pid_t *kids;
	int n;

	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > 100000)
		rw_usage("report_zombies N SECS");
	rw_lifetime(argv[2]);
	rw_say("parent %d", getpid());
	if (!(kids = calloc((size_t)n, sizeof(*kids))))
		return 1;
	for (int i = 0; i < n; i++)
		if ((kids[i] = fork()) < 0)
			return 1;
		else if (kids[i] == 0)
			_exit(0);
	for (int i = 0; i < n; i++) {
		siginfo_t si;

		if (waitid(P_PID, (id_t)kids[i], &si, WEXITED | WNOWAIT))
			return 1;
	}
	rw_say("ready");
	for (;;)
		pause();
}
