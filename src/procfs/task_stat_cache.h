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

#include <stddef.h>
#include <sys/types.h>

#include "procfs/kept.h"
#include "procfs/procfs.h"
#include "util/kmerge.h"

struct task_stat_fd {
	pid_t pid, tid;
	int fd;
};

struct task_stat_cache {
	struct kmerge fds;		/* struct task_stat_fd by (pid, tid): the previous scan's */
	struct procfs_fd_budget budget; /* beyond it, files are opened and closed each time */
};

void procfs_task_stat_cache_init(struct task_stat_cache *c, size_t max_fds);
void procfs_task_stat_cache_release(struct task_stat_cache *c);

void procfs_task_stat_cache_begin(struct task_stat_cache *c);
/* Reads the stat file of pid/tid into buf (NUL-terminated); length or -errno. */
ssize_t procfs_task_stat_cache_read(struct task_stat_cache *c, const struct procfs *pf, pid_t pid,
				    pid_t tid, char *buf, size_t size);
void procfs_task_stat_cache_end(struct task_stat_cache *c);

#endif
