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
	enum probe_enrich_part part;
	void *skel;
	struct profile_events ev; /* the profile's perf events */
	bool detached;
};

/*
 * A light skeleton's functions differ from the others' only in the name;
 * its detach leaves the link descriptors set, and destroy closes them
 * again, so they are cleared here after the first close.
 */
#define LIGHT_OPS(obj)                                                             \
	static void *obj##_open(void)                                              \
	{                                                                          \
		return obj##_enrich_lbpf__open();                                  \
	}                                                                          \
	static int obj##_load(void *s)                                             \
	{                                                                          \
		return obj##_enrich_lbpf__load(s);                                 \
	}                                                                          \
	static int obj##_attach(void *s)                                           \
	{                                                                          \
		return obj##_enrich_lbpf__attach(s);                               \
	}                                                                          \
	static void obj##_detach(void *s)                                          \
	{                                                                          \
		struct obj##_enrich_lbpf *k = s;                                   \
		obj##_enrich_lbpf__detach(k);                                      \
		memset(&k->links, 0, sizeof(k->links));                            \
	}                                                                          \
	static void obj##_destroy(void *s)                                         \
	{                                                                          \
		obj##_enrich_lbpf__destroy(s);                                     \
	}                                                                          \
	static const struct light_ops obj##_light = {                              \
		obj##_open, obj##_load, obj##_attach, obj##_detach, obj##_destroy, \
	}

struct light_ops {
	void *(*open)(void);
	int (*load)(void *skel);
	int (*attach)(void *skel);
	void (*detach)(void *skel);
	void (*destroy)(void *skel);
};

LIGHT_OPS(runq);
LIGHT_OPS(offcpu);
LIGHT_OPS(profile);
LIGHT_OPS(syscalls);
LIGHT_OPS(forks);

static const struct light_ops *ops_of(enum probe_enrich_part part)
{
	switch (part) {
	case PROBE_ENRICH_RUNQ:
		return &runq_light;
	case PROBE_ENRICH_PROFILE:
		return &profile_light;
	case PROBE_ENRICH_SYSCALLS:
		return &syscalls_light;
	case PROBE_ENRICH_DSTATE:
		return &offcpu_light;
	case PROBE_ENRICH_FORKS:
		return &forks_light;
	default:
		return NULL;
	}
}

/* The kernel features each part needs (PROBE_NEED_*), checked as the libbpf path does. */
static unsigned needs_of(enum probe_enrich_part part)
{
	switch (part) {
	case PROBE_ENRICH_PROFILE:
		return PROBE_NEED_STACK_TRACE | PROBE_NEED_PERF_EVENT;
	case PROBE_ENRICH_SYSCALLS:
		return PROBE_NEED_TASK_STORAGE | PROBE_NEED_PERCPU_ARRAY;
	case PROBE_ENRICH_DSTATE:
		return PROBE_NEED_STACK_TRACE;
	default:
		return 0;
	}
}

