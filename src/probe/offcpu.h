/* What the offcpu probe's maps hold, for other cores (triage report's enrichment). */
#ifndef TRIAGE_PROBE_OFFCPU_H
#define TRIAGE_PROBE_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/maps.h"
#include "probe/stackprobe.h"

/* Off-CPU time of one thread: [0] voluntary, [1] involuntary. */
struct offcpu_thread {
	uint32_t pid, tid;
	char comm[STACK_COMM_LEN];
	uint64_t ns[2], n[2];
};

struct offcpu_result {
	struct stack_entry *e; /* per thread, kind and stacks; most time first */
	struct offcpu_key *keys;
	size_t n;
	struct offcpu_thread *t; /* most time first */
	size_t nt;
	uint64_t stack_errors, map_full;
};

/* The maps' slots: start stamps, totals, stacks; counters: stacks lost, intervals lost. */
enum { OFFCPU_MAP_START = 0, OFFCPU_MAP_TIME, OFFCPU_MAP_STACKS };
enum { OFFCPU_CTR_STACK_ERRORS = 0, OFFCPU_CTR_MAP_FULL };

/* The maps of an offcpu libbpf skeleton (offcpu_probe's). */
void offcpu_maps(void *skel, struct probe_maps *m);
/*
 * Adds the time of threads still off-CPU at end_ns (they have only a start
 * stamp) to the totals; once, after detaching.
 */
void offcpu_flush_pending(const struct probe_maps *m, const struct procfs *pf, int64_t end_ns);
/* Whether thread tid was still off-CPU when the programs were detached. */
bool offcpu_still_off(const struct probe_maps *m, uint32_t tid);
/*
 * Reads the totals, sorted, with the first nsym entries symbolized
 * through z. 0 or -errno; release with offcpu_result_release().
 */
int offcpu_read(const struct probe_maps *m, struct sp_symbolizer *z, size_t nsym,
		struct offcpu_result *r);
void offcpu_result_release(struct offcpu_result *r);

#endif
