/* Findings as data: the builders the rules share (the driver is evaluate.c). */
#include "report/findings.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void report_set_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

struct rp_finding *report_finding_add(struct report_findings *f, enum report_kind k,
				      enum report_sev sev)
{
	struct rp_finding *x;

	if (util_grow(&f->f, &f->cap, f->n + 1, sizeof(*f->f)))
		return NULL;
	x = &f->f[f->n++];
	memset(x, 0, sizeof(*x));
	x->kind = k;
	x->sev = sev;
	x->subject.cpu = -1;
	return x;
}

void report_finding_say(struct rp_finding *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->summary, sizeof(x->summary), fmt, ap);
	va_end(ap);
}

void report_finding_brief(struct rp_finding *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->brief, sizeof(x->brief), fmt, ap);
	va_end(ap);
}

void report_finding_next(struct rp_finding *x, const char *lead, const char *fmt, ...)
{
	va_list ap;

	report_set_str(x->lead, sizeof(x->lead), lead);

	va_start(ap, fmt);
	vsnprintf(x->next, sizeof(x->next), fmt, ap);
	va_end(ap);
}

void report_finding_ev(struct rp_finding *x, const char *metric, double value, const char *unit)
{
	if (x->nev >= RP_MAX_EVIDENCE)
		return;
	x->ev[x->nev].metric = metric;
	x->ev[x->nev].value = value;
	x->ev[x->nev].unit = unit;
	x->nev++;
}

void report_checked_figure(struct rp_checked *c, const char *metric, double value, const char *unit)
{
	if (c->nfig >= RP_MAX_FIGURES)
		return;
	c->fig[c->nfig].metric = metric;
	c->fig[c->nfig].value = value;
	c->fig[c->nfig].unit = unit;
	c->nfig++;
}

void report_finding_pid(struct rp_finding *x, pid_t pid)
{
	struct rp_subject *s = &x->subject;

	for (size_t i = 0; i < s->npids; i++)
		if (s->pids[i] == pid)
			return;
	if (s->npids < RP_MAX_PIDS)
		s->pids[s->npids++] = pid;
}

static bool below_root(const char *path)
{
	return path[0] && strcmp(path, "/");
}

/*
 * The group that explains a finding about p: on cgroup v1 each controller
 * places a task in its own group, and the deepest of them (often a memory
 * group a supervisor made) says nothing about a CPU finding. Memory kinds
 * take the memory group, I/O kinds the blkio group; CPU kinds the cpu
 * group (quota, weight), else the cpuset group (placement) when only that
 * one is below the root. "" when the groups were not read per controller
 * (a recording keeps one path: that one, then).
 */
/* The controller whose group explains a kind (a new memory or I/O kind belongs here). */
static enum cg_controller kind_controller(enum report_kind k)
{
	switch (k) {
	case RK_MEMORY_GROWTH:
	case RK_MEMORY_PRESSURE:
	case RK_SWAPPING:
	case RK_OOM_KILL:
		return CGC_MEMORY;
	case RK_DISK_SATURATED:
	case RK_IO_STALL:
	case RK_FILESYSTEM_FULL:
	case RK_INODES_FULL:
		return CGC_IO;
	default:
		return CGC_CPU;
	}
}

const char *report_proc_cgroup_for(const struct rp_proc *p, enum report_kind k)
{
	enum cg_controller c = kind_controller(k);

	if (!p->cgroups[CGC_CPU][0])
		return p->cgroup;
	if (c == CGC_CPU && !below_root(p->cgroups[CGC_CPU]) && below_root(p->cgroups[CGC_CPUSET]))
		return p->cgroups[CGC_CPUSET];
	return p->cgroups[c];
}

void report_subject_proc(struct rp_finding *x, const struct rp_proc *p)
{
	const char *cg = report_proc_cgroup_for(p, x->kind);

	x->subject.pid = p->pid;
	x->subject.exited = p->exited;
	report_set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
	if (below_root(cg)) /* the root cgroup says nothing */
		report_set_str(x->subject.cgroup, sizeof(x->subject.cgroup), cg);
}

const struct rp_proc *report_proc_by_pid(const struct report_data *d, pid_t pid)
{
	for (size_t i = 0; i < d->nprocs; i++)
		if (d->procs[i].pid == pid)
			return &d->procs[i];
	return NULL;
}

void report_pid_list(const pid_t *pids, size_t n, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		int k = snprintf(buf + used, size - used, "%s%d", i ? "," : "", (int)pids[i]);

		if (k < 0 || (size_t)k >= size - used)
			break;
		used += (size_t)k;
	}
}

static void all_cpus(int ncpu, struct cpuset *s)
{
	memset(s, 0, sizeof(*s));
	for (int c = 0; c < ncpu && c < HOST_MAX_CPUS; c++)
		procfs_cpuset_add(s, (unsigned)c);
}

void report_placement_words(const struct rp_proc *p, int ncpu, char *buf, size_t size)
{
	char ran[64], allowed[64];
	struct cpuset all;
	unsigned nran = procfs_cpuset_count(&p->ran);

	buf[0] = '\0';
	procfs_cpulist_format(&p->ran, ran, sizeof(ran));
	procfs_cpulist_format(&p->allowed, allowed, sizeof(allowed));
	all_cpus(ncpu, &all);
	if (p->has_allowed && procfs_cpuset_count(&p->allowed) == 1) {
		snprintf(buf, size, "pinned to CPU %s", allowed);
		return;
	}
	if (!nran && !p->has_allowed)
		return;
	if (!nran) {
		snprintf(buf, size, "allowed on %s",
			 !memcmp(&p->allowed, &all, sizeof(all)) ? "all CPUs" : allowed);
		return;
	}
	snprintf(buf, size, "ran on CPU%s %s%s%s%s", nran > 1 ? "s" : "", ran,
		 nran == 1 ? " only" : "", p->has_allowed ? ", allowed on " : "",
		 !p->has_allowed			   ? ""
		 : !memcmp(&p->allowed, &all, sizeof(all)) ? "all"
							   : allowed);
}

void report_findings_release(struct report_findings *f)
{
	free(f->f);
	f->f = NULL;
	f->n = f->cap = 0;
}

const char *report_psi_phrase(const struct report_data *d, enum rp_psi which, const char *before,
			      const char *after, char *buf, size_t size)
{
	if (d->have_psi[which])
		snprintf(buf, size, "%s%.0f%%%s", before, d->psi_some[which], after);
	else if (size)
		buf[0] = '\0';
	return buf;
}
