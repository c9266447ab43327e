/*
 * New processes by the process that forked them, system-wide, while
 * attached (src/bpf/forks.bpf.c at sched_process_fork): the report's
 * enrichment names a fork storm's parents with it.
 */
#ifndef TRIAGE_PROBE_FORKS_H
#define TRIAGE_PROBE_FORKS_H

#include <stddef.h>
#include <stdint.h>

#include "probe/maps.h"

#define FORKS_PARENT_COMM_LEN 16

struct forks_parent {
	int pid; /* the parent's tgid */
	uint64_t forks;
	char comm[FORKS_PARENT_COMM_LEN];
};

/* Checks privileges and BTF, loads and attaches. 0 or -errno with *stage naming the step. */
int probe_forks_start(void **skel, const char **stage);
void probe_forks_detach(void *skel);
void probe_forks_stop(void **skel);
enum { FORKS_MAP_BY_PARENT = 0, FORKS_CTR_MAP_FULL = 0 };

/* The maps of the libbpf skeleton probe_forks_start() made. */
void probe_forks_maps(void *skel, struct probe_maps *m);
/* The max parents that forked most, most first, into out. 0 or -errno. */
int probe_forks_read_top(const struct probe_maps *m, struct forks_parent *out, size_t max,
			 size_t *n);

#endif
