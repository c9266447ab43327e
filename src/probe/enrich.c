/*
 * System-wide eBPF enrichment of a report window; see enrich.h. Each part
 * is one of the probes' own skeletons started with no target (every task),
 * read with the readers those probes use for their reports.
 */
#include "probe/enrich.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/enrich_light.h"
#include "probe/forks.h"
#include "probe/hist.h"
#include "probe/offcpu.h"
#include "probe/profile.h"
#include "probe/runq.h"
#include "probe/session.h"
#include "probe/stackprobe.h"
#include "probe/syscalls.h"
#include "procfs/procfs.h"
#include "runloop/clock.h"

#if TRIAGE_HAVE_BPF
#include <linux/types.h>

#include "bpf/stackprobes.h"
#endif

#define ENRICH_DEFAULT_HZ 49
/*
 * Stacks kept by the profile and D-state parts: their maps are preallocated
 * at load, and at SP_MAX_STACKS (16,384 of 127 frames, 16 MB a map) the
 * allocation was a fifth of the report's eBPF cost. A quarter of that
 * still holds the few hundred distinct stacks of a window of seconds, with
 * few hash collisions (a stack that does not fit is counted without frames).
 * The light skeletons have the same size built in (src/bpf/stackprobes.h).
 */
#define ENRICH_MAX_STACKS 4096
#if TRIAGE_HAVE_BPF
_Static_assert(ENRICH_MAX_STACKS == SP_ENRICH_MAX_STACKS, "both loaders keep as many stacks");
_Static_assert(PROBE_ENRICH_FRAMES <= SP_ENRICH_DSTATE_FRAMES, "D stacks as deep as shown");
#endif

enum { PART_RUNQ, PART_PROFILE, PART_SYSCALLS, PART_DSTATE, PART_FORKS, PART_COUNT };

struct enrich_part {
	bool requested;
	int err; /* 0: running or ran; else why not */
	const char *stage;
	struct enrich_light *light;   /* loaded by the kernel's loader, or NULL */
	void *skel;		      /* else libbpf's skeleton of the probe */
	const struct sp_probe *probe; /* NULL for syscalls (its own start/stop) */
	struct probe_maps maps;	      /* what the readers use, from either */
	int64_t start_ns;	      /* CPU time part_start() took (this thread's) */
};

/* A process whose syscalls are counted on demand, and since when (ns after start). */
struct enrich_watch {
	int pid;
	int64_t since_ns;
};

struct probe_enrich {
	struct enrich_part part[PART_COUNT];
	struct sp_opts opts; /* every task; stack and rate settings */
	bool libbpf_only;
	bool on_demand; /* the syscalls part counts the watched alone */
	struct enrich_watch watch[PROBE_ENRICH_WATCH_MAX];
	size_t nwatch;
	struct procfs *pf;
	struct sp_symbolizer syms; /* opened on the first symbolized query */
	bool syms_ready;
	int64_t start_ns, stop_ns;
	bool stopped;
};

static int part_index(enum probe_enrich_part part)
{
	switch (part) {
	case PROBE_ENRICH_RUNQ:
		return PART_RUNQ;
	case PROBE_ENRICH_PROFILE:
		return PART_PROFILE;
	case PROBE_ENRICH_SYSCALLS:
		return PART_SYSCALLS;
	case PROBE_ENRICH_DSTATE:
		return PART_DSTATE;
	case PROBE_ENRICH_FORKS:
		return PART_FORKS;
	default:
		return -1;
	}
}

static void part_maps(struct enrich_part *p, int i)
{
	switch (i) {
	case PART_RUNQ:
		runq_maps(p->skel, &p->maps);
		break;
	case PART_PROFILE:
		profile_maps(p->skel, &p->maps);
		break;
	case PART_SYSCALLS:
		sc_probe_maps(p->skel, &p->maps);
		break;
	case PART_DSTATE:
		offcpu_maps(p->skel, &p->maps);
		break;
	default:
		probe_forks_maps(p->skel, &p->maps);
	}
}

