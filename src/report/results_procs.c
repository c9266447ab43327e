/*
 * The window's results for the process kinds that need more than the task
 * samples' own figures: memory-growth (the tightest memory limit of each
 * growing process), pid-exhaustion (the host's task caps, pids cgroups)
 * and process-churn (the parents of short-lived processes).
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/enrich.h"
#include "procfs/hostread.h"
#include "procfs/limits.h"
#include "procfs/memlimit.h"
#include "report/collect.h"
#include "report/thresholds.h"

#define PIDCG_MAX_DEPTH 6
#define PIDCG_MAX_DIRS 1024

/* ---- memory-growth ---- */

/* The tightest limit ahead of g: its memory cgroup's (live), else MemAvailable. */
static void grower_limit(const struct window *w, const struct report_data *d, struct rp_grower *g)
{
	struct mem_cg_limit m;
	uint64_t avail = d->have_mem && d->mem.has_available ? d->mem.available * 1024 : 0;

	g->limit = RP_LIMIT_NONE;
	if (w->pf && !(w->src->lacks & REPORT_LACKS_CGROUPS) &&
	    !procfs_memlimit_read(w->pf, w->cg_prefix, g->pid, &m) && m.limited &&
	    (!avail || m.limit - (m.usage < m.limit ? m.usage : m.limit) < avail)) {
		g->limit = RP_LIMIT_CGROUP;
		g->limit_bytes = m.limit;
		g->room_bytes = m.limit > m.usage ? m.limit - m.usage : 0;
		snprintf(g->cgroup, sizeof(g->cgroup), "%s", m.cgroup);
		return;
	}
	if (avail) {
		g->limit = RP_LIMIT_AVAILABLE;
		g->limit_bytes = g->room_bytes = avail;
	}
}

static int by_rate(const void *a, const void *b)
{
	const struct rp_grower *x = a, *y = b;

	if (x->rate_kb_s != y->rate_kb_s)
		return x->rate_kb_s < y->rate_kb_s ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * The processes sampled through the whole window whose anonymous memory
 * (RSS where not known) rose, fastest first (the rule judges them), each
 * with its tightest limit. The rate is over the time between the first and
 * last task samples, when it was read (not the host counters' window,
 * which starts before the first).
 */
void report_growth_results(const struct window *w, double seconds, struct report_data *d)
{
	struct rp_grower all[RP_MAX_GROWERS * 4];
	size_t n = 0;

	for (size_t i = 0; i < d->nprocs && seconds > 0; i++) {
		const struct rp_proc *p = &d->procs[i];
		struct rp_grower *g;

		if (p->exited || !p->from_start || p->mem_kb <= p->mem0_kb || !p->mem_grew)
			continue;
		if (n == sizeof(all) / sizeof(all[0])) {
			qsort(all, n, sizeof(all[0]), by_rate);
			n = RP_MAX_GROWERS;
		}
		g = &all[n++];
		memset(g, 0, sizeof(*g));
		g->pid = p->pid;
		snprintf(g->comm, sizeof(g->comm), "%s", p->comm);
		g->mem0_kb = p->mem0_kb;
		g->mem_kb = p->mem_kb;
		g->rss_kb = p->rss_kb;
		g->anon = p->mem_anon;
		g->grew = p->mem_grew;
		g->steps = p->mem_steps;
		g->seconds = p->mem_span_s > 0 ? p->mem_span_s : seconds;
		g->rate_kb_s = (double)(p->mem_kb - p->mem0_kb) / g->seconds;
	}
	qsort(all, n, sizeof(all[0]), by_rate);
	for (size_t i = 0; i < n && i < RP_MAX_GROWERS; i++) {
		d->growers[d->ngrowers] = all[i];
		grower_limit(w, d, &d->growers[d->ngrowers++]);
	}
}

/* ---- pid-exhaustion ---- */

struct pidcg_scan {
	const struct procfs *pf;
	const char *base; /* the hierarchy's mount, with the prefix */
	int version;
	struct rp_pidcg *out;
	size_t *n;
};

static double pidcg_share(const struct rp_pidcg *c)
{
	return c->max ? (double)c->current / (double)c->max : 0;
}

/* The first PIDs of a cgroup's cgroup.procs. */
static void pidcg_procs(const struct procfs *pf, const char *dir, struct rp_pidcg *c)
{
	char path[600], buf[4096], *p = buf, *end;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	n = procfs_read_root(pf, path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	while (c->npids < RP_MAX_PIDS) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v > 0)
			c->pids[c->npids++] = (pid_t)v;
		p = end;
	}
}

