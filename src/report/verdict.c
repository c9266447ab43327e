/*
 * What was checked and found fine, with its numbers, and the headline:
 * the one-line verdict printed first.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/thresholds.h"

static bool has_problem(const struct report_findings *f, const char *resource)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->f[i].sev != SEV_INFO &&
		    !strcmp(report_resource_name(report_kind_resource(f->f[i].kind)), resource))
			return true;
	return false;
}

/* A checked entry with its sentence, or NULL when the resource has a problem (or no room). */
static struct rp_checked *checked(struct report_findings *f, const char *resource, const char *fmt,
				  ...) __attribute__((format(printf, 3, 4)));
static struct rp_checked *checked(struct report_findings *f, const char *resource, const char *fmt,
				  ...)
{
	struct rp_checked *c;
	va_list ap;

	if (f->nchecked >= RP_MAX_CHECKED || has_problem(f, resource))
		return NULL;
	c = &f->checked[f->nchecked++];
	memset(c, 0, sizeof(*c));
	report_set_str(c->resource, sizeof(c->resource), resource);
	va_start(ap, fmt);
	vsnprintf(c->summary, sizeof(c->summary), fmt, ap);
	va_end(ap);
	return c;
}

/* The figure, when the entry was kept. */
static void fig(struct rp_checked *c, const char *metric, double value, const char *unit)
{
	if (c)
		report_checked_figure(c, metric, value, unit);
}

static void check_cpu(const struct report_data *d, struct report_findings *f)
{
	int busiest = -1;
	char psi[64];
	struct rp_checked *c;

	for (int k = 0; k < d->ncpu_lines; k++)
		if (d->cpu_online[k] && (busiest < 0 || d->cpu[k].busy > d->cpu[busiest].busy))
			busiest = k;
	if (busiest < 0)
		return;
	c = checked(
	    f, "cpu",
	    "%d CPU%s %.0f%% busy (usr %.0f%%, sys %.0f%%, iowait %.0f%%, irq %.0f%%, steal "
	    "%.0f%%), busiest CPU %d at %.0f%%, %.1f tasks runnable on average%s",
	    d->ncpu, d->ncpu == 1 ? "" : "s", d->all.busy, d->all.usr, d->all.sys, d->all.iowait,
	    d->all.irq, d->all.steal, busiest, d->cpu[busiest].busy, d->runnable_avg,
	    report_psi_phrase(d, RP_PSI_CPU, ", PSI cpu ", "", psi, sizeof(psi)));
	fig(c, "cpus", d->ncpu, "CPUs");
	fig(c, "busy", d->all.busy, "%");
	fig(c, "usr", d->all.usr, "%");
	fig(c, "sys", d->all.sys, "%");
	fig(c, "iowait", d->all.iowait, "%");
	fig(c, "irq", d->all.irq, "%");
	fig(c, "steal", d->all.steal, "%");
	fig(c, "busiest_cpu_busy", d->cpu[busiest].busy, "%");
	fig(c, "runnable", d->runnable_avg, "tasks");
	if (d->have_psi[RP_PSI_CPU])
		fig(c, "psi_cpu_some", d->psi_some[RP_PSI_CPU], "%");
}

static void check_procs(const struct report_data *d, struct report_findings *f)
{
	struct rp_checked *c;

	if (!d->nprocs) {
		fig(checked(f, "processes", "no process seen"), "processes", 0, "processes");
		return;
	}
	c = checked(
	    f, "processes",
	    "busiest PID %d %s at %.0f%% of one CPU; %zu processes, %u threads, sampled %u times",
	    (int)d->procs[0].pid, d->procs[0].comm, d->procs[0].usr_pct + d->procs[0].sys_pct,
	    d->nprocs, d->threads_seen, d->task_samples);
	fig(c, "busiest_cpu", d->procs[0].usr_pct + d->procs[0].sys_pct, "% of one CPU");
	fig(c, "processes", (double)d->nprocs, "processes");
	fig(c, "threads", d->threads_seen, "threads");
	fig(c, "samples", d->task_samples, "samples");
}

