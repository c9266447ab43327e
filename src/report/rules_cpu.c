/*
 * CPU rules: CPU-bound processes (user or kernel), a saturated machine,
 * one hot CPU, tasks that wait for a CPU, throttled cgroups. The blog's
 * hand-written observations ("mostly user space", "not pinned",
 * "nvcswch/s stands out") are the sentences these rules write.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

#define TOP_NAMED 5 /* processes named in a host-level finding */

static double cpu_of(const struct rp_proc *p)
{
	return p->usr_pct + p->sys_pct;
}

/* At nice CPU_BY_DESIGN_NICE or more: it asked to run only on CPU time others leave. */
static bool yields_by_design(const struct rp_proc *p)
{
	return p->has_nice && p->nice >= CPU_BY_DESIGN_NICE;
}

/* "; 164 involuntary switches/s and 12% of the window waiting for a CPU" */
static void switch_words(const struct rp_proc *p, char *buf, size_t size)
{
	snprintf(buf, size,
		 "%.0f voluntary and %.0f involuntary switches/s, %.0f%% of the window waiting for "
		 "a CPU",
		 p->cswch_s, p->nvcswch_s, p->wait_pct);
}

/* Appended to the switch words of a niced process: why it is not a problem by itself. */
static void nice_words(const struct rp_proc *p, char *buf, size_t size)
{
	size_t used = strlen(buf);

	if (yields_by_design(p) && used < size)
		snprintf(buf + used, size - used,
			 "; it runs at nice %d, asking for only the CPU time others leave",
			 p->nice);
}

/* A CPU-bound process that got less than a CPU: it was short of one, not idle. */
static void demand_words(const struct rp_proc *p, char *buf, size_t size)
{
	buf[0] = '\0';
	if (p->usr_pct + p->sys_pct < CPU_BOUND_PCT)
		snprintf(buf, size,
			 "; its busiest thread was on a CPU or queued for one %.0f%% of the "
			 "window, so it would take more CPU if it got it%s",
			 p->top_demand_pct > 100 ? 100 : p->top_demand_pct,
			 p->usr_pct + p->sys_pct < CPU_BOUND_MIN_PCT
			     ? " (it got its share of a saturated machine: a victim of the "
			       "saturation, not its cause)"
			     : "");
}

static void thread_words(const struct rp_proc *p, char *buf, size_t size)
{
	buf[0] = '\0';
	if (p->nthreads > 1)
		snprintf(buf, size, " across %u threads (busiest TID %d at %.0f%%)", p->nthreads,
			 (int)p->top_tid, p->top_thread_pct);
}

/* Half or more of its CPU time in the kernel: cpu-bound-kernel, else cpu-bound-user. */
static bool mostly_kernel(const struct rp_proc *p)
{
	double cpu = cpu_of(p);

	return cpu > 0 && p->sys_pct / cpu >= CPU_KERNEL_SHARE;
}

/*
 * Got less than CPU_BOUND_MIN_PCT: CPU-bound only by the saturated
 * machine's fair share (bound_floor), short of CPU because every CPU is
 * taken, not because of its own code.
 */
static bool starved(const struct rp_proc *p)
{
	return cpu_of(p) < CPU_BOUND_MIN_PCT;
}

static int cpu_bound(const struct report_data *d, const struct rp_proc *p,
		     struct report_findings *f)
{
	double cpu = cpu_of(p), user_share = cpu > 0 ? p->usr_pct / cpu : 0;
	bool kernel = mostly_kernel(p);
	/*
	 * At its ceiling: a thread that got a whole CPU, or wanted one and got
	 * most of it. One that wanted a CPU and got little was held back by the
	 * tasks it queued behind, not by its own thread.
	 */
	bool ceiling = p->top_thread_pct >= CPU_THREAD_CEILING_PCT ||
		       (p->top_demand_pct >= CPU_THREAD_CEILING_PCT && cpu >= CPU_BOUND_PCT);
	/*
	 * niced: it takes what others leave, by design; cpu-contention names
	 * whom it delays. Starved: only the saturated machine's fair share made
	 * it CPU-bound; it is one of the tasks cpu-saturated is about, a victim.
	 */
	enum report_sev sev = yields_by_design(p) || starved(p) ? SEV_INFO
			      : ceiling				? SEV_CRITICAL
								: SEV_DEFAULT;
	struct rp_finding *x =
	    report_finding_add(f, kernel ? RK_CPU_BOUND_KERNEL : RK_CPU_BOUND_USER, sev);
	char place[160], sw[200], thr[96], dem[256];

