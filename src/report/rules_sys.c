/* Rules for the load average, memory, disks, network and the kernel log. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

int report_rule_load_uninterruptible(const struct report_data *d, struct report_findings *f)
{
	struct rp_finding *x = NULL;
	char list[400];
	size_t used = 0;
	unsigned held = 0;

	for (size_t i = 0; i < d->ndtasks; i++)
		held += d->dtasks[i].whole_window;
	if (held < LOAD_D_WARN_TASKS)
		return 0;
	if (!(x = report_finding_add(f, RK_LOAD_UNINTERRUPTIBLE, SEV_DEFAULT)))
		return -ENOMEM;
	list[0] = '\0';
	for (size_t i = 0; i < d->ndtasks; i++) {
		const struct rp_dtask *t = &d->dtasks[i];
		int k;

		if (!t->whole_window)
			continue;
		if (!x->subject.pid) {
			x->subject.pid = t->pid;
			x->subject.tid = t->tid;
			report_set_str(x->subject.comm, sizeof(x->subject.comm), t->comm);
		}
		report_finding_pid(x, t->pid);
		k = used < sizeof(list)
			? snprintf(list + used, sizeof(list) - used, "%sPID %d %s (%s)",
				   used ? ", " : "", (int)t->pid, t->comm, t->reason)
			: 0;
		if (k > 0)
			used += (size_t)k;
	}
	x->weight = held;
	report_finding_say(
	    x,
	    "%u task%s stayed in D (uninterruptible) through the whole window and count in "
	    "the load average (%.2f on %d CPUs, %u counted D tasks now): %s. D is not only "
	    "disk.",
	    held, held > 1 ? "s" : "", d->load[0], d->ncpu, d->nd_counted, list);
	report_finding_brief(x,
			     "%u task%s stayed in D through the whole window, counted in the load",
			     held, held > 1 ? "s" : "");
	report_finding_next(x, held > 1 ? "See where they block" : "See where it blocks",
			    "triage probe offcpu -p %d -d 10", (int)x->subject.pid);
	report_finding_ev(x, "d_tasks_whole_window", held, "tasks");
	report_finding_ev(x, "d_tasks_counted", d->nd_counted, "tasks");
	report_finding_ev(x, "load1", d->load[0], "");
	return 0;
}

/* The processes with the most major faults, into the finding's pids. */
static void top_faulters(const struct report_data *d, struct rp_finding *x, char *buf, size_t size)
{
	size_t used = 0;
	unsigned named = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->nprocs && named < 5; i++) {
		const struct rp_proc *p = &d->procs[i];
		int k;

		if (p->majflt_s < 1)
			continue;
		report_finding_pid(x, p->pid);
		named++;
		k = used < size ? snprintf(buf + used, size - used, "%sPID %d %s %.0f/s",
					   used ? ", " : "", (int)p->pid, p->comm, p->majflt_s)
				: 0;
		if (k > 0)
			used += (size_t)k;
	}
}

