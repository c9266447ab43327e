#include "procfs/procfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int procfs_open(struct procfs *pf, const char *root)
{
	pf->root_fd = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pf->root_fd < 0)
		return -errno;
	/* A fixture's top directory has no proc/ of its own, only stepN/proc. */
	pf->proc_fd = openat(pf->root_fd, "proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return 0;
}

void procfs_close(struct procfs *pf)
{
	if (pf->proc_fd >= 0)
		close(pf->proc_fd);
	if (pf->root_fd >= 0)
		close(pf->root_fd);
	pf->proc_fd = pf->root_fd = -1;
}

ssize_t read_file_at(int dirfd, const char *name, char *buf, size_t size)
{
	size_t len = 0;
	int fd = dirfd < 0 ? -1 : openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return dirfd < 0 ? -ENOENT : -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (size)
		buf[len] = '\0';
	return (ssize_t)len;
}

ssize_t procfs_read(const struct procfs *pf, const char *path, char *buf, size_t size)
{
	return read_file_at(pf->proc_fd, path, buf, size);
}

ssize_t procfs_read_root(const struct procfs *pf, const char *path, char *buf, size_t size)
{
	while (*path == '/')
		path++;
	return read_file_at(pf->root_fd, path, buf, size);
}

void id_list_release(struct id_list *l)
{
	free(l->ids);
	l->ids = NULL;
	l->len = l->cap = 0;
}

static int id_list_push(struct id_list *l, pid_t id)
{
	if (l->len == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		pid_t *n = realloc(l->ids, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->ids = n;
		l->cap = cap;
	}
	l->ids[l->len++] = id;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Parses a directory entry name made only of digits; -1 otherwise. */
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

static DIR *opendir_at(int dirfd, const char *path)
{
	int fd = dirfd < 0 ? -1 : openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0) {
		if (dirfd < 0)
			errno = ENOENT;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

int procfs_list_numeric(const struct procfs *pf, const char *path, struct id_list *out)
{
	DIR *d = opendir_at(pf->proc_fd, path);
	struct dirent *de;
	int err = 0;

	out->len = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		pid_t id = numeric_name(de->d_name);

		if (id > 0 && (err = id_list_push(out, id)) < 0)
			break;
	}
	closedir(d);
	if (out->len > 1)
		qsort(out->ids, out->len, sizeof(*out->ids), cmp_id);
	return err;
}

int procfs_list_pids(const struct procfs *pf, struct id_list *out)
{
	return procfs_list_numeric(pf, ".", out);
}

int procfs_list_tids(const struct procfs *pf, pid_t pid, struct id_list *out)
{
	char path[32];

	snprintf(path, sizeof(path), "%d/task", (int)pid);
	return procfs_list_numeric(pf, path, out);
}

int procfs_count_fds(const struct procfs *pf, const char *path)
{
	DIR *d = opendir_at(pf->proc_fd, path);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			n++;
	closedir(d);
	return n;
}
