/*
 * fd_doors ROUNDS: the CPU time of counting every process's open
 * descriptors once (what fd-exhaustion reads once a window), by each
 * /proc door of src/procfs/limits.c: the stat of /proc/PID/fd (Linux 6.2+
 * puts the count in its size) with /proc/PID/limits, and the listing of
 * /proc/PID/fd (older kernels) with the same limits read. Prints
 * "processes N descriptors M stat_us X walk_us Y" (microseconds of this
 * process's CPU per pass, the mean of ROUNDS passes; CPU time, not wall
 * time, so other users' load does not count). Not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "procfs/limits.h"
#include "procfs/procfs.h"

static double cpu_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* One pass of the report's door; returns the descriptors it counted. */
static unsigned long stat_pass(const struct procfs *pf, const struct id_list *pids)
{
	unsigned long n = 0;

	for (size_t i = 0; i < pids->len; i++) {
		struct fd_usage u;

		if (!procfs_limits_read_fd_usage(pf, pids->ids[i], &u))
			n += u.open;
	}
	return n;
}

/* One pass of the listing door (the fallback): limits, then every fd/ entry. */
static unsigned long walk_pass(const struct procfs *pf, const struct id_list *pids)
{
	unsigned long n = 0;

	for (size_t i = 0; i < pids->len; i++) {
		char path[48], buf[4096];
		uint64_t soft, hard;
		ssize_t len;
		int c;

		snprintf(path, sizeof(path), "%d/limits", (int)pids->ids[i]);
		if ((len = procfs_read(pf, path, buf, sizeof(buf))) < 0 ||
		    procfs_limits_nofile_parse(buf, (size_t)len, &soft, &hard))
			continue;
		snprintf(path, sizeof(path), "%d/fd", (int)pids->ids[i]);
		if ((c = procfs_count_fds(pf, path)) >= 0)
			n += (unsigned long)c;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct id_list pids = { 0 };
	struct procfs *pf;
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	double t0, ts, tw;
	unsigned long fds = 0, walked = 0;

	if (rounds < 1 || procfs_open(&pf, "/") || procfs_list_pids(pf, &pids))
		return 1;
	t0 = cpu_us();
	for (int r = 0; r < rounds; r++)
		fds = stat_pass(pf, &pids);
	ts = (cpu_us() - t0) / rounds;
	t0 = cpu_us();
	for (int r = 0; r < rounds; r++)
		walked = walk_pass(pf, &pids);
	tw = (cpu_us() - t0) / rounds;
	printf("processes %zu descriptors %lu walked %lu stat_us %.0f walk_us %.0f\n", pids.len,
	       fds, walked, ts, tw);
	procfs_id_list_release(&pids);
	procfs_close(pf);
	return 0;
}
