/* The keyed table swapped between samples (see kmerge.h). */
#include "util/kmerge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void kmerge_init(struct kmerge *m, size_t size)
{
	memset(m, 0, sizeof(*m));
	m->size = size;
}

void kmerge_release(struct kmerge *m)
{
	size_t size = m->size;

	free(m->last);
	free(m->next);
	kmerge_init(m, size);
}

void kmerge_begin(struct kmerge *m)
{
	m->nnext = 0;
	m->at = 0;
}

void kmerge_end(struct kmerge *m)
{
	char *t = m->last;
	size_t cap = m->cap_last;

	m->last = m->next;
	m->cap_last = m->cap_next;
	m->nlast = m->nnext;
	m->next = t;
	m->cap_next = cap;
	m->nnext = 0;
	m->at = 0;
}

int kmerge_reserve(struct kmerge *m, size_t n)
{
	if (m->nnext + n <= m->cap_next)
		return 0;
	return util_grow(&m->next, &m->cap_next, m->nnext + n, m->size);
}

void *kmerge_push(struct kmerge *m)
{
	void *e;

	if (kmerge_reserve(m, 1))
		return NULL;
	e = kmerge_next_at(m, m->nnext++);
	memset(e, 0, m->size);
	return e;
}

int kmerge_append(struct kmerge *m, const void *e)
{
	if (kmerge_reserve(m, 1))
		return -ENOMEM;
	memcpy(kmerge_next_at(m, m->nnext++), e, m->size);
	return 0;
}

int kmerge_carry(struct kmerge *m, size_t n)
{
	if (n > m->nlast - m->at)
		n = m->nlast - m->at;
	if (kmerge_reserve(m, n))
		return -ENOMEM;
	if (n)
		memcpy(kmerge_next_at(m, m->nnext), kmerge_at(m, m->at), n * m->size);
	m->nnext += n;
	m->at += n;
	return 0;
}

void *kmerge_next_last(const struct kmerge *m)
{
	return m->nnext ? kmerge_next_at(m, m->nnext - 1) : NULL;
}

size_t kmerge_lower_bound(const struct kmerge *m, const void *key, kmerge_cmp_fn cmp)
{
	size_t lo = 0, hi = m->nlast;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(kmerge_at(m, mid), key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void *kmerge_find(const struct kmerge *m, const void *key, kmerge_cmp_fn cmp)
{
	size_t i = kmerge_lower_bound(m, key, cmp);

	return i < m->nlast && !cmp(kmerge_at(m, i), key) ? kmerge_at(m, i) : NULL;
}

void kmerge_sort_last(struct kmerge *m, kmerge_sort_fn cmp)
{
	if (m->nlast > 1)
		qsort(m->last, m->nlast, m->size, cmp);
}

void kmerge_sort_next(struct kmerge *m, kmerge_sort_fn cmp)
{
	if (m->nnext > 1)
		qsort(m->next, m->nnext, m->size, cmp);
}

void kmerge_truncate(struct kmerge *m, size_t n)
{
	if (n < m->nlast)
		m->nlast = n;
}
