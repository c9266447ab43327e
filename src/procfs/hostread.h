/*
 * Readers of the host-level counters in hoststats.h, through the procfs
 * root (so `--root` fixture trees work): /proc files relative to
 * <root>/proc (a fixture's current step), cgroup files and /dev/kmsg
 * relative to the root itself. Each returns 0 or -errno.
 */
#ifndef TRIAGE_PROCFS_HOSTREAD_H
#define TRIAGE_PROCFS_HOSTREAD_H

#include "procfs/hoststats.h"
#include "procfs/parsers.h"
#include "procfs/procfs.h"

int procfs_hostread_cpu_stat(const struct procfs *pf, struct cpu_stat *out);
int procfs_hostread_meminfo(const struct procfs *pf, struct meminfo *out);
int procfs_hostread_vmstat(const struct procfs *pf, struct vmstat *out);
int procfs_hostread_diskstats(const struct procfs *pf, struct disk_stats *out);
/* Reads "pressure/<name>" ("cpu", "io", "memory"). */
int procfs_hostread_psi(const struct procfs *pf, const char *name, struct psi *out);
int procfs_hostread_loadavg(const struct procfs *pf, struct loadavg *out);
int procfs_hostread_uptime_cs(const struct procfs *pf, uint64_t *uptime_cs);
/*
 * Network counters of the namespace that dir belongs to: dir is NULL for
 * our own (<proc>/net), or a PID (its <proc>/PID/net).
 */
int procfs_hostread_netdev(const struct procfs *pf, const char *dir, struct iface_stats *out);
int procfs_hostread_tcp(const struct procfs *pf, const char *dir, struct tcp_counters *out);

/* The network namespace of pid ("net:[4026531840]"); pid 0: our own. */
int procfs_hostread_netns_id(const struct procfs *pf, pid_t pid, char *buf, size_t size);

/*
 * Calls fn with every directory under <root>/base (base itself first,
 * paths relative to the root), depth first, at most max_depth below base
 * and max_dirs in all. Returns 0, or -errno when base cannot be opened.
 */
typedef void (*dir_fn)(void *ctx, const char *path);
int procfs_hostread_walk_dirs(const struct procfs *pf, const char *base, int max_depth,
			      int max_dirs, dir_fn fn, void *ctx);

/* A file relative to the root (cgroup files: "sys/fs/cgroup/..."). */
int procfs_hostread_root_file(const struct procfs *pf, const char *path, char *buf, size_t size);

/*
 * Calls fn for every record of <root>/dev/kmsg (live: the kernel's ring
 * buffer, read without blocking; a fixture: a regular file of records,
 * one a line). Returns 0, or -errno when it cannot be opened (-EPERM
 * without privilege).
 */
typedef void (*kmsg_fn)(void *ctx, const struct kmsg_record *r);
int procfs_hostread_kmsg(const struct procfs *pf, kmsg_fn fn, void *ctx);

#endif
