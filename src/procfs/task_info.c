#include "procfs/task_info.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void copy_span(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* One "[<0>] name+0x1d3/0x400" line: the name, or false if none. */
static bool stack_line_name(const char *p, const char *end, char *name, size_t size)
{
	const char *s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '[') {
		const char *rb = memchr(p, ']', (size_t)(end - p));

		if (!rb)
			return false;
		p = rb + 1;
	}
	while (p < end && *p == ' ')
		p++;
	s = p;
	while (p < end && *p != '+' && *p != ' ' && *p != '\t')
		p++;
	if (p == s)
		return false;
	copy_span(name, size, s, (size_t)(p - s));
	return true;
}

int procfs_kstack_parse(const char *buf, size_t len, struct kstack *out)
{
	const char *p = buf, *end = buf + len;

	memset(out, 0, sizeof(*out));
	while (p < end && out->nframes < KSTACK_MAX_FRAMES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;

		if (stack_line_name(p, lend, out->frame[out->nframes], KSYM_MAX))
			out->nframes++;
		p = lend + 1;
	}
	return out->nframes ? 0 : -EINVAL;
}

/* "hierarchy-id:controllers:path": sets *ctl and *path spans; false if malformed. */
static bool cgroup_line(const char *p, const char *end, const char **ctl, size_t *ctl_len,
			const char **path, size_t *path_len)
{
	const char *c1 = memchr(p, ':', (size_t)(end - p)), *c2;

	if (!c1)
		return false;
	c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	if (!c2 || c2 + 1 >= end || c2[1] != '/')
		return false;
	*ctl = c1 + 1;
	*ctl_len = (size_t)(c2 - c1 - 1);
	*path = c2 + 1;
	*path_len = (size_t)(end - c2 - 1);
	return true;
}

/* Whether the comma-separated controller list holds name. */
static bool has_controller(const char *ctl, size_t n, const char *name)
{
	size_t k = strlen(name);
	const char *p = ctl, *end = ctl + n;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *e = comma ? comma : end;

		if ((size_t)(e - p) == k && !memcmp(p, name, k))
			return true;
		p = e + 1;
	}
	return false;
}

/* Keeps the path of each controller of enum cg_controller the v1 line names. */
static void v1_controllers(const char *ctl, size_t ctl_len, const char *path, size_t path_len,
			   struct task_cgroups *out)
{
	static const char *const names[CGC_COUNT] = {
		[CGC_CPU] = "cpu",
		[CGC_CPUSET] = "cpuset",
		[CGC_MEMORY] = "memory",
		[CGC_IO] = "blkio",
	};

	for (int c = 0; c < CGC_COUNT; c++) {
		if (!has_controller(ctl, ctl_len, names[c]))
			continue;
		copy_span(out->v1[c], sizeof(out->v1[c]), path, path_len);
		out->has_v1[c] = true;
	}
}

int procfs_task_cgroups_parse(const char *buf, size_t len, struct task_cgroups *out)
{
	const char *p = buf, *end = buf + len;
	char deepest_v1[CGROUP_PATH_MAX] = "";
	bool any = false;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end, *ctl, *path;
		size_t ctl_len, path_len;

		if (cgroup_line(p, lend, &ctl, &ctl_len, &path, &path_len)) {
			any = true;
			if (ctl_len == 0) {
				copy_span(out->unified, sizeof(out->unified), path, path_len);
				out->has_unified = true;
			} else {
				if (has_controller(ctl, ctl_len, "freezer")) {
					copy_span(out->freezer, sizeof(out->freezer), path,
						  path_len);
					out->has_freezer = true;
				}
				if (has_controller(ctl, ctl_len, "cpu")) {
					copy_span(out->cpu, sizeof(out->cpu), path, path_len);
					out->has_cpu = true;
				}
				v1_controllers(ctl, ctl_len, path, path_len, out);
				if (path_len > strlen(deepest_v1))
					copy_span(deepest_v1, sizeof(deepest_v1), path, path_len);
			}
		}
		p = lend + 1;
	}
	/* v2 wins when it places the task below the root; else the deepest v1 path. */
	if (strlen(out->unified) > 1)
		strcpy(out->display, out->unified);
	else if (strlen(deepest_v1) > 1)
		strcpy(out->display, deepest_v1);
	else
		strcpy(out->display, "/");
	return any ? 0 : -EINVAL;
}

