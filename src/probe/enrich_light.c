/* The report's enrichment through light skeletons; see enrich_light.h. */
#include "probe/enrich_light.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/forks.h"
#include "probe/offcpu.h"
#include "probe/profile.h"
#include "probe/runq.h"
#include "probe/session.h"
#include "probe/syscalls.h"

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <linux/types.h>

#include "bpf/syscalls.h"

_Static_assert(PROBE_ENRICH_WATCH_MAX == SC_WATCH_MAX, "one list of watched processes");

/* bpftool's generated light skeletons do arithmetic on void * */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "forks_enrich.lskel.h"
#include "offcpu_enrich.lskel.h"
#include "profile_enrich.lskel.h"
#include "runq_enrich.lskel.h"
#include "syscalls_enrich.lskel.h"
#pragma GCC diagnostic pop

struct enrich_light {
	const struct light_part *def;
	void *skel;
	struct profile_events ev; /* the profile's perf events */
	bool attached, detached;
	unsigned nwatch; /* syscalls on demand: processes named so far */
};

/*
 * One part: its light skeleton's functions (they differ only in the
 * name), the kernel features it needs (PROBE_NEED_*, checked as the libbpf
 * path does), its settings before load (may be NULL) and where its maps
 * and counters are.
 */
struct light_part {
	void *(*open)(void);
	int (*load)(void *skel);
	int (*attach)(void *skel);
	void (*detach)(void *skel);
	void (*destroy)(void *skel);
	unsigned needs;
	void (*configure)(void *skel, bool on_demand);
	int (*describe)(void *skel, struct probe_maps *m);
};

/*
 * A light skeleton's detach leaves the link descriptors set, and destroy
 * closes them again, so they are cleared here after the first close.
 */
#define LIGHT_OPS(obj)                                  \
	static void *obj##_open(void)                   \
	{                                               \
		return obj##_enrich_lbpf__open();       \
	}                                               \
	static int obj##_load(void *s)                  \
	{                                               \
		return obj##_enrich_lbpf__load(s);      \
	}                                               \
	static int obj##_attach(void *s)                \
	{                                               \
		return obj##_enrich_lbpf__attach(s);    \
	}                                               \
	static void obj##_detach(void *s)               \
	{                                               \
		struct obj##_enrich_lbpf *k = s;        \
		obj##_enrich_lbpf__detach(k);           \
		memset(&k->links, 0, sizeof(k->links)); \
	}                                               \
	static void obj##_destroy(void *s)              \
	{                                               \
		obj##_enrich_lbpf__destroy(s);          \
	}
#define LIGHT_PART(obj, needs, configure)                                                 \
	{                                                                                 \
		obj##_open, obj##_load, obj##_attach, obj##_detach, obj##_destroy, needs, \
		    configure, obj##_describe,                                            \
	}

static int map_of(int fd, struct probe_map *m)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	m->fd = fd;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	m->cap = info.max_entries;
	return 0;
}

/* Maps slot by slot, stopping at the first error. */
static int maps_of(struct probe_maps *m, int n, const int *fds)
{
	int err = 0;

	for (int i = 0; i < n && !err; i++)
		err = map_of(fds[i], &m->map[i]);
	return err;
}

static int runq_describe(void *s, struct probe_maps *m)
{
	struct runq_enrich_lbpf *k = s;

	m->counter[RUNQ_CTR_MAP_FULL] = &k->bss->map_full;
	_Static_assert(RUNQ_MAP_THREADS == 0, "slot order");
	return maps_of(m, 1, (int[]){ k->maps.runq_threads.map_fd });
}

static int profile_describe(void *s, struct probe_maps *m)
{
	struct profile_enrich_lbpf *k = s;

	m->counter[PROFILE_CTR_SAMPLES] = &k->bss->samples;
	m->counter[PROFILE_CTR_STACK_ERRORS] = &k->bss->stack_errors;
	m->counter[PROFILE_CTR_MAP_FULL] = &k->bss->map_full;
	_Static_assert(PROFILE_MAP_COUNTS == 0 && PROFILE_MAP_STACKS == 1, "slot order");
	return maps_of(m, 2, (int[]){ k->maps.profile_counts.map_fd, k->maps.sp_stacks.map_fd });
}

static int syscalls_describe(void *s, struct probe_maps *m)
{
	struct syscalls_enrich_lbpf *k = s;

	m->counter[SC_CTR_ROWS_FULL] = &k->bss->pid_rows_full;
	_Static_assert(SC_MAP_PIDS == 0, "slot order");
	return maps_of(m, 1, (int[]){ k->maps.sc_pids.map_fd });
}

static int offcpu_describe(void *s, struct probe_maps *m)
{
	struct offcpu_enrich_lbpf *k = s;

	m->counter[OFFCPU_CTR_STACK_ERRORS] = &k->bss->stack_errors;
	m->counter[OFFCPU_CTR_MAP_FULL] = &k->bss->map_full;
	_Static_assert(OFFCPU_MAP_START == 0 && OFFCPU_MAP_TIME == 1 && OFFCPU_MAP_STACKS == 2,
		       "slot order");
	return maps_of(m, 3,
		       (int[]){ k->maps.offcpu_start.map_fd, k->maps.offcpu_time.map_fd,
				k->maps.sp_stacks.map_fd });
}

static int forks_describe(void *s, struct probe_maps *m)
{
	struct forks_enrich_lbpf *k = s;

	m->counter[FORKS_CTR_MAP_FULL] = &k->bss->map_full;
	_Static_assert(FORKS_MAP_BY_PARENT == 0, "slot order");
	return maps_of(m, 1, (int[]){ k->maps.forks_by_parent.map_fd });
}

