/* What the runq probe's maps hold, for other cores (triage report's enrichment). */
#ifndef TRIAGE_PROBE_RUNQ_H
#define TRIAGE_PROBE_RUNQ_H

#include <stdint.h>

#include "probe/maps.h"

#define RUNQ_SUM_SLOTS 27 /* = RUNQ_SLOTS of src/bpf/stackprobes.h */

struct runq_sum {
	uint64_t slots[RUNQ_SUM_SLOTS]; /* log2 of microseconds, as probe/hist.h reads them */
	uint64_t count, total_ns, max_ns;
	uint64_t lost; /* waits not recorded: map full */
};

/*
 * Sums the run-queue latency a runq skeleton (runq_probe.ops) gathered:
 * of every thread (pid 0) or of the threads of process pid. 0 or -errno.
 */
/* The maps' slots: the per-thread histograms, and waits lost to a full map. */
enum { RUNQ_MAP_THREADS = 0, RUNQ_CTR_MAP_FULL = 0 };

/* The maps of the probe's libbpf skeleton (runq_probe's). */
void runq_maps(void *skel, struct probe_maps *m);
int runq_read_sum(const struct probe_maps *m, int pid, struct runq_sum *out);

#endif
