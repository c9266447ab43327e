/*
 * The one /proc layer. Every read goes through a root directory chosen at
 * run time ("/" in production, a fixture tree in tests), opened once as a
 * directory fd; readers use openat() relative to it.
 *
 * Functions return 0 (or a length) on success and -errno on failure; none
 * of them exits or prints.
 */
#ifndef TRIAGE_PROCFS_H
#define TRIAGE_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Opaque: only src/procfs/ knows the directory fds behind it. */
struct procfs;

/*
 * Opens root ("/" when NULL or empty) into a new *pf; fails only if root
 * cannot be opened (or with -ENOMEM). A fixture's top has no proc/ of its
 * own: procfs_step() selects one of its stepN/proc.
 */
int procfs_open(struct procfs **pf, const char *root);
/* Closes and frees pf; NULL is a no-op. */
void procfs_close(struct procfs *pf);

/*
 * Fixture roots (docs/fixtures.md): from now on "/proc" is <top>/stepN/proc;
 * files relative to the root (/sys) stay the top's, as for the pidstat
 * shim. Returns 0, or -errno (-ENOENT: no step n) keeping the current step.
 */
int procfs_step(struct procfs *pf, int n);
/*
 * The same where each step is a whole root (load fixtures carry a /sys per
 * step): the root becomes <top>/stepN, "/proc" its proc/ (which may lack).
 */
int procfs_step_root(struct procfs *pf, int n);

/* Opens path relative to <root>/proc with flags (O_CLOEXEC added); an fd or -errno. */
int procfs_openat(const struct procfs *pf, const char *path, int flags);

/*
 * Reads the file at path (relative to <root>/proc, e.g. "1/stat") into buf,
 * NUL-terminated; returns its length, or -errno. A file larger than
 * size - 1 is cut there (procfs files are read in one call, as the kernel
 * produces them).
 */
ssize_t procfs_read(const struct procfs *pf, const char *path, char *buf, size_t size);

/* Same, for a path relative to the root itself (e.g. "sys/devices/..."). */
ssize_t procfs_read_root(const struct procfs *pf, const char *path, char *buf, size_t size);

/* Reads name relative to an already open directory fd (-ENOENT if dirfd < 0). */
ssize_t procfs_read_at(int dirfd, const char *name, char *buf, size_t size);

/* Reads an open file to its end (or size - 1 bytes) into buf, NUL-terminated. */
ssize_t procfs_read_fd(int fd, char *buf, size_t size);
/*
 * Re-reads a kept-open /proc file from offset 0 in one pread (procfs
 * regenerates it there), NUL-terminated; a task that is gone gives -ESRCH.
 */
ssize_t procfs_reread_fd(int fd, char *buf, size_t size);

/* The bytes of a command line pidstat -l reads, and triage record keeps. */
#define PROCFS_CMDLINE_SIZE 4096

/*
 * A task's command line from its open cmdline file, as ps and pidstat -l
 * show it: the NULs between arguments become spaces (procfs_cmdline_join), ""
 * when it is empty (kernel threads, zombies); cut at size - 1 bytes.
 * Returns its length, or -errno when it cannot be read.
 */
ssize_t procfs_cmdline_fd(int fd, char *buf, size_t size);
/* The same for <root>/proc/PID/cmdline (-errno too when it cannot be opened). */
ssize_t procfs_read_cmdline(const struct procfs *pf, pid_t pid, char *buf, size_t size);

/* A growable array of ids, kept sorted ascending. */
struct id_list {
	pid_t *ids;
	size_t len;
	size_t cap;
};

void procfs_id_list_release(struct id_list *l);

/*
 * The listings below reuse out's storage (out->len is reset) and return 0
 * or -errno; on a read error out keeps the entries read before it.
 */
/* Numeric entries of <root>/proc, sorted. */
int procfs_list_pids(const struct procfs *pf, struct id_list *out);
/* Numeric entries of <root>/proc/<pid>/task, sorted. */
int procfs_list_tids(const struct procfs *pf, pid_t pid, struct id_list *out);
/* Numeric entries of any directory relative to <root>/proc, sorted. */
int procfs_list_numeric(const struct procfs *pf, const char *path, struct id_list *out);
/*
 * The link count of <root>/proc. Linux keeps it at the root's fixed entries
 * plus nr_processes(), every thread group on the machine: one stat tells
 * whether that number moved, where a listing costs a walk of every pid.
 */
int procfs_root_links(const struct procfs *pf, unsigned long *links);

/* Counts entries of a directory under <root>/proc whose name starts with a digit. */
int procfs_count_fds(const struct procfs *pf, const char *path);
/*
 * The same count over an already open directory fd, into *count; returns
 * 0 or -errno, *count then holding the entries read before the error.
 */
int procfs_count_numeric_fd(int dirfd, unsigned *count);

#endif
