/*
 * The task table. sysstat keeps one sorted linked list and walks it for
 * every lookup (O(n^2) per sample); here a hash keyed by (leader, pid)
 * finds a task in O(1), and the display order is rebuilt each sample from
 * the sorted /proc listing.
 */
#include "pidstat/table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t bucket_of(const struct pidstat_table *tb, pid_t leader, pid_t pid)
{
	uint64_t k = ((uint64_t)(uint32_t)leader << 32) | (uint32_t)pid;

	k *= 0x9e3779b97f4a7c15ull;
	return (size_t)(k >> 32) & (tb->nbuckets - 1);
}

static pid_t leader_pid(const struct pidstat_task *t)
{
	return t->leader ? t->leader->pid : 0;
}

static int grow_buckets(struct pidstat_table *tb)
{
	size_t n = tb->nbuckets ? tb->nbuckets * 2 : 1024;
	struct pidstat_task **nb = calloc(n, sizeof(*nb));
	struct pidstat_task **old = tb->buckets;
	size_t oldn = tb->nbuckets;

	if (!nb)
		return -ENOMEM;
	tb->buckets = nb;
	tb->nbuckets = n;
	for (size_t i = 0; i < oldn; i++) {
		struct pidstat_task *t = old[i];

		while (t) {
			struct pidstat_task *next = t->hnext;
			size_t b = bucket_of(tb, leader_pid(t), t->pid);

			t->hnext = nb[b];
			nb[b] = t;
			t = next;
		}
	}
	free(old);
	return 0;
}

struct pidstat_task *pidstat_table_find(struct pidstat_table *tb, struct pidstat_task *leader,
					pid_t pid)
{
	pid_t lp = leader ? leader->pid : 0;
	struct pidstat_task *t;

	if (!tb->nbuckets)
		return NULL;
	for (t = tb->buckets[bucket_of(tb, lp, pid)]; t; t = t->hnext)
		if (t->pid == pid && t->leader == leader)
			return t;
	return NULL;
}

static void close_fd(struct pidstat_table *tb, int *fd)
{
	procfs_kept_close(fd, &tb->fd_budget);
}

static void close_files(struct pidstat_table *tb, struct pidstat_task *t)
{
	for (int i = 0; i < PIDSTAT_NFILES; i++)
		close_fd(tb, &t->fds[i]);
	close_fd(tb, &t->taskdir);
}

bool pidstat_task_has_files(const struct pidstat_task *t)
{
	for (int i = 0; i < PIDSTAT_NFILES; i++)
		if (t->fds[i] >= 0)
			return true;
	return t->taskdir >= 0;
}

void pidstat_task_forget_files(struct pidstat_table *tb, struct pidstat_task *t)
{
	close_files(tb, t);
}

/* Clears a task's history: a new task, or a PID reused by another one. */
void pidstat_task_reset(struct pidstat_table *tb, struct pidstat_task *t)
{
	pid_t pid = t->pid;
	struct pidstat_task *leader = t->leader, *hnext = t->hnext;
	int fds[PIDSTAT_NFILES];

	/* kept files were just reopened for the new task; its task/ dir may not be */
	close_fd(tb, &t->taskdir);
	memcpy(fds, t->fds, sizeof(fds));
	free(t->cmdline);
	memset(t, 0, sizeof(*t));
	t->taskdir = -1;
	t->pid = pid;
	t->leader = leader;
	t->hnext = hnext;
	memcpy(t->fds, fds, sizeof(fds));
}

struct pidstat_task *pidstat_table_add(struct pidstat_table *tb, struct pidstat_task *leader,
				       pid_t pid)
{
	struct pidstat_task *t;
	size_t b;

	if (tb->count >= tb->nbuckets && grow_buckets(tb))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->leader = leader;
	t->taskdir = -1;
	for (int i = 0; i < PIDSTAT_NFILES; i++)
		t->fds[i] = -1;
	b = bucket_of(tb, leader ? leader->pid : 0, pid);
	t->hnext = tb->buckets[b];
	tb->buckets[b] = t;
	tb->count++;
	return t;
}

static void free_task(struct pidstat_table *tb, struct pidstat_task *t)
{
	close_files(tb, t);
	free(t->cmdline);
	free(t);
}

int pidstat_table_push(struct pidstat_table *tb, struct pidstat_task *t)
{
	tb->list.size = sizeof(t); /* a zeroed table is ready */
	if (kmerge_append(&tb->list, &t))
		return -ENOMEM;
	t->flags |= TASK_SEEN;
	return 0;
}

void pidstat_table_unqueue(struct pidstat_table *tb, size_t mark)
{
	while (tb->list.nnext > mark)
		pidstat_table_queued_at(tb, --tb->list.nnext)->flags &= ~TASK_SEEN;
}

void pidstat_table_sort_queued(struct pidstat_table *tb, int (*cmp)(const void *, const void *))
{
	kmerge_sort_next(&tb->list, cmp);
}

/*
 * Ends a sample: tasks not seen are gone (sysstat frees them at once, so
 * an exited task has no last row and no Average). A thread is seen only
 * if its leader was, so no surviving thread points at a freed leader.
 */
void pidstat_table_commit(struct pidstat_table *tb)
{
	for (size_t i = 0; i < tb->nbuckets; i++) {
		struct pidstat_task **pp = &tb->buckets[i];

		while (*pp) {
			struct pidstat_task *t = *pp;

			if (t->flags & TASK_SEEN) {
				t->flags &= ~TASK_SEEN;
				pp = &t->hnext;
				continue;
			}
			*pp = t->hnext;
			tb->count--;
			free_task(tb, t);
		}
	}
	for (size_t i = 0; i < pidstat_table_queued(tb); i++)
		pidstat_table_queued_at(tb, i)->order_idx = i;
	kmerge_end(&tb->list);
	tb->order = kmerge_at(&tb->list, 0);
	tb->len = tb->list.nlast;
}

void pidstat_table_release(struct pidstat_table *tb)
{
	for (size_t i = 0; i < tb->nbuckets; i++) {
		struct pidstat_task *t = tb->buckets[i];

		while (t) {
			struct pidstat_task *n = t->hnext;

			free_task(tb, t);
			t = n;
		}
	}
	kmerge_release(&tb->list);
	free(tb->buckets);
	memset(tb, 0, sizeof(*tb));
}

void pidstat_whole_add(struct pidstat_whole *w, const struct pidstat_snap *now,
		       const struct pidstat_snap *prev)
{
	w->nvcsw += now->nvcsw - prev->nvcsw;
	w->nivcsw += now->nivcsw - prev->nivcsw;
	w->wtime += now->wtime - prev->wtime;
	w->blkio += now->blkio - prev->blkio;
}
