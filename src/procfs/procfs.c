#include "procfs/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procfs/parsers.h"
#include "procfs/procfs_impl.h"
#include "util/grow.h"

int procfs_open(struct procfs **out, const char *root)
{
	struct procfs *pf = malloc(sizeof(*pf));

	*out = NULL;
	if (!pf)
		return -ENOMEM;
	pf->top_fd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pf->top_fd < 0) {
		int err = -errno;

		free(pf);
		return err;
	}
	pf->root_fd = pf->top_fd;
	/* A fixture's top directory has no proc/ of its own, only stepN/proc. */
	pf->proc_fd = openat(pf->root_fd, "proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*out = pf;
	return 0;
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

void procfs_close(struct procfs *pf)
{
	if (!pf)
		return;
	close_fd(pf->proc_fd);
	if (pf->root_fd != pf->top_fd)
		close_fd(pf->root_fd);
	close_fd(pf->top_fd);
	free(pf);
}

/* Opens <top>/step<n>, or with proc <top>/step<n>/proc; an fd or -errno. */
static int open_step(const struct procfs *pf, int n, bool proc)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), proc ? "step%d/proc" : "step%d", n);
	fd = openat(pf->top_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int procfs_step(struct procfs *pf, int n)
{
	int fd = open_step(pf, n, true);

	if (fd < 0)
		return fd;
	close_fd(pf->proc_fd);
	pf->proc_fd = fd;
	return 0;
}

int procfs_step_root(struct procfs *pf, int n)
{
	int fd = open_step(pf, n, false);

	if (fd < 0)
		return fd;
	close_fd(pf->proc_fd);
	if (pf->root_fd != pf->top_fd)
		close_fd(pf->root_fd);
	pf->root_fd = fd;
	pf->proc_fd = openat(fd, "proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return 0;
}

int procfs_openat(const struct procfs *pf, const char *path, int flags)
{
	int fd;

	if (pf->proc_fd < 0)
		return -ENOENT;
	fd = openat(pf->proc_fd, path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

ssize_t procfs_read_fd(int fd, char *buf, size_t size)
{
	size_t len = 0;

	if (!size)
		return -EINVAL;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

ssize_t procfs_reread_fd(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (!size)
		return -EINVAL;
	do
		n = pread(fd, buf, size - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

ssize_t procfs_read_at(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = dirfd < 0 ? -1 : openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return dirfd < 0 ? -ENOENT : -errno;
	n = procfs_read_fd(fd, buf, size);
	close(fd);
	return n;
}

ssize_t procfs_cmdline_fd(int fd, char *buf, size_t size)
{
	ssize_t len = procfs_read_fd(fd, buf, size);

	if (len < 0)
		return len;
	procfs_cmdline_join(buf, (size_t)len);
	return (ssize_t)strlen(buf);
}

ssize_t procfs_read_cmdline(const struct procfs *pf, pid_t pid, char *buf, size_t size)
{
	char path[32];
	int fd;
	ssize_t len;

	snprintf(path, sizeof(path), "%d/cmdline", (int)pid);
	fd = procfs_openat(pf, path, O_RDONLY);
	if (fd < 0)
		return fd;
	len = procfs_cmdline_fd(fd, buf, size);
	close(fd);
	return len;
}

ssize_t procfs_read(const struct procfs *pf, const char *path, char *buf, size_t size)
{
	return procfs_read_at(pf->proc_fd, path, buf, size);
}

ssize_t procfs_read_root(const struct procfs *pf, const char *path, char *buf, size_t size)
{
	while (*path == '/')
		path++;
	return procfs_read_at(pf->root_fd, path, buf, size);
}

void procfs_id_list_release(struct id_list *l)
{
	free(l->ids);
	l->ids = NULL;
	l->len = l->cap = 0;
}

static int id_list_push(struct id_list *l, pid_t id)
{
	if (l->len == l->cap && util_grow(&l->ids, &l->cap, l->len + 1, sizeof(*l->ids)))
		return -ENOMEM;
	l->ids[l->len++] = id;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The id a directory entry name made only of digits names; -1 otherwise. */
static pid_t numeric_name(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 0x3fffffff)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (pid_t)v;
}

/* The kernel's getdents64 record (glibc's readdir adds a copy and a lock per entry). */
struct kdirent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * Calls fn for each entry of the open directory fd, in the kernel's
 * order; stops at fn's first nonzero return and returns it, or -errno.
 * getdents64 straight into a large stack buffer: /proc of 10,000 tasks
 * is a few calls.
 */
static int for_each_entry(int fd, int (*fn)(const char *name, void *arg), void *arg)
{
	char buf[32768];
	long n;
	int rc;

	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const struct kdirent *de = (const struct kdirent *)(buf + off);

			off += de->reclen;
			if ((rc = fn(de->name, arg)))
				return rc;
		}
	}
	return n < 0 ? -errno : 0;
}

static int open_dir_at(int dirfd, const char *path)
{
	int fd;

	if (dirfd < 0)
		return -ENOENT;
	fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int push_numeric(const char *name, void *arg)
{
	pid_t id = numeric_name(name);

	return id > 0 ? id_list_push(arg, id) : 0;
}

int procfs_list_numeric(const struct procfs *pf, const char *path, struct id_list *out)
{
	int fd = open_dir_at(pf->proc_fd, path);
	int err;

	out->len = 0;
	if (fd < 0)
		return fd;
	err = for_each_entry(fd, push_numeric, out);
	close(fd);
	/* /proc lists in order already; sort only when it did not (fixtures) */
	for (size_t i = 1; i < out->len; i++) {
		if (out->ids[i - 1] > out->ids[i]) {
			qsort(out->ids, out->len, sizeof(*out->ids), cmp_id);
			break;
		}
	}
	return err;
}

int procfs_list_pids(const struct procfs *pf, struct id_list *out)
{
	return procfs_list_numeric(pf, ".", out);
}

int procfs_root_links(const struct procfs *pf, unsigned long *links)
{
	struct stat st;

	if (pf->proc_fd < 0)
		return -ENOENT;
	if (fstat(pf->proc_fd, &st))
		return -errno;
	*links = (unsigned long)st.st_nlink;
	return 0;
}

int procfs_list_tids(const struct procfs *pf, pid_t pid, struct id_list *out)
{
	char path[32];

	snprintf(path, sizeof(path), "%d/task", (int)pid);
	return procfs_list_numeric(pf, path, out);
}

static int count_if_digit(const char *name, void *arg)
{
	if (name[0] >= '0' && name[0] <= '9')
		++*(unsigned *)arg;
	return 0;
}

int procfs_count_numeric_fd(int dirfd, unsigned *count)
{
	*count = 0;
	return for_each_entry(dirfd, count_if_digit, count);
}

int procfs_count_fds(const struct procfs *pf, const char *path)
{
	int fd = open_dir_at(pf->proc_fd, path);
	unsigned n;
	int err;

	if (fd < 0)
		return fd;
	err = procfs_count_numeric_fd(fd, &n);
	close(fd);
	return err ? err : (int)n;
}
