/*
 * CPU hogs for the report scenarios.
 *   report_hog user SECS          spins in its own code (user time)
 *   report_hog sys SECS           reads /dev/zero in a loop (kernel time:
 *                                 the kernel clears the buffer)
 *   report_hog pinned N CPU SECS  N processes, each pinned to CPU by
 *                                 sched_setaffinity before it spins
 *   report_hog idle SECS          sleeps in pause() (the quiet scenario)
 * Prints "hog PID" per spinning process (or "idle PID"), then "ready".
 * A pinned hog reports its PID only once its affinity is set.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static void spin_user(void)
{
	volatile unsigned long x = 0;

	for (;;)
		for (unsigned long i = 0; i < 1000000; i++)
			x += i * i;
}

static void spin_kernel(void)
{
	static char buf[256 << 10];
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		_exit(1);
	for (;;)
		if (read(fd, buf, sizeof(buf)) < 0)
			_exit(1);
}

static void pinned_hog(int cpu, int ready_fd, const char *secs)
{
	cpu_set_t set;
	pid_t me = getpid();

	rw_lifetime(secs);
	prctl(PR_SET_NAME, "report_pinned");
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		_exit(1);
	if (write(ready_fd, &me, sizeof(me)) != sizeof(me))
		_exit(1);
	close(ready_fd);
	spin_user();
}

/* Forks N pinned hogs and announces each once it is pinned. */
static int run_pinned(int n, int cpu, const char *secs)
{
	int p[2];
	pid_t pid;

	if (n < 1 || n > 64 || cpu < 0 || pipe(p) != 0)
		rw_usage("report_hog pinned N CPU SECS");
	for (int i = 0; i < n; i++)
		if (fork() == 0) {
			close(p[0]);
			pinned_hog(cpu, p[1], secs);
		}
	close(p[1]);
	for (int i = 0; i < n; i++) {
		if (read(p[0], &pid, sizeof(pid)) != sizeof(pid))
			return 1; /* a hog failed to pin itself */
		rw_say("hog %d", pid);
	}
	rw_say("ready");
	while (wait(NULL) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "pinned") && argc == 5) {
		rw_lifetime(argv[4]);
		return run_pinned(atoi(argv[2]), atoi(argv[3]), argv[4]);
	}
	if (argc != 3)
		rw_usage("report_hog user|sys|idle SECS | pinned N CPU SECS");
	rw_lifetime(argv[2]);
	if (!strcmp(mode, "idle")) {
		rw_say("idle %d", getpid());
		rw_say("ready");
		for (;;)
			pause();
	}
	if (strcmp(mode, "user") && strcmp(mode, "sys"))
		rw_usage("report_hog user|sys|idle SECS | pinned N CPU SECS");
	rw_say("hog %d", getpid());
	rw_say("ready");
	if (!strcmp(mode, "user"))
		spin_user();
	spin_kernel();
	return 0;
}
