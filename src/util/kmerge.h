/*
 * A keyed table swapped between samples. A sampler that reads the same
 * tasks every interval, in the same sorted order, keeps what it knows of
 * each in an array sorted by key (the last sample's). The next sample walks
 * that array beside its own reading, in step: each key read either is the
 * walk's next entry, or the entries before it are gone. The entries it
 * keeps go, in order, into the list being built, which becomes the table
 * when the sample ends; the two arrays are swapped, never reallocated in a
 * steady state.
 *
 * Walking the table in order reads it sequentially, where a hash or a
 * binary search per key would touch memory that an interval's sleep has
 * pushed out of the caches (docs/performance.md, record).
 *
 * Entries are size bytes each (a struct, or a pointer to one). Comparisons
 * are the caller's: cmp(entry, key) < 0 when the entry orders before the
 * key, 0 when it is the key's.
 *
 * A sample:
 *	kmerge_begin(m);
 *	for each key, in order:
 *		while ((e = kmerge_pass(m, key, cmp)))  // before key: gone
 *			drop or keep (kmerge_append) e;
 *		e = kmerge_take(m, key, cmp);          // the key's entry, or NULL
 *		kmerge_append(m, e or a new entry);
 *	while ((e = kmerge_next(m)))                   // the rest: gone
 *		drop or keep e;
 *	kmerge_end(m);
 */
#ifndef TRIAGE_UTIL_KMERGE_H
#define TRIAGE_UTIL_KMERGE_H

#include <stdbool.h>
#include <stddef.h>

typedef int (*kmerge_cmp_fn)(const void *entry, const void *key);
typedef int (*kmerge_sort_fn)(const void *a, const void *b);

struct kmerge {
	char *last; /* the table: the last sample's entries, sorted */
	char *next; /* this sample's, built as it reads */
	size_t nlast, nnext, cap_last, cap_next;
	size_t at;   /* the walk's position in last */
	size_t size; /* bytes per entry */
};

void kmerge_init(struct kmerge *m, size_t size);
/* Frees the arrays (what entries point to is the caller's). */
void kmerge_release(struct kmerge *m);

/* Starts a sample: an empty next list, the walk at the table's start. */
void kmerge_begin(struct kmerge *m);
/* Ends it: the next list becomes the table (the old table's array is reused). */
void kmerge_end(struct kmerge *m);

/* Entry i of the table; of the next list. */
static inline void *kmerge_at(const struct kmerge *m, size_t i)
{
	return m->last + i * m->size;
}

static inline void *kmerge_next_at(const struct kmerge *m, size_t i)
{
	return m->next + i * m->size;
}

/* The walk's next entry, passed; NULL at the table's end. */
static inline void *kmerge_next(struct kmerge *m)
{
	return m->at < m->nlast ? kmerge_at(m, m->at++) : NULL;
}

/* The walk's next entry if it orders before key, passed; else NULL. */
static inline void *kmerge_pass(struct kmerge *m, const void *key, kmerge_cmp_fn cmp)
{
	if (m->at < m->nlast && cmp(kmerge_at(m, m->at), key) < 0)
		return kmerge_at(m, m->at++);
	return NULL;
}

/* The walk's next entry if it is key's, passed; else NULL. */
static inline void *kmerge_take(struct kmerge *m, const void *key, kmerge_cmp_fn cmp)
{
	if (m->at < m->nlast && cmp(kmerge_at(m, m->at), key) == 0)
		return kmerge_at(m, m->at++);
	return NULL;
}

/* Appends the walk's next n entries to the next list as they are, passing them; 0 or -ENOMEM. */
int kmerge_carry(struct kmerge *m, size_t n);
/* Makes room for n more entries in the next list; 0 or -ENOMEM. */
int kmerge_reserve(struct kmerge *m, size_t n);
/* Appends a copy of entry e to the next list; 0 or -ENOMEM. */
int kmerge_append(struct kmerge *m, const void *e);
/* A zeroed entry appended to the next list, for the caller to fill; NULL: no memory. */
void *kmerge_push(struct kmerge *m);
/* The next list's last entry, or NULL. */
void *kmerge_next_last(const struct kmerge *m);

/* The table's entry for key by binary search (the table sorted by cmp), or NULL. */
void *kmerge_find(const struct kmerge *m, const void *key, kmerge_cmp_fn cmp);
/* The index of the table's first entry not before key. */
size_t kmerge_lower_bound(const struct kmerge *m, const void *key, kmerge_cmp_fn cmp);

/* Sorts the table; the next list (for one built out of order). */
void kmerge_sort_last(struct kmerge *m, kmerge_sort_fn cmp);
void kmerge_sort_next(struct kmerge *m, kmerge_sort_fn cmp);
/* Keeps the table's first n entries (n at most its length). */
void kmerge_truncate(struct kmerge *m, size_t n);

#endif
