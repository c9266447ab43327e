/*
 * The recorder's task cache (tcache.h): the task rows of the tasks seen in
 * this or the last interval, walked beside the pidstat table each interval.
 */
#include "record/tcache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The table's order: by process, then the process row (sub 0) before its threads (sub tid). */
static int key_cmp(pid_t tgid_a, pid_t sub_a, pid_t tgid_b, pid_t sub_b)
{
	if (tgid_a != tgid_b)
		return tgid_a < tgid_b ? -1 : 1;
	return (sub_a > sub_b) - (sub_a < sub_b);
}

static pid_t tkey_sub(const struct tkey *k)
{
	return k->thread ? k->tid : 0;
}

static int tkey_cmp(const struct tkey *k, pid_t tgid, pid_t sub)
{
	return key_cmp(k->tgid, tkey_sub(k), tgid, sub);
}

static int tkey_qsort_cmp(const void *a, const void *b)
{
	const struct tkey *x = *(struct tkey *const *)a, *y = *(struct tkey *const *)b;

	return tkey_cmp(x, y->tgid, tkey_sub(y));
}

/* What the walk looks a task up by. */
struct tcache_key {
	pid_t tgid, sub;
};

static int tkey_walk_cmp(const void *entry, const void *key)
{
	const struct tcache_key *k = key;

	return tkey_cmp(*(struct tkey *const *)entry, k->tgid, k->sub);
}

/* Whether a task stays in the list: it was seen in this or the last interval. */
static bool tkey_stays(const struct tcache *c, const struct tkey *k)
{
	return k->gen + 1 >= c->gen;
}

/* Appends k to this interval's list, once. */
static int tcache_take(struct tcache *c, struct tkey *k)
{
	struct tkey *const *tail = kmerge_next_last(&c->list);
	const struct tkey *last = tail ? *tail : NULL; /* read before the list may move */

	if (k->taken == c->gen)
		return 0;
	if (kmerge_append(&c->list, &k))
		return -ENOMEM;
	if (last && tkey_cmp(last, k->tgid, tkey_sub(k)) >= 0)
		c->unsorted = true;
	k->taken = c->gen;
	return 0;
}

void record_tcache_begin(struct tcache *c)
{
	c->list.size = sizeof(struct tkey *);
	c->gen++;
	kmerge_begin(&c->list);
	c->unsorted = false;
}

/* Marks k seen in this interval and takes it into its list. */
static int tcache_seen(struct tcache *c, struct tkey *k)
{
	k->gen = c->gen;
	return tcache_take(c, k);
}

/*
 * The entry for (tgid, sub), seen and taken into this interval's list; *k
 * is NULL when the list has none. In the table's order the walk only moves on,
 * keeping the tasks it passes that stay; out of order (the pidstat table
 * never is) a binary search over last interval's list finds it.
 */
int record_tcache_find(struct tcache *c, pid_t tgid, pid_t sub, struct tkey **k)
{
	const struct tcache_key key = { tgid, sub };
	struct tkey **e;
	int rc = 0;

	*k = NULL;
	while (!rc && (e = kmerge_pass(&c->list, &key, tkey_walk_cmp)))
		if (tkey_stays(c, *e))
			rc = tcache_take(c, *e);
	if (rc)
		return rc;
	e = kmerge_take(&c->list, &key, tkey_walk_cmp);
	if (!e)
		e = kmerge_find(&c->list, &key, tkey_walk_cmp);
	if (!e)
		return 0;
	*k = *e;
	return tcache_seen(c, *k);
}

/* Ends the walk: the rest that stay join the new list, the others are freed. */
int record_tcache_end(struct tcache *c)
{
	struct tkey **e;
	int rc = 0;

	while (!rc && (e = kmerge_next(&c->list)))
		if (tkey_stays(c, *e))
			rc = tcache_take(c, *e);
	if (rc)
		return rc;
	for (size_t i = 0; i < c->list.nlast; i++) {
		struct tkey *old = *(struct tkey **)kmerge_at(&c->list, i);

		if (old->taken != c->gen)
			free(old);
	}
	for (size_t i = 0; i < c->list.nnext; i++)
		(*(struct tkey **)kmerge_next_at(&c->list, i))->fresh = false;
	if (c->unsorted)
		kmerge_sort_next(&c->list, tkey_qsort_cmp);
	kmerge_end(&c->list);
	return 0;
}

void record_tcache_release(struct tcache *c)
{
	for (size_t i = 0; i < c->list.nlast; i++)
		free(*(struct tkey **)kmerge_at(&c->list, i));
	/* a walk cut short: its new entries are only in the new list */
	for (size_t i = 0; i < c->list.nnext; i++) {
		struct tkey *k = *(struct tkey **)kmerge_next_at(&c->list, i);

		if (k->fresh)
			free(k);
	}
	kmerge_release(&c->list);
}

/* A new entry for (tgid, tid, thread), seen and taken into this interval's list. */
int record_tcache_add(struct tcache *c, pid_t tgid, pid_t tid, bool thread, struct tkey **k)
{
	*k = aligned_alloc(64, (sizeof(**k) + 63) / 64 * 64);
	if (!*k)
		return -ENOMEM;
	memset(*k, 0, sizeof(**k));
	(*k)->tgid = tgid;
	(*k)->tid = tid;
	(*k)->thread = thread;
	(*k)->fresh = true;
	if (tcache_seen(c, *k)) {
		free(*k);
		*k = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * The recorder's carried ids come in the table's order, which is the ids'
 * own but for tasks whose row went in later than their neighbours' (a new
 * thread of an old process): those few are sorted apart and merged back
 * in, so a quiet interval costs one pass.
 */
int record_sort_ids(int64_t *id, size_t n, int64_t **stray, size_t *stray_cap)
{
	size_t m = 0, k = 0;

	if (util_grow(stray, stray_cap, n ? n : 1, sizeof(**stray)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (m && id[i] < id[m - 1])
			(*stray)[k++] = id[i];
		else
			id[m++] = id[i];
	}
	if (!k)
		return 0;
	qsort(*stray, k, sizeof(**stray), cmp_i64);
	/* merge from the back: the ascending run's end never passes the write */
	for (size_t w = n; k;) {
		if (m && id[m - 1] > (*stray)[k - 1])
			id[--w] = id[--m];
		else
			id[--w] = (*stray)[--k];
	}
	return 0;
}
