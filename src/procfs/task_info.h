/*
 * Per-task facts the load explainer needs beyond stat and status: where a
 * sleeping task waits (wchan, kernel stack) and which cgroups hold it,
 * including whether its freezer has frozen it.
 *
 * Readers return 0 or -errno; parsers are pure (buffer in, struct out).
 */
#ifndef TRIAGE_PROCFS_TASK_INFO_H
#define TRIAGE_PROCFS_TASK_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "procfs/procfs.h"

#define KSYM_MAX 64
#define KSTACK_MAX_FRAMES 24
#define CGROUP_PATH_MAX 256

/* A kernel stack as function names, innermost first, offsets dropped. */
struct kstack {
	char frame[KSTACK_MAX_FRAMES][KSYM_MAX];
	int nframes;
};

/*
 * Parses /proc/TID/stack ("[<0>] func+0x1d3/0x400" lines). Lines it cannot
 * read are skipped; more than KSTACK_MAX_FRAMES frames are cut. Returns 0,
 * or -EINVAL when no frame was found.
 */
int procfs_kstack_parse(const char *buf, size_t len, struct kstack *out);

/* The controllers whose cgroup explains a finding (v1 names them apart). */
enum cg_controller {
	CGC_CPU,    /* v1 "cpu": CPU quota and throttling */
	CGC_CPUSET, /* v1 "cpuset": which CPUs a task may use */
	CGC_MEMORY, /* v1 "memory" */
	CGC_IO,	    /* v1 "blkio" (v2 "io"): I/O limits */
	CGC_COUNT
};

/* The cgroup memberships of a task that triage load and report use. */
struct task_cgroups {
	char unified[CGROUP_PATH_MAX]; /* "0::" line (cgroup v2), "" if none */
	char freezer[CGROUP_PATH_MAX]; /* v1 "freezer" controller, "" if none */
	char cpu[CGROUP_PATH_MAX];     /* v1 "cpu" controller, "" if none */
	char display[CGROUP_PATH_MAX]; /* the most specific path, for reports */
	bool has_unified, has_freezer, has_cpu;
	/* v1 paths of the controllers above, by enum cg_controller ("" if none) */
	char v1[CGC_COUNT][CGROUP_PATH_MAX];
	bool has_v1[CGC_COUNT];
};

/*
 * Parses /proc/PID/cgroup. display is the v2 path unless that is "/" while a
 * v1 hierarchy (name=systemd, cpu, memory, any other) places the task
 * deeper; it is "/" when every hierarchy does.
 */
int procfs_task_cgroups_parse(const char *buf, size_t len, struct task_cgroups *out);

/*
 * The group whose CPU accounting holds the task: the v2 path ("0::") when
 * there is one, else the v1 "cpu" controller's (not cpuset's, not a lone
 * cpuacct's), else "/".
 */
const char *procfs_task_cgroups_cpu_path(const struct task_cgroups *cg);

/*
 * The group of one controller: its v1 line when a v1 hierarchy has that
 * controller (a controller is on v1 or on v2, never both), else the v2
 * path, else "/". On v1 each controller has its own path: the cpuset
 * group that places a task is not the memory group that limits it.
 */
const char *procfs_task_cgroups_path(const struct task_cgroups *cg, enum cg_controller c);

/* Reads <proc>/PID/task/TID/wchan; a "0" or empty wchan gives "". */
int procfs_task_read_wchan(const struct procfs *pf, pid_t pid, pid_t tid, char *buf, size_t size);

/* Reads and parses <proc>/PID/task/TID/stack (root only on most kernels). */
int procfs_task_read_stack(const struct procfs *pf, pid_t pid, pid_t tid, struct kstack *out);

/* Reads and parses <proc>/PID/cgroup. */
int procfs_task_read_cgroups(const struct procfs *pf, pid_t pid, struct task_cgroups *out);

/*
 * Whether the freezer holds cgroup memberships cg frozen: v1
 * "sys/fs/cgroup/freezer<path>/freezer.state" reads FROZEN, or v2
 * "cgroup.events" has "frozen 1" (under sys/fs/cgroup or, on a hybrid
 * layout, sys/fs/cgroup/unified). Returns 1, 0, or -errno when neither
 * could be read.
 */
int procfs_cgroup_is_frozen(const struct procfs *pf, const struct task_cgroups *cg);

/* Pure helpers for the two freezer files; 1 frozen, 0 not, -EINVAL unreadable. */
int procfs_freezer_state_parse(const char *buf, size_t len);
int procfs_cgroup_events_frozen_parse(const char *buf, size_t len);

#endif