static void check_memory(const struct report_data *d, struct report_findings *f)
{
	char psi[64];
	struct rp_checked *c;

	if (!d->have_mem)
		return;
	c = checked(f, "memory",
		    "%.1f of %.1f GiB available, swapping %.0f pages/s, %.0f major faults/s%s",
		    (double)d->mem.available / 1048576.0, (double)d->mem.total / 1048576.0,
		    d->swapin_s + d->swapout_s, d->majflt_s,
		    report_psi_phrase(d, RP_PSI_MEM, ", PSI memory ", "", psi, sizeof(psi)));
	fig(c, "mem_available", (double)d->mem.available / 1048576.0, "GiB");
	fig(c, "mem_total", (double)d->mem.total / 1048576.0, "GiB");
	fig(c, "swap", d->swapin_s + d->swapout_s, "pages/s");
	fig(c, "majflt", d->majflt_s, "/s");
	if (d->have_psi[RP_PSI_MEM])
		fig(c, "psi_memory_some", d->psi_some[RP_PSI_MEM], "%");
}

static void check_disk(const struct report_data *d, struct report_findings *f)
{
	const struct rp_disk *b = NULL;
	struct rp_checked *c;
	char psi[48];

	if (!d->have_disks)
		return;
	for (size_t i = 0; i < d->ndisks; i++)
		if (!b || d->disks[i].util_pct > b->util_pct)
			b = &d->disks[i];
	if (!b) {
		fig(checked(f, "disk", "idle: no device did I/O"), "devices_busy", 0, "devices");
		return;
	}
	c = checked(f, "disk",
		    "busiest device %s %.0f%% util (%.0f r/s, %.0f w/s, await %.2f ms, %.2f "
		    "queued)%s",
		    b->name, b->util_pct, b->r_s, b->w_s, b->await_ms, b->aqu_sz,
		    report_psi_phrase(d, RP_PSI_IO, ", PSI io ", "", psi, sizeof(psi)));
	fig(c, "util", b->util_pct, "%");
	fig(c, "r_s", b->r_s, "/s");
	fig(c, "w_s", b->w_s, "/s");
	fig(c, "await", b->await_ms, "ms");
	fig(c, "aqu_sz", b->aqu_sz, "requests");
	if (d->have_psi[RP_PSI_IO])
		fig(c, "psi_io_some", d->psi_some[RP_PSI_IO], "%");
}

static void check_net(const struct report_data *d, struct report_findings *f)
{
	const struct rp_iface *b = NULL;
	uint64_t out = 0, re = 0;
	struct rp_checked *c;

	if (!d->have_ifaces)
		return;
	for (size_t i = 0; i < d->nifaces; i++)
		if (!b || d->ifaces[i].rx_kb_s + d->ifaces[i].tx_kb_s > b->rx_kb_s + b->tx_kb_s)
			b = &d->ifaces[i];
	for (size_t i = 0; i < d->nnetns; i++) {
		re += d->netns[i].retrans_segs;
		out += d->netns[i].out_segs + d->netns[i].retrans_segs; /* OutSegs has no resends */
	}
	c = checked(
	    f, "network",
	    "busiest interface %s (rx %.0f kB/s, tx %.0f kB/s), TCP retransmitted %llu of %llu "
	    "segments in %zu namespace%s",
	    b ? b->name : "none", b ? b->rx_kb_s : 0, b ? b->tx_kb_s : 0, (unsigned long long)re,
	    (unsigned long long)out, d->nnetns, d->nnetns == 1 ? "" : "s");
	fig(c, "rx", b ? b->rx_kb_s : 0, "kB/s");
	fig(c, "tx", b ? b->tx_kb_s : 0, "kB/s");
	fig(c, "retrans_segs", (double)re, "segments");
	fig(c, "out_segs", (double)out, "segments");
	fig(c, "namespaces", (double)d->nnetns, "namespaces");
}

