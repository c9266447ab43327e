/*
 * Internal to src/record: the recorder's task cache and the carried ids'
 * sort, apart from the recorder so that the unit tests reach them.
 */
#ifndef TRIAGE_RECORD_TCACHE_H
#define TRIAGE_RECORD_TCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/kmerge.h"

/* The counters of a sample row after (iv, task), before state. */
#define NVALS 24

/*
 * A task's row in the task table, found by (tgid, tid, thread). Every
 * interval reads each entry after a second's sleep, so what the walk and the
 * rename check read comes first, in the entry's first cache line.
 */
struct tkey {
	int64_t id; /* its task row */
	uint64_t start;
	pid_t tgid, tid;
	unsigned gen;	/* the last interval it was seen in */
	unsigned taken; /* the last interval that put it in the new list */
	unsigned uid;
	bool thread; /* false: the process row */
	bool fresh;  /* in the new list only, until the walk ends */
	/* threads: the values of its last stored row, to skip unchanged ones */
	bool has_v;
	char state;
	char comm[128];
	int64_t v[NVALS];
};

/*
 * The tasks' rows, sorted as the pidstat table orders its tasks: by
 * process, the process row first, then its threads by tid. Each interval
 * walks the table and this list side by side, so finding a task reads the
 * list in order rather than probing a table of megabytes that a second's
 * sleep has pushed out of the caches. The list keeps the tasks seen in
 * this or the last interval.
 */
struct tcache {
	struct kmerge list; /* struct tkey *: last interval's, sorted; this one's, being built */
	unsigned gen;	    /* this interval */
	bool unsorted;	    /* the new list is out of order (the table was): sort it at the end */
};

/* Starts an interval's walk (a zeroed tcache is ready for it). */
void record_tcache_begin(struct tcache *c);
/*
 * The entry for (tgid, sub: 0 for the process row, else the thread's tid),
 * marked seen and taken into this interval's list; *k is NULL when the list has none. 0 or
 * -ENOMEM.
 */
int record_tcache_find(struct tcache *c, pid_t tgid, pid_t sub, struct tkey **k);
/* A new, zeroed entry for (tgid, tid, thread), seen in this interval and in its list. */
int record_tcache_add(struct tcache *c, pid_t tgid, pid_t tid, bool thread, struct tkey **k);
/*
 * Ends the walk: the last interval's entries not found in this one stay
 * one more interval if they were seen in the last, the others are freed;
 * the new list, sorted, is the one the next walk reads. 0 or -ENOMEM.
 */
int record_tcache_end(struct tcache *c);
void record_tcache_release(struct tcache *c);

/* Sorts ids ascending (*stray: room for the ones out of order, grown as needed); 0 or -ENOMEM. */
int record_sort_ids(int64_t *id, size_t n, int64_t **stray, size_t *stray_cap);

#endif
