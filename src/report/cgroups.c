/*
 * Cgroups for the report: every cgroup with a CPU quota (v1 or v2) and
 * every memory cgroup with a limit or events, read at the window's start
 * and end. Paths are relative to the root, so fixture trees work.
 */
#include "report/cgroups.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/hostread.h"
#include "util/grow.h"

#define CG_MAX_DEPTH 6
#define CG_MAX_DIRS 1024

/* The mount points looked at, and what each one is. */
static const struct {
	const char *base;
	int version;
	bool cpu, mem, io;
} mounts[] = {
	{ "sys/fs/cgroup", 2, true, true, true },		/* unified (v2 only) */
	{ "sys/fs/cgroup/unified", 2, true, true, true },	/* hybrid: the v2 part */
	{ "sys/fs/cgroup/cpu,cpuacct", 1, true, false, false }, /* v1 */
	{ "sys/fs/cgroup/cpu", 1, true, false, false },
	{ "sys/fs/cgroup/memory", 1, false, true, false },
	{ "sys/fs/cgroup/blkio", 1, false, false, true },
};

/*
 * Cgroup files are read under a prefix: "" live, "stepN/" in a fixture
 * root, whose steps carry their own sys/fs/cgroup (docs/report.md).
 */
static int read_small(const struct procfs *pf, const char *dir, const char *file, char *buf,
		      size_t size)
{
	char path[700];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = procfs_read_root(pf, path, buf, size);
	return n < 0 ? (int)n : (int)n;
}

/* Whether a v1 or v2 cgroup has a CPU quota, and its size in CPUs. */
static bool cpu_quota(const struct procfs *pf, const char *dir, int version, double *cpus)
{
	char buf[128];
	int64_t quota;
	uint64_t period;
	int n;

	*cpus = 0;
	if (version == 2) {
		n = read_small(pf, dir, "cpu.max", buf, sizeof(buf));
		if (n <= 0 || procfs_cg_cpu_max_parse(buf, (size_t)n, &quota, &period) || quota < 0)
			return false;
	} else {
		n = read_small(pf, dir, "cpu.cfs_quota_us", buf, sizeof(buf));
		if (n <= 0 || buf[0] == '-')
			return false;
		quota = strtoll(buf, NULL, 10);
		n = read_small(pf, dir, "cpu.cfs_period_us", buf, sizeof(buf));
		period = n > 0 ? strtoull(buf, NULL, 10) : 0;
	}
	if (period)
		*cpus = (double)quota / (double)period;
	return true;
}

/*
 * The I/O a cgroup did on its limited device: v2 io.stat; v1 the
 * throttle's own counters, of the cgroup and its children where the kernel
 * keeps those (_recursive).
 */
static bool read_io_done(const struct procfs *pf, const char *dir, const struct cg_track *t,
			 struct cg_io_stat *io)
{
	unsigned ma = t->io_limit.major, mi = t->io_limit.minor;
	char buf[4096];
	int n;

	if (t->version == 2) {
		n = read_small(pf, dir, "io.stat", buf, sizeof(buf));
		return n >= 0 && !procfs_cg_io_stat_parse(buf, (size_t)n, ma, mi, io);
	}
	n = read_small(pf, dir, "blkio.throttle.io_service_bytes_recursive", buf, sizeof(buf));
	if (n < 0)
		n = read_small(pf, dir, "blkio.throttle.io_service_bytes", buf, sizeof(buf));
	if (n < 0 || procfs_cg_blkio_stat_parse(buf, (size_t)n, ma, mi, &io->rbytes, &io->wbytes))
		return false;
	n = read_small(pf, dir, "blkio.throttle.io_serviced_recursive", buf, sizeof(buf));
	if (n < 0)
		n = read_small(pf, dir, "blkio.throttle.io_serviced", buf, sizeof(buf));
	return n >= 0 && !procfs_cg_blkio_stat_parse(buf, (size_t)n, ma, mi, &io->rios, &io->wios);
}

/* v1: the four blkio.throttle files, the device the first limit names. */
static bool blkio_limited(const struct procfs *pf, const char *dir, struct cg_io_limit *l)
{
	static const char *const files[] = {
		"blkio.throttle.read_bps_device",
		"blkio.throttle.write_bps_device",
		"blkio.throttle.read_iops_device",
		"blkio.throttle.write_iops_device",
	};
	uint64_t *vals[] = { &l->rbps, &l->wbps, &l->riops, &l->wiops };
	char buf[1024];

	memset(l, 0, sizeof(*l));
	l->major = CG_ANY_DEVICE;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int n = read_small(pf, dir, files[i], buf, sizeof(buf));

		if (n > 0)
			(void)procfs_cg_blkio_limit_parse(buf, (size_t)n, &l->major, &l->minor,
							  vals[i]);
	}
	return l->major != CG_ANY_DEVICE;
}

