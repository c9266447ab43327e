/*
 * Memory growth workloads.
 *   report_leak grow MBPS CAP_MB SECS  allocates and touches MBPS/10 MiB
 *                                      every 100 ms (a steady leak), up to
 *                                      CAP_MB, then holds it
 *   report_leak once MB SECS [usr1]    allocates and touches MB at once,
 *                                      then holds it (not a leak); with
 *                                      usr1, says "ready" first and
 *                                      allocates when SIGUSR1 comes
 *   report_leak mapfile PATH MBPS CAP_MB SECS
 *                                      maps the file PATH (made CAP_MB long,
 *                                      sparse, held in the page cache by a
 *                                      child) and reads MBPS/10 MiB more of
 *                                      it every 100 ms: its RSS grows as a
 *                                      leak's does, in file pages, while its
 *                                      anonymous memory stays (not a leak)
 * Each prints "leaker PID", then "ready" once its first allocation is
 * touched (or, with usr1, before it). The kernel's RSS (/proc/PID/status VmRSS,
 * RssAnon, RssFile) is the tests' oracle.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>

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

/* Reads a byte of every page of [p, p + len): each read faults a page of the file in. */
static unsigned read_pages(const volatile char *p, size_t len)
{
	unsigned sum = 0;

	for (size_t off = 0; off < len; off += 4096)
		sum += (unsigned char)p[off];
	return sum;
}

/*
 * Puts the whole file in the page cache and keeps it there: a child maps
 * every page (MAP_POPULATE) and waits, so that neither reclaim nor a
 * neighbour's drop_caches takes them (a mapped page stays). Mapping them
 * in is then a minor fault for us, never a major one (a read from the
 * disk, which memory-pressure would judge). The child dies with us.
 */
static int hold_file(int fd, size_t len)
{
	int ready[2];
	pid_t parent = getpid(), pid;
	char c = 0;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		alarm(0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent ||
		    mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0) == MAP_FAILED)
			_exit(1);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	return read(ready[0], &c, 1) == 1 ? 0 : -1;
}

static int mapfile(const char *path, long mbps, long cap)
{
	struct timespec next;
	size_t step = (size_t)(mbps / 10) << 20, len = (size_t)cap << 20, done = 0;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	const char *p;

	if (fd < 0 || !step || ftruncate(fd, (off_t)len) || hold_file(fd, len))
		return 1;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	/* no read-ahead beyond what is read: the file's RSS rises at the pace asked */
	(void)madvise((void *)p, len, MADV_RANDOM);
	rw_say("leaker %d", getpid());
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (done + step <= len) {
			if (read_pages(p + done, step))
				return 1; /* the pages of a hole read 0 */
			if (!done)
				rw_say("ready");
			done += step;
		}
		rw_pace(&next, 100000000L);
	}
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "mapfile")) {
		rw_lifetime(argv[5]);
		return mapfile(argv[2], atol(argv[3]), atol(argv[4]));
	}
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
	rw_usage("report_leak grow MBPS CAP_MB SECS | once MB SECS [usr1] |"
		 " mapfile PATH MBPS CAP_MB SECS");
	return 2;
}
