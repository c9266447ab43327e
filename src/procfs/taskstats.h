/*
 * Per-task counters through the taskstats generic-netlink interface: the
 * real UID and the context-switch counts that /proc/PID/status shows,
 * without the kernel formatting the whole status file (its most expensive
 * part for pidstat). Needs CAP_NET_ADMIN; callers fall back to status.
 */
#ifndef TRIAGE_PROCFS_TASKSTATS_H
#define TRIAGE_PROCFS_TASKSTATS_H

#include <stdint.h>
#include <sys/types.h>

struct taskstats_conn {
	int fd;
	uint16_t family;
	uint32_t seq;
};

/* The fields status would give: Uid (real), voluntary/nonvoluntary switches. */
struct taskstats_brief {
	uint32_t uid;
	uint64_t nvcsw, nivcsw;
};

/* Opens the socket and resolves the family; returns 0 or -errno. */
int procfs_taskstats_open(struct taskstats_conn *c);
void procfs_taskstats_close(struct taskstats_conn *c);
/* Queries one task (TID); -ESRCH if it is gone, -EPERM without privilege. */
int procfs_taskstats_query(struct taskstats_conn *c, pid_t tid, struct taskstats_brief *out);

/* Queries n tasks in batches; rcs[i] is 0 or a negative errno for tids[i]. */
void procfs_taskstats_query_many(struct taskstats_conn *c, const pid_t *tids, size_t n,
				 struct taskstats_brief *out, int *rcs);

/*
 * Pure: extracts the brief from a TASKSTATS_CMD_GET reply (the netlink
 * message at buf). Returns 0, a negative netlink error, or -EINVAL.
 */
int procfs_taskstats_parse_reply(const void *buf, size_t len, struct taskstats_brief *out);

#endif
