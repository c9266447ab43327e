/* Rules for what the host loses below the processes: the hypervisor's steal, interrupts, conntrack.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

/* The online CPU with the most of one share (steal or irq), or -1. */
static int cpu_with_most(const struct report_data *d, bool steal)
{
	int top = -1;

	for (int c = 0; c < d->ncpu_lines && c < HOST_MAX_CPUS; c++) {
		double v = steal ? d->cpu[c].steal : d->cpu[c].irq;

		if (d->cpu_online[c] &&
		    (top < 0 || v > (steal ? d->cpu[top].steal : d->cpu[top].irq)))
			top = c;
	}
	return top;
}

int rule_cpu_steal(const struct report_data *d, struct report_findings *f)
{
	int c = cpu_with_most(d, true);
	struct rp_finding *x;

	if (d->all.steal < CPU_STEAL_WARN_PCT)
		return 0;
	if (!(x = finding_add(f, RK_CPU_STEAL,
			      d->all.steal >= CPU_STEAL_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = d->all.steal;
	x->subject.cpu = c;
	finding_brief(x, "The hypervisor took %.0f%% of the CPUs' time (steal)", d->all.steal);
	if (c >= 0)
		finding_say(x,
			    "The hypervisor took %.0f%% of the CPUs' time (steal) in %.1f s, most "
			    "from CPU %d (%.0f%%): this machine got that much less CPU than it "
			    "has, while %.0f%% went to its own work.",
			    d->all.steal, d->seconds, c, d->cpu[c].steal,
			    d->all.busy - d->all.steal);
	else
		finding_say(x,
			    "The hypervisor took %.0f%% of the CPUs' time (steal) in %.1f s: this "
			    "machine got that much less CPU than it has.",
			    d->all.steal, d->seconds);
	finding_next(x, "See the steal per CPU over time", "mpstat -P ALL 1 5");
	finding_ev(x, "steal", d->all.steal, "%");
	if (c >= 0)
		finding_ev(x, "cpu_steal", d->cpu[c].steal, "%");
	finding_ev(x, "busy", d->all.busy, "%");
	return 0;
}

/* The busiest ksoftirqd of one CPU among the sampled processes, or NULL. */
static const struct rp_proc *ksoftirqd_of(const struct report_data *d, int cpu)
{
	char comm[32];

	snprintf(comm, sizeof(comm), "ksoftirqd/%d", cpu);
	for (size_t i = 0; i < d->nprocs; i++)
		if (!strcmp(d->procs[i].comm, comm))
			return &d->procs[i];
	return NULL;
}

static int irq_one(const struct report_data *d, int c, struct report_findings *f)
{
	const struct rp_cpu_pct *p = &d->cpu[c];
	const char *vec = d->have_softirqs ? d->softirq_top[c] : "";
	const struct rp_proc *k = ksoftirqd_of(d, c);
	char most[128] = "", kd[RP_COMM_MAX + 64] = "";
	struct rp_finding *x;

	if (!(x = finding_add(f, RK_IRQ_SATURATED,
			      p->irq >= IRQ_SATURATED_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = p->irq;
	x->subject.cpu = c;
	if (vec[0])
		snprintf(most, sizeof(most), "; softirq %s ran most (%.0f times/s)", vec,
			 d->softirq_top_s[c]);
	if (k) {
		x->subject.pid = k->pid;
		set_str(x->subject.comm, sizeof(x->subject.comm), k->comm);
		snprintf(kd, sizeof(kd), "; %s used %.0f%% of one CPU", k->comm,
			 k->usr_pct + k->sys_pct);
	}
	finding_brief(x, "CPU %d spent %.0f%% of its time in interrupts", c, p->irq);
	finding_say(x,
		    "CPU %d spent %.0f%% of its time in interrupts (hardirq %.0f%%, softirq "
		    "%.0f%%) in %.1f s%s%s: the work its interrupts bring leaves it little time "
		    "for tasks.",
		    c, p->irq, p->irq - p->softirq, p->softirq, d->seconds, most, kd);
	finding_next(x, "See which softirqs run on it", "mpstat -I SCPU -P %d 1 5", c);
	finding_ev(x, "irq", p->irq, "%");
	finding_ev(x, "softirq", p->softirq, "%");
	if (vec[0])
		finding_ev(x, "top_vector_runs", d->softirq_top_s[c], "/s");
	if (k)
		finding_ev(x, "ksoftirqd_cpu", k->usr_pct + k->sys_pct, "%");
	return 0;
}

int rule_irq_saturated(const struct report_data *d, struct report_findings *f)
{
	for (int c = 0; c < d->ncpu_lines && c < HOST_MAX_CPUS; c++) {
		int rc;

		if (!d->cpu_online[c] || d->cpu[c].irq < IRQ_SATURATED_PCT)
			continue;
		if ((rc = irq_one(d, c, f)))
			return rc;
	}
	return 0;
}

int rule_conntrack_full(const struct report_data *d, struct report_findings *f)
{
	double fill;
	struct rp_finding *x;

	if (!d->have_conntrack || !d->conntrack_max)
		return 0;
	fill = 100.0 * (double)d->conntrack_count / (double)d->conntrack_max;
	if (fill < CONNTRACK_FULL_PCT)
		return 0;
	if (!(x = finding_add(f, RK_CONNTRACK_FULL,
			      d->conntrack_count >= d->conntrack_max ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = fill;
	finding_brief(x, "The conntrack table is %.0f%% full", fill);
	finding_say(x,
		    "The conntrack table is %.0f%% full (%llu of %llu entries): when it is full "
		    "the kernel drops new connections' packets.",
		    fill, (unsigned long long)d->conntrack_count,
		    (unsigned long long)d->conntrack_max);
	finding_next(x, "See what fills it", "conntrack -S");
	finding_ev(x, "conntrack_count", (double)d->conntrack_count, "entries");
	finding_ev(x, "conntrack_max", (double)d->conntrack_max, "entries");
	finding_ev(x, "fill", fill, "%");
	return 0;
}
