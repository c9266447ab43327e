/*
 * Why a task in D waits, read from its wchan and kernel stack. D is not
 * "disk": vfork parents, lock waits, reclaim and frozen tasks all show D.
 */
#ifndef TRIAGE_LOAD_DREASON_H
#define TRIAGE_LOAD_DREASON_H

#include <stdbool.h>

#include "procfs/task_info.h"

enum d_reason {
	D_NONE = 0, /* not in D */
	D_DISK_IO,
	D_PAGE_FAULT, /* page fault or memory reclaim/compaction */
	D_LOCK,	      /* mutex or rwsem */
	D_VFORK,      /* a vfork parent waiting for its child to exec or exit */
	D_NETFS,      /* network or FUSE file system */
	D_FREEZER,    /* frozen: shows D, does not count towards the load */
	D_OTHER,
	D_REASON_COUNT
};

struct d_verdict {
	enum d_reason reason;
	char frame[KSYM_MAX]; /* the wchan or stack frame that decided, "" if none */
};

/*
 * Classifies a D task from its wchan (may be "") and stack (may be NULL or
 * empty when unreadable). Pure.
 */
void load_dreason_classify(const char *wchan, const struct kstack *stack, struct d_verdict *out);

/* Stable key for JSON ("disk_io", "vfork", ...). */
const char *load_dreason_key(enum d_reason r);
/* Words for sentences ("disk I/O", "vfork parent waiting for its child", ...). */
const char *load_dreason_words(enum d_reason r, bool plural);

#endif