/* Through libbpf's skeleton of the probe: what `triage probe` loads. */
static void part_start_libbpf(struct probe_enrich *e, int i)
{
	struct enrich_part *p = &e->part[i];
	struct sp_opts o = e->opts;

	if (i == PART_SYSCALLS) {
		p->err = sc_probe_start(&o.base.target, 0, &p->skel, &p->stage);
	} else if (i == PART_FORKS) {
		p->err = probe_forks_start(&p->skel, &p->stage);
	} else if (!p->probe->ops) {
		p->stage = "starting";
		p->err = -ENOPKG;
	} else {
		if (i == PART_DSTATE) {
			/* Only D sleeps, kernel stacks only: what says why a task waits, cheaply.
			 */
			o.only_dstate = true;
			o.user_stacks = false;
		}
		p->err = probe_start(p->probe->ops, p->probe->needs, &o, &p->skel, &p->stage);
	}
	if (!p->err)
		part_maps(p, i);
}

/*
 * The light skeleton first (no user-space BTF); libbpf's loader when the
 * kernel refuses it, unless the refusal is one libbpf would meet too
 * (privileges, BTF, a missing feature: the checks before any load).
 */
static void part_start(struct probe_enrich *e, int i)
{
	struct enrich_part *p = &e->part[i];
	const char *stage = NULL;
	int err;

	if (e->libbpf_only) {
		part_start_libbpf(e, i);
		return;
	}
	err = probe_enrich_light_start((enum probe_enrich_part)(1u << i), e->opts.freq,
				       i == PART_SYSCALLS && e->on_demand, &p->light, &p->maps,
				       &stage);

	p->err = err;
	p->stage = stage;
	if (!err || err == -EPERM || err == -EACCES || err == -ENOPKG)
		return;
	if (stage && strncmp(stage, "loading", 7) && strncmp(stage, "opening", 7))
		return;
	part_start_libbpf(e, i);
}

static void part_detach(struct enrich_part *p, int i)
{
	probe_enrich_light_detach(p->light);
	if (!p->skel)
		return;
	if (i == PART_SYSCALLS)
		sc_probe_detach(p->skel);
	else if (i == PART_FORKS)
		probe_forks_detach(p->skel);
	else
		probe_skel_detach(p->probe->ops, p->skel);
}

static void part_destroy(struct enrich_part *p, int i)
{
	probe_enrich_light_free(p->light);
	p->light = NULL;
	if (!p->skel)
		return;
	if (i == PART_SYSCALLS)
		sc_probe_stop(&p->skel);
	else if (i == PART_FORKS)
		probe_forks_stop(&p->skel);
	else
		probe_skel_stop(p->probe->ops, &p->skel);
}

/* The kernel's work for our bpf() calls is charged to this thread too. */
static int64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#if TRIAGE_HAVE_BPF
/*
 * The frames of the stack maps of the parts that ran, after stop: every
 * kernel address the readers will ask to name. *n stays 0 when there are
 * none; -errno when a map cannot be read.
 */
static int stack_addrs(const struct probe_enrich *e, uint64_t **addrs, size_t *n)
{
	static const int stacks[][2] = { { PART_PROFILE, PROFILE_MAP_STACKS },
					 { PART_DSTATE, OFFCPU_MAP_STACKS } };
	size_t cap = 0;
	int err = 0;

	*addrs = NULL;
	*n = 0;
	for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]) && !err; i++) {
		const struct enrich_part *p = &e->part[stacks[i][0]];

		if (!p->err)
			err = sp_stack_addrs(p->maps.map[stacks[i][1]].fd, addrs, n, &cap);
	}
	return err;
}
#else
static int stack_addrs(const struct probe_enrich *e, uint64_t **addrs, size_t *n)
{
	*addrs = NULL;
	*n = 0;
	return -ENOPKG;
}
#endif

/*
 * On the first symbolized query (the maps are final by then: the window
 * stopped): kallsyms is read for the addresses in the stack maps alone, a
 * few hundred, not parsed, stored and sorted whole (120,000 symbols, most
 * of the report's eBPF cost in user space when it had a CPU finding).
 */
static struct sp_symbolizer *symbolizer(struct probe_enrich *e)
{
	uint64_t *addrs;
	size_t n;

	if (e->syms_ready)
		return &e->syms;
	if (stack_addrs(e, &addrs, &n))
		sp_symbolizer_init(&e->syms, e->pf); /* every symbol, as `triage probe` */
	else
		sp_symbolizer_init_for(&e->syms, e->pf, addrs, n);
	free(addrs);
	e->syms_ready = true;
	return &e->syms;
}

