/* The memory cgroup limit nearest to exhaustion on a process's path (memlimit.h). */
#include "procfs/memlimit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "procfs/limits.h"
#include "procfs/task_info.h"

static bool read_bytes(const struct procfs *pf, const char *dir, const char *file, uint64_t *out)
{
	char path[600], buf[64];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = procfs_read_root(pf, path, buf, sizeof(buf));
	return n > 0 && !procfs_limit_value_parse(buf, (size_t)n, out);
}

/* One cgroup's limit and usage; true when it sets a limit. */
static bool limit_at(const struct procfs *pf, const char *dir, bool v2, uint64_t *limit,
		     uint64_t *usage)
{
	if (!read_bytes(pf, dir, v2 ? "memory.max" : "memory.limit_in_bytes", limit) ||
	    *limit == LIMIT_NONE || *limit >= MEM_CG_UNLIMITED)
		return false;
	return read_bytes(pf, dir, v2 ? "memory.current" : "memory.usage_in_bytes", usage);
}

/* Cuts the last component of a cgroup path; false at the root. */
static bool up(char *cg)
{
	char *slash = strrchr(cg, '/');

	if (!slash || !cg[1])
		return false;
	slash[slash == cg ? 1 : 0] = '\0';
	return true;
}

/* The tightest limit from cg up under base; true when one is set. */
static bool tightest(const struct procfs *pf, const char *base, const char *cg, bool v2,
		     struct mem_cg_limit *out)
{
	char at[256], dir[600];
	uint64_t limit, usage;

	snprintf(at, sizeof(at), "%s", cg);
	do {
		snprintf(dir, sizeof(dir), "%s%s", base, at);
		if (!limit_at(pf, dir, v2, &limit, &usage))
			continue;
		if (out->limited && (limit > usage ? limit - usage : 0) >=
					(out->limit > out->usage ? out->limit - out->usage : 0))
			continue;
		out->limited = true;
		out->v2 = v2;
		out->limit = limit;
		out->usage = usage;
		snprintf(out->cgroup, sizeof(out->cgroup), "%s", at);
	} while (up(at));
	return out->limited;
}

int procfs_memlimit_read(const struct procfs *pf, const char *prefix, pid_t pid,
			 struct mem_cg_limit *out)
{
	struct task_cgroups cg;
	char base[128];
	int rc;

	memset(out, 0, sizeof(*out));
	rc = procfs_task_read_cgroups(pf, pid, &cg);
	if (rc == -EINVAL)
		return 0; /* no cgroup line: no limit known */
	if (rc)
		return rc;
	if (cg.has_v1[CGC_MEMORY]) {
		snprintf(base, sizeof(base), "%ssys/fs/cgroup/memory", prefix);
		if (tightest(pf, base, cg.v1[CGC_MEMORY], false, out))
			return 0;
	}
	if (cg.has_unified) {
		snprintf(base, sizeof(base), "%ssys/fs/cgroup", prefix);
		(void)tightest(pf, base, cg.unified, true, out);
	}
	return 0;
}