static int host_memory(const struct report_data *d, struct report_findings *f)
{
	double avail = d->have_mem && d->mem.total && d->mem.has_available
			   ? 100.0 * (double)d->mem.available / (double)d->mem.total
			   : 100;
	double psi = d->have_psi[RP_PSI_MEM] ? d->psi_some[RP_PSI_MEM] : 0;
	struct rp_finding *x;
	char top[300];

	if (psi < PSI_MEM_SOME_WARN_PCT && avail >= MEM_AVAILABLE_WARN_PCT)
		return 0;
	if (!(x = report_finding_add(f, RK_MEMORY_PRESSURE,
				     psi >= PSI_MEM_SOME_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = psi;
	top_faulters(d, x, top, sizeof(top));
	if (x->subject.npids)
		x->subject.pid = x->subject.pids[0];
	report_finding_say(
	    x,
	    "Memory is short: some task stalled on memory %.0f%% of the window (PSI), "
	    "%.0f%% of memory is available (%.1f of %.1f GiB), %.0f major faults/s%s%s.",
	    psi, avail, (double)d->mem.available / 1048576.0, (double)d->mem.total / 1048576.0,
	    d->majflt_s, top[0] ? "; top faulting: " : "", top);
	report_finding_brief(
	    x,
	    "Memory is short: some task stalled on memory %.0f%% of the window, %.0f%% available",
	    psi, avail);
	report_finding_next(x, "", "triage pidstat -r -p ALL 1 5");
	report_finding_ev(x, "psi_memory_some", psi, "%");
	report_finding_ev(x, "mem_available", avail, "%");
	report_finding_ev(x, "majflt", d->majflt_s, "/s");
	return 0;
}

static int cgroup_memory(const struct report_data *d, const struct rp_cgroup *g,
			 struct report_findings *f)
{
	uint64_t hits = g->mem_high + g->mem_max + g->failcnt;
	struct rp_finding *x;
	char pids[160];

	if (!g->has_mem || !hits)
		return 0;
	if (!(x = report_finding_add(f, RK_MEMORY_PRESSURE, SEV_DEFAULT)))
		return -ENOMEM;
	report_set_str(x->subject.cgroup, sizeof(x->subject.cgroup), g->path);
	for (size_t k = 0; k < g->npids; k++)
		report_finding_pid(x, g->pids[k]);
	if (g->npids) {
		const struct rp_proc *p = report_proc_by_pid(d, g->pids[0]);

		x->subject.pid = g->pids[0];
		if (p)
			report_set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
	}
	x->weight = (double)hits;
	report_pid_list(g->pids, g->npids, pids, sizeof(pids));
	if (g->version == 2)
		report_finding_say(
		    x,
		    "cgroup %s hit its memory limits in the window: %llu times over "
		    "memory.high, %llu at memory.max, %llu OOM events; its tasks reclaim "
		    "instead of running%s%s.",
		    g->path, (unsigned long long)g->mem_high, (unsigned long long)g->mem_max,
		    (unsigned long long)g->mem_oom, pids[0] ? "; processes: " : "", pids);
	else
		report_finding_say(x,
				   "cgroup %s hit its memory limit %llu times in the window "
				   "(memory.failcnt); its tasks reclaim instead of running%s%s.",
				   g->path, (unsigned long long)g->failcnt,
				   pids[0] ? "; processes: " : "", pids);
	report_finding_brief(x, "cgroup %s hit its memory limit %llu times", g->path,
			     (unsigned long long)hits);
	if (pids[0])
		report_finding_next(x, "", "triage pidstat -r -p %s 1 5", pids);
	report_finding_ev(x, "limit_hits", (double)hits, "events");
	report_finding_ev(x, "oom_events", (double)g->mem_oom, "events");
	return 0;
}

/* Whether a memory finding already names pid (a cgroup's or the host's). */
static bool memory_named(const struct report_findings *f, pid_t pid)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct rp_subject *s = &f->f[i].subject;

		if (f->f[i].kind != RK_MEMORY_PRESSURE)
			continue;
		for (size_t k = 0; k < s->npids; k++)
			if (s->pids[k] == pid)
				return true;
	}
	return false;
}

static int process_faults(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct rp_proc *p = &d->procs[i];
		struct rp_finding *x;

		if (p->majflt_s < MAJFLT_WARN_S || memory_named(f, p->pid))
			continue;
		if (!(x = report_finding_add(f, RK_MEMORY_PRESSURE, SEV_DEFAULT)))
			return -ENOMEM;
		report_subject_proc(x, p);
		x->weight = p->majflt_s;
		report_finding_say(
		    x,
		    "PID %d %s took %.0f major page faults/s: it waits for pages read back "
		    "from disk or swap (working set larger than the memory it gets)%s%s.",
		    (int)p->pid, p->comm, p->majflt_s, x->subject.cgroup[0] ? "; cgroup " : "",
		    x->subject.cgroup);
		report_finding_brief(x, "PID %d %s took %.0f major page faults/s", (int)p->pid,
				     p->comm, p->majflt_s);
		report_finding_next(x, "", "triage pidstat -r -p %d 1 5", (int)p->pid);
		report_finding_ev(x, "majflt", p->majflt_s, "/s");
	}
	return 0;
}

