/*
 * Rules for what the host loses below the processes: the hypervisor's
 * steal, interrupts, conntrack, the CPUs' network backlogs.
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

int report_rule_cpu_steal(const struct report_data *d, struct report_findings *f)
{
	int c = cpu_with_most(d, true);
	struct rp_finding *x;

	if (d->all.steal < CPU_STEAL_WARN_PCT)
		return 0;
	if (!(x = report_finding_add(f, RK_CPU_STEAL,
				     d->all.steal >= CPU_STEAL_CRIT_PCT ? SEV_CRITICAL
									: SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = d->all.steal;
	x->subject.cpu = c;
	report_finding_brief(x, "The hypervisor took %.0f%% of the CPUs' time (steal)",
			     d->all.steal);
	if (c >= 0)
		report_finding_say(
		    x,
		    "The hypervisor took %.0f%% of the CPUs' time (steal) in %.1f s, most "
		    "from CPU %d (%.0f%%): this machine got that much less CPU than it "
		    "has, while %.0f%% went to its own work.",
		    d->all.steal, d->seconds, c, d->cpu[c].steal, d->all.busy - d->all.steal);
	else
		report_finding_say(
		    x,
		    "The hypervisor took %.0f%% of the CPUs' time (steal) in %.1f s: this "
		    "machine got that much less CPU than it has.",
		    d->all.steal, d->seconds);
	report_finding_next(x, "See the steal per CPU over time", "mpstat -P ALL 1 5");
	report_finding_ev(x, "steal", d->all.steal, "%");
	if (c >= 0)
		report_finding_ev(x, "cpu_steal", d->cpu[c].steal, "%");
	report_finding_ev(x, "busy", d->all.busy, "%");
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

	if (!(x = report_finding_add(f, RK_IRQ_SATURATED,
				     p->irq >= IRQ_SATURATED_CRIT_PCT ? SEV_CRITICAL
								      : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = p->irq;
	x->subject.cpu = c;
	if (vec[0])
		snprintf(most, sizeof(most), "; softirq %s ran most (%.0f times/s)", vec,
			 d->softirq_top_s[c]);
	if (k) {
		x->subject.pid = k->pid;
		report_set_str(x->subject.comm, sizeof(x->subject.comm), k->comm);
		snprintf(kd, sizeof(kd), "; %s used %.0f%% of one CPU", k->comm,
			 k->usr_pct + k->sys_pct);
	}
	report_finding_brief(x, "CPU %d spent %.0f%% of its time in interrupts", c, p->irq);
	report_finding_say(
	    x,
	    "CPU %d spent %.0f%% of its time in interrupts (hardirq %.0f%%, softirq "
	    "%.0f%%) in %.1f s%s%s: the work its interrupts bring leaves it little time "
	    "for tasks.",
	    c, p->irq, p->irq - p->softirq, p->softirq, d->seconds, most, kd);
	report_finding_next(x, "See which softirqs run on it", "mpstat -I SCPU -P %d 1 5", c);
	report_finding_ev(x, "irq", p->irq, "%");
	report_finding_ev(x, "softirq", p->softirq, "%");
	if (vec[0])
		report_finding_ev(x, "top_vector_runs", d->softirq_top_s[c], "/s");
	if (k)
		report_finding_ev(x, "ksoftirqd_cpu", k->usr_pct + k->sys_pct, "%");
	return 0;
}

int report_rule_irq_saturated(const struct report_data *d, struct report_findings *f)
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

/* ": the kernel logged \"nf_conntrack: table full, dropping packet\" 3 times, the last 2 s ago" */
static void dropped_words(const struct rp_kevent *e, char *buf, size_t size)
{
	if (!e)
		buf[0] = '\0';
	else if (e->reports > 1)
		snprintf(buf, size, "; the kernel logged \"%s\" %u times, the last %.0f s ago",
			 e->text, e->reports, e->age_s);
	else
		snprintf(buf, size, "; the kernel logged \"%s\" %.0f s ago", e->text, e->age_s);
}

/*
 * The table's fill from CONNTRACK_FULL_PCT, or the kernel's "table full,
 * dropping packet" (it dropped one; the table may have drained since, or
 * be another namespace's). Critical when full, or logged in the window.
 */