	if (!x)
		return -ENOMEM;
	report_subject_proc(x, p);
	x->weight = cpu;
	report_placement_words(p, d->ncpu, place, sizeof(place));
	switch_words(p, sw, sizeof(sw));
	nice_words(p, sw, sizeof(sw));
	thread_words(p, thr, sizeof(thr));
	demand_words(p, dem, sizeof(dem));
	report_finding_brief(x, "PID %d %s used %.0f%% of one CPU, %.0f%% of it in %s", (int)p->pid,
			     p->comm, cpu, kernel ? 100 - user_share * 100 : user_share * 100,
			     kernel ? "the kernel" : "user space");
	/* an exited process cannot be probed: say so instead of suggesting it */
	if (kernel) {
		report_finding_say(
		    x,
		    "PID %d %s used %.0f%% of one CPU%s, %.0f%% of it in the kernel, so the time "
		    "goes to system calls or kernel work%s%s%s; %s%s",
		    (int)p->pid, p->comm, cpu, thr, 100 - user_share * 100, dem,
		    place[0] ? "; " : "", place, sw,
		    p->exited ? "; it exited before the window ended." : ".");
		if (!p->exited)
			report_finding_next(x, "Count its syscalls",
					    "triage probe syscalls -p %d -d 10", (int)p->pid);
	} else {
		report_finding_say(
		    x,
		    "PID %d %s used %.0f%% of one CPU%s, %.0f%% of it in user space, so "
		    "the time goes to %s%s; %s%s%s%s",
		    (int)p->pid, p->comm, cpu, thr, user_share * 100,
		    user_share >= CPU_USER_SHARE ? "its own code"
						 : "its own code more than the kernel",
		    dem, place, place[0] ? "; " : "", sw,
		    p->exited ? "; it exited before the window ended." : ".");
		if (!p->exited)
			report_finding_next(x, "Profile it", "triage probe profile -p %d -d 10",
					    (int)p->pid);
	}
	report_finding_ev(x, "cpu", cpu, "% of one CPU");
	report_finding_ev(x, "usr", p->usr_pct, "% of one CPU");
	report_finding_ev(x, "sys", p->sys_pct, "% of one CPU");
	report_finding_ev(x, "busiest_thread", p->top_thread_pct, "% of one CPU");
	report_finding_ev(x, "busiest_thread_demand", p->top_demand_pct, "% of the window");
	report_finding_ev(x, "nvcswch", p->nvcswch_s, "/s");
	report_finding_ev(x, "cswch", p->cswch_s, "/s");
	report_finding_ev(x, "runq_wait", p->wait_pct, "% of the window");
	report_finding_ev(x, "cpus_ran_on", procfs_cpuset_count(&p->ran), "CPUs");
	return 0;
}

static void name_top(const struct report_data *d, struct rp_finding *x, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->nprocs && i < TOP_NAMED && used < size; i++) {
		const struct rp_proc *p = &d->procs[i];
		int n;

		if (cpu_of(p) < 1)
			break;
		report_finding_pid(x, p->pid);
		n = snprintf(buf + used, size - used, "%sPID %d %s %.0f%%", i ? ", " : "",
			     (int)p->pid, p->comm, cpu_of(p));
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
}

