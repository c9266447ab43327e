/* What the offcpu probe's maps hold, for other cores (triage report's enrichment). */
#ifndef TRIAGE_PROBE_OFFCPU_H
#define TRIAGE_PROBE_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/stackprobe.h"

/* Off-CPU time of one thread: [0] voluntary, [1] involuntary. */
struct thread_sum {
	uint32_t pid, tid;
	char comm[STACK_COMM_LEN];
	uint64_t ns[2], n[2];
};

struct offcpu_result {
	struct stack_entry *e; /* per thread, kind and stacks; most time first */
	struct offcpu_key *keys;
	size_t n;
	struct thread_sum *t; /* most time first */
	size_t nt;
	uint64_t stack_errors, map_full;
};

/*
 * Adds the time of threads still off-CPU at end_ns (they have only a start
 * stamp) to an offcpu skeleton's totals; once, after detaching.
 */
void offcpu_flush_pending(void *skel, const struct procfs *pf, int64_t end_ns);
/* Whether thread tid was still off-CPU when the programs were detached. */
bool offcpu_still_off(void *skel, uint32_t tid);
/*
 * Reads an offcpu skeleton's totals, sorted, with the first nsym entries
 * symbolized through z. 0 or -errno; release with offcpu_result_release().
 */
int offcpu_read(void *skel, struct sp_symbolizer *z, size_t nsym, struct offcpu_result *r);
void offcpu_result_release(struct offcpu_result *r);

#endif