/* Keeps the cgroup at dir when it has a pids.max, the fullest RP_MAX_PIDCGS of them. */
static void pidcg_visit(void *ctx, const char *dir)
{
	struct pidcg_scan *s = ctx;
	struct rp_pidcg c = { .version = s->version };
	struct cg_pids v;
	char path[600], buf[256];
	ssize_t n;
	size_t k, base = strlen(s->base);

	if (procfs_limits_read_cg_pids(s->pf, dir, &v) || v.max == LIMIT_NONE || !v.max)
		return;
	c.current = v.current;
	c.max = v.max;
	snprintf(c.path, sizeof(c.path), "%s", dir[base] ? dir + base : "/");
	snprintf(path, sizeof(path), "%s/pids.events", dir);
	n = procfs_read_root(s->pf, path, buf, sizeof(buf));
	c.has_refused = n > 0 && !procfs_keyed_u64(buf, (size_t)n, "max", &c.refused);
	k = *s->n;
	if (k == RP_MAX_PIDCGS) { /* full: replace the emptiest when this one is fuller */
		k = 0;
		for (size_t i = 1; i < RP_MAX_PIDCGS; i++)
			if (pidcg_share(&s->out[i]) < pidcg_share(&s->out[k]))
				k = i;
		if (pidcg_share(&s->out[k]) >= pidcg_share(&c))
			return;
	} else {
		++*s->n;
	}
	pidcg_procs(s->pf, dir, &c);
	s->out[k] = c;
}

/* Every pids cgroup with a limit (v1 pids controller, v2), at the window's end. */
static void pidcg_results(const struct window *w, struct report_data *d)
{
	static const struct {
		const char *base;
		int version;
	} roots[] = { { "sys/fs/cgroup/pids", 1 },
		      { "sys/fs/cgroup", 2 },
		      { "sys/fs/cgroup/unified", 2 } };
	char base[160], probe[200];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		struct pidcg_scan s = { w->pf, base, roots[i].version, d->pidcgs, &d->npidcgs };

		snprintf(base, sizeof(base), "%s%s", w->cg_prefix, roots[i].base);
		snprintf(probe, sizeof(probe), "%s/cgroup.controllers", base);
		/* a v2 hierarchy has cgroup.controllers at its top; v1 pids has none */
		if ((roots[i].version == 2) != (procfs_read_root(w->pf, probe, probe, 16) >= 0))
			continue;
		(void)procfs_hostread_walk_dirs(w->pf, base, PIDCG_MAX_DEPTH, PIDCG_MAX_DIRS,
						pidcg_visit, &s);
	}
}

void report_pids_results(const struct window *w, struct report_data *d)
{
	const struct report_host_snap *h = &w->h[1];

	d->have_task_caps = h->have_caps && w->have_load;
	if (d->have_task_caps) {
		d->tasks = w->load.total;
		d->pid_max = h->caps.pid_max;
		d->threads_max = h->caps.threads_max;
	} else if (!(w->src->lacks & REPORT_LACKS_PIDS)) {
		report_skip(d, "pids", "/proc/sys/kernel/pid_max or threads-max could not be read");
	}
	if (w->pf && !(w->src->lacks & REPORT_LACKS_CGROUPS))
		pidcg_results(w, d);
}

/* ---- process-churn ---- */

