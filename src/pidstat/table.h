/*
 * The task table: every task pidstat follows, its two snapshots and its
 * kept-open files, in display order with a hash index (src/pidstat/table.c).
 */
#ifndef TRIAGE_PIDSTAT_TABLE_H
#define TRIAGE_PIDSTAT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/kept.h"
#include "util/kmerge.h"

/* One snapshot of a task's counters (sysstat's struct pid_stats). */
struct pidstat_snap {
	uint64_t utime, stime, gtime, wtime; /* ticks */
	int64_t cutime, cstime, cgtime;
	uint64_t minflt, cminflt, majflt, cmajflt;
	uint64_t vsz, rss; /* kB */
	uint64_t rss_anon; /* kB: RssAnon (statm) of process rows when the run wants it (anon_ok) */
	bool anon_ok;
	uint64_t blkio; /* delayacct_blkio_ticks */
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
	uint64_t nvcsw, nivcsw;
	uint64_t threads, fd_nr;
	uint64_t stack_size, stack_ref;
	unsigned processor, priority, policy;
	uint64_t slices; /* schedstat: times it was put on a CPU */
	bool sched_ok;	 /* schedstat was read */
};

/* Task flags. */
enum {
	TASK_NO_IO = 1u << 0,	  /* io unreadable: print -1.00 */
	TASK_NO_FD = 1u << 1,	  /* fd/ unreadable: print -1 */
	TASK_DISPLAYED = 1u << 2, /* process row shown in this block */
	TASK_SEEN = 1u << 3,	  /* read successfully in this sample */
	TASK_KNOWN = 1u << 4,	  /* start time recorded */
	TASK_LISTED = 1u << 5,	  /* its threads were read last sample */
};

/*
 * --whole: a process's ctx switches, run-queue wait and blkio delay as
 * running sums of its threads' increments (monotonic by construction).
 */
struct pidstat_whole {
	uint64_t nvcsw, nivcsw, wtime, blkio;
};

/* Adds one thread's increments from prev to now to w. */
void pidstat_whole_add(struct pidstat_whole *w, const struct pidstat_snap *now,
		       const struct pidstat_snap *prev);

#define PIDSTAT_NFILES 5 /* stat, schedstat, status, io, statm: kept open */

struct pidstat_task {
	pid_t pid;
	struct pidstat_task *leader; /* NULL for a process (TGID) entry */
	unsigned uid;
	unsigned flags;
	uint64_t start;	     /* stat field 22: tells a reused PID from the old task */
	unsigned nthreads;   /* stat field 20 */
	char state;	     /* stat field 3 at the last read (triage report's D tasks) */
	pid_t ppid;	     /* stat field 4 at the last read (report's zombies); 0: not known */
	unsigned ntids_seen; /* thread entries queued after it last sample */
	size_t order_idx;    /* its index in the display order */
	char comm[128];
	char *cmdline;		     /* -l: cached command line, NULL until read non-empty */
	struct pidstat_snap snap[3]; /* [0]/[1] alternate, [2] first (Average) */
	/* Average accumulators, as sysstat keeps them. */
	uint64_t total_vsz, total_rss, total_stack_size, total_stack_ref;
	uint64_t total_threads, total_fd_nr;
	unsigned rt_asum, uc_asum, rc_asum, sk_asum, delay_asum, tf_asum;
	struct pidstat_whole whole; /* --whole: its threads' running sums */
	int fds[PIDSTAT_NFILES];    /* kept-open stat, schedstat, status, io, statm; -1 if not */
	int taskdir;		    /* a process's task/ directory (O_PATH), or -1 */
	struct pidstat_task *hnext; /* hash chain */
};

/* The task table: display order array plus an O(1) hash index. */
struct pidstat_table {
	/*
	 * struct pidstat_task *: the display order (processes ascending, each
	 * followed by its threads), and the order being built for the current
	 * sample. order and len read the display order (set at each commit).
	 */
	struct kmerge list;
	struct pidstat_task **order;
	size_t len;
	struct pidstat_task **buckets;
	size_t nbuckets, count;
	struct procfs_fd_budget fd_budget; /* how many more fds may be kept open */
};

void pidstat_table_release(struct pidstat_table *t);
struct pidstat_task *pidstat_table_find(struct pidstat_table *tb, struct pidstat_task *leader,
					pid_t pid);
struct pidstat_task *pidstat_table_add(struct pidstat_table *tb, struct pidstat_task *leader,
				       pid_t pid);
void pidstat_task_reset(struct pidstat_table *tb, struct pidstat_task *t);
void pidstat_task_forget_files(struct pidstat_table *tb, struct pidstat_task *t);
bool pidstat_task_has_files(const struct pidstat_task *t);
/* Appends t to the order being built for this sample. */
int pidstat_table_push(struct pidstat_table *tb, struct pidstat_task *t);
/* How many tasks that order holds so far; its task i. */
static inline size_t pidstat_table_queued(const struct pidstat_table *tb)
{
	return tb->list.nnext;
}

static inline struct pidstat_task *pidstat_table_queued_at(const struct pidstat_table *tb, size_t i)
{
	return *(struct pidstat_task **)kmerge_next_at(&tb->list, i);
}

/* Takes the tasks queued after the first mark back out of that order (unseen again). */
void pidstat_table_unqueue(struct pidstat_table *tb, size_t mark);
/* Sorts that order by cmp (over struct pidstat_task *). */
void pidstat_table_sort_queued(struct pidstat_table *tb, int (*cmp)(const void *, const void *));
/* Frees the tasks not seen in this sample and installs the new order. */
void pidstat_table_commit(struct pidstat_table *tb);

#endif
