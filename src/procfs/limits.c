/* Limits and how close things are to them (see limits.h). */
#define _GNU_SOURCE
#include "procfs/limits.h"
#include "procfs/procfs_impl.h"
#include "procfs/task_info.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#define PROC_MAGIC 0x9fa0 /* PROC_SUPER_MAGIC of linux/magic.h */

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	return p;
}

/* A number at *p (advanced past it); -EINVAL when there is none. */
static int take_num(const char **p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = *p = skip_blanks(*p, end);

	while (*p < end && **p >= '0' && **p <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*(*p)++ - '0');
	}
	if (*p == s)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A number or a "max"/"unlimited" word at *p. */
static int take_limit(const char **p, const char *end, uint64_t *out)
{
	*p = skip_blanks(*p, end);
	if (end - *p >= 3 && !memcmp(*p, "max", 3)) {
		*p += 3;
		*out = LIMIT_NONE;
		return 0;
	}
	if (end - *p >= 9 && !memcmp(*p, "unlimited", 9)) {
		*p += 9;
		*out = LIMIT_NONE;
		return 0;
	}
	return take_num(p, end, out);
}

int procfs_limit_value_parse(const char *buf, size_t len, uint64_t *out)
{
	const char *p = buf, *end = buf + len;

	if (take_limit(&p, end, out))
		return -EINVAL;
	return skip_blanks(p, end) == end ? 0 : -EINVAL;
}

int procfs_file_nr_parse(const char *buf, size_t len, struct file_handles *out)
{
	const char *p = buf, *end = buf + len;
	uint64_t unused;

	if (take_num(&p, end, &out->allocated) || take_num(&p, end, &unused) ||
	    take_num(&p, end, &out->max))
		return -EINVAL;
	return 0;
}

/* A one-value file relative to the proc dir. */
static int read_value(const struct procfs *pf, const char *path, uint64_t *out)
{
	char buf[64];
	ssize_t n = procfs_read(pf, path, buf, sizeof(buf));

	return n < 0 ? (int)n : procfs_limit_value_parse(buf, (size_t)n, out);
}

static int read_root_value(const struct procfs *pf, const char *path, uint64_t *out)
{
	char buf[64];
	ssize_t n = procfs_read_root(pf, path, buf, sizeof(buf));

	return n < 0 ? (int)n : procfs_limit_value_parse(buf, (size_t)n, out);
}

int procfs_limits_read_file_handles(const struct procfs *pf, struct file_handles *out)
{
	char buf[128];
	ssize_t n = procfs_read(pf, "sys/fs/file-nr", buf, sizeof(buf));

	return n < 0 ? (int)n : procfs_file_nr_parse(buf, (size_t)n, out);
}

int procfs_limits_read_task_caps(const struct procfs *pf, struct task_caps *out)
{
	int rc = read_value(pf, "sys/kernel/pid_max", &out->pid_max);

	return rc ? rc : read_value(pf, "sys/kernel/threads-max", &out->threads_max);
}

int procfs_limits_read_conntrack(const struct procfs *pf, struct conntrack_fill *out)
{
	int rc = read_value(pf, "sys/net/netfilter/nf_conntrack_count", &out->count);

	return rc ? rc : read_value(pf, "sys/net/netfilter/nf_conntrack_max", &out->max);
}

int procfs_limits_read_cg_pids(const struct procfs *pf, const char *dir, struct cg_pids *out)
{
	char path[512];
	int rc;

	snprintf(path, sizeof(path), "%s/pids.current", dir);
	rc = read_root_value(pf, path, &out->current);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/pids.max", dir);
	return read_root_value(pf, path, &out->max);
}

int procfs_limits_nofile_parse(const char *buf, size_t len, uint64_t *soft, uint64_t *hard)
{
	static const char key[] = "Max open files";
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) > sizeof(key) - 1 && !memcmp(p, key, sizeof(key) - 1)) {
			p += sizeof(key) - 1;
			return take_limit(&p, le, soft) || take_limit(&p, le, hard) ? -EINVAL : 0;
		}
		p = le + 1;
	}
	return -ENOENT;
}

/* The count the kernel puts in the size of a procfs fd directory, or -1. */
static long fd_dir_size(const struct procfs *pf, const char *path)
{
	struct statfs fs;
	struct stat st;

	if (fstatfs(pf->proc_fd, &fs) || fs.f_type != PROC_MAGIC ||
	    fstatat(pf->proc_fd, path, &st, 0) || !S_ISDIR(st.st_mode) || st.st_size <= 0)
		return -1;
	return (long)st.st_size;
}