static struct rp_spawner *spawner_of(struct rp_spawner *all, size_t *n, pid_t ppid)
{
	for (size_t k = 0; k < *n; k++)
		if (all[k].pid == ppid)
			return &all[k];
	all[*n] = (struct rp_spawner){ .pid = ppid };
	return &all[(*n)++];
}

static int by_spawning(const void *a, const void *b)
{
	const struct rp_spawner *x = a, *y = b;

	if (x->child_pct != y->child_pct)
		return x->child_pct < y->child_pct ? 1 : -1;
	if (x->seen != y->seen)
		return x->seen < y->seen ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * Task time (user + system: irq, softirq and steal are no task's) that no
 * sampled process's own time accounts for, % of one CPU.
 */
static double unsampled(const struct report_data *d)
{
	double busy = (d->all.usr + d->all.sys) * d->ncpu, sampled = 0;

	for (size_t i = 0; i < d->nprocs; i++)
		sampled += d->procs[i].usr_pct + d->procs[i].sys_pct;
	return busy > sampled ? busy - sampled : 0;
}

/* comm of a sampled process, or "" */
static void comm_of(const struct report_data *d, pid_t pid, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t k = 0; k < d->nprocs; k++)
		if (d->procs[k].pid == pid) {
			snprintf(buf, size, "%s", d->procs[k].comm);
			return;
		}
}

/* With eBPF: the parents that forked most during the window (sched_process_fork). */
static bool bpf_spawners(struct report_data *d)
{
	struct probe_enrich_forker top[RP_MAX_SPAWNERS];
	size_t n = 0;

	if (!d->bpf || probe_enrich_top_forkers(d->bpf, top, RP_MAX_SPAWNERS, &n) || !n)
		return false;
	for (size_t i = 0; i < n; i++) {
		struct rp_spawner *s = &d->spawners[d->nspawners++];

		memset(s, 0, sizeof(*s));
		s->pid = top[i].pid;
		s->forks_s = (double)top[i].forks / d->seconds;
		comm_of(d, s->pid, s->comm, sizeof(s->comm));
		if (!s->comm[0])
			snprintf(s->comm, sizeof(s->comm), "%s", top[i].comm);
	}
	return true;
}

/*
 * The CPU of the children a process reaped in the window, as a spawner's:
 * none for PID 1, which reaps every orphan of the machine (a daemon's whole
 * life of CPU when it exits) without having forked it.
 */
static double reaped_spawned_pct(const struct rp_proc *p)
{
	return p->pid == 1 ? 0 : p->child_pct;
}

static int by_pid_of(const void *x, const void *y, void *arg)
{
	const struct rp_proc *procs = arg;
	pid_t a = procs[*(const size_t *)x].pid, b = procs[*(const size_t *)y].pid;

	return (a > b) - (a < b);
}

/* The index in d->procs of pid, through order[] (d->procs' indexes by pid); -1: none. */
static ssize_t proc_index(const struct report_data *d, const size_t *order, pid_t pid)
{
	size_t lo = 0, hi = d->nprocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		pid_t m = d->procs[order[mid]].pid;

		if (m == pid)
			return (ssize_t)order[mid];
		if (m < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * The whole life of each exited process, at least: its own CPU and the
 * more of what it had reaped at its last sample and the lives of its exited
 * children. A script sampled just before it reaped its last job and exited
 * took that job's life to its parent though its sample did not show it.
 * Each pass adds a generation; a tree deeper than the passes keeps the
 * lower bound. Fills life[] and, for the exited, parent[] (the parent's
 * index, -1 when not sampled), both in d->procs' order.
 */
static int exited_lives(const struct report_data *d, double *life, ssize_t *parent)
{
	size_t n = d->nprocs, *order;
	double *sum;
	int rc = 0;

	order = calloc(n, sizeof(*order));
	sum = calloc(n, sizeof(*sum));
	if (!order || !sum) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_pid_of, d->procs);
	for (size_t i = 0; i < n; i++) {
		const struct rp_proc *p = &d->procs[i];

		life[i] = p->life_pct;
		parent[i] = p->exited && p->ppid > 0 ? proc_index(d, order, p->ppid) : -1;
	}
	for (int pass = 0; pass < 16; pass++) {
		bool moved = false;

		memset(sum, 0, n * sizeof(*sum));
		for (size_t i = 0; i < n; i++)
			if (parent[i] >= 0 && d->procs[parent[i]].exited)
				sum[parent[i]] += life[i];
		for (size_t i = 0; i < n; i++) {
			const struct rp_proc *p = &d->procs[i];
			double own = p->life_pct - p->life_reaped_pct;
			double whole =
			    own + (sum[i] > p->life_reaped_pct ? sum[i] : p->life_reaped_pct);

			if (p->exited && p->life_pct > 0 && whole > life[i] + 1e-9) {
				life[i] = whole;
				moved = true;
			}
		}
		if (!moved)
			break;
	}
out:
	free(order);
	free(sum);
	return rc;
}

/*
 * Each sampled process's reaped children's CPU as a spawner's, less the
 * whole lives of the children the samples saw from the window's start and
 * that exited in it: a shell that reaps a long job, or a test runner a
 * finished test, reaps CPU that was sampled, not a fork loop's. Fills
 * credit[] (d->procs' order).
 */
static int reaped_unsampled_pct(const struct report_data *d, double *credit)
{
	double *life = calloc(d->nprocs, sizeof(*life));
	ssize_t *parent = calloc(d->nprocs, sizeof(*parent));
	int rc = -ENOMEM;

	if (!life || !parent)
		goto out;
	for (size_t i = 0; i < d->nprocs; i++)
		credit[i] = reaped_spawned_pct(&d->procs[i]);
	if ((rc = exited_lives(d, life, parent)) < 0)
		goto out;
	for (size_t i = 0; i < d->nprocs; i++) {
		ssize_t j = parent[i];

		if (d->procs[i].from_start && life[i] > 0 && j >= 0)
			credit[j] = credit[j] > life[i] ? credit[j] - life[i] : 0;
	}
out:
	free(life);
	free(parent);
	return rc;
}

/*
 * The parents of the window's short-lived processes: with eBPF, those
 * that forked most; without, each sampled process's reaped children's CPU
 * (cutime + cstime: a fork-exec loop's parent reaps all of its children's
 * time), and the processes the samples saw born during the window,
 * counted by parent.
 */
int report_spawner_results(const struct window *w, struct report_data *d)
{
	struct rp_spawner *all;
	double *credit;
	size_t n = 0;

	if (!d->have_forks || !d->nprocs || d->seconds <= 0)
		return 0;
	d->unsampled_pct = unsampled(d);
	if (!(credit = calloc(d->nprocs, sizeof(*credit))))
		return -ENOMEM;
	if (reaped_unsampled_pct(d, credit) < 0) {
		free(credit);
		return -ENOMEM;
	}
	if (!(w->src->lacks & REPORT_LACKS_PARENTS))
		for (size_t i = 0; i < d->nprocs; i++)
			d->reaped_pct += credit[i];
	if (bpf_spawners(d) || (w->src->lacks & REPORT_LACKS_PARENTS)) {
		free(credit);
		return 0;
	}
	if (!(all = calloc(2 * d->nprocs, sizeof(*all)))) {
		free(credit);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct rp_proc *p = &d->procs[i];

		if (credit[i] > 0)
			spawner_of(all, &n, p->pid)->child_pct = credit[i];
		if (!p->from_start && p->ppid > 0)
			spawner_of(all, &n, p->ppid)->seen++;
	}
	qsort(all, n, sizeof(*all), by_spawning);
	for (size_t i = 0; i < n && d->nspawners < RP_MAX_SPAWNERS; i++) {
		comm_of(d, all[i].pid, all[i].comm, sizeof(all[i].comm));
		d->spawners[d->nspawners++] = all[i];
	}
	free(all);
	free(credit);
	return 0;
}