int report_rule_conntrack_full(const struct report_data *d, struct report_findings *f)
{
	const struct rp_kevent *e = report_kmsg_event_of(d, KMSG_CONNTRACK_FULL);
	bool counted = d->have_conntrack && d->conntrack_max;
	double fill = counted ? 100.0 * (double)d->conntrack_count / (double)d->conntrack_max : 0;
	bool crit = (counted && d->conntrack_count >= d->conntrack_max) || (e && e->in_window);
	char logged[KMSG_TEXT_MAX + 64];
	struct rp_finding *x;

	if (fill < CONNTRACK_FULL_PCT && !e)
		return 0;
	if (!(x = report_finding_add(f, RK_CONNTRACK_FULL, crit ? SEV_CRITICAL : SEV_WARNING)))
		return -ENOMEM;
	x->weight = e && fill < 100 ? 100 : fill;
	dropped_words(e, logged, sizeof(logged));
	if (counted && fill >= CONNTRACK_FULL_PCT) {
		report_finding_brief(x, "The conntrack table is %.0f%% full", fill);
		report_finding_say(
		    x,
		    "The conntrack table is %.0f%% full (%llu of %llu entries)%s: when it "
		    "is full the kernel drops new connections' packets.",
		    fill, (unsigned long long)d->conntrack_count,
		    (unsigned long long)d->conntrack_max, logged);
	} else {
		report_finding_brief(x, "The conntrack table was full: the kernel dropped packets");
		char now[96] = "";

		if (counted)
			snprintf(now, sizeof(now), " (it holds %llu of %llu entries now)",
				 (unsigned long long)d->conntrack_count,
				 (unsigned long long)d->conntrack_max);
		report_finding_say(
		    x,
		    "The conntrack table was full%s: the kernel dropped new connections' "
		    "packets then%s.",
		    logged, now);
	}
	report_finding_next(x, "See what fills it", "conntrack -S");
	if (counted) {
		report_finding_ev(x, "conntrack_count", (double)d->conntrack_count, "entries");
		report_finding_ev(x, "conntrack_max", (double)d->conntrack_max, "entries");
		report_finding_ev(x, "fill", fill, "%");
	}
	if (e) {
		report_finding_ev(x, "logged", e->reports, "lines");
		report_finding_ev(x, "age", e->age_s, "s");
	}
	return 0;
}

/*
 * net-drops for a CPU: its backlog (the queue between a device's receive
 * path and the CPU's NET_RX softirq, netdev_max_backlog long) full, the
 * packet dropped before any socket saw it. time_squeeze says the softirq
 * ran out of budget with packets left: the CPU cannot keep up.
 */
static int softnet_one(const struct report_data *d, const struct rp_softnet *s,
		       struct report_findings *f)
{
	double per_s = (double)s->dropped / d->seconds;
	struct rp_finding *x;

	if (s->dropped < SOFTNET_DROPS_MIN || per_s < SOFTNET_DROPS_WARN_S)
		return 0;
	if (!(x = report_finding_add(f, RK_NET_DROPS, SEV_DEFAULT)))
		return -ENOMEM;
	x->subject.cpu = s->cpu;
	x->weight = (double)s->dropped;
	report_finding_brief(x, "CPU %d's network backlog dropped %llu packets in %.1f s", s->cpu,
			     (unsigned long long)s->dropped, d->seconds);
	report_finding_say(
	    x,
	    "CPU %d's network backlog was full and dropped %llu packets in %.1f s (%.0f/s, "
	    "of %llu it took in); its receive softirq ran out of budget with packets left "
	    "%llu times: packets reach this CPU faster than it processes them.",
	    s->cpu, (unsigned long long)s->dropped, d->seconds, per_s,
	    (unsigned long long)s->processed, (unsigned long long)s->squeezed);
	report_finding_next(x, "See the backlog's length and the softirq's budget",
			    "sysctl net.core.netdev_max_backlog net.core.netdev_budget");
	report_finding_ev(x, "backlog_drops", (double)s->dropped, "packets");
	report_finding_ev(x, "time_squeeze", (double)s->squeezed, "times");
	report_finding_ev(x, "processed", (double)s->processed, "packets");
	report_finding_ev(x, "drop_rate", per_s, "/s");
	return 0;
}

int report_rule_softnet_drops(const struct report_data *d, struct report_findings *f)
{
	if (!d->have_softnet || d->seconds <= 0)
		return 0;
	for (size_t i = 0; i < d->nsoftnet; i++)
		if (softnet_one(d, &d->softnet[i], f))
			return -ENOMEM;
	return 0;
}