int procfs_limits_read_fd_usage(const struct procfs *pf, pid_t pid, struct fd_usage *out)
{
	char path[48], buf[4096];
	ssize_t n;
	long size;
	int rc;

	snprintf(path, sizeof(path), "%d/limits", (int)pid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	rc = procfs_limits_nofile_parse(buf, (size_t)n, &out->soft, &out->hard);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%d/fd", (int)pid);
	size = fd_dir_size(pf, path);
	if (size >= 0) {
		out->open = (unsigned)size;
		return 0;
	}
	rc = procfs_count_fds(pf, path);
	if (rc < 0)
		return rc;
	out->open = (unsigned)rc;
	return 0;
}

/* The entry for maj:min, added when new (LIMIT_NONE everywhere); NULL when full. */
static struct io_limit *io_entry(struct io_limits *out, unsigned maj, unsigned min)
{
	struct io_limit *l;

	for (size_t i = 0; i < out->n; i++)
		if (out->l[i].major == maj && out->l[i].minor == min)
			return &out->l[i];
	if (out->n >= IO_MAX_LIMITS)
		return NULL;
	l = &out->l[out->n++];
	*l = (struct io_limit){ maj, min, LIMIT_NONE, LIMIT_NONE, LIMIT_NONE, LIMIT_NONE };
	return l;
}

/* "MAJ:MIN" at *p. */
static int take_dev(const char **p, const char *end, unsigned *maj, unsigned *min)
{
	uint64_t a, b;

	if (take_num(p, end, &a) || *p >= end || **p != ':')
		return -EINVAL;
	(*p)++;
	if (take_num(p, end, &b) || a > 0xfff || b > 0xfffff)
		return -EINVAL;
	*maj = (unsigned)a;
	*min = (unsigned)b;
	return 0;
}

static int io_max_line(const char *p, const char *end, struct io_limits *out)
{
	static const char *const keys[] = { "rbps=", "wbps=", "riops=", "wiops=" };
	unsigned maj, min;
	struct io_limit *l;

	if (take_dev(&p, end, &maj, &min))
		return -EINVAL;
	if (!(l = io_entry(out, maj, min)))
		return -E2BIG;
	for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
		uint64_t *f[] = { &l->rbps, &l->wbps, &l->riops, &l->wiops };
		size_t k;

		for (k = 0; k < 4 && strncmp(p, keys[k], strlen(keys[k])); k++)
			;
		if (k == 4) { /* a key of a later kernel: skip it */
			while (p < end && *p != ' ')
				p++;
			continue;
		}
		p += strlen(keys[k]);
		if (take_limit(&p, end, f[k]))
			return -EINVAL;
	}
	return 0;
}

/* Calls line on every non-blank line; stops at the first error. */
static int each_line(const char *buf, size_t len,
		     int (*line)(const char *, const char *, struct io_limits *, int), int arg,
		     struct io_limits *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		int rc = skip_blanks(p, le) == le ? 0 : line(p, le, out, arg);

		if (rc)
			return rc;
		p = le + 1;
	}
	return 0;
}

static int io_max_cb(const char *p, const char *end, struct io_limits *out, int arg)
{
	return io_max_line(p, end, out);
}

int procfs_io_max_parse(const char *buf, size_t len, struct io_limits *out)
{
	out->n = 0;
	out->v2 = true;
	return each_line(buf, len, io_max_cb, 0, out);
}

static int blkio_cb(const char *p, const char *end, struct io_limits *out, int f)
{
	unsigned maj, min;
	struct io_limit *l;
	uint64_t v;

	if (take_dev(&p, end, &maj, &min) || take_num(&p, end, &v))
		return -EINVAL;
	if (!(l = io_entry(out, maj, min)))
		return -E2BIG;
	*(f == BLKIO_RBPS    ? &l->rbps
	  : f == BLKIO_WBPS  ? &l->wbps
	  : f == BLKIO_RIOPS ? &l->riops
			     : &l->wiops) = v;
	return 0;
}

int procfs_blkio_throttle_parse(const char *buf, size_t len, enum blkio_field f,
				struct io_limits *out)
{
	out->v2 = false;
	return each_line(buf, len, blkio_cb, (int)f, out);
}

/* io.max of <base><cg>; true when it sets a limit. */
static bool io_max_at(const struct procfs *pf, const char *base, const char *cg,
		      struct io_limits *out)
{
	char path[512], buf[2048];
	ssize_t n;

	snprintf(path, sizeof(path), "%s%s/io.max", base, cg);
	n = procfs_read_root(pf, path, buf, sizeof(buf));
	return n > 0 && !procfs_io_max_parse(buf, (size_t)n, out) && out->n > 0;
}

static bool blkio_at(const struct procfs *pf, const char *cg, struct io_limits *out)
{
	static const char *const files[] = { "read_bps_device", "write_bps_device",
					     "read_iops_device", "write_iops_device" };
	char path[512], buf[2048];

	out->n = 0;
	for (int f = 0; f < 4; f++) {
		ssize_t n;

		snprintf(path, sizeof(path), "sys/fs/cgroup/blkio%s/blkio.throttle.%s", cg,
			 files[f]);
		n = procfs_read_root(pf, path, buf, sizeof(buf));
		if (n > 0)
			(void)procfs_blkio_throttle_parse(buf, (size_t)n, (enum blkio_field)f, out);
	}
	return out->n > 0;
}

/* Cuts the last component of a cgroup path; false at the root. */
static bool cg_parent(char *cg)
{
	char *slash = strrchr(cg, '/');

	if (!slash || !cg[1])
		return false;
	slash[slash == cg ? 1 : 0] = '\0';
	return true;
}

/* The nearest cgroup from cg up whose limits found() reads. */
static bool nearest(const struct procfs *pf, const char *cg, const char *base, bool v1,
		    struct io_limits *out)
{
	char at[256];

	snprintf(at, sizeof(at), "%s", cg);
	do {
		if (v1 ? blkio_at(pf, at, out) : io_max_at(pf, base, at, out)) {
			snprintf(out->cgroup, sizeof(out->cgroup), "%s", at);
			return true;
		}
	} while (cg_parent(at));
	return false;
}

int procfs_limits_read_io(const struct procfs *pf, pid_t pid, struct io_limits *out)
{
	struct task_cgroups cg;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = procfs_task_read_cgroups(pf, pid, &cg);
	if (rc == -EINVAL)
		return 0; /* no cgroup line: no limit known */
	if (rc)
		return rc;
	if (cg.has_unified && (nearest(pf, cg.unified, "sys/fs/cgroup", false, out) ||
			       nearest(pf, cg.unified, "sys/fs/cgroup/unified", false, out)))
		return 0;
	if (cg.has_v1[CGC_IO] && nearest(pf, cg.v1[CGC_IO], NULL, true, out))
		return 0;
	memset(out, 0, sizeof(*out));
	return 0;
}