/* Off-CPU: only D sleeps, kernel stacks only (what says why a task waits, at a small cost). */
static void offcpu_configure(void *s, bool on_demand)
{
	struct offcpu_enrich_lbpf *k = s;

	k->rodata->only_dstate = true;
	k->rodata->user_stacks = false;
}

/* Every process in its own rows; on demand, only those named (probe_enrich_light_watch). */
static void syscalls_configure(void *s, bool on_demand)
{
	struct syscalls_enrich_lbpf *k = s;

	k->rodata->per_pid = true;
	k->rodata->watch_only = on_demand;
}

LIGHT_OPS(runq)
LIGHT_OPS(profile)
LIGHT_OPS(syscalls)
LIGHT_OPS(offcpu)
LIGHT_OPS(forks)

/* By part bit: PROBE_ENRICH_RUNQ is 1 << 0 ... */
static const struct light_part light_parts[] = {
	LIGHT_PART(runq, 0, NULL),
	LIGHT_PART(profile, PROBE_NEED_STACK_TRACE | PROBE_NEED_PERF_EVENT, NULL),
	LIGHT_PART(syscalls, PROBE_NEED_TASK_STORAGE | PROBE_NEED_PERCPU_ARRAY, syscalls_configure),
	LIGHT_PART(offcpu, PROBE_NEED_STACK_TRACE, offcpu_configure),
	LIGHT_PART(forks, 0, NULL),
};

static const struct light_part *part_of(enum probe_enrich_part part)
{
	for (unsigned i = 0; i < sizeof(light_parts) / sizeof(light_parts[0]); i++)
		if (part == (enum probe_enrich_part)(1u << i))
			return &light_parts[i];
	return NULL;
}

static bool is_profile(const struct enrich_light *l)
{
	return l->def == &light_parts[1];
}

static bool is_syscalls(const struct enrich_light *l)
{
	return l->def == &light_parts[2];
}

static int attach(struct enrich_light *l, unsigned freq)
{
	int err;

	if (is_profile(l)) {
		struct profile_enrich_lbpf *k = l->skel;

		err = profile_events_attach(&l->ev, k->progs.profile_sample.prog_fd, freq);
	} else {
		err = l->def->attach(l->skel);
	}
	l->attached = !err;
	return err;
}

static int checks(const struct light_part *def, const char **stage)
{
	int err;

	*stage = "checking privileges";
	err = probe_check_privileges();
	if (!err) {
		*stage = "looking for kernel BTF";
		err = probe_check_btf();
	}
	return err ? err : probe_check_kernel(def->needs, stage);
}

int probe_enrich_light_start(enum probe_enrich_part part, unsigned freq, bool on_demand,
			     struct enrich_light **out, struct probe_maps *m, const char **stage)
{
	const struct light_part *def = part_of(part);
	struct enrich_light *l;
	int err;

	*out = NULL;
	if (!def)
		return -EINVAL;
	err = checks(def, stage);
	if (err)
		return err;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->def = def;
	*stage = "opening the BPF object";
	errno = 0;
	l->skel = def->open();
	err = l->skel ? 0 : errno ? -errno : -ENOMEM;
	on_demand = on_demand && is_syscalls(l);
	if (!err) {
		if (def->configure)
			def->configure(l->skel, on_demand);
		*stage = "loading the BPF programs (light skeleton)";
		err = def->load(l->skel);
	}
	if (!err && !on_demand) {
		*stage = "attaching the BPF programs";
		err = attach(l, freq);
	}
	*m = (struct probe_maps){ 0 };
	if (!err)
		err = def->describe(l->skel, m);
	if (err) {
		probe_enrich_light_free(l);
		return err < 0 ? err : -err;
	}
	*out = l;
	return 0;
}

int probe_enrich_light_watch(struct enrich_light *l, int pid)
{
	struct syscalls_enrich_lbpf *k;

	if (!l || !is_syscalls(l) || pid <= 0)
		return -EINVAL;
	k = l->skel;
	if (!k->rodata->watch_only)
		return 0; /* counting everyone already */
	if (l->detached)
		return -ESRCH;
	for (unsigned i = 0; i < l->nwatch; i++)
		if (k->bss->watch_tgid[i] == (__u32)pid)
			return 0;
	if (l->nwatch == SC_WATCH_MAX)
		return -ENOSPC;
	/* one aligned store: the programs see the list end at 0 or at this PID */
	__atomic_store_n(&k->bss->watch_tgid[l->nwatch++], (__u32)pid, __ATOMIC_RELEASE);
	return l->attached ? 0 : attach(l, 0);
}

void probe_enrich_light_detach(struct enrich_light *l)
{
	if (!l || l->detached)
		return;
	if (is_profile(l))
		profile_events_release(&l->ev);
	else
		l->def->detach(l->skel);
	l->detached = true;
}

void probe_enrich_light_free(struct enrich_light *l)
{
	if (!l)
		return;
	probe_enrich_light_detach(l);
	if (l->skel)
		l->def->destroy(l->skel);
	free(l);
}

#else /* !TRIAGE_HAVE_BPF */

int probe_enrich_light_start(enum probe_enrich_part part, unsigned freq, bool on_demand,
			     struct enrich_light **out, struct probe_maps *m, const char **stage)
{
	*out = NULL;
	*stage = "starting";
	return -ENOPKG;
}

int probe_enrich_light_watch(struct enrich_light *l, int pid)
{
	return -ENOPKG;
}

void probe_enrich_light_detach(struct enrich_light *l)
{
}

void probe_enrich_light_free(struct enrich_light *l)
{
}

#endif