int probe_enrich_start(const struct probe_enrich_opts *opts, struct probe_enrich **out)
{
	static const struct sp_probe *const probes[PART_COUNT] = {
		[PART_RUNQ] = &runq_probe,
		[PART_PROFILE] = &profile_probe,
		[PART_DSTATE] = &offcpu_probe,
	};
	unsigned parts = opts && opts->parts ? opts->parts : PROBE_ENRICH_ALL;
	struct probe_enrich *e = calloc(1, sizeof(*e));
	int first_err = 0, running = 0, err;

	*out = NULL;
	if (!e)
		return -ENOMEM;
	sp_opts_init(&e->opts);
	e->opts.freq = opts && opts->freq_hz ? opts->freq_hz : ENRICH_DEFAULT_HZ;
	e->opts.max_stacks = ENRICH_MAX_STACKS;
	e->libbpf_only = opts && opts->libbpf_only;
	e->on_demand = opts && opts->syscalls_on_demand && !e->libbpf_only;
	err = procfs_open(&e->pf, NULL);
	if (err) {
		free(e);
		return err;
	}
	probe_libbpf_quiet(opts && opts->verbose);
	for (int i = 0; i < PART_COUNT; i++) {
		struct enrich_part *p = &e->part[i];

		p->probe = probes[i];
		p->requested = parts & (1u << i);
		p->err = -ENOENT;
		p->stage = "not requested";
		if (!p->requested)
			continue;
		p->start_ns = thread_cpu_ns();
		part_start(e, i);
		p->start_ns = thread_cpu_ns() - p->start_ns;
		if (!p->err)
			running++;
		else if (!first_err)
			first_err = p->err;
	}
	if (!running) {
		probe_enrich_free(e);
		return first_err ? first_err : -EINVAL;
	}
	/*
	 * kallsyms waits for the first symbolized query (and reads only the
	 * symbols the stacks hold): a report without a CPU or D-state finding
	 * never asks for it.
	 */
	e->start_ns = runloop_mono_ns();
	/* libbpf's fallback counts every process: nothing to watch */
	if (e->part[PART_SYSCALLS].skel)
		e->on_demand = false;
	*out = e;
	return 0;
}

int probe_enrich_syscalls_watch(struct probe_enrich *e, int pid)
{
	struct enrich_part *p = &e->part[PART_SYSCALLS];
	int err;

	if (p->err)
		return p->err;
	if (e->stopped)
		return -EBUSY;
	if (!e->on_demand)
		return 0;
	for (size_t i = 0; i < e->nwatch; i++)
		if (e->watch[i].pid == pid)
			return 0;
	if (e->nwatch == PROBE_ENRICH_WATCH_MAX)
		return -ENOSPC;
	err = probe_enrich_light_watch(p->light, pid);
	if (err)
		return err;
	e->watch[e->nwatch++] = (struct enrich_watch){ pid, runloop_mono_ns() - e->start_ns };
	return 0;
}

double probe_enrich_syscalls_since(const struct probe_enrich *e, int pid)
{
	if (!e->on_demand)
		return 0;
	for (size_t i = 0; i < e->nwatch; i++)
		if (e->watch[i].pid == pid)
			return e->watch[i].since_ns > 0 ? (double)e->watch[i].since_ns / 1e9 : 0;
	return -1;
}

size_t probe_enrich_syscalls_watched(const struct probe_enrich *e, int *pids, double *since,
				     size_t max)
{
	for (size_t i = 0; i < e->nwatch && i < max; i++) {
		if (pids)
			pids[i] = e->watch[i].pid;
		if (since)
			since[i] = (double)e->watch[i].since_ns / 1e9;
	}
	return e->nwatch;
}

bool probe_enrich_syscalls_on_demand(const struct probe_enrich *e)
{
	return e->on_demand && !e->part[PART_SYSCALLS].err;
}

int probe_enrich_stop(struct probe_enrich *e)
{
	if (!e)
		return -EINVAL;
	if (e->stopped)
		return 0;
	for (int i = 0; i < PART_COUNT; i++)
		part_detach(&e->part[i], i);
	e->stop_ns = runloop_mono_ns();
	e->stopped = true;
	if (!e->part[PART_DSTATE].err)
		offcpu_flush_pending(&e->part[PART_DSTATE].maps, e->pf, e->stop_ns);
	return 0;
}

void probe_enrich_free(struct probe_enrich *e)
{
	if (!e)
		return;
	for (int i = 0; i < PART_COUNT; i++)
		part_destroy(&e->part[i], i);
	if (e->syms_ready)
		sp_symbolizer_release(&e->syms);
	procfs_close(e->pf);
	free(e);
}