/* Whether a cgroup limits I/O (v1 blkio.throttle.*, v2 io.max), and how. */
static bool io_limited(const struct procfs *pf, const char *dir, int version, struct cg_io_limit *l)
{
	char buf[1024];
	int n;

	if (version == 1)
		return blkio_limited(pf, dir, l);
	n = read_small(pf, dir, "io.max", buf, sizeof(buf));
	return n > 0 && !procfs_cg_io_max_parse(buf, (size_t)n, l);
}

/* The device's name from sys/dev/block/MAJ:MIN/uevent, else "MAJ:MIN". */
static void device_name(const struct procfs *pf, const struct cg_io_limit *l, char *out,
			size_t size)
{
	char path[64], buf[512];
	const char *p;
	ssize_t n;

	snprintf(out, size, "%u:%u", l->major, l->minor);
	snprintf(path, sizeof(path), "sys/dev/block/%u:%u/uevent", l->major, l->minor);
	n = procfs_read_root(pf, path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if ((p = strstr(buf, "DEVNAME=")))
		snprintf(out, size, "%.*s", (int)strcspn(p + 8, "\n"), p + 8);
}

/* Reads the counters of one tracked cgroup into v; false if unreadable. */
static bool read_counters(const struct procfs *pf, const char *prefix, const struct cg_track *t,
			  struct cg_values *v)
{
	char buf[1024], dir[600];
	int n;

	snprintf(dir, sizeof(dir), "%s%s", prefix, t->dir);

	memset(v, 0, sizeof(*v));
	if (t->cpu) {
		n = read_small(pf, dir, "cpu.stat", buf, sizeof(buf));
		if (n <= 0 || procfs_cg_cpu_stat_parse(buf, (size_t)n, &v->cpu))
			return false;
	}
	if (t->mem && t->version == 2) {
		n = read_small(pf, dir, "memory.events", buf, sizeof(buf));
		if (n <= 0 || procfs_cg_mem_events_parse(buf, (size_t)n, &v->mem))
			return false;
	} else if (t->mem) {
		n = read_small(pf, dir, "memory.failcnt", buf, sizeof(buf));
		if (n <= 0)
			return false;
		v->failcnt = strtoull(buf, NULL, 10);
		n = read_small(pf, dir, "memory.oom_control", buf, sizeof(buf));
		if (n > 0)
			(void)procfs_keyed_u64(buf, (size_t)n, "oom_kill", &v->mem.oom_kill);
	}
	return !t->io || read_io_done(pf, dir, t, &v->io);
}

/* A v1 memory cgroup is worth tracking when it has a limit below "unlimited". */
static bool v1_mem_limited(const struct procfs *pf, const char *dir)
{
	char buf[64];
	int n = read_small(pf, dir, "memory.limit_in_bytes", buf, sizeof(buf));

	return n > 0 && strtoull(buf, NULL, 10) < (1ull << 60);
}

struct scan_ctx {
	const struct procfs *pf;
	const char *prefix;
	struct cg_set *set;
	int version;
	bool cpu, mem, io;
	int rc;
};

/* What a cgroup has that makes it worth tracking. */
struct cg_found {
	bool cpu, mem, io;
	double cpus;
	struct cg_io_limit lim;
};

static void track(struct scan_ctx *c, const char *dir, const struct cg_found *w)
{
	struct cg_set *s = c->set;
	struct cg_track *t;

	if (util_grow(&s->t, &s->cap, s->n + 1, sizeof(*s->t))) {
		c->rc = -ENOMEM;
		return;
	}
	t = &s->t[s->n];
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", dir + strlen(c->prefix));
	t->version = c->version;
	t->cpu = w->cpu;
	t->mem = w->mem;
	t->quota_cpus = w->cpus;
	t->io = w->io;
	t->io_limit = w->lim;
	if (w->io)
		device_name(c->pf, &w->lim, t->io_device, sizeof(t->io_device));
	if (read_counters(c->pf, c->prefix, t, &t->start))
		s->n++;
}

static void visit(void *ctx, const char *dir)
{
	struct scan_ctx *c = ctx;
	struct cg_found w = { 0 };
	char buf[16];

	w.cpu = c->cpu && cpu_quota(c->pf, dir, c->version, &w.cpus);
	if (c->mem && c->version == 2)
		w.mem = read_small(c->pf, dir, "memory.events", buf, sizeof(buf)) > 0 &&
			strcmp(dir + strlen(c->prefix), "sys/fs/cgroup") &&
			strcmp(dir + strlen(c->prefix), "sys/fs/cgroup/unified");
	else if (c->mem)
		w.mem = v1_mem_limited(c->pf, dir);
	w.io = c->io && io_limited(c->pf, dir, c->version, &w.lim);
	if (w.cpu || w.mem || w.io)
		track(c, dir, &w);
}

int report_cg_scan_start(const struct procfs *pf, const char *prefix, struct cg_set *set,
			 bool *any_mount)
{
	*any_mount = false;
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		struct scan_ctx c = {
			pf,	      prefix, set, mounts[i].version, mounts[i].cpu, mounts[i].mem,
			mounts[i].io, 0,
		};
		char base[128], probe[160];

		snprintf(base, sizeof(base), "%s%s", prefix, mounts[i].base);
		/* a v2 hierarchy has cgroup.controllers at its top */
		if (mounts[i].version == 2) {
			snprintf(probe, sizeof(probe), "%s/cgroup.controllers", base);
			if (procfs_read_root(pf, probe, probe, 16) < 0)
				continue;
		}
		if (procfs_hostread_walk_dirs(pf, base, CG_MAX_DEPTH, CG_MAX_DIRS, visit, &c))
			continue;
		*any_mount = true;
		if (c.rc)
			return c.rc;
	}
	return 0;
}

