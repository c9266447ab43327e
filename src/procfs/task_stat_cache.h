/*
 * Kept-open /proc/PID/task/TID/stat files for scans that repeat: pread()
 * at offset 0 regenerates a proc file, so a repeated scan saves the open()
 * and close() (the path walk through /proc), about half the cost per
 * thread. An fd pins its task: once the task is gone the read fails and
 * the entry is dropped, so a reused TID gets a fresh open.
 *
 * (The kept-open mechanics are procfs/kept.h's.)
 *
 * A scan reads tasks in increasing (pid, tid) order, as procfs_list_pids
 * and procfs_list_tids give them; entries the scan did not read are closed
 * at its end.
 */
#ifndef TRIAGE_PROCFS_TASK_STAT_CACHE_H
#define TRIAGE_PROCFS_TASK_STAT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "procfs/kept.h"
#include "procfs/procfs.h"
#include "util/kmerge.h"

/* The files of a task kept besides its stat (procfs_task_stat_cache_read_more). */
enum task_more_file { TASK_FILE_STATUS, TASK_FILE_SCHEDSTAT, TASK_FILE_IO, TASK_MORE_FILES };

struct task_stat_fd {
	pid_t pid, tid;
	int fd;			   /* stat */
	int more[TASK_MORE_FILES]; /* -1 until read_more opened it */
};

struct task_stat_cache {
	struct kmerge fds;		/* struct task_stat_fd by (pid, tid): the previous scan's */
	struct procfs_fd_budget budget; /* beyond it, files are opened and closed each time */
	/*
	 * Whether read_more keeps files open too (init: no). A scan of a few
	 * processes (those the iterator cannot see) wants all four kept; a
	 * full /proc scan spends its budget on stat files, one per task.
	 */
	bool keep_more;
};

void procfs_task_stat_cache_init(struct task_stat_cache *c, size_t max_fds);
void procfs_task_stat_cache_release(struct task_stat_cache *c);

void procfs_task_stat_cache_begin(struct task_stat_cache *c);
/* Reads the stat file of pid/tid into buf (NUL-terminated); length or -errno. */
ssize_t procfs_task_stat_cache_read(struct task_stat_cache *c, const struct procfs *pf, pid_t pid,
				    pid_t tid, char *buf, size_t size);
/*
 * Reads another file of the pid/tid the last procfs_task_stat_cache_read
 * read (its status, schedstat or io), kept open beside its stat from scan
 * to scan while the budget allows; length or -errno.
 */
ssize_t procfs_task_stat_cache_read_more(struct task_stat_cache *c, const struct procfs *pf,
					 pid_t pid, pid_t tid, enum task_more_file f, char *buf,
					 size_t size);
void procfs_task_stat_cache_end(struct task_stat_cache *c);

#endif