int probe_enrich_part_status(const struct probe_enrich *e, enum probe_enrich_part part,
			     const char **stage)
{
	int i = part_index(part);

	if (stage)
		*stage = i < 0 ? "no such part" : e->part[i].stage;
	return i < 0 ? -EINVAL : e->part[i].err;
}

const char *probe_enrich_part_loader(const struct probe_enrich *e, enum probe_enrich_part part,
				     double *start_ms)
{
	int i = part_index(part);

	if (i < 0 || e->part[i].err)
		return NULL;
	if (start_ms)
		*start_ms = (double)e->part[i].start_ns / 1e6;
	return e->part[i].light ? "light skeleton" : "libbpf skeleton";
}

double probe_enrich_seconds(const struct probe_enrich *e)
{
	int64_t end = e->stopped ? e->stop_ns : runloop_mono_ns();

	return (double)(end - e->start_ns) / 1e9;
}

/* The maps of a part that ran, after stop; NULL with *err otherwise. */
static const struct probe_maps *ready_part(const struct probe_enrich *e, int i, int *err)
{
	*err = !e->stopped ? -EBUSY : e->part[i].err;
	return *err ? NULL : &e->part[i].maps;
}

/* The upper bound in ns of the slot holding the q-th quantile, at most max_ns. */
static uint64_t slot_quantile(const uint64_t *slots, unsigned n, uint64_t count, double q,
			      uint64_t max_ns)
{
	uint64_t rank = (uint64_t)(q * (double)count), seen = 0, lo, hi;

	for (unsigned i = 0; i < n; i++) {
		seen += slots[i];
		if (seen > rank || (seen == count && slots[i])) {
			hist_slot_range(i, &lo, &hi);
			return hi * 1000 < max_ns ? hi * 1000 : max_ns;
		}
	}
	return max_ns;
}

int probe_enrich_runq(const struct probe_enrich *e, int pid, struct probe_enrich_runq *out)
{
	struct runq_sum sum;
	int err;
	const struct probe_maps *maps = ready_part(e, PART_RUNQ, &err);

	memset(out, 0, sizeof(*out));
	if (!maps)
		return err;
	err = runq_read_sum(maps, pid, &sum);
	if (err)
		return err;
	_Static_assert(PROBE_ENRICH_HIST_SLOTS == RUNQ_SUM_SLOTS, "one histogram layout");
	memcpy(out->slots, sum.slots, sizeof(out->slots));
	out->count = sum.count;
	out->total_ns = sum.total_ns;
	out->max_ns = sum.max_ns;
	out->lost = sum.lost;
	if (sum.count) {
		out->p50_ns = slot_quantile(sum.slots, RUNQ_SUM_SLOTS, sum.count, 0.50, sum.max_ns);
		out->p99_ns = slot_quantile(sum.slots, RUNQ_SUM_SLOTS, sum.count, 0.99, sum.max_ns);
	}
	return 0;
}

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int probe_enrich_top_functions(struct probe_enrich *e, int pid, struct probe_enrich_func *out,
			       size_t max, size_t *n, struct probe_enrich_profile *sum)
{
	struct profile_result r;
	int err;
	const struct probe_maps *maps = ready_part(e, PART_PROFILE, &err);

	*n = 0;
	if (sum)
		memset(sum, 0, sizeof(*sum));
	if (!maps)
		return err;
	if (pid <= 0)
		return -EINVAL;
	err = profile_read_functions(maps, symbolizer(e), pid, &r);
	if (err)
		return err;
	for (size_t i = 0; i < r.nf && *n < max; i++) {
		struct probe_enrich_func *f = &out[(*n)++];

		copy_str(f->name, sizeof(f->name), r.f[i].name);
		copy_str(f->module, sizeof(f->module),
			 r.f[i].module	 ? r.f[i].module
			 : r.f[i].kernel ? "kernel"
					 : "");
		f->kernel = r.f[i].kernel;
		f->samples = r.f[i].samples;
	}
	if (sum) {
		for (size_t i = 0; i < r.n; i++)
			sum->samples += r.e[i].value;
		sum->all_samples = r.samples;
		sum->freq_hz = e->opts.freq;
	}
	profile_result_release(&r);
	return 0;
}