const char *procfs_task_cgroups_cpu_path(const struct task_cgroups *cg)
{
	if (cg->has_unified)
		return cg->unified;
	return cg->has_cpu ? cg->cpu : "/";
}

const char *procfs_task_cgroups_path(const struct task_cgroups *cg, enum cg_controller c)
{
	if ((unsigned)c < CGC_COUNT && cg->has_v1[c])
		return cg->v1[c];
	return cg->has_unified ? cg->unified : "/";
}

int procfs_task_read_wchan(const struct procfs *pf, pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "%d/task/%d/wchan", (int)pid, (int)tid);
	n = procfs_read(pf, path, buf, size);
	if (n < 0)
		return (int)n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (!strcmp(buf, "0"))
		buf[0] = '\0';
	return 0;
}

int procfs_task_read_stack(const struct procfs *pf, pid_t pid, pid_t tid, struct kstack *out)
{
	char path[64], buf[4096];
	ssize_t n;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%d/task/%d/stack", (int)pid, (int)tid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return procfs_kstack_parse(buf, (size_t)n, out);
}

int procfs_task_read_cgroups(const struct procfs *pf, pid_t pid, struct task_cgroups *out)
{
	char path[32], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "%d/cgroup", (int)pid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return procfs_task_cgroups_parse(buf, (size_t)n, out);
}

int procfs_freezer_state_parse(const char *buf, size_t len)
{
	if (len >= 6 && !memcmp(buf, "FROZEN", 6))
		return 1;
	if ((len >= 7 && !memcmp(buf, "THAWED", 6)) || (len >= 8 && !memcmp(buf, "FREEZING", 8)))
		return 0;
	return -EINVAL;
}

int procfs_cgroup_events_frozen_parse(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;

		if (lend - p >= 8 && !memcmp(p, "frozen ", 7))
			return p[7] == '1';
		p = lend + 1;
	}
	return -EINVAL;
}

static int read_cgroup_file(const struct procfs *pf, const char *dir, const char *cgpath,
			    const char *file, char *buf, size_t size)
{
	char path[CGROUP_PATH_MAX + 96];

	if (snprintf(path, sizeof(path), "%s%s/%s", dir, cgpath, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return (int)procfs_read_root(pf, path, buf, size);
}

int procfs_cgroup_is_frozen(const struct procfs *pf, const struct task_cgroups *cg)
{
	static const char *const v2_dirs[] = { "sys/fs/cgroup", "sys/fs/cgroup/unified" };
	char buf[512];
	int n, err = -ENOENT;

	/* The root cgroup can be neither frozen nor thawed: skip "/". */
	if (cg->has_freezer && strcmp(cg->freezer, "/")) {
		n = read_cgroup_file(pf, "sys/fs/cgroup/freezer", cg->freezer, "freezer.state", buf,
				     sizeof(buf));
		if (n >= 0 && procfs_freezer_state_parse(buf, (size_t)n) == 1)
			return 1;
		err = n < 0 ? n : 0;
	}
	if (cg->has_unified && strcmp(cg->unified, "/")) {
		for (size_t i = 0; i < sizeof(v2_dirs) / sizeof(v2_dirs[0]); i++) {
			n = read_cgroup_file(pf, v2_dirs[i], cg->unified, "cgroup.events", buf,
					     sizeof(buf));
			if (n < 0)
				continue;
			n = procfs_cgroup_events_frozen_parse(buf, (size_t)n);
			if (n >= 0)
				return n;
		}
	}
	if (!(cg->has_freezer && strcmp(cg->freezer, "/")) &&
	    !(cg->has_unified && strcmp(cg->unified, "/")))
		return 0;
	return err < 0 ? err : 0;
}