void report_cg_scan_end(const struct procfs *pf, const char *prefix, struct cg_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		set->t[i].have_end = read_counters(pf, prefix, &set->t[i], &set->t[i].end);
}

void report_cg_set_release(struct cg_set *set)
{
	free(set->t);
	memset(set, 0, sizeof(*set));
}

/* The first PIDs of a cgroup's cgroup.procs (v1 and v2 both have it). */
static void read_pids(const struct procfs *pf, const char *prefix, const char *dir,
		      struct rp_cgroup *out)
{
	char buf[4096], full[600];
	char *p = buf, *end;
	int n;

	snprintf(full, sizeof(full), "%s%s", prefix, dir);
	n = read_small(pf, full, "cgroup.procs", buf, sizeof(buf));

	if (n <= 0)
		return;
	while (out->npids < RP_MAX_PIDS) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v > 0)
			out->pids[out->npids++] = (pid_t)v;
		p = end;
	}
}

/* The path as a cgroup name: the part below the controller's mount point. */
static const char *cgroup_name(const char *dir)
{
	for (size_t i = sizeof(mounts) / sizeof(mounts[0]); i-- > 0;) {
		size_t n = strlen(mounts[i].base);

		if (!strncmp(dir, mounts[i].base, n) && (dir[n] == '/' || !dir[n]))
			return dir[n] ? dir + n : "/";
	}
	return dir;
}

static void fill_cgroup(const struct procfs *pf, const char *prefix, const struct cg_track *t,
			struct rp_cgroup *g)
{
	const struct cg_values *a = &t->start, *b = &t->end;

	memset(g, 0, sizeof(*g));
	const char *name = cgroup_name(t->dir);
	size_t n = strnlen(name, sizeof(g->path) - 1);

	memcpy(g->path, name, n); /* a longer path is cut: it only names the cgroup */
	g->path[n] = '\0';
	g->version = t->version;
	g->has_cpu = t->cpu;
	g->quota_cpus = t->quota_cpus;
	g->periods = b->cpu.nr_periods - a->cpu.nr_periods;
	g->throttled = b->cpu.nr_throttled - a->cpu.nr_throttled;
	g->throttled_us = b->cpu.throttled_us - a->cpu.throttled_us;
	g->has_mem = t->mem;
	g->mem_high = b->mem.high - a->mem.high;
	g->mem_max = b->mem.max - a->mem.max;
	g->mem_oom = b->mem.oom - a->mem.oom;
	g->mem_oom_kill = b->mem.oom_kill - a->mem.oom_kill;
	g->failcnt = b->failcnt - a->failcnt;
	g->has_io = t->io;
	if (t->io) {
		const struct cg_io_limit *l = &t->io_limit;

		snprintf(g->io_limit.device, sizeof(g->io_limit.device), "%s", t->io_device);
		g->io_limit.major = l->major;
		g->io_limit.minor = l->minor;
		g->io_limit.rbps = l->rbps;
		g->io_limit.wbps = l->wbps;
		g->io_limit.riops = l->riops;
		g->io_limit.wiops = l->wiops;
		g->io_rbytes = b->io.rbytes - a->io.rbytes;
		g->io_wbytes = b->io.wbytes - a->io.wbytes;
		g->io_rios = b->io.rios - a->io.rios;
		g->io_wios = b->io.wios - a->io.wios;
	}
	read_pids(pf, prefix, t->dir, g);
}

static bool eventful(const struct rp_cgroup *g)
{
	return g->throttled || g->mem_high || g->mem_max || g->mem_oom || g->mem_oom_kill ||
	       g->failcnt || g->io_rbytes || g->io_wbytes;
}

size_t report_cg_results(const struct procfs *pf, const char *prefix, const struct cg_set *set,
			 struct rp_cgroup *out, size_t max)
{
	size_t n = 0;

	/* cgroups with events first, then quiet ones while room is left */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < set->n && n < max; i++) {
			struct rp_cgroup g;

			if (!set->t[i].have_end)
				continue;
			fill_cgroup(pf, prefix, &set->t[i], &g);
			if (eventful(&g) == (pass == 0))
				out[n++] = g;
		}
	}
	return n;
}
