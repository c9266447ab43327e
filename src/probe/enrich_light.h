/*
 * The report's enrichment probes as light skeletons (bpftool gen skeleton
 * -L of src/bpf/<probe>.bpf.c built with -DSP_ENRICH; src/bpf/module.mk):
 * their loader program runs in the kernel and resolves the CO-RE
 * relocations and attach targets against the BTF the kernel already holds,
 * so no process reads and parses the 5 MB /sys/kernel/btf/vmlinux (what
 * libbpf's loader does for every object that has a tp_btf program).
 * Kernels without in-kernel CO-RE (before 5.17) refuse the loader; the
 * caller then falls back to the probes' libbpf skeletons.
 */
#ifndef TRIAGE_PROBE_ENRICH_LIGHT_H
#define TRIAGE_PROBE_ENRICH_LIGHT_H

#include "probe/enrich.h"
#include "probe/maps.h"

struct enrich_light;

/*
 * Loads and attaches one part (every task; the profile at freq Hz) and
 * describes its maps in *m. 0 or -errno with *stage naming the step;
 * -ENOPKG in a build without BPF. on_demand (the syscalls part; ignored
 * by the others): loaded, not attached; it counts only the processes
 * named with probe_enrich_light_watch(), from then on.
 */
int probe_enrich_light_start(enum probe_enrich_part part, unsigned freq, bool on_demand,
			     struct enrich_light **out, struct probe_maps *m, const char **stage);
/*
 * The syscalls part started on demand: counts process pid from now on
 * (attaching the programs on the first). 0, or -ENOSPC when SC_WATCH_MAX
 * are watched already, -ESRCH after detach, -EINVAL for another part; 0
 * when the part counts every process anyway.
 */
int probe_enrich_light_watch(struct enrich_light *l, int pid);
/* Stops the programs, keeps the maps; NULL-safe, idempotent. */
void probe_enrich_light_detach(struct enrich_light *l);
/* Detaches and frees; NULL-safe. */
void probe_enrich_light_free(struct enrich_light *l);

#endif
