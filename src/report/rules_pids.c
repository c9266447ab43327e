/*
 * pid-exhaustion: tasks near a cap fork() cannot pass. The host's tasks
 * against kernel.pid_max (no PID left to give) and kernel.threads-max (no
 * task struct), or a pids cgroup's tasks against its pids.max: at the cap
 * fork() and clone() fail with EAGAIN, for every process in the scope.
 */
#include <errno.h>
#include <stdio.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

static double share(uint64_t n, uint64_t max)
{
	return max ? 100.0 * (double)n / (double)max : 0;
}

static int cgroup_finding(const struct rp_pidcg *c, struct report_findings *f)
{
	double pct = share(c->current, c->max);
	struct rp_finding *x = report_finding_add(
	    f, RK_PID_EXHAUSTION, pct >= PIDS_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT);
	char refused[96] = "";

	if (!x)
		return -ENOMEM;
	report_set_str(x->subject.cgroup, sizeof(x->subject.cgroup), c->path);
	for (size_t i = 0; i < c->npids; i++)
		report_finding_pid(x, c->pids[i]);
	x->weight = pct;
	if (c->has_refused && c->refused)
		snprintf(refused, sizeof(refused), " (it has refused %llu so far)",
			 (unsigned long long)c->refused);
	if (pct >= PIDS_CRIT_PCT)
		report_finding_say(
		    x,
		    "Cgroup %s has %llu tasks, its whole pids.max (%llu): every fork() or "
		    "clone() in it fails with EAGAIN%s.",
		    c->path, (unsigned long long)c->current, (unsigned long long)c->max, refused);
	else
		report_finding_say(x, "Cgroup %s has %llu tasks, %.0f%% of its pids.max (%llu)%s.",
				   c->path, (unsigned long long)c->current, pct,
				   (unsigned long long)c->max, refused);
	report_finding_brief(x, "cgroup %s at %llu of %llu tasks", c->path,
			     (unsigned long long)c->current, (unsigned long long)c->max);
	report_finding_next(
	    x, "See which processes hold its tasks",
	    "ps -L -o pid,ppid,tid,stat,comm -p \"$(paste -sd, /sys/fs/cgroup%s%s/cgroup.procs)\"",
	    c->version == 1 ? "/pids" : "", c->path[1] ? c->path : "");
	report_finding_ev(x, "tasks", (double)c->current, "tasks");
	report_finding_ev(x, "pids_max", (double)c->max, "tasks");
	report_finding_ev(x, "used", pct, "%");
	if (c->has_refused)
		report_finding_ev(x, "forks_refused", (double)c->refused, "forks");
	return 0;
}

/* The host's tasks against one sysctl cap. */
static int host_finding(const struct report_data *d, const char *cap, uint64_t max,
			struct report_findings *f)
{
	double pct = share(d->tasks, max);
	struct rp_finding *x;

	if (!max || pct < PIDS_WARN_PCT)
		return 0;
	if (!(x = report_finding_add(f, RK_PID_EXHAUSTION,
				     pct >= PIDS_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = pct;
	report_finding_say(x, "The host has %llu tasks, %.0f%% of kernel.%s (%llu)%s",
			   (unsigned long long)d->tasks, pct, cap, (unsigned long long)max,
			   pct >= PIDS_CRIT_PCT ? ": fork() and clone() fail with EAGAIN." : ".");
	report_finding_brief(x, "%.0f%% of kernel.%s tasks in use", pct, cap);
	report_finding_next(x, "See which processes hold the most tasks",
			    "ps -e -o nlwp=,pid=,comm= | sort -n | tail");
	report_finding_ev(x, "tasks", (double)d->tasks, "tasks");
	report_finding_ev(x, cap[0] == 'p' ? "pid_max" : "threads_max", (double)max, "tasks");
	report_finding_ev(x, "used", pct, "%");
	return 0;
}

int report_rule_pid_exhaustion(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->npidcgs; i++) {
		const struct rp_pidcg *c = &d->pidcgs[i];

		if (c->max && share(c->current, c->max) >= PIDS_WARN_PCT && cgroup_finding(c, f))
			return -ENOMEM;
	}
	if (!d->have_task_caps)
		return 0;
	if (host_finding(d, "pid_max", d->pid_max, f))
		return -ENOMEM;
	return host_finding(d, "threads-max", d->threads_max, f);
}
