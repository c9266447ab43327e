/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The keyed table swapped between samples (src/util/kmerge.h), against
 * naive references: per-key arrays for the merge, a linear scan for the
 * searches, qsort for the sort.
 */
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"
#include "util/kmerge.h"

#define NKEYS 300

struct ent {
	int key;
	int streak; /* samples in a row it was read in */
};

static int ent_cmp(const void *entry, const void *key)
{
	const struct ent *a = entry, *b = key;

	return (a->key > b->key) - (a->key < b->key);
}

/* A small fixed generator: every run walks the same samples. */
static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/*
 * 300 samples of a population where each key is read with odds 3 in 4:
 * the walk must find exactly the keys the last sample read, pass exactly
 * the ones it did not read again, and leave the table sorted with each
 * key's streak as the reference counts it.
 */
TEST(merge_matches_a_per_key_reference)
{
	static int ref_streak[NKEYS], was[NKEYS];
	uint32_t seed = 1;
	struct kmerge m;

	kmerge_init(&m, sizeof(struct ent));
	for (int sample = 0; sample < 300; sample++) {
		int now[NKEYS], passed = 0, want_passed = 0, found = 0, want_found = 0;
		struct ent *e;

		for (int k = 0; k < NKEYS; k++)
			now[k] = next_rand(&seed) % 4 != 0;
		kmerge_begin(&m);
		for (int k = 0; k < NKEYS; k++) {
			const struct ent key = { .key = k };
			struct ent add = { .key = k, .streak = 1 };

			if (!now[k])
				continue;
			while ((e = kmerge_pass(&m, &key, ent_cmp))) {
				ASSERT_TRUE(e->key < k && was[e->key] && !now[e->key]);
				passed++;
			}
			e = kmerge_take(&m, &key, ent_cmp);
			ASSERT_EQ(e != NULL, was[k]);
			if (e) {
				add.streak = e->streak + 1;
				found++;
			}
			ASSERT_EQ(kmerge_append(&m, &add), 0);
		}
		while ((e = kmerge_next(&m))) {
			ASSERT_TRUE(was[e->key] && !now[e->key]);
			passed++;
		}
		kmerge_end(&m);
		for (int k = 0; k < NKEYS; k++) {
			want_passed += was[k] && !now[k];
			want_found += was[k] && now[k];
			ref_streak[k] = now[k] ? ref_streak[k] + 1 : 0;
			was[k] = now[k];
		}
		ASSERT_EQ(passed, want_passed);
		ASSERT_EQ(found, want_found);
		for (size_t i = 0, k = 0; k < NKEYS; k++) {
			if (!now[k])
				continue;
			e = kmerge_at(&m, i++);
			ASSERT_EQ(e->key, (int)k);
			ASSERT_EQ(e->streak, ref_streak[k]);
			ASSERT_TRUE(i <= m.nlast);
		}
	}
	kmerge_release(&m);
}

TEST(find_and_lower_bound_match_a_linear_scan)
{
	uint32_t seed = 7;
	struct kmerge m;

	kmerge_init(&m, sizeof(struct ent));
	kmerge_begin(&m);
	for (int k = 0; k < NKEYS; k++)
		if (next_rand(&seed) % 3 == 0)
			ASSERT_EQ(kmerge_append(&m, &(struct ent){ .key = k }), 0);
	kmerge_end(&m);
	ASSERT_TRUE(m.nlast > 10);
	for (int k = -1; k <= NKEYS; k++) {
		const struct ent key = { .key = k };
		size_t below = 0;
		const struct ent *hit = NULL;

		for (size_t i = 0; i < m.nlast; i++) {
			const struct ent *e = kmerge_at(&m, i);

			below += e->key < k;
			if (e->key == k)
				hit = e;
		}
		ASSERT_EQ(kmerge_lower_bound(&m, &key, ent_cmp), below);
		ASSERT_TRUE(kmerge_find(&m, &key, ent_cmp) == hit);
	}
	kmerge_release(&m);
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* A list built out of order, sorted before it becomes the table, is qsort's order. */
TEST(sort_next_matches_qsort)
{
	int ref[1000];
	uint32_t seed = 3;
	struct kmerge m;

	kmerge_init(&m, sizeof(int));
	kmerge_begin(&m);
	for (int i = 0; i < 1000; i++) {
		ref[i] = (int)(next_rand(&seed) % 5000) - 2500;
		ASSERT_EQ(kmerge_append(&m, &ref[i]), 0);
	}
	kmerge_sort_next(&m, int_cmp);
	kmerge_end(&m);
	qsort(ref, 1000, sizeof(int), int_cmp);
	ASSERT_EQ(m.nlast, 1000);
	ASSERT_EQ(memcmp(kmerge_at(&m, 0), ref, sizeof(ref)), 0);
	kmerge_release(&m);
}

/*
 * Carrying a run unchanged passes it; truncating keeps a prefix; the two
 * arrays are swapped, not reallocated, once they are big enough.
 */
TEST(carry_truncate_and_swap)
{
	struct kmerge m;
	char *a, *b;
	int *p;

	kmerge_init(&m, sizeof(int));
	kmerge_begin(&m);
	for (int i = 0; i < 8; i++)
		ASSERT_EQ(kmerge_append(&m, &i), 0);
	kmerge_end(&m);
	kmerge_begin(&m);
	ASSERT_EQ(kmerge_carry(&m, 5), 0);
	ASSERT_EQ(m.nnext, 5);
	p = kmerge_next(&m);
	ASSERT_EQ(*p, 5);
	ASSERT_EQ(kmerge_carry(&m, 100), 0); /* no more than the table has */
	ASSERT_EQ(m.nnext, 7);
	ASSERT_TRUE(kmerge_next(&m) == NULL);
	p = kmerge_push(&m);
	ASSERT_EQ(*p, 0);
	*p = 99;
	ASSERT_EQ(*(int *)kmerge_next_last(&m), 99);
	kmerge_end(&m);
	ASSERT_EQ(m.nlast, 8);
	ASSERT_EQ(*(int *)kmerge_at(&m, 6), 7);
	kmerge_truncate(&m, 3);
	ASSERT_EQ(m.nlast, 3);
	a = m.last;
	b = m.next;
	for (int round = 0; round < 4; round++) {
		kmerge_begin(&m);
		ASSERT_EQ(kmerge_carry(&m, 3), 0);
		kmerge_end(&m);
		ASSERT_TRUE(m.last == (round % 2 ? a : b));
	}
	kmerge_release(&m);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, merge_matches_a_per_key_reference);
	RUN(&st, find_and_lower_bound_match_a_linear_scan);
	RUN(&st, sort_next_matches_qsort);
	RUN(&st, carry_truncate_and_swap);
	UNIT_MAIN_END(&st);
}
