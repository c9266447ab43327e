/*
 * A loaded probe's maps and counters as its readers see them, whichever
 * loader made them: libbpf's skeleton (triage probe P) or a light skeleton
 * (the report's enrichment, probe/enrich_light.c). Which slot holds which
 * map is the probe's own business: its header names them.
 */
#ifndef TRIAGE_PROBE_MAPS_H
#define TRIAGE_PROBE_MAPS_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_MAPS_MAX 3

/* One BPF map: its descriptor and its max_entries. */
struct probe_map {
	int fd;
	size_t cap;
};

struct probe_maps {
	struct probe_map map[PROBE_MAPS_MAX];
	/* counters in the object's .bss (__u64), read where they live (after detach) */
	const volatile unsigned long long *counter[PROBE_MAPS_MAX];
};

/* Counter i, or 0 where the object has none. */
static inline uint64_t probe_maps_counter(const struct probe_maps *m, int i)
{
	return m->counter[i] ? *m->counter[i] : 0;
}

#endif
