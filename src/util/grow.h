/*
 * Growable arrays: one place for the capacity doubling and the overflow
 * check that hand-written realloc blocks tend to forget.
 */
#ifndef TRIAGE_UTIL_GROW_H
#define TRIAGE_UTIL_GROW_H

#include <stddef.h>

/*
 * Makes the array at *(T **)ptrp hold at least need elements of elem_size
 * bytes, doubling *cap (from a small minimum) so appends stay amortised
 * O(1). Returns 0, or -ENOMEM with the array and *cap unchanged.
 * ptrp is the address of the array pointer (void * so any T ** fits).
 */
int util_grow(void *ptrp, size_t *cap, size_t need, size_t elem_size);

#endif
