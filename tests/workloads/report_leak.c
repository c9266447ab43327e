/*
 * Memory growth workloads.
 *   report_leak grow MBPS CAP_MB SECS  allocates and touches MBPS/10 MiB
 *                                      every 100 ms (a steady leak), up to
 *                                      CAP_MB, then holds it
 *   report_leak once MB SECS [usr1]    allocates and touches MB at once,
 *                                      then holds it (not a leak); with
 *                                      usr1, says "ready" first and
 *                                      allocates when SIGUSR1 comes
 * Each prints "leaker PID", then "ready" once its first allocation is
 * touched (or, with usr1, before it). The kernel's RSS (/proc/PID/status VmRSS) is the tests'
 * oracle.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/*
 * A fresh anonymous mapping of mb MiB, every page written, in huge pages
 * where the kernel has them (MADV_HUGEPAGE on a 2 MiB-aligned start): the
 * allocation costs a few faults, so even on a loaded machine one of 300
 * MiB completes within a fraction of a second, and a steady leak costs
 * little CPU.
 */
static int touch_mb(long mb)
{
	size_t len = (size_t)mb << 20, huge = 2u << 20;
	char *p =
	    mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *at;

	if (p == MAP_FAILED)
		return -1;
	at = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
	(void)madvise(at, len, MADV_HUGEPAGE);
	memset(at, 1, len);
	return 0;
}

static int grow(long mbps, long cap)
{
	struct timespec next;
	long step = mbps / 10, total = 0;

	if (step < 1)
		return 2;
	rw_say("leaker %d", getpid());
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (total + step <= cap) {
			if (touch_mb(step))
				return 1;
			if (!total)
				rw_say("ready");
			total += step;
		}
		rw_pace(&next, 100000000L);
	}
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "grow")) {
		rw_lifetime(argv[4]);
		return grow(atol(argv[2]), atol(argv[3]));
	}
	if ((argc == 4 || (argc == 5 && !strcmp(argv[4], "usr1"))) && !strcmp(argv[1], "once")) {
		sigset_t usr1;
		int sig;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		rw_lifetime(argv[3]);
		rw_say("leaker %d", getpid());
		if (argc == 5) {
			rw_say("ready");
			sigwait(&usr1, &sig);
		}
		if (touch_mb(atol(argv[2])))
			return 1;
		if (argc == 4)
			rw_say("ready");
		for (;;)
			pause();
	}
	rw_usage("report_leak grow MBPS CAP_MB SECS | once MB SECS [usr1]");
	return 2;
}
