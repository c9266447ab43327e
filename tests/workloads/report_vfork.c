/*
 * report_vfork M SECS: M processes ("report_vfork"), each held in D inside
 * vfork() because its vfork child sleeps SECS before it execs. Prints
 * "held PID" per parent, then "ready".
 * The vfork child announces its parent: while the child runs, the parent
 * is suspended in vfork() (the kernel does not return to it before the
 * child execs or exits), so the announcement means the parent waits.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void held_in_vfork(int ready_fd, double secs)
{
	pid_t c;

	prctl(PR_SET_NAME, "report_vfork");
	c = vfork();
	if (c == 0) {
		pid_t parent = getppid();

		if (write(ready_fd, &parent, sizeof(parent)) != sizeof(parent))
			_exit(1);
		nap(secs);
		execl("/bin/true", "true", (char *)NULL);
		_exit(1);
	}
	if (c > 0)
		waitpid(c, NULL, 0);
	_exit(0);
}

int main(int argc, char **argv)
{
	int m = argc == 3 ? atoi(argv[1]) : 0;
	int p[2];
	pid_t held;

	if (m < 1 || m > 64 || pipe(p) != 0)
		rw_usage("report_vfork M SECS");
	rw_lifetime(argv[2]);
	for (int i = 0; i < m; i++)
		if (fork() == 0) {
			close(p[0]);
			held_in_vfork(p[1], atof(argv[2]));
		}
	close(p[1]);
	for (int i = 0; i < m; i++) {
		if (read(p[0], &held, sizeof(held)) != sizeof(held))
			return 1;
		rw_say("held %d", held);
	}
	rw_say("ready");
	while (wait(NULL) > 0)
		;
	return 0;
}
