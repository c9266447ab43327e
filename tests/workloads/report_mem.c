/*
 * Memory workloads for the report scenarios; the tests start them inside a
 * v1 memory cgroup with a limit.
 *   report_mem churn FILE SECS  maps FILE and reads one byte of every page,
 *                               pass after pass: a working set of the file's
 *                               size. In a cgroup whose limit is below it,
 *                               every pass reclaims and refaults.
 *                               Prints "churn PID", then "ready" after the
 *                               first full pass.
 *   report_mem oom MB           touches MB of anonymous memory; in a cgroup
 *                               limited below MB (no swap) the OOM killer
 *                               kills it. Exits 0 if it ever finishes.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

static unsigned long one_pass(const volatile char *map, size_t len, long page)
{
	unsigned long sum = 0;

	for (size_t off = 0; off < len; off += page)
		sum += map[off];
	return sum;
}

static int churn(const char *path, const char *secs)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	int fd = open(path, O_RDONLY);
	char *map;

	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < page)
		return 1;
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return 1;
	/* Reads in file order would let readahead hide the refaults' cost;
	 * the page-by-page touch below still goes through the fault path. */
	madvise(map, st.st_size, MADV_RANDOM);
	rw_lifetime(secs);
	rw_say("churn %d", getpid());
	one_pass(map, st.st_size, page);
	rw_say("ready");
	for (;;)
		one_pass(map, st.st_size, page);
}

static int oom(long mb)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)mb << 20;
	char *p;

	if (mb < 1)
		return 2;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (size_t off = 0; off < len; off += page)
		p[off] = 1;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "churn"))
		return churn(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "oom"))
		return oom(atol(argv[2]));
	rw_usage("report_mem churn FILE SECS | oom MB");
	return 2;
}
