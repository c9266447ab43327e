/*
 * Fuzzes the report's cgroup reader (src/report/cgroups.c) end to end: the
 * input, cut at NUL bytes, becomes the files of a cgroup tree (v2 and v1
 * CPU and memory controllers) under a scratch root, once at the window's
 * start and once at its end; then the scan, the end read and the results,
 * through the same procfs root layer as `triage report --root`.
 */
#define _GNU_SOURCE /* nftw */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procfs/procfs.h"
#include "report/cgroups.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define V2 "sys/fs/cgroup/"
#define V1CPU "sys/fs/cgroup/cpu/b/"
#define V1MEM "sys/fs/cgroup/memory/c/"

/* Which file each NUL-separated piece of the input becomes, in order. */
static const char *const start_files[] = {
	V2 "a/cpu.max",		  V2 "a/cpu.stat",
	V2 "a/memory.events",	  V2 "a/cgroup.procs",
	V2 "a/d/cpu.max",	  V2 "a/d/cpu.stat",
	V1CPU "cpu.cfs_quota_us", V1CPU "cpu.cfs_period_us",
	V1CPU "cpu.stat",	  V1MEM "memory.limit_in_bytes",
	V1MEM "memory.failcnt",	  V1MEM "memory.oom_control",
};
static const char *const end_files[] = {
	V2 "a/cpu.stat",  V2 "a/memory.events",	  V2 "a/d/cpu.stat",
	V1CPU "cpu.stat", V1MEM "memory.failcnt", V1MEM "memory.oom_control",
};
static const char *const dirs[] = {
	"sys", "sys/fs", V2, V2 "a", V2 "a/d", "sys/fs/cgroup/cpu", V1CPU, "sys/fs/cgroup/memory",
	V1MEM,
};

static char root[64];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void rm_root(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *rel, const char *buf, size_t len)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	if (len && write(fd, buf, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* Writes the next NUL-separated piece of [*p, end) to each file of list. */
static void fill(const char *const *list, size_t n, const char **p, const char *end)
{
	for (size_t i = 0; i < n; i++) {
		const char *nul = *p < end ? memchr(*p, '\0', (size_t)(end - *p)) : NULL;
		size_t len = *p < end ? (nul ? (size_t)(nul - *p) : (size_t)(end - *p)) : 0;

		put(list[i], *p < end ? *p : "", len);
		*p += len + (nul ? 1 : 0);
	}
}

static int setup(void)
{
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	char path[256];

	snprintf(root, sizeof(root), "%s/fuzz-cgroups.XXXXXX", tmp);
	if (!mkdtemp(root))
		return -errno;
	atexit(rm_root);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0700) && errno != EEXIST)
			return -errno;
	}
	put(V2 "cgroup.controllers", "cpu memory\n", 11);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rp_cgroup out[RP_MAX_CGROUPS];
	static int ready;
	const char *p = (const char *)data, *end = p + size;
	struct procfs *pf;
	struct cg_set set = { 0 };
	bool any;

	if (!ready) {
		if (setup())
			abort();
		ready = 1;
	}
	fill(start_files, sizeof(start_files) / sizeof(start_files[0]), &p, end);
	if (procfs_open(&pf, root))
		abort();
	if (report_cg_scan_start(pf, "", &set, &any) == 0) {
		fill(end_files, sizeof(end_files) / sizeof(end_files[0]), &p, end);
		report_cg_scan_end(pf, "", &set);
		report_cg_results(pf, "", &set, out, RP_MAX_CGROUPS);
	}
	report_cg_set_release(&set);
	procfs_close(pf);
	return 0;
}