int report_rule_swapping(const struct report_data *d, struct report_findings *f)
{
	struct rp_finding *x;
	char top[300];

	if (!d->have_vmstat || d->swapin_s + d->swapout_s < SWAP_WARN_PAGES_S)
		return 0;
	if (!(x = report_finding_add(f, RK_SWAPPING, SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = d->swapin_s + d->swapout_s;
	top_faulters(d, x, top, sizeof(top));
	report_finding_say(
	    x,
	    "The machine swapped %.0f pages/s in and %.0f pages/s out; swap used %.1f of "
	    "%.1f GiB%s%s.",
	    d->swapin_s, d->swapout_s, (double)(d->mem.swap_total - d->mem.swap_free) / 1048576.0,
	    (double)d->mem.swap_total / 1048576.0, top[0] ? "; top faulting: " : "", top);
	report_finding_brief(x, "The machine swapped %.0f pages/s in and %.0f pages/s out",
			     d->swapin_s, d->swapout_s);
	report_finding_next(x, "", "triage pidstat -r -p ALL 1 5");
	report_finding_ev(x, "swap_in", d->swapin_s, "pages/s");
	report_finding_ev(x, "swap_out", d->swapout_s, "pages/s");
	return 0;
}

/* OOM kills: from the kernel log, or the vmstat counter when the log is unreadable. */
int report_rule_oom_kill(const struct report_data *d, struct report_findings *f)
{
	unsigned logged = 0;

	for (size_t i = 0; i < d->nkevents; i++) {
		const struct rp_kevent *e = &d->kevents[i];
		struct rp_finding *x;

		if (e->event != KMSG_OOM_KILL)
			continue;
		logged++;
		if (!(x = report_finding_add(f, RK_OOM_KILL,
					     e->in_window ? SEV_DEFAULT : SEV_WARNING)))
			return -ENOMEM;
		x->subject.pid = e->pid;
		report_set_str(x->subject.comm, sizeof(x->subject.comm), e->comm);
		report_set_str(x->subject.cgroup, sizeof(x->subject.cgroup), e->cgroup);
		x->weight = -e->age_s;
		report_finding_say(x, "The kernel killed PID %d %s for memory %.0f s ago%s%s%s.",
				   e->pid, e->comm, e->age_s,
				   e->in_window ? " (inside the window)" : "",
				   e->cgroup[0] ? "; its memory cgroup: " : "", e->cgroup);
		report_finding_next(x, "", "dmesg -T | grep -B5 -A25 'invoked oom-killer'");
		report_finding_ev(x, "age", e->age_s, "s");
	}
	if (!logged && d->have_oom_counter && d->oom_kills) {
		struct rp_finding *x = report_finding_add(f, RK_OOM_KILL, SEV_DEFAULT);

		if (!x)
			return -ENOMEM;
		report_finding_say(
		    x,
		    "The kernel killed %llu process%s for memory during the window (/proc/vmstat "
		    "oom_kill; the kernel log was not readable to name them).",
		    (unsigned long long)d->oom_kills, d->oom_kills > 1 ? "es" : "");
		report_finding_brief(
		    x, "The kernel killed %llu process%s for memory during the window",
		    (unsigned long long)d->oom_kills, d->oom_kills > 1 ? "es" : "");
		report_finding_next(x, "", "dmesg -T | grep -B5 -A25 'invoked oom-killer'");
		report_finding_ev(x, "oom_kills", (double)d->oom_kills, "processes");
	}
	return 0;
}

int report_rule_memory_pressure(const struct report_data *d, struct report_findings *f)
{
	/* the most specific subject first: a cgroup's limit, then the host, then a process */
	for (size_t i = 0; i < d->ncgroups; i++)
		if (cgroup_memory(d, &d->cgroups[i], f))
			return -ENOMEM;
	if (host_memory(d, f) || process_faults(d, f))
		return -ENOMEM;
	return 0;
}
