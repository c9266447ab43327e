/*
 * load_dstate vfork M SECONDS: M processes ("load_vfork") each held in D in
 * vfork() for SECONDS while their vfork child sleeps. Prints "vfork PID"
 * per held parent, then "ready".
 * load_dstate sleep M SECONDS: M processes ("load_sleeper") sleeping
 * interruptibly (S), for a test to freeze. Prints "sleep PID", then "ready".
 * The main process waits for all of them; killing it does not kill them,
 * so a test kills the printed PIDs (and vfork children via the group).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void held_in_vfork(double secs)
{
	pid_t c;

	prctl(PR_SET_NAME, "load_vfork");
	c = vfork();
	if (c == 0) {
		/* The parent stays in D until this child exits or execs. */
		nap(secs);
		_exit(0);
	}
	if (c > 0)
		waitpid(c, NULL, 0);
	_exit(0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "vfork";
	int m = argc > 2 ? atoi(argv[2]) : 3;
	double secs = argc > 3 ? atof(argv[3]) : 30;
	int vfork_mode = !strcmp(mode, "vfork");

	if ((!vfork_mode && strcmp(mode, "sleep")) || m < 1 || m > 256) {
		fprintf(stderr, "usage: load_dstate vfork|sleep M SECONDS\n");
		return 2;
	}
	for (int i = 0; i < m; i++) {
		pid_t p = fork();

		if (p == 0) {
			if (vfork_mode)
				held_in_vfork(secs);
			prctl(PR_SET_NAME, "load_sleeper");
			nap(secs);
			_exit(0);
		}
		printf("%s %d\n", mode, p);
	}
	printf("ready\n");
	fflush(stdout);
	while (wait(NULL) > 0)
		;
	return 0;
}