static int cmp_syscalls(const void *a, const void *b)
{
	const struct probe_enrich_syscall *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

int probe_enrich_top_syscalls(const struct probe_enrich *e, int pid,
			      struct probe_enrich_syscall *out, size_t max, size_t *n)
{
	struct probe_enrich_syscall *all;
	struct sc_pid_row *rows;
	size_t nrows, m = 0;
	int err;
	const struct probe_maps *maps = ready_part(e, PART_SYSCALLS, &err);

	*n = 0;
	if (!maps)
		return err;
	err = sc_read_pid_rows(maps, false, &rows, &nrows);
	all = calloc(nrows ? nrows : 1, sizeof(*all));
	if (err || !all) {
		free(rows);
		free(all);
		return err ? err : -ENOMEM;
	}
	for (size_t i = 0; i < nrows; i++) {
		if (rows[i].pid != (uint32_t)pid)
			continue;
		char buf[PROBE_ENRICH_SYSCALL_NAME_LEN];

		copy_str(all[m].name, sizeof(all[m].name),
			 sc_row_name(rows[i].nr, buf, sizeof(buf)));
		all[m].nr = rows[i].nr;
		all[m].count = rows[i].count;
		all[m].errors = rows[i].errors;
		all[m].total_ns = rows[i].total_ns;
		m++;
	}
	qsort(all, m, sizeof(*all), cmp_syscalls);
	*n = m < max ? m : max;
	memcpy(out, all, *n * sizeof(*out));
	free(all);
	free(rows);
	return 0;
}

/* One thread's first (largest) stack: its kernel frames as "name+0xoff". */
static void dwait_frames(struct probe_enrich_dwait *d, const struct stack_entry *s)
{
	for (size_t k = 0; k < s->nk && d->nframes < PROBE_ENRICH_FRAMES; k++)
		stack_frame_format(&s->kframes[k], d->frames[d->nframes++], sizeof(d->frames[0]));
}

static struct probe_enrich_dwait *find_dwait(struct probe_enrich_dwait *out, size_t n, int tid)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].tid == tid)
			return &out[i];
	return NULL;
}

static int cmp_dwait(const void *a, const void *b)
{
	const struct probe_enrich_dwait *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int probe_enrich_dstate(const struct probe_enrich *e, int pid, struct probe_enrich_dwait *out,
			size_t max, size_t *n)
{
	struct probe_enrich *me = (struct probe_enrich *)e; /* the symbolizer cache only */
	struct offcpu_result r;
	int err;
	const struct probe_maps *maps = ready_part(e, PART_DSTATE, &err);

	*n = 0;
	if (!maps)
		return err;
	/* Every entry symbolized: entries are few, D sleeps only, kernel stacks only. */
	err = offcpu_read(maps, symbolizer(me), SIZE_MAX, &r);
	if (err)
		return err;
	/* Sorted by time: a thread's first entry carries its main stack. */
	for (size_t i = 0; i < r.n && max; i++) {
		const struct stack_entry *s = &r.e[i];
		struct probe_enrich_dwait *d;

		if (pid > 0 && s->pid != (uint32_t)pid)
			continue;
		d = find_dwait(out, *n, (int)s->tid);
		if (!d) {
			if (*n == max)
				continue;
			d = &out[(*n)++];
			memset(d, 0, sizeof(*d));
			d->pid = (int)s->pid;
			d->tid = (int)s->tid;
			copy_str(d->comm, sizeof(d->comm), s->comm);
			d->still_blocked = offcpu_still_off(maps, s->tid);
			dwait_frames(d, s);
		}
		d->total_ns += s->value;
		d->count += s->count;
	}
	qsort(out, *n, sizeof(*out), cmp_dwait);
	offcpu_result_release(&r);
	return 0;
}

int probe_enrich_top_forkers(const struct probe_enrich *e, struct probe_enrich_forker *out,
			     size_t max, size_t *n)
{
	struct forks_parent top[16];
	int err;
	const struct probe_maps *maps = ready_part(e, PART_FORKS, &err);

	*n = 0;
	if (!maps)
		return err;
	if (max > sizeof(top) / sizeof(top[0]))
		max = sizeof(top) / sizeof(top[0]);
	err = probe_forks_read_top(maps, top, max, n);
	for (size_t i = 0; !err && i < *n; i++) {
		out[i].pid = top[i].pid;
		out[i].forks = top[i].forks;
		copy_str(out[i].comm, sizeof(out[i].comm), top[i].comm);
	}
	return err;
}
