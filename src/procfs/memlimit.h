/*
 * The memory limit that holds a process: the tightest memory cgroup limit
 * on its path to the root (v2 memory.max and memory.current; v1
 * memory.limit_in_bytes and memory.usage_in_bytes), a cgroup's limit
 * bounding all of its descendants. Readers go through the procfs root and
 * return 0 or -errno.
 */
#ifndef TRIAGE_PROCFS_MEMLIMIT_H
#define TRIAGE_PROCFS_MEMLIMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/procfs.h"

struct mem_cg_limit {
	bool limited;	  /* false: no cgroup on its path sets a limit */
	bool v2;	  /* memory.max, else the v1 memory controller */
	uint64_t limit;	  /* bytes */
	uint64_t usage;	  /* bytes charged to that cgroup now */
	char cgroup[256]; /* the cgroup that sets it, as /proc/PID/cgroup names it */
};

/* v1 writes "no limit" as a page-rounded LONG_MAX; anything this large is none. */
#define MEM_CG_UNLIMITED (1ull << 60)

/*
 * The limit with the least room left (limit - usage) from pid's memory
 * cgroup up to the root: out->limited false when none is set. prefix goes
 * before sys/fs/cgroup ("" live, "stepN/" in a fixture).
 */
int procfs_memlimit_read(const struct procfs *pf, const char *prefix, pid_t pid,
			 struct mem_cg_limit *out);

#endif