/* Off-CPU: only D sleeps, kernel stacks only (what says why a task waits, at a small cost). */
static void configure(struct enrich_light *l)
{
	if (l->part == PROBE_ENRICH_DSTATE) {
		struct offcpu_enrich_lbpf *k = l->skel;

		k->rodata->only_dstate = true;
		k->rodata->user_stacks = false;
	} else if (l->part == PROBE_ENRICH_SYSCALLS) {
		((struct syscalls_enrich_lbpf *)l->skel)->rodata->per_pid = true;
	}
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

static int describe(const struct enrich_light *l, struct probe_maps *m)
{
	int err = 0;

	*m = (struct probe_maps){ 0 };
	switch (l->part) {
	case PROBE_ENRICH_RUNQ: {
		struct runq_enrich_lbpf *k = l->skel;

		err = map_of(k->maps.runq_threads.map_fd, &m->map[RUNQ_MAP_THREADS]);
		m->counter[RUNQ_CTR_MAP_FULL] = &k->bss->map_full;
		break;
	}
	case PROBE_ENRICH_PROFILE: {
		struct profile_enrich_lbpf *k = l->skel;

		err = map_of(k->maps.profile_counts.map_fd, &m->map[PROFILE_MAP_COUNTS]);
		if (!err)
			err = map_of(k->maps.sp_stacks.map_fd, &m->map[PROFILE_MAP_STACKS]);
		m->counter[PROFILE_CTR_SAMPLES] = &k->bss->samples;
		m->counter[PROFILE_CTR_STACK_ERRORS] = &k->bss->stack_errors;
		m->counter[PROFILE_CTR_MAP_FULL] = &k->bss->map_full;
		break;
	}
	case PROBE_ENRICH_SYSCALLS: {
		struct syscalls_enrich_lbpf *k = l->skel;

		err = map_of(k->maps.sc_pids.map_fd, &m->map[SC_MAP_PIDS]);
		m->counter[SC_CTR_ROWS_FULL] = &k->bss->pid_rows_full;
		break;
	}
	case PROBE_ENRICH_DSTATE: {
		struct offcpu_enrich_lbpf *k = l->skel;

		err = map_of(k->maps.offcpu_start.map_fd, &m->map[OFFCPU_MAP_START]);
		if (!err)
			err = map_of(k->maps.offcpu_time.map_fd, &m->map[OFFCPU_MAP_TIME]);
		if (!err)
			err = map_of(k->maps.sp_stacks.map_fd, &m->map[OFFCPU_MAP_STACKS]);
		m->counter[OFFCPU_CTR_STACK_ERRORS] = &k->bss->stack_errors;
		m->counter[OFFCPU_CTR_MAP_FULL] = &k->bss->map_full;
		break;
	}
	case PROBE_ENRICH_FORKS: {
		struct forks_enrich_lbpf *k = l->skel;

		err = map_of(k->maps.forks_by_parent.map_fd, &m->map[FORKS_MAP_BY_PARENT]);
		m->counter[FORKS_CTR_MAP_FULL] = &k->bss->map_full;
		break;
	}
	default:
		err = -EINVAL;
	}
	return err;
}

static int attach(struct enrich_light *l, unsigned freq)
{
	if (l->part == PROBE_ENRICH_PROFILE) {
		struct profile_enrich_lbpf *k = l->skel;

		return profile_events_attach(&l->ev, k->progs.profile_sample.prog_fd, freq);
	}
	return ops_of(l->part)->attach(l->skel);
}

static int checks(enum probe_enrich_part part, const char **stage)
{
	int err;

	*stage = "checking privileges";
	err = probe_check_privileges();
	if (!err) {
		*stage = "looking for kernel BTF";
		err = probe_check_btf();
	}
	return err ? err : probe_check_kernel(needs_of(part), stage);
}

int probe_enrich_light_start(enum probe_enrich_part part, unsigned freq, struct enrich_light **out,
			     struct probe_maps *m, const char **stage)
{
	const struct light_ops *ops = ops_of(part);
	struct enrich_light *l;
	int err;

	*out = NULL;
	if (!ops)
		return -EINVAL;
	err = checks(part, stage);
	if (err)
		return err;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->part = part;
	*stage = "opening the BPF object";
	errno = 0;
	l->skel = ops->open();
	err = l->skel ? 0 : errno ? -errno : -ENOMEM;
	if (!err) {
		configure(l);
		*stage = "loading the BPF programs (light skeleton)";
		err = ops->load(l->skel);
	}
	if (!err) {
		*stage = "attaching the BPF programs";
		err = attach(l, freq);
	}
	if (!err)
		err = describe(l, m);
	if (err) {
		probe_enrich_light_free(l);
		return err < 0 ? err : -err;
	}
	*out = l;
	return 0;
}

void probe_enrich_light_detach(struct enrich_light *l)
{
	if (!l || l->detached)
		return;
	if (l->part == PROBE_ENRICH_PROFILE)
		profile_events_release(&l->ev);
	else
		ops_of(l->part)->detach(l->skel);
	l->detached = true;
}

void probe_enrich_light_free(struct enrich_light *l)
{
	if (!l)
		return;
	probe_enrich_light_detach(l);
	if (l->skel)
		ops_of(l->part)->destroy(l->skel);
	free(l);
}

#else /* !TRIAGE_HAVE_BPF */

int probe_enrich_light_start(enum probe_enrich_part part, unsigned freq, struct enrich_light **out,
			     struct probe_maps *m, const char **stage)
{
	*out = NULL;
	*stage = "starting";
	return -ENOPKG;
}

void probe_enrich_light_detach(struct enrich_light *l)
{
}

void probe_enrich_light_free(struct enrich_light *l)
{
}

#endif
