/* What the profile probe's maps hold, for other cores (triage report's enrichment). */
#ifndef TRIAGE_PROBE_PROFILE_H
#define TRIAGE_PROBE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/stackprobe.h"

/* Self samples of one function (the frame a sample hit). */
struct profile_func {
	const char *name, *module; /* owned by the symbolizer; NULL when unknown */
	bool kernel;
	uint8_t gap; /* enum stack_gap: why name is NULL */
	uint64_t samples;
};

struct profile_result {
	struct stack_entry *e; /* one per thread and pair of stacks */
	size_t n;
	struct profile_func *f; /* most samples first */
	size_t nf;
	uint64_t samples, stack_errors, map_full; /* of every followed task */
};

/*
 * Reads the samples of process pid (0: all) from a profile skeleton
 * (profile_probe.ops), symbolizes them with z and counts self samples per
 * function. 0 or -errno; release r with profile_result_release().
 */
int profile_read_functions(void *skel, struct sp_symbolizer *z, int pid, struct profile_result *r);
void profile_result_release(struct profile_result *r);

#endif