int report_rule_cpu_saturated(const struct report_data *d, struct report_findings *f)
{
	double per_cpu = d->ncpu ? d->runnable_avg / d->ncpu : 0;
	bool psi = d->have_psi[RP_PSI_CPU] && d->psi_some[RP_PSI_CPU] >= PSI_CPU_SOME_WARN_PCT;
	struct rp_finding *x;
	char top[300], psi_words[64], all[32];

	if (d->all.busy < CPU_SATURATED_BUSY_PCT || !(per_cpu > CPU_SATURATED_QUEUE_RATIO || psi))
		return 0;
	if (!(x = report_finding_add(f, RK_CPU_SATURATED, SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = d->all.busy;
	name_top(d, x, top, sizeof(top));
	if (x->subject.npids)
		x->subject.pid = x->subject.pids[0];
	if (d->ncpu == 1)
		snprintf(all, sizeof(all), "The one CPU was");
	else
		snprintf(all, sizeof(all), "All %d CPUs were", d->ncpu);
	report_finding_brief(x, "%s %.0f%% busy with %.1f tasks runnable on average", all,
			     d->all.busy, d->runnable_avg);
	report_finding_say(x,
			   "%s %.0f%% busy and %.1f tasks were runnable on average (%.1f per "
			   "CPU)%s; the biggest consumers: %s.",
			   all, d->all.busy, d->runnable_avg, per_cpu,
			   report_psi_phrase(d, RP_PSI_CPU, "; some task waited for a CPU ",
					     " of the time (PSI)", psi_words, sizeof(psi_words)),
			   top[0] ? top : "none");
	report_finding_next(x, "See how long tasks wait for a CPU", "triage probe runq -d 10");
	report_finding_ev(x, "cpu_busy", d->all.busy, "%");
	report_finding_ev(x, "runnable", d->runnable_avg, "tasks");
	report_finding_ev(x, "cpus", d->ncpu, "CPUs");
	if (d->have_psi[RP_PSI_CPU])
		report_finding_ev(x, "psi_cpu_some", d->psi_some[RP_PSI_CPU], "%");
	return 0;
}

/* The processes that ran on cpu (and nowhere else when pinned_only). */
static void on_cpu(const struct report_data *d, int cpu, struct rp_finding *x, char *buf,
		   size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->nprocs && used < size; i++) {
		const struct rp_proc *p = &d->procs[i];
		int n;

		if (!procfs_cpuset_has(&p->ran, (unsigned)cpu) || cpu_of(p) < 5)
			continue;
		report_finding_pid(x, p->pid);
		n = snprintf(buf + used, size - used, "%sPID %d %s %.0f%%%s", used ? ", " : "",
			     (int)p->pid, p->comm, cpu_of(p),
			     p->has_allowed && procfs_cpuset_count(&p->allowed) == 1 ? " (pinned)"
										     : "");
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
}

int report_rule_single_cpu_hot(const struct report_data *d, struct report_findings *f)
{
	int hot = -1, others = 0;
	double rest = 0;
	struct rp_finding *x;
	char who[320], pids[160];

	for (int c = 0; c < d->ncpu_lines; c++)
		if (d->cpu_online[c] && d->cpu[c].busy >= CPU_HOT_PCT &&
		    (hot < 0 || d->cpu[c].busy > d->cpu[hot].busy))
			hot = c;
	/* a CPU hot with interrupts is irq-saturated's, which names the vector */
	if (hot < 0 || d->cpu[hot].irq >= IRQ_SATURATED_PCT)
		return 0;
	for (int c = 0; c < d->ncpu_lines; c++)
		if (d->cpu_online[c] && c != hot) {
			rest += d->cpu[c].busy;
			others++;
		}
	if (!others || rest / others > CPU_COLD_AVG_PCT)
		return 0;
	if (!(x = report_finding_add(f, RK_SINGLE_CPU_HOT, SEV_DEFAULT)))
		return -ENOMEM;
	x->subject.cpu = hot;
	x->weight = d->cpu[hot].busy;
	on_cpu(d, hot, x, who, sizeof(who));
	if (x->subject.npids)
		x->subject.pid = x->subject.pids[0];
	report_pid_list(x->subject.pids, x->subject.npids, pids, sizeof(pids));
	report_finding_brief(x, "CPU %d was %.0f%% busy while the other CPUs averaged %.0f%%", hot,
			     d->cpu[hot].busy, rest / others);
	report_finding_say(
	    x,
	    "CPU %d was %.0f%% busy while the other %d CPU%s averaged %.0f%%: work that "
	    "cannot spread (a single thread, pinning or IRQ affinity); on CPU %d: %s.",
	    hot, d->cpu[hot].busy, others, others > 1 ? "s" : "", rest / others, hot,
	    who[0] ? who : "no process seen");
	if (pids[0])
		report_finding_next(x, "Watch its tasks per thread",
				    "triage pidstat -u -t -p %s 1 5", pids);
	report_finding_ev(x, "cpu_busy", d->cpu[hot].busy, "%");
	report_finding_ev(x, "others_busy_avg", rest / others, "%");
	report_finding_ev(x, "irq", d->cpu[hot].irq, "%");
	return 0;
}

/* A victim: runnable but kept waiting, and not by its own request (nice). */
static bool contended(const struct rp_proc *p)
{
	return p->wait_pct >= CONTENTION_WAIT_PCT && p->nvcswch_s >= CONTENTION_NVCSW_S &&
	       !yields_by_design(p);
}

/* Whether a and b ran on a common CPU (true when either was not seen running). */
static bool shared_cpu(const struct rp_proc *a, const struct rp_proc *b)
{
	if (!procfs_cpuset_count(&a->ran) || !procfs_cpuset_count(&b->ran))
		return true;
	for (int w = 0; w < CPUSET_WORDS; w++)
		if (a->ran.w[w] & b->ran.w[w])
			return true;
	return false;
}

/*
 * The processes the worst victim waited behind: the biggest CPU users that
 * were not victims themselves and ran where it ran, named in the subject's
 * hogs and in words ("PID 7 spin 98% at nice 19").
 */
static void name_hogs(const struct report_data *d, const struct rp_proc *victim,
		      struct rp_finding *x, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->nprocs && x->subject.nhogs < RP_MAX_HOGS; i++) {
		const struct rp_proc *p = &d->procs[i];
		char nice[24] = "";
		int n;

		if (cpu_of(p) < CONTENTION_HOG_PCT)
			break; /* busiest first */
		if (contended(p) || !shared_cpu(p, victim))
			continue;
		x->subject.hogs[x->subject.nhogs++] = p->pid;
		if (p->has_nice && p->nice)
			snprintf(nice, sizeof(nice), " at nice %d", p->nice);
		n = used < size ? snprintf(buf + used, size - used, "%sPID %d %s %.0f%%%s",
					   used ? ", " : "", (int)p->pid, p->comm, cpu_of(p), nice)
				: 0;
		if (n > 0)
			used += (size_t)n;
	}
}

/* Whether a waited less than b (ties: the higher PID counts as less). */
static bool waited_less(const struct rp_proc *a, const struct rp_proc *b)
{
	return a->wait_pct < b->wait_pct || (a->wait_pct == b->wait_pct && a->pid > b->pid);
}

/* The victim that waited longest after `after` (NULL: the longest of all), or NULL. */
static const struct rp_proc *next_victim(const struct report_data *d, const struct rp_proc *after)
{
	const struct rp_proc *best = NULL;

	for (size_t i = 0; i < d->nprocs; i++) {
		const struct rp_proc *p = &d->procs[i];

		if (contended(p) && (!after || waited_less(p, after)) &&
		    (!best || waited_less(best, p)))
			best = p;
	}
	return best;
}

/*
 * The victims, longest wait first, into pids and (the first TOP_NAMED) the
 * sentence: "PID 50 hog waited 66% with 30 involuntary switches/s, pinned
 * to CPU 1; ...". Returns how many there were.
 */
static unsigned name_victims(const struct report_data *d, struct rp_finding *x, char *list,
			     size_t size)
{
	const struct rp_proc *p = NULL;
	char place[160];
	size_t used = 0;
	unsigned n = 0, named = 0;

	for (size_t i = 0; i < d->nprocs; i++)
		n += contended(&d->procs[i]);
	list[0] = '\0';
	while (named < RP_MAX_PIDS && (p = next_victim(d, p))) {
		int k;

		report_finding_pid(x, p->pid);
		if (++named > TOP_NAMED)
			continue; /* in pids, not in the sentence */
		report_placement_words(p, d->ncpu, place, sizeof(place));
		k = used < size ? snprintf(list + used, size - used,
					   "%sPID %d %s waited %.0f%% with %.0f involuntary "
					   "switches/s%s%s",
					   used ? "; " : "", (int)p->pid, p->comm, p->wait_pct,
					   p->nvcswch_s, place[0] ? ", " : "", place)
				: 0;
		if (k > 0)
			used += (size_t)k;
	}
	return n;
}

int report_rule_cpu_contention(const struct report_data *d, struct report_findings *f)
{
	const struct rp_proc *worst = next_victim(d, NULL);
	struct rp_finding *x = NULL;
	char list[520], hogs[240], alone[120];
	unsigned n;

	if (!worst)
		return 0;
	if (!(x = report_finding_add(f, RK_CPU_CONTENTION, SEV_DEFAULT)))
		return -ENOMEM;
	report_subject_proc(x, worst);
	x->weight = worst->wait_pct;
	n = name_victims(d, x, list, sizeof(list));
	name_hogs(d, worst, x, hogs, sizeof(hogs));
	snprintf(alone, sizeof(alone),
		 "no process that did not wait itself used %.0f%% of a CPU where PID %d ran",
		 CONTENTION_HOG_PCT, (int)worst->pid);
	report_finding_say(
	    x,
	    "%u process%s runnable but waiting for a CPU (run-queue delay, %% of the "
	    "window summed over threads): %s; %s%s.",
	    n, n > 1 ? "es were" : " was", list, hogs[0] ? "meanwhile the CPU went to " : alone,
	    hogs);
	report_finding_brief(
	    x, "%u process%s runnable but waiting for a CPU, PID %d %s %.0f%% of the window", n,
	    n > 1 ? "es were" : " was", (int)worst->pid, worst->comm, worst->wait_pct);
	report_finding_next(x, "See its run-queue latency", "triage probe runq -p %d -d 10",
			    (int)worst->pid);
	report_finding_ev(x, "runq_wait", worst->wait_pct, "% of the window");
	report_finding_ev(x, "nvcswch", worst->nvcswch_s, "/s");
	report_finding_ev(x, "processes", n, "processes");
	return 0;
}

int report_rule_cpu_throttled(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->ncgroups; i++) {
		const struct rp_cgroup *g = &d->cgroups[i];
		double share = g->periods ? 100.0 * (double)g->throttled / (double)g->periods : 0;
		struct rp_finding *x;
		char pids[160];

		if (!g->has_cpu || g->periods < THROTTLED_MIN_PERIODS ||
		    share < THROTTLED_PERIODS_PCT)
			continue;
		if (!(x = report_finding_add(f, RK_CPU_THROTTLED, SEV_DEFAULT)))
			return -ENOMEM;
		report_set_str(x->subject.cgroup, sizeof(x->subject.cgroup), g->path);
		for (size_t k = 0; k < g->npids; k++)
			report_finding_pid(x, g->pids[k]);
		if (g->npids)
			x->subject.pid = g->pids[0];
		x->weight = share;
		report_pid_list(g->pids, g->npids, pids, sizeof(pids));
		report_finding_brief(x, "cgroup %s was throttled in %.0f%% of its CPU periods",
				     g->path, share);
		report_finding_say(
		    x,
		    "cgroup %s (v%d) ran out of its CPU quota of %.2f CPUs in %llu of %llu periods "
		    "(%.0f%%) and was throttled for %.1f s in the %.1f s window%s%s.",
		    g->path, g->version, g->quota_cpus, (unsigned long long)g->throttled,
		    (unsigned long long)g->periods, share, (double)g->throttled_us / 1e6,
		    d->seconds, pids[0] ? "; processes: " : "", pids);
		if (pids[0])
			report_finding_next(x, "", "triage pidstat -u -p %s 1 5", pids);
		report_finding_ev(x, "throttled_periods", share, "%");
		report_finding_ev(x, "throttled_time", (double)g->throttled_us / 1e6, "s");
		report_finding_ev(x, "quota", g->quota_cpus, "CPUs");
	}
	return 0;
}

/*
 * The least CPU a process that wants one all the time must get to count as
 * CPU-bound: CPU_BOUND_MIN_PCT, or less on a saturated machine where every
 * runnable task gets only its share (CPU_FAIR_SHARE_FRACTION of it).
 */
static double bound_floor(const struct report_data *d)
{
	double queued = d->runnable_avg > d->ncpu ? d->runnable_avg : d->ncpu;
	double share = queued > 0 ? 100.0 * d->ncpu / queued * CPU_FAIR_SHARE_FRACTION : 100;

	return share < CPU_BOUND_MIN_PCT ? share : CPU_BOUND_MIN_PCT;
}

/*
 * Busy with a thread that wants a CPU, or wanting a CPU all the time while
 * getting a fair part of one. Many threads that each run a little and
 * sleep the rest add up to a busy process that the CPU does not limit.
 */
static bool is_cpu_bound(const struct report_data *d, const struct rp_proc *p)
{
	double cpu = cpu_of(p);

	/* no thread rows seen (top_tid 0): the process's own figure decides */
	bool a_thread_wants_cpu = !p->top_tid || p->top_demand_pct >= CPU_BOUND_THREAD_PCT;

	return (cpu >= CPU_BOUND_PCT && a_thread_wants_cpu) ||
	       (cpu >= bound_floor(d) && p->top_demand_pct >= CPU_DEMAND_PCT);
}

static int cpu_bound_procs(const struct report_data *d, struct report_findings *f, bool kernel)
{
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct rp_proc *p = &d->procs[i];

		if (mostly_kernel(p) == kernel && is_cpu_bound(d, p) && cpu_bound(d, p, f))
			return -ENOMEM;
	}
	return 0;
}

int report_rule_cpu_bound_user(const struct report_data *d, struct report_findings *f)
{
	return cpu_bound_procs(d, f, false);
}

int report_rule_cpu_bound_kernel(const struct report_data *d, struct report_findings *f)
{
	return cpu_bound_procs(d, f, true);
}
