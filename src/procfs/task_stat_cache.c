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

static void close_entry(struct task_stat_cache *c, struct task_stat_fd *e)
{
	procfs_kept_close(&e->fd, &c->budget);
	for (int f = 0; f < TASK_MORE_FILES; f++)
		procfs_kept_close(&e->more[f], &c->budget);
}

static void close_all(struct task_stat_cache *c, struct task_stat_fd *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close_entry(c, &e[i]);
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

/* pid/tid's kept fds from the previous scan (-1: none); closes those passed over. */
static struct task_stat_fd take_old(struct task_stat_cache *c, pid_t pid, pid_t tid)
{
	struct task_stat_fd key = { pid, tid, -1, { -1, -1, -1 } };
	struct task_stat_fd *e;

	while ((e = kmerge_pass(&c->fds, &key, fd_cmp)))
		close_entry(c, e); /* not listed any more: the task is gone */
	e = kmerge_take(&c->fds, &key, fd_cmp);
	return e ? *e : key;
}

/* The names after <pid>/task/<tid>/ (arrays, not pointers: no relocations to pay at start). */
static const char more_name[TASK_MORE_FILES][10] = { "status", "schedstat", "io" };

/* Reads the file name of e's task through *fd, opening and keeping it while the budget allows. */
static ssize_t read_kept(struct task_stat_cache *c, const struct procfs *pf,
			 const struct task_stat_fd *e, const char *name, int *fd, char *buf,
			 size_t size)
{
	char path[64];
	ssize_t n;

	if (*fd < 0) {
		snprintf(path, sizeof(path), "%d/task/%d/%s", (int)e->pid, (int)e->tid, name);
		if (!procfs_fd_budget_take(&c->budget))
			return procfs_read(pf, path, buf, size);
		*fd = procfs_openat(pf, path, O_RDONLY);
		if (*fd < 0) {
			int err = *fd;

			*fd = -1;
			c->budget.left++;
			return err;
		}
	}
	n = procfs_reread_fd(*fd, buf, size);
	/*
	 * Gone (ESRCH, or nothing): closed. A refusal stays open: io checks
	 * its reader at every read (the agent at PID 1 on some VMs refuses
	 * even root), so the next scan asks again with one pread, not three calls.
	 */
	if (n <= 0 && n != -EACCES)
		procfs_kept_close(fd, &c->budget);
	return n;
}

ssize_t procfs_task_stat_cache_read(struct task_stat_cache *c, const struct procfs *pf, pid_t pid,
				    pid_t tid, char *buf, size_t size)
{
	struct task_stat_fd e;
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	e = take_old(c, pid, tid);
	n = read_kept(c, pf, &e, "stat", &e.fd, buf, size);
	/* an entry is a kept stat (over the budget: read, not kept), its other files with it */
	if (n <= 0 || e.fd < 0 || kmerge_append(&c->fds, &e) < 0)
		close_entry(c, &e); /* gone, over the budget, or no memory to keep it */
	return n;
}

ssize_t procfs_task_stat_cache_read_more(struct task_stat_cache *c, const struct procfs *pf,
					 pid_t pid, pid_t tid, enum task_more_file f, char *buf,
					 size_t size)
{
	struct task_stat_fd *e = kmerge_next_last(&c->fds);
	char path[64];

	if (size == 0 || f >= TASK_MORE_FILES)
		return -EINVAL;
	if (c->keep_more && e && e->pid == pid && e->tid == tid)
		return read_kept(c, pf, e, more_name[f], &e->more[f], buf, size);
	/* not kept (a full scan, or its stat was not: no budget, no memory): afresh */
	snprintf(path, sizeof(path), "%d/task/%d/%s", (int)pid, (int)tid, more_name[f]);
	return procfs_read(pf, path, buf, size);
}

void procfs_task_stat_cache_end(struct task_stat_cache *c)
{
	struct task_stat_fd *e;

	while ((e = kmerge_next(&c->fds)))
		close_entry(c, e);
	kmerge_end(&c->fds);
}
