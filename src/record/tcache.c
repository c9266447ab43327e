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

/* Whether a task stays in the list: it was seen in this or the last interval. */
static bool tkey_stays(const struct tcache *c, const struct tkey *k)
{
	return k->gen + 1 >= c->gen;
}

/* Appends k to this interval's list, once. */
static int tcache_take(struct tcache *c, struct tkey *k)
{
	const struct tkey *last = c->next_len ? c->next[c->next_len - 1] : NULL;

	if (k->taken == c->gen)
		return 0;
	if (util_grow(&c->next, &c->next_cap, c->next_len + 1, sizeof(*c->next)))
		return -ENOMEM;
	if (last && tkey_cmp(last, k->tgid, tkey_sub(k)) >= 0)
		c->unsorted = true;
	c->next[c->next_len++] = k;
	k->taken = c->gen;
	return 0;
}

void tcache_begin(struct tcache *c)
{
	c->gen++;
	c->at = 0;
	c->next_len = 0;
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
int tcache_find(struct tcache *c, pid_t tgid, pid_t sub, struct tkey **k)
{
	size_t lo = 0, hi = c->len;
	int rc = 0;

	*k = NULL;
	while (c->at < c->len && tkey_cmp(c->e[c->at], tgid, sub) < 0 && !rc) {
		if (tkey_stays(c, c->e[c->at]))
			rc = tcache_take(c, c->e[c->at]);
		c->at++;
	}
	if (rc)
		return rc;
	if (c->at < c->len && !tkey_cmp(c->e[c->at], tgid, sub)) {
		*k = c->e[c->at++];
		return tcache_seen(c, *k);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = tkey_cmp(c->e[mid], tgid, sub);

		if (!d) {
			*k = c->e[mid];
			return tcache_seen(c, *k);
		}
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Ends the walk: the rest that stay join the new list, the others are freed. */
int tcache_end(struct tcache *c)
{
	struct tkey **old = c->e;
	size_t old_cap = c->cap;
	int rc = 0;

	for (; c->at < c->len && !rc; c->at++)
		if (tkey_stays(c, c->e[c->at]))
			rc = tcache_take(c, c->e[c->at]);
	if (rc)
		return rc;
	for (size_t i = 0; i < c->len; i++)
		if (c->e[i]->taken != c->gen)
			free(c->e[i]);
	for (size_t i = 0; i < c->next_len; i++)
		c->next[i]->fresh = false;
	if (c->unsorted)
		qsort(c->next, c->next_len, sizeof(*c->next), tkey_qsort_cmp);
	c->e = c->next;
	c->cap = c->next_cap;
	c->len = c->next_len;
	c->next = old;
	c->next_cap = old_cap;
	c->next_len = 0;
	return 0;
}

void tcache_release(struct tcache *c)
{
	for (size_t i = 0; i < c->len; i++)
		free(c->e[i]);
	/* a walk cut short: its new entries are only in next */
	for (size_t i = 0; i < c->next_len; i++)
		if (c->next[i]->fresh)
			free(c->next[i]);
	free(c->e);
	free(c->next);
}

/* A new entry for (tgid, tid, thread), seen and taken into this interval's list. */
int tcache_add(struct tcache *c, pid_t tgid, pid_t tid, bool thread, struct tkey **k)
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
