/*
 * /proc/softirqs: per vector (HI, TIMER, NET_TX, NET_RX, BLOCK, IRQ_POLL,
 * TASKLET, SCHED, HRTIMER, RCU), how many times it ran on each CPU. Two
 * reads a window apart say which vector keeps a CPU in softirq; the
 * CPU's own irq/softirq/steal ticks are the cpuN lines of /proc/stat
 * (cpu_stat in hoststats.h).
 */
#ifndef TRIAGE_PROCFS_SOFTIRQS_H
#define TRIAGE_PROCFS_SOFTIRQS_H

#include <stddef.h>
#include <stdint.h>

#include "procfs/hoststats.h"
#include "procfs/procfs.h"

#define SOFTIRQ_MAX_VECTORS 16
#define SOFTIRQ_NAME_MAX 16

struct softirqs {
	char name[SOFTIRQ_MAX_VECTORS][SOFTIRQ_NAME_MAX];
	int cpu_id[HOST_MAX_CPUS]; /* the header's CPUn, column by column */
	uint64_t count[SOFTIRQ_MAX_VECTORS][HOST_MAX_CPUS];
	size_t nvec, ncols;
};

/* Parses the table; -EINVAL when its header or a row cannot be read. */
int procfs_softirqs_parse(const char *buf, size_t len, struct softirqs *out);
int procfs_softirqs_read(const struct procfs *pf, struct softirqs *out);

/*
 * The vector that ran most on CPU cpu between a and b (same layout), with
 * how many times; -1 when the CPU is absent or nothing ran.
 */
int procfs_softirqs_top_vector(const struct softirqs *a, const struct softirqs *b, int cpu,
			       uint64_t *runs);

#endif
