#include "procfs/task_stat_cache.h"
#include "util/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void task_stat_cache_init(struct task_stat_cache *c, size_t max_fds)
{
	memset(c, 0, sizeof(*c));
	c->budget.left = (long)max_fds;
}

static void close_all(struct task_stat_cache *c, struct task_stat_fd *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		procfs_kept_close(&e[i].fd, &c->budget);
}

void task_stat_cache_release(struct task_stat_cache *c)
{
	close_all(c, c->old, c->nold);
	close_all(c, c->cur, c->ncur);
	free(c->old);
	free(c->cur);
	memset(c, 0, sizeof(*c));
}

void task_stat_cache_begin(struct task_stat_cache *c)
{
	c->ncur = 0;
	c->pos = 0;
}

static int key_cmp(pid_t p1, pid_t t1, pid_t p2, pid_t t2)
{
	if (p1 != p2)
		return p1 < p2 ? -1 : 1;
	return t1 < t2 ? -1 : t1 > t2;
}

/* The kept fd of pid/tid from the previous scan, or -1; closes those passed over. */
static int take_old(struct task_stat_cache *c, pid_t pid, pid_t tid)
{
	while (c->pos < c->nold) {
		struct task_stat_fd *e = &c->old[c->pos];
		int cmp = key_cmp(e->pid, e->tid, pid, tid);

		if (cmp > 0)
			return -1;
		c->pos++;
		if (cmp == 0)
			return e->fd;
		procfs_kept_close(&e->fd, &c->budget); /* not listed any more: the task is gone */
	}
	return -1;
}

static int keep(struct task_stat_cache *c, pid_t pid, pid_t tid, int fd)
{
	if (util_grow(&c->cur, &c->cap_cur, c->ncur + 1, sizeof(*c->cur)))
		return -ENOMEM;
	c->cur[c->ncur++] = (struct task_stat_fd){ pid, tid, fd };
	return 0;
}

ssize_t task_stat_cache_read(struct task_stat_cache *c, const struct procfs *pf, pid_t pid,
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

void task_stat_cache_end(struct task_stat_cache *c)
{
	struct task_stat_fd *t = c->old;
	size_t cap = c->cap_old;

	while (c->pos < c->nold)
		procfs_kept_close(&c->old[c->pos++].fd, &c->budget);
	c->old = c->cur;
	c->nold = c->ncur;
	c->cap_old = c->cap_cur;
	c->cur = t;
	c->cap_cur = cap;
	c->ncur = 0;
}
