#include "procfs/task_stat_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void procfs_task_stat_cache_init(struct task_stat_cache *c, size_t max_fds)
{
	memset(c, 0, sizeof(*c));
	kmerge_init(&c->fds, sizeof(struct task_stat_fd));
	c->budget.left = (long)max_fds;
}

static void close_all(struct task_stat_cache *c, struct task_stat_fd *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		procfs_kept_close(&e[i].fd, &c->budget);
}

void procfs_task_stat_cache_release(struct task_stat_cache *c)
{
	close_all(c, kmerge_at(&c->fds, 0), c->fds.nlast);
	close_all(c, kmerge_next_at(&c->fds, 0), c->fds.nnext);
	kmerge_release(&c->fds);
	memset(c, 0, sizeof(*c));
}

void procfs_task_stat_cache_begin(struct task_stat_cache *c)
{
	kmerge_begin(&c->fds);
}

static int fd_cmp(const void *entry, const void *key)
{
	const struct task_stat_fd *a = entry, *b = key;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

/* The kept fd of pid/tid from the previous scan, or -1; closes those passed over. */
static int take_old(struct task_stat_cache *c, pid_t pid, pid_t tid)
{
	const struct task_stat_fd key = { pid, tid, -1 };
	struct task_stat_fd *e;

	while ((e = kmerge_pass(&c->fds, &key, fd_cmp)))
		procfs_kept_close(&e->fd, &c->budget); /* not listed any more: the task is gone */
	e = kmerge_take(&c->fds, &key, fd_cmp);
	return e ? e->fd : -1;
}

static int keep(struct task_stat_cache *c, pid_t pid, pid_t tid, int fd)
{
	return kmerge_append(&c->fds, &(struct task_stat_fd){ pid, tid, fd });
}

ssize_t procfs_task_stat_cache_read(struct task_stat_cache *c, const struct procfs *pf, pid_t pid,
				    pid_t tid, char *buf, size_t size)
{
	int fd = take_old(c, pid, tid);
	char path[64];
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	if (fd < 0) {
		snprintf(path, sizeof(path), "%d/task/%d/stat", (int)pid, (int)tid);
		if (!procfs_fd_budget_take(&c->budget))
			return procfs_read(pf, path, buf, size);
		fd = procfs_openat(pf, path, O_RDONLY);
		if (fd < 0) {
			c->budget.left++;
			return fd;
		}
	}
	n = procfs_reread_fd(fd, buf, size);
	if (n <= 0 || keep(c, pid, tid, fd) < 0)
		procfs_kept_close(&fd, &c->budget); /* gone (ESRCH), or no memory to keep it */
	return n;
}

void procfs_task_stat_cache_end(struct task_stat_cache *c)
{
	struct task_stat_fd *e;

	while ((e = kmerge_next(&c->fds)))
		procfs_kept_close(&e->fd, &c->budget);
	kmerge_end(&c->fds);
}