static void check_fs(const struct report_data *d, struct report_findings *f)
{
	const struct rp_fs *space = NULL, *inodes = NULL;
	struct rp_checked *c;

	if (!d->have_fs)
		return;
	for (size_t i = 0; i < d->nfs; i++) {
		if (!space || d->fs[i].used_pct > space->used_pct)
			space = &d->fs[i];
		if (!inodes || d->fs[i].inodes_pct > inodes->inodes_pct)
			inodes = &d->fs[i];
	}
	if (!space) {
		fig(checked(f, "filesystem", "no mounted filesystem stores data"), "filesystems", 0,
		    "filesystems");
		return;
	}
	c = checked(f, "filesystem",
		    "%zu filesystems store data; fullest %s at %.0f%% of its space, %s at %.0f%% "
		    "of its inodes",
		    d->nfs, space->mount, space->used_pct, inodes->mount, inodes->inodes_pct);
	fig(c, "filesystems", (double)d->nfs, "filesystems");
	fig(c, "fullest_space_used", space->used_pct, "%");
	fig(c, "fullest_inodes_used", inodes->inodes_pct, "%");
}

static void check_rest(const struct report_data *d, struct report_findings *f)
{
	unsigned quota = 0, mem = 0;
	struct rp_checked *c = NULL;

	if (d->have_load)
		c = checked(
		    f, "load",
		    "load average %.2f %.2f %.2f on %d CPU%s, %u counted D task%s at the end, "
		    "none held through the window",
		    d->load[0], d->load[1], d->load[2], d->ncpu, d->ncpu == 1 ? "" : "s",
		    d->nd_counted, d->nd_counted == 1 ? "" : "s");
	fig(c, "load1", d->load[0], "");
	fig(c, "load5", d->load[1], "");
	fig(c, "load15", d->load[2], "");
	fig(c, "d_tasks_counted", d->nd_counted, "tasks");
	for (size_t i = 0; i < d->ncgroups; i++) {
		const struct rp_cgroup *g = &d->cgroups[i];

		quota += g->has_cpu;
		mem += g->has_mem && !g->mem_high && !g->mem_max && !g->failcnt;
	}
	if (d->have_cgroups) {
		c = checked(
		    f, "cgroups",
		    "%u cgroup%s with a CPU quota, none throttled in %.0f%% of its periods or "
		    "more; %u memory cgroup%s with no limit hit",
		    quota, quota == 1 ? "" : "s", THROTTLED_PERIODS_PCT, mem, mem == 1 ? "" : "s");
		fig(c, "cpu_quota_cgroups", quota, "cgroups");
		fig(c, "memory_cgroups", mem, "cgroups");
	}
	if (d->have_kmsg && !d->nkevents)
		fig(checked(f, "kernel-log",
			    "no OOM kill, hung task, lockup, I/O error, segfault or error in the "
			    "window or the %.0f s before",
			    REPORT_KMSG_RECENT_S),
		    "events", 0, "events");
}

void report_checked(const struct report_data *d, struct report_findings *f)
{
	check_cpu(d, f);
	check_procs(d, f);
	check_memory(d, f);
	check_disk(d, f);
	check_fs(d, f);
	check_net(d, f);
	check_rest(d, f);
}

void report_headline(const struct report_data *d, struct report_findings *f)
{
	unsigned crit = 0, warn = 0;

	for (size_t i = 0; i < f->n; i++) {
		crit += f->f[i].sev == SEV_CRITICAL;
		warn += f->f[i].sev == SEV_WARNING;
	}
	if (!crit && !warn) {
		snprintf(
		    f->headline, sizeof(f->headline),
		    "OK: nothing wrong found in %.1f s on %d CPU%s (CPU %.0f%% busy, load %.2f).",
		    d->seconds, d->ncpu, d->ncpu == 1 ? "" : "s", d->all.busy, d->load[0]);
		return;
	}
	/* the first finding's short form, whole: the line people paste into chat */
	snprintf(f->headline, sizeof(f->headline),
		 "%s: %s [%s]; %u critical, %u warning in %.1f s.", crit ? "CRITICAL" : "WARNING",
		 f->f[0].brief[0] ? f->f[0].brief : f->f[0].summary, report_kind_name(f->f[0].kind),
		 crit, warn, d->seconds);
}
