/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The recorder's task cache and the sort of its carried ids
 * (src/record/tcache.h). The pidstat table always lists tasks in order;
 * the cache's fallback for a table that does not, and its forgetting of
 * gone tasks, are reached only here.
 */
#include <stdlib.h>
#include <string.h>

#include "record/tcache.h"
#include "unit.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* record_sort_ids against qsort, on inputs shaped like the carried ids and not */
TEST(sort_ids_matches_qsort)
{
	int64_t *stray = NULL;
	size_t cap = 0;
	unsigned seed = 7;

	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)(round % 50);
		int64_t got[64], want[64];

		for (size_t i = 0; i < n; i++) {
			/* mostly ascending, with some late ids in the middle */
			seed = seed * 1103515245u + 12345u;
			got[i] =
			    (int64_t)(i * 3) + ((seed >> 16) % 7 == 0 ? 1000 + (seed % 97) : 0);
			if (round % 5 == 4)
				got[i] = (int64_t)((seed >> 8) % 100000); /* no order at all */
		}
		/* ids are distinct task ids */
		for (size_t i = 0; i < n; i++)
			got[i] = got[i] * 64 + (int64_t)i;
		memcpy(want, got, n * sizeof(*got));
		qsort(want, n, sizeof(*want), cmp_i64);
		ASSERT_EQ(record_sort_ids(got, n, &stray, &cap), 0);
		ASSERT_EQ(memcmp(got, want, n * sizeof(*got)), 0);
	}
	free(stray);
}

struct want_key {
	pid_t tgid, sub;
};

/* One interval's walk over keys: finds or adds each; returns how many were new. */
static int walk(struct tcache *c, const struct want_key *keys, size_t n, struct tkey **got)
{
	int added = 0;

	record_tcache_begin(c);
	for (size_t i = 0; i < n; i++) {
		struct tkey *k = NULL;

		if (record_tcache_find(c, keys[i].tgid, keys[i].sub, &k))
			return -1;
		if (!k) {
			if (record_tcache_add(c, keys[i].tgid,
					      keys[i].sub ? keys[i].sub : keys[i].tgid,
					      keys[i].sub != 0, &k))
				return -1;
			added++;
		}
		got[i] = k;
	}
	return record_tcache_end(c) ? -1 : added;
}

/* Entry i of the cache's list (last interval's). */
static const struct tkey *entry(const struct tcache *c, size_t i)
{
	return *(struct tkey *const *)kmerge_at(&c->list, i);
}

static bool list_sorted(const struct tcache *c)
{
	for (size_t i = 1; i < c->list.nlast; i++) {
		const struct tkey *a = entry(c, i - 1), *b = entry(c, i);
		pid_t sa = a->thread ? a->tid : 0, sb = b->thread ? b->tid : 0;

		if (a->tgid > b->tgid || (a->tgid == b->tgid && sa >= sb))
			return false;
	}
	return true;
}

TEST(tcache_walks_forgets_and_recovers_order)
{
	static const struct want_key all[] = { { 1, 0 }, { 1, 1 }, { 1, 7 }, { 2, 0 }, { 2, 2 } };
	static const struct want_key no_7[] = { { 1, 0 }, { 1, 1 }, { 2, 0 }, { 2, 2 } };
	/* out of order, with a new task among them */
	static const struct want_key shuffled[] = {
		{ 2, 2 }, { 1, 0 }, { 1, 3 }, { 2, 0 }, { 1, 1 }
	};
	static const struct want_key with_new[] = {
		{ 1, 0 }, { 1, 1 }, { 1, 4 }, { 2, 0 }, { 2, 2 }
	};
	struct tcache c = { 0 };
	struct tkey *first[5], *got[5];

	ASSERT_EQ(walk(&c, all, 5, first), 5);
	ASSERT_EQ(c.list.nlast, 5);
	ASSERT_TRUE(list_sorted(&c));
	for (size_t i = 0; i < 5; i++)
		first[i]->id = (int64_t)i + 1;
	/* the same tasks: the same entries, nothing new */
	ASSERT_EQ(walk(&c, all, 5, got), 0);
	ASSERT_EQ(memcmp(got, first, sizeof(got)), 0);
	/* (1, 7) missing once stays for its return; missing twice, it is forgotten */
	ASSERT_EQ(walk(&c, no_7, 4, got), 0);
	ASSERT_EQ(c.list.nlast, 5);
	ASSERT_EQ(walk(&c, no_7, 4, got), 0);
	ASSERT_EQ(c.list.nlast, 4);
	ASSERT_EQ(walk(&c, all, 5, got), 1);
	ASSERT_EQ(got[2]->id, 0); /* a new entry: its task row goes in again */
	ASSERT_EQ(walk(&c, no_7, 4, got), 0);
	ASSERT_EQ(walk(&c, no_7, 4, got), 0);
	/* out of order: every task is still found, and the list ends sorted */
	ASSERT_EQ(walk(&c, shuffled, 5, got), 1);
	ASSERT_EQ(got[0]->id, 5);
	ASSERT_EQ(got[1]->id, 1);
	ASSERT_EQ(got[2]->id, 0);
	ASSERT_EQ(got[3]->id, 4);
	ASSERT_EQ(got[4]->id, 2);
	ASSERT_EQ(c.list.nlast, 5);
	ASSERT_TRUE(list_sorted(&c));
	ASSERT_EQ(entry(&c, 2)->tid, 3);
	/* a new thread of an old process goes in its place; (1, 3), unseen once, stays */
	ASSERT_EQ(walk(&c, with_new, 5, got), 1);
	ASSERT_EQ(c.list.nlast, 6);
	ASSERT_TRUE(list_sorted(&c));
	ASSERT_EQ(entry(&c, 3)->tid, 4);
	ASSERT_EQ(got[4]->id, 5);
	record_tcache_release(&c);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, sort_ids_matches_qsort);
	RUN(&st, tcache_walks_forgets_and_recovers_order);
	UNIT_MAIN_END(&st);
}
