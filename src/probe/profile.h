/* What the profile probe's maps hold, for other cores (triage report's enrichment). */
#ifndef TRIAGE_PROBE_PROFILE_H
#define TRIAGE_PROBE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/maps.h"
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

/* The maps' slots: samples by thread and stacks, the stacks; and the counters. */
enum { PROFILE_MAP_COUNTS = 0, PROFILE_MAP_STACKS };
enum { PROFILE_CTR_SAMPLES = 0, PROFILE_CTR_STACK_ERRORS, PROFILE_CTR_MAP_FULL };

/* The maps of a profile probe started through profile_probe.ops. */
void profile_maps(void *skel, struct probe_maps *m);

/* A software cpu-clock perf event per CPU, each running one profile program. */
struct profile_events {
	int ncpu;
	int *fds;   /* perf events; -1 for an offline CPU */
	int *links; /* BPF links; -1 where none */
};

/* Opens the events at freq Hz and attaches program prog_fd to each. 0 or -errno. */
int profile_events_attach(struct profile_events *ev, int prog_fd, unsigned freq);
/* Detaches and closes the events; NULL-safe fields; may be called twice. */
void profile_events_release(struct profile_events *ev);

/*
 * Reads the samples of process pid (0: all), symbolizes them with z and
 * counts self samples per function. 0 or -errno; release r with
 * profile_result_release().
 */
int profile_read_functions(const struct probe_maps *m, struct sp_symbolizer *z, int pid,
			   struct profile_result *r);
void profile_result_release(struct profile_result *r);

#endif
