/*
 * How close the machine, a cgroup or a process is to a limit it cannot
 * pass: file handles (fs.file-nr against fs.file-max), tasks (against
 * kernel.pid_max and kernel.threads-max, or a cgroup's pids.max),
 * conntrack entries (nf_conntrack_count against nf_conntrack_max), a
 * process's open descriptors against its soft RLIMIT_NOFILE, and the I/O
 * limits of a task's cgroup (v1 blkio.throttle.*, v2 io.max).
 *
 * A limit that is not set ("max", "unlimited") is LIMIT_NONE. Parsers are
 * pure; readers go through the procfs root and return 0 or -errno.
 */
#ifndef TRIAGE_PROCFS_LIMITS_H
#define TRIAGE_PROCFS_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/procfs.h"

#define LIMIT_NONE UINT64_MAX

/* One number, or "max"/"unlimited" (LIMIT_NONE), then only blanks. */
int procfs_limit_value_parse(const char *buf, size_t len, uint64_t *out);

/* /proc/sys/fs/file-nr: "ALLOCATED UNUSED MAX". */
struct file_handles {
	uint64_t allocated, max;
};

int procfs_file_nr_parse(const char *buf, size_t len, struct file_handles *out);
int procfs_limits_read_file_handles(const struct procfs *pf, struct file_handles *out);

/* kernel.pid_max and kernel.threads-max. */
struct task_caps {
	uint64_t pid_max, threads_max;
};

int procfs_limits_read_task_caps(const struct procfs *pf, struct task_caps *out);

/* nf_conntrack_count and _max; -ENOENT when conntrack is not loaded. */
struct conntrack_fill {
	uint64_t count, max;
};

int procfs_limits_read_conntrack(const struct procfs *pf, struct conntrack_fill *out);

/*
 * A pids cgroup's pids.current and pids.max; dir is relative to the root
 * (v2: "sys/fs/cgroup/a/b", v1: "sys/fs/cgroup/pids/a/b").
 */
struct cg_pids {
	uint64_t current, max; /* max LIMIT_NONE for "max" */
};

int procfs_limits_read_cg_pids(const struct procfs *pf, const char *dir, struct cg_pids *out);

/* The "Max open files" line of /proc/PID/limits: soft and hard. */
int procfs_limits_nofile_parse(const char *buf, size_t len, uint64_t *soft, uint64_t *hard);

/* A process's open descriptors and its RLIMIT_NOFILE. */
struct fd_usage {
	unsigned open;
	uint64_t soft, hard;
};

/*
 * Reads pid's limits and counts its open descriptors: from the size of
 * <proc>/PID/fd where the kernel gives the count there (procfs, Linux
 * 6.2 on: one stat, however many descriptors), else by listing it.
 */
int procfs_limits_read_fd_usage(const struct procfs *pf, pid_t pid, struct fd_usage *out);

/* One device's I/O limits (LIMIT_NONE where unset). */
struct io_limit {
	unsigned major, minor;
	uint64_t rbps, wbps, riops, wiops;
};

#define IO_MAX_LIMITS 16

struct io_limits {
	struct io_limit l[IO_MAX_LIMITS];
	size_t n;
	bool v2;	  /* from io.max, else from blkio.throttle.* */
	char cgroup[256]; /* the cgroup that sets them, as /proc/PID/cgroup names it */
};

/* v2 io.max: "MAJ:MIN rbps=N wbps=max riops=N wiops=N" lines, into out (n reset). */
int procfs_io_max_parse(const char *buf, size_t len, struct io_limits *out);

enum blkio_field { BLKIO_RBPS, BLKIO_WBPS, BLKIO_RIOPS, BLKIO_WIOPS };

/* v1 blkio.throttle.{read,write}_{bps,iops}_device: "MAJ:MIN N" lines, merged into out. */
int procfs_blkio_throttle_parse(const char *buf, size_t len, enum blkio_field f,
				struct io_limits *out);

/*
 * The I/O limits that hold pid: those of its cgroup or of the nearest
 * ancestor that sets any (v2 io.max first, then v1 blkio). out->n is 0
 * when none does. Returns 0, or -errno when pid's cgroups cannot be read.
 */
int procfs_limits_read_io(const struct procfs *pf, pid_t pid, struct io_limits *out);

#endif
