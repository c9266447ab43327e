/*
 * /proc files kept open between samples. pread() at offset 0 regenerates a
 * proc file, so a repeated read saves the open() and close() (the path walk
 * through /proc). An fd pins its task: once the task is gone the read
 * fails and the fd is dropped, so a reused id gets a fresh open. A budget
 * bounds how many stay open (size it with runloop_raise_nofile()).
 */
#ifndef TRIAGE_PROCFS_KEPT_H
#define TRIAGE_PROCFS_KEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How many more fds may be kept open. */
struct procfs_fd_budget {
	long left;
};

/* Takes one fd from the budget; false when none is left. */
bool procfs_fd_budget_take(struct procfs_fd_budget *b);

/* Closes a kept *fd (if any) and gives it back; *fd becomes -1. */
void procfs_kept_close(int *fd, struct procfs_fd_budget *b);

/*
 * Re-reads the kept *fd into buf (NUL-terminated). On failure (the task is
 * gone, or its id names another task now) *fd is closed: the caller opens
 * the file afresh. Returns the length, or -errno (-EBADF: nothing kept).
 */
ssize_t procfs_kept_reread(int *fd, struct procfs_fd_budget *b, char *buf, size_t size);

/* Keeps fd in *slot if the budget allows; otherwise closes it. */
void procfs_kept_keep(int *slot, int fd, struct procfs_fd_budget *b);

#endif
