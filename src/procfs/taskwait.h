/*
 * What a process's tasks wait for, beyond their state letter: zombie
 * children a parent has not reaped (grouped by parent, from the task
 * sampler's own samples: no second walk of /proc), and threads asleep in
 * a futex wait (a contended lock or condition variable), from
 * /proc/PID/task/TID/syscall, else its wchan.
 */
#ifndef TRIAGE_PROCFS_TASKWAIT_H
#define TRIAGE_PROCFS_TASKWAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/procfs.h"
#include "procfs/tasksrc.h"

struct zombie_parent {
	pid_t ppid;
	unsigned zombies;
	char comm[TASK_COMM_MAX]; /* the parent's, "" when the set lacks it */
};

/*
 * The parents of the zombie processes (leaders in state Z) of set, most
 * zombies first (then lowest PID), at most max of them into out; *n is how
 * many were written. Returns 0 or -ENOMEM.
 */
int procfs_task_zombies_by_parent(const struct task_set *set, struct zombie_parent *out, size_t max,
				  size_t *n);

/*
 * Pure: whether a /proc/TID/syscall text is a thread blocked in a futex
 * wait syscall (futex, futex_wait, futex_waitv of this architecture):
 * 1 yes, 0 no (running, another syscall, blocked outside any syscall),
 * -EINVAL unreadable.
 */
int procfs_syscall_is_futex_wait(const char *buf, size_t len);
/*
 * Pure: the futex word a thread blocked in futex or futex_wait waits on
 * (the syscall's first argument) into *word: 1, or 0 when the text is not
 * such a wait (futex_waitv waits on several words: 0 too).
 */
int procfs_syscall_futex_word(const char *buf, size_t len, uint64_t *word);
/* Pure: whether a wchan names a futex wait ("futex_wait_queue", "futex_wait_queue_me" ...). */
bool procfs_wchan_is_futex(const char *wchan);

/*
 * A process's threads, how many of them sleep in a futex wait, and the
 * most that wait on one futex word (a lock's queue: a mutex's waiters share
 * its word, while message loops and timed waits each have their own).
 * no_word: waiters whose word is not known (known from wchan alone, or in
 * futex_waitv on several words).
 */
struct futex_waiters {
	unsigned threads, waiting;
	unsigned same_word, no_word;
};

/*
 * Looks at every thread of pid: its syscall file (root, or the owner)
 * and where that cannot be read, its wchan. Returns 0 or -errno when pid's
 * threads cannot be listed.
 */
int procfs_task_read_futex_waiters(const struct procfs *pf, pid_t pid, struct futex_waiters *out);

#endif
