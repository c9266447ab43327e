/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The report's rules on recorded snapshots: each test builds the window's
 * figures by hand (a quiet 2-CPU machine, then one fault), runs the rules
 * and checks the finding's kind, severity and subject, at each threshold
 * and just below it (the thresholds are src/report/thresholds.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/findings.h"
#include "report/kinds.h"
#include "report/schema.h"
#include "report/report.h"
#include "report/rules.h"
#include "report/thresholds.h"
#include "unit.h"

#define SECONDS 10.0

static struct rp_proc procs[16];

/* A quiet machine: 2 CPUs 10% busy, nothing queued, plenty of memory. */
static void quiet(struct report_data *d)
{
	memset(d, 0, sizeof(*d));
	memset(procs, 0, sizeof(procs));
	d->seconds = SECONDS;
	d->ncpu = 2;
	d->ncpu_lines = 2;
	for (int c = 0; c < 2; c++) {
		d->cpu_online[c] = true;
		d->cpu[c].busy = 10;
		d->cpu[c].usr = 8;
	}
	d->all = d->cpu[0];
	d->runnable_avg = 0.5;
	d->have_load = true;
	d->load[0] = 0.5;
	d->have_mem = d->have_vmstat = true;
	d->mem.total = 8 * 1048576;
	d->mem.available = 6 * 1048576;
	d->mem.has_available = true;
	d->have_disks = d->have_ifaces = d->have_kmsg = true;
	d->procs = procs;
}

/* One process: pid, CPU split (% of one CPU), one thread. */
static struct rp_proc *proc(struct report_data *d, pid_t pid, const char *comm, double usr,
			    double sys)
{
	struct rp_proc *p = &procs[d->nprocs++];

	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->usr_pct = usr;
	p->sys_pct = sys;
	p->nthreads = 1;
	p->top_tid = pid;
	p->top_thread_pct = usr + sys;
	p->top_demand_pct = usr + sys;
	return p;
}

static size_t count_kind(const struct report_findings *f, enum report_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += f->f[i].kind == k;
	return n;
}

static const struct rp_finding *find_kind(const struct report_findings *f, enum report_kind k)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->f[i].kind == k)
			return &f->f[i];
	return NULL;
}

static size_t problems(const struct report_findings *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += f->f[i].sev != SEV_INFO;
	return n;
}

TEST(quiet_machine_has_no_problem)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	proc(&d, 100, "sshd", 1, 1);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(problems(&f), 0);
	ASSERT_TRUE(!strncmp(f.headline, "OK:", 3));
	ASSERT_TRUE(f.nchecked >= 5);
	report_findings_release(&f);
}

/* The blog's carbon-relay: one thread near a whole CPU, user space, preempted often. */
TEST(blog_case_first_finding_is_cpu_bound_user_with_profile)
{
	struct report_data d;
	struct report_findings f;
	struct rp_proc *p;

	quiet(&d);
	proc(&d, 300, "cc1", 50, 5);
	p = proc(&d, 4711, "carbon-relay.py", 93, 3);
	p->nvcswch_s = 164;
	p->cswch_s = 71;
	procfs_cpuset_add(&p->ran, 0);
	procfs_cpuset_add(&p->ran, 1);
	p->has_allowed = true;
	procfs_cpuset_add(&p->allowed, 0);
	procfs_cpuset_add(&p->allowed, 1);
	/* the machine around it is busy too: cpu-saturated must come after */
	d.all.busy = 99;
	d.runnable_avg = 4;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_TRUE(f.n >= 2);
	ASSERT_EQ(f.f[0].kind, RK_CPU_BOUND_USER);
	ASSERT_EQ(f.f[0].subject.pid, 4711);
	ASSERT_EQ(f.f[0].sev, SEV_CRITICAL);
	ASSERT_STREQ(f.f[0].next, "triage probe profile -p 4711 -d 10");
	ASSERT_TRUE(strstr(f.f[0].summary, "ran on CPUs 0-1, allowed on all") != NULL);
	ASSERT_TRUE(strstr(f.f[0].summary, "164 involuntary") != NULL);
	ASSERT_TRUE(find_kind(&f, RK_CPU_SATURATED) != NULL);
	report_findings_release(&f);
}

/* CPU_BOUND_PCT: at the threshold a finding, just below none. */
TEST(cpu_bound_threshold)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	proc(&d, 10, "at", CPU_BOUND_PCT, 0)->top_thread_pct = 50; /* two threads */
	proc(&d, 11, "below", CPU_BOUND_PCT - 0.1, 0)->top_demand_pct = 0;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_BOUND_USER), 1);
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->subject.pid, 10);
	/* busiest thread below the ceiling: a warning */
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->sev, SEV_WARNING);
	report_findings_release(&f);
}

/* CPU_KERNEL_SHARE decides user or kernel; the kernel one asks for syscalls. */
TEST(cpu_bound_kernel_share)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *k;

	quiet(&d);
	proc(&d, 20, "sysloop", 45, 45); /* share 0.5: kernel */
	proc(&d, 21, "mostlyuser", 45.1, 44.9);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	k = find_kind(&f, RK_CPU_BOUND_KERNEL);
	ASSERT_TRUE(k != NULL);
	ASSERT_EQ(k->subject.pid, 20);
	ASSERT_STREQ(k->next, "triage probe syscalls -p 20 -d 10");
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->subject.pid, 21);
	report_findings_release(&f);
}

/* A contended hog: little CPU, but on a CPU or queued for one all the time. */
TEST(cpu_bound_by_demand)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	proc(&d, 30, "wants", CPU_BOUND_MIN_PCT, 0)->top_demand_pct = CPU_DEMAND_PCT;
	proc(&d, 31, "toolittle", CPU_BOUND_MIN_PCT - 0.1, 0)->top_demand_pct = 100;
	proc(&d, 32, "sleeps", 60, 0)->top_demand_pct = CPU_DEMAND_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_BOUND_USER), 1);
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->subject.pid, 30);
	/* it wanted a CPU but got a quarter: the tasks it queued behind hold it back, not its
	 * ceiling */
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->sev, SEV_WARNING);
	report_findings_release(&f);
}

/*
 * Critical: the busiest thread used a CPU, or wanted one and the process got
 * CPU_BOUND_PCT of one (it is at its ceiling, not queued behind others).
 */
TEST(cpu_bound_ceiling_by_demand)
{
	struct report_data d;
	struct report_findings f;
	struct rp_proc *p;

	quiet(&d);
	p = proc(&d, 40, "wants", CPU_BOUND_PCT, 0);
	p->top_thread_pct = CPU_THREAD_CEILING_PCT - 0.1;
	p->top_demand_pct = CPU_THREAD_CEILING_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->sev, SEV_CRITICAL);
	report_findings_release(&f);
	p->usr_pct = CPU_BOUND_PCT - 0.1; /* still CPU-bound by demand, not at its ceiling */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->sev, SEV_WARNING);
	report_findings_release(&f);
	p->top_demand_pct = CPU_THREAD_CEILING_PCT - 0.1;
	p->usr_pct = CPU_BOUND_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->sev, SEV_WARNING);
	report_findings_release(&f);
	p->top_thread_pct = CPU_THREAD_CEILING_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CPU_BOUND_USER)->sev, SEV_CRITICAL);
	report_findings_release(&f);
}

/*
 * The graphite scene on a shared 2-CPU machine: 16 runnable tasks, so each
 * gets 12.5% of a CPU; the relay never sleeps and gets 11%. Floor:
 * 100 x 2 / 16 x CPU_FAIR_SHARE_FRACTION = 10%.
 */
TEST(cpu_bound_on_a_saturated_machine)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;
	double floor = 100.0 * 2 / 16 * CPU_FAIR_SHARE_FRACTION;

	quiet(&d);
	d.all.busy = 100;
	d.runnable_avg = 16;
	proc(&d, 4711, "carbon-relay", floor + 1, 0.2)->top_demand_pct = 99;
	proc(&d, 60, "at", floor, 0)->top_demand_pct = 99;
	proc(&d, 61, "below", floor - 0.1, 0)->top_demand_pct = 99;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_BOUND_USER), 2);
	/*
	 * A starved compiler (cc1 at 14-21% among 15 runnable tasks) is a victim
	 * of the saturation: named, at info; cpu-saturated leads.
	 */
	ASSERT_EQ(f.f[0].kind, RK_CPU_SATURATED);
	x = find_kind(&f, RK_CPU_BOUND_USER);
	ASSERT_EQ(x->subject.pid, 4711);
	ASSERT_EQ(x->sev, SEV_INFO);
	ASSERT_EQ(x[1].subject.pid, 60);
	ASSERT_EQ(x[1].sev, SEV_INFO);
	ASSERT_TRUE(strstr(x->summary,
			   "so it would take more CPU if it got it (it got its share "
			   "of a saturated machine: a victim of the saturation") != NULL);
	report_findings_release(&f);
	/* from CPU_BOUND_MIN_PCT it is CPU-bound on any machine: a warning */
	procs[0].usr_pct = CPU_BOUND_MIN_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CPU_BOUND_USER);
	ASSERT_EQ(x->subject.pid, 4711);
	ASSERT_EQ(x->sev, SEV_WARNING);
	report_findings_release(&f);
}

TEST(cpu_saturated_boundaries)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	d.all.busy = CPU_SATURATED_BUSY_PCT;
	d.runnable_avg = 2.0; /* exactly one per CPU: not queued */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_SATURATED), 0);
	report_findings_release(&f);
	d.runnable_avg = 2.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_SATURATED), 1);
	report_findings_release(&f);
	/* PSI alone is enough with busy CPUs */
	d.runnable_avg = 1;
	d.have_psi[RP_PSI_CPU] = true;
	d.psi_some[RP_PSI_CPU] = PSI_CPU_SOME_WARN_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_SATURATED), 1);
	report_findings_release(&f);
	d.all.busy = CPU_SATURATED_BUSY_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_SATURATED), 0);
	report_findings_release(&f);
}

TEST(single_cpu_hot_boundaries)
{
	struct report_data d;
	struct report_findings f;
	struct rp_proc *p;
	const struct rp_finding *x;

	quiet(&d);
	d.cpu[1].busy = CPU_HOT_PCT;
	d.cpu[0].busy = CPU_COLD_AVG_PCT;
	p = proc(&d, 40, "hog", 30, 0);
	procfs_cpuset_add(&p->ran, 1);
	p->has_allowed = true;
	procfs_cpuset_add(&p->allowed, 1);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_SINGLE_CPU_HOT);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->subject.cpu, 1);
	ASSERT_EQ(x->subject.pids[0], 40);
	ASSERT_STREQ(x->next, "triage pidstat -u -t -p 40 1 5");
	report_findings_release(&f);
	d.cpu[0].busy = CPU_COLD_AVG_PCT + 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_SINGLE_CPU_HOT), 0);
	report_findings_release(&f);
	d.cpu[0].busy = 0;
	d.cpu[1].busy = CPU_HOT_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_SINGLE_CPU_HOT), 0);
	report_findings_release(&f);
}

/* Three hogs on one CPU: one cpu-contention finding naming the three, pinned. */
TEST(cpu_contention_names_every_waiter)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	for (int i = 0; i < 3; i++) {
		struct rp_proc *p = proc(&d, 50 + i, "hog", 33, 0);

		p->wait_pct = 66 - i;
		p->nvcswch_s = 30;
		p->has_allowed = true;
		procfs_cpuset_add(&p->allowed, 1);
	}
	proc(&d, 60, "justbelow", 10, 0)->wait_pct = CONTENTION_WAIT_PCT - 0.1;
	procs[3].nvcswch_s = 100;
	proc(&d, 61, "fewswitches", 10, 0)->wait_pct = 50;
	procs[4].nvcswch_s = CONTENTION_NVCSW_S - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_CONTENTION), 1);
	x = find_kind(&f, RK_CPU_CONTENTION);
	ASSERT_EQ(x->subject.pid, 50);
	ASSERT_EQ(x->subject.npids, 3);
	ASSERT_TRUE(strstr(x->summary, "pinned to CPU 1") != NULL);
	/* they competed with each other: nobody else to name */
	ASSERT_EQ(x->subject.nhogs, 0);
	ASSERT_TRUE(strstr(x->summary, "no process that did not wait itself used 25% of a CPU "
				       "where PID 50 ran") != NULL);
	report_findings_release(&f);
}

/* A process of many threads that each run a little is not CPU-bound (CPU_BOUND_THREAD_PCT). */
TEST(cpu_bound_needs_a_thread_that_wants_a_cpu)
{
	struct report_data d;
	struct report_findings f;
	struct rp_proc *p;

	quiet(&d);
	/* 16 threads at 6% each: 96% of one CPU, every thread asleep most of the time */
	p = proc(&d, 40, "pool", 96, 0);
	p->nthreads = 16;
	p->top_thread_pct = 6;
	p->top_demand_pct = CPU_BOUND_THREAD_PCT - 0.1;
	p = proc(&d, 41, "atthread", 96, 0);
	p->nthreads = 16;
	p->top_thread_pct = 40;
	p->top_demand_pct = CPU_BOUND_THREAD_PCT;
	/* no thread rows seen: the process's own figure decides, as before */
	p = proc(&d, 42, "nothreads", 96, 0);
	p->top_tid = 0;
	p->top_thread_pct = p->top_demand_pct = 0;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_BOUND_USER), 2);
	for (size_t i = 0; i < f.n; i++)
		ASSERT_TRUE(f.f[i].kind != RK_CPU_BOUND_USER || f.f[i].subject.pid != 40);
	report_findings_release(&f);
}

/* A hog at nice CPU_BY_DESIGN_NICE or more takes what others leave: info, not critical. */
TEST(cpu_bound_niced_is_info)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;
	struct rp_proc *p;

	quiet(&d);
	p = proc(&d, 70, "niced", 99, 0);
	p->has_nice = true;
	p->nice = CPU_BY_DESIGN_NICE;
	p = proc(&d, 71, "lessniced", 98, 0);
	p->has_nice = true;
	p->nice = CPU_BY_DESIGN_NICE - 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_BOUND_USER), 2);
	for (size_t i = 0; i < f.n; i++) {
		x = &f.f[i];
		if (x->kind != RK_CPU_BOUND_USER)
			continue;
		ASSERT_EQ(x->sev, x->subject.pid == 70 ? SEV_INFO : SEV_CRITICAL);
		ASSERT_EQ(!!strstr(x->summary, "asking for only the CPU time others leave"),
			  x->subject.pid == 70);
	}
	/* the headline is the critical one */
	ASSERT_TRUE(strstr(f.headline, "PID 71") != NULL);
	report_findings_release(&f);
}

/* The victims are the waiters at normal priority; the hogs are whom they waited behind. */
TEST(cpu_contention_names_victims_and_hogs)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;
	struct rp_proc *p;
	const char *a, *b;

	quiet(&d);
	p = proc(&d, 80, "nicehog", 50, 0); /* waits too, but asked to */
	p->wait_pct = 50;
	p->nvcswch_s = 30;
	p->has_nice = true;
	p->nice = 19;
	procfs_cpuset_add(&p->ran, 1);
	p = proc(&d, 81, "victim", 49, 0);
	p->wait_pct = 51;
	p->nvcswch_s = 30;
	p->has_nice = true;
	procfs_cpuset_add(&p->ran, 1);
	p = proc(&d, 82, "elsewhere", 90, 0); /* busy, but on another CPU */
	procfs_cpuset_add(&p->ran, 0);
	proc(&d, 83, "small", CONTENTION_HOG_PCT - 0.1, 0);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_CONTENTION), 1);
	x = find_kind(&f, RK_CPU_CONTENTION);
	ASSERT_EQ(x->subject.pid, 81);
	ASSERT_EQ(x->subject.npids, 1);
	ASSERT_EQ(x->subject.pids[0], 81);
	ASSERT_EQ(x->subject.nhogs, 1);
	ASSERT_EQ(x->subject.hogs[0], 80);
	ASSERT_TRUE(strstr(x->summary, "meanwhile the CPU went to PID 80 nicehog 50% at nice 19") !=
		    NULL);
	report_findings_release(&f);

	/* the niced hog alone, waiting behind nobody's victim: no contention */
	procs[1].wait_pct = 0;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_CONTENTION), 0);
	report_findings_release(&f);

	/* at CONTENTION_HOG_PCT a process is a hog */
	procs[1].wait_pct = 51;
	procs[3].usr_pct = CONTENTION_HOG_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CPU_CONTENTION);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->subject.nhogs, 2);
	ASSERT_EQ(x->subject.hogs[1], 83);
	report_findings_release(&f);

	/* victims by run-queue delay, longest first, whatever CPU they got */
	p = proc(&d, 84, "starved", 5, 0);
	p->wait_pct = 70;
	p->nvcswch_s = CONTENTION_NVCSW_S;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CPU_CONTENTION);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->subject.pid, 84);
	ASSERT_EQ(x->subject.npids, 2);
	ASSERT_EQ(x->subject.pids[0], 84);
	ASSERT_EQ(x->subject.pids[1], 81);
	a = strstr(x->summary, "PID 84 starved waited 70%");
	b = strstr(x->summary, "PID 81 victim waited 51%");
	ASSERT_TRUE(a && b && a < b);
	report_findings_release(&f);
}

/* A locker at every lock-contention threshold, then each one just past it. */
static struct rp_proc *locker(struct report_data *d, pid_t pid)
{
	struct rp_proc *p = proc(d, pid, "locker", 0, 0);

	p->nthreads = LOCK_MIN_THREADS;
	/* just under LOCK_THREAD_CPU_PCT a thread */
	p->usr_pct = LOCK_MIN_THREADS * LOCK_THREAD_CPU_PCT - 0.1;
	p->top_thread_pct = p->top_demand_pct = LOCK_THREAD_CPU_PCT;
	p->cswch_s = LOCK_CSWCH_S;
	p->has_futex = true;
	p->futex_threads = 4;
	p->futex_waiting = 3; /* more than LOCK_FUTEX_SHARE of them */
	p->futex_same_word = LOCK_SAME_WORD_MIN;
	return p;
}

TEST(lock_contention_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	locker(&d, 90);
	locker(&d, 91)->nthreads = LOCK_MIN_THREADS - 1;
	locker(&d, 92)->cswch_s = LOCK_CSWCH_S - 0.1;
	locker(&d, 93)->usr_pct = LOCK_MIN_THREADS * LOCK_THREAD_CPU_PCT;
	locker(&d, 94)->futex_waiting = 2; /* exactly half */
	locker(&d, 95)->has_futex = false;
	locker(&d, 96)->exited = true;
	locker(&d, 97)->futex_same_word = LOCK_SAME_WORD_MIN - 1; /* each on a word of its own */
	/* no waiter's word readable (wchan only): the share alone decides */
	locker(&d, 98)->futex_same_word = 0;
	procs[8].futex_no_word = procs[8].futex_waiting;
	ASSERT_TRUE(report_lock_contention_candidate(&procs[0]));
	ASSERT_TRUE(!report_lock_contention_candidate(&procs[1]));
	ASSERT_TRUE(!report_lock_contention_candidate(&procs[2]));
	ASSERT_TRUE(!report_lock_contention_candidate(&procs[3]));
	ASSERT_TRUE(!report_lock_contention_candidate(&procs[6]));
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_LOCK_CONTENTION), 2);
	x = find_kind(&f, RK_LOCK_CONTENTION);
	ASSERT_EQ(x->subject.pid, 90);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_STREQ(x->next, "triage probe offcpu -p 90 -d 10");
	ASSERT_TRUE(strstr(x->summary, "3 of its 4 threads were asleep in a futex wait at the "
				       "window's end, 2 of them on one futex word") != NULL);
	ASSERT_EQ(f.f[1].kind, RK_LOCK_CONTENTION);
	ASSERT_EQ(f.f[1].subject.pid, 98);
	ASSERT_TRUE(strstr(f.f[1].summary, "futex word") == NULL);
	ASSERT_TRUE(
	    !strncmp(f.headline, "WARNING: PID 90 locker: 3 of 4 threads waiting on a lock", 56));
	report_findings_release(&f);
}

TEST(cpu_throttled_boundaries)
{
	struct report_data d;
	struct report_findings f;
	struct rp_cgroup *g;
	const struct rp_finding *x;

	quiet(&d);
	d.ncgroups = 1;
	g = &d.cgroups[0];
	snprintf(g->path, sizeof(g->path), "/capped");
	g->version = 2;
	g->has_cpu = true;
	g->quota_cpus = 0.2;
	g->periods = THROTTLED_MIN_PERIODS;
	g->throttled = 1; /* 20% */
	g->npids = 1;
	g->pids[0] = 70;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CPU_THROTTLED);
	ASSERT_TRUE(x != NULL);
	ASSERT_STREQ(x->subject.cgroup, "/capped");
	ASSERT_EQ(x->subject.pid, 70);
	report_findings_release(&f);
	g->periods = THROTTLED_MIN_PERIODS - 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_THROTTLED), 0);
	report_findings_release(&f);
	g->periods = 1000;
	g->throttled = (uint64_t)(THROTTLED_PERIODS_PCT * 10) - 1; /* 9.9% */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_THROTTLED), 0);
	report_findings_release(&f);
}

TEST(load_uninterruptible_needs_the_whole_window)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.ndtasks = 2;
	d.nd_counted = 2;
	d.dtasks[0].pid = d.dtasks[0].tid = 80;
	snprintf(d.dtasks[0].reason, sizeof(d.dtasks[0].reason), "vfork parent");
	d.dtasks[1].pid = d.dtasks[1].tid = 81; /* seen only at the end */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_LOAD_UNINTERRUPTIBLE), 0);
	report_findings_release(&f);
	d.dtasks[0].whole_window = true;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_LOAD_UNINTERRUPTIBLE);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->subject.pid, 80);
	ASSERT_EQ(x->subject.npids, 1);
	ASSERT_STREQ(x->next, "triage probe offcpu -p 80 -d 10");
	report_findings_release(&f);
}

TEST(memory_pressure_boundaries)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	d.have_psi[RP_PSI_MEM] = true;
	d.psi_some[RP_PSI_MEM] = PSI_MEM_SOME_WARN_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_MEMORY_PRESSURE), 0);
	report_findings_release(&f);
	d.psi_some[RP_PSI_MEM] = PSI_MEM_SOME_WARN_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_MEMORY_PRESSURE)->sev, SEV_WARNING);
	report_findings_release(&f);
	d.psi_some[RP_PSI_MEM] = PSI_MEM_SOME_CRIT_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_MEMORY_PRESSURE)->sev, SEV_CRITICAL);
	report_findings_release(&f);
	/* available memory below 10%, no stall */
	d.psi_some[RP_PSI_MEM] = 0;
	d.mem.available = d.mem.total / 10 - 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_MEMORY_PRESSURE), 1);
	report_findings_release(&f);
}

/* A v1 memory cgroup at its limit names the cgroup and its processes, once. */
TEST(memory_cgroup_limit_hits)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;
	struct rp_cgroup *g;

	quiet(&d);
	d.ncgroups = 1;
	g = &d.cgroups[0];
	snprintf(g->path, sizeof(g->path), "/squeezed");
	g->version = 1;
	g->has_mem = true;
	g->failcnt = 500;
	g->npids = 1;
	g->pids[0] = 90;
	proc(&d, 90, "churn", 20, 30)->majflt_s = MAJFLT_WARN_S * 5;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_MEMORY_PRESSURE), 1);
	x = find_kind(&f, RK_MEMORY_PRESSURE);
	ASSERT_STREQ(x->subject.cgroup, "/squeezed");
	ASSERT_EQ(x->subject.pid, 90);
	ASSERT_STREQ(x->subject.comm, "churn");
	report_findings_release(&f);
	/* without the cgroup's events, the faults alone make a process finding */
	g->failcnt = 0;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_MEMORY_PRESSURE)->subject.pid, 90);
	ASSERT_TRUE(find_kind(&f, RK_MEMORY_PRESSURE)->subject.cgroup[0] == '\0');
	report_findings_release(&f);
}

TEST(swapping_boundary)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	d.swapin_s = SWAP_WARN_PAGES_S / 2;
	d.swapout_s = SWAP_WARN_PAGES_S / 2 - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_SWAPPING), 0);
	report_findings_release(&f);
	d.swapout_s = SWAP_WARN_PAGES_S / 2;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_SWAPPING), 1);
	report_findings_release(&f);
}

TEST(oom_kill_from_log_and_counter)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.nkevents = 1;
	d.kevents[0].event = KMSG_OOM_KILL;
	d.kevents[0].pid = 95;
	d.kevents[0].in_window = true;
	snprintf(d.kevents[0].comm, sizeof(d.kevents[0].comm), "bloat");
	snprintf(d.kevents[0].cgroup, sizeof(d.kevents[0].cgroup), "/box");
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_OOM_KILL);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_CRITICAL);
	ASSERT_EQ(x->subject.pid, 95);
	ASSERT_STREQ(x->subject.cgroup, "/box");
	ASSERT_EQ(f.f[0].kind, RK_OOM_KILL);
	report_findings_release(&f);
	d.kevents[0].in_window = false; /* the recent past: still reported, less severe */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_OOM_KILL)->sev, SEV_WARNING);
	report_findings_release(&f);
	/* no readable log: the vmstat counter still tells */
	d.nkevents = 0;
	d.have_kmsg = false;
	d.have_oom_counter = true;
	d.oom_kills = 2;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_OOM_KILL), 1);
	ASSERT_EQ(find_kind(&f, RK_OOM_KILL)->subject.pid, 0);
	report_findings_release(&f);
}

static int sev_of(const struct report_data *d, enum report_kind k)
{
	struct report_findings f;
	const struct rp_finding *x;
	int sev;

	if (report_evaluate(d, &f))
		return -2;
	x = find_kind(&f, k);
	sev = x ? (int)x->sev : -1;
	report_findings_release(&f);
	return sev;
}

static void disk(struct rp_disk *k, const char *name, double util, double aqu, double await)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->util_pct = util;
	k->aqu_sz = aqu;
	k->await_ms = await;
	k->r_s = 500;
}

/* Saturated: busy, and requests queue (aqu-sz) and wait (await), each at its threshold. */
TEST(disk_saturated_boundaries)
{
	static struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.ndisks = 1;
	disk(&d.disks[0], "loop7", DISK_UTIL_WARN_PCT, DISK_QUEUE_WARN, DISK_AWAIT_WARN_MS);
	ASSERT_EQ(sev_of(&d, RK_DISK_SATURATED), SEV_WARNING);
	d.disks[0].util_pct = DISK_UTIL_WARN_PCT - 0.1;
	ASSERT_EQ(sev_of(&d, RK_DISK_SATURATED), -1);
	d.disks[0].util_pct = DISK_UTIL_WARN_PCT;
	d.disks[0].aqu_sz = DISK_QUEUE_WARN - 0.01;
	ASSERT_EQ(sev_of(&d, RK_DISK_SATURATED), -1);
	d.disks[0].aqu_sz = DISK_QUEUE_WARN;
	d.disks[0].await_ms = DISK_AWAIT_WARN_MS - 0.01;
	ASSERT_EQ(sev_of(&d, RK_DISK_SATURATED), -1);
	/* a real one: the throttled loop device of tests/report/disk_loop.t */
	disk(&d.disks[0], "loop7", 100, 4.0, 62);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_DISK_SATURATED), 1);
	x = find_kind(&f, RK_DISK_SATURATED);
	ASSERT_STREQ(x->subject.device, "loop7");
	ASSERT_TRUE(strstr(x->summary, "busy 100% of the window with 4.00 requests queued"));
	ASSERT_TRUE(strstr(x->summary, "(aqu-sz) each waiting 62.00 ms (await)"));
	report_findings_release(&f);
}

/* A device that serves requests in parallel: 100% busy, one request at a time, no wait. */
TEST(disk_busy_in_parallel_is_not_saturated)
{
	static struct report_data d;
	struct report_findings f;

	quiet(&d);
	d.ndisks = 2;
	disk(&d.disks[0], "nvme0n1", 100, 1.2, 0.25); /* multi-queue: busy, never waits */
	disk(&d.disks[1], "vda", 100, 8.0, 0.4);      /* deep queue served at once */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_DISK_SATURATED), 0);
	report_findings_release(&f);
}

/* A throttled reader: D on I/O in a v1 blkio group below a limited one. */
static void throttled(struct report_data *d, double psi)
{
	struct rp_cgroup *g = &d->cgroups[0];
	struct rp_dtask *t = &d->dtasks[0];

	quiet(d);
	d->have_psi[RP_PSI_IO] = true;
	d->psi_some[RP_PSI_IO] = psi;
	d->ndisks = 1;
	disk(&d->disks[0], "loop0", 1, 0.02, 0.5);
	d->have_cgroups = true;
	d->ncgroups = 1;
	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "/batch");
	g->version = 1;
	g->has_io = true;
	snprintf(g->io_limit.device, sizeof(g->io_limit.device), "loop0");
	g->io_limit.major = 7;
	g->io_limit.rbps = 65536;
	g->io_rbytes = (uint64_t)(65536 * SECONDS); /* at its limit */
	g->pids[0] = 812;
	g->npids = 1;
	d->ndtasks = 2;
	for (int i = 0; i < 2; i++) {
		t = &d->dtasks[i];
		memset(t, 0, sizeof(*t));
		t->pid = 812;
		t->tid = 812 + i;
		snprintf(t->comm, sizeof(t->comm), "reader");
		snprintf(t->reason, sizeof(t->reason), "disk I/O");
		snprintf(t->reason_key, sizeof(t->reason_key), "disk_io");
		snprintf(t->frame, sizeof(t->frame), "submit_bio_wait");
		snprintf(t->io_cgroup, sizeof(t->io_cgroup), "/batch/reader");
	}
}

TEST(io_stall_boundaries)
{
	static struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	throttled(&d, PSI_IO_SOME_WARN_PCT - 0.1);
	ASSERT_EQ(sev_of(&d, RK_IO_STALL), -1);
	d.psi_some[RP_PSI_IO] = PSI_IO_SOME_WARN_PCT;
	ASSERT_EQ(sev_of(&d, RK_IO_STALL), SEV_WARNING);
	d.psi_some[RP_PSI_IO] = PSI_IO_SOME_CRIT_PCT - 0.1;
	ASSERT_EQ(sev_of(&d, RK_IO_STALL), SEV_WARNING);
	d.psi_some[RP_PSI_IO] = PSI_IO_SOME_CRIT_PCT;
	ASSERT_EQ(sev_of(&d, RK_IO_STALL), SEV_CRITICAL);
	d.have_psi[RP_PSI_IO] = false; /* no PSI: no figure to judge */
	ASSERT_EQ(sev_of(&d, RK_IO_STALL), -1);
	d.have_psi[RP_PSI_IO] = true;
	/* a saturated disk explains the wait: disk-saturated says so, io-stall does not */
	disk(&d.disks[0], "loop0", 100, 4, 60);
	ASSERT_EQ(sev_of(&d, RK_IO_STALL), -1);
	ASSERT_EQ(sev_of(&d, RK_DISK_SATURATED), SEV_WARNING);
	/* the same device busy in parallel is not saturated: io-stall again */
	disk(&d.disks[0], "loop0", 100, 1, 0.3);
	ASSERT_EQ(sev_of(&d, RK_IO_STALL), SEV_CRITICAL);

	throttled(&d, 68);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(f.f[0].kind, RK_IO_STALL); /* critical, and before load-uninterruptible */
	x = &f.f[0];
	ASSERT_EQ(x->subject.pid, 812);
	ASSERT_EQ(x->subject.npids, 1); /* one process, two threads */
	ASSERT_STREQ(x->subject.cgroup, "/batch");
	ASSERT_TRUE(strstr(x->summary, "Some task waited on I/O 68% of the window (PSI io some) "
				       "while no disk was saturated"));
	ASSERT_TRUE(strstr(x->summary, "cgroup /batch throttles them (v1 blkio.throttle limits "
				       "reads on loop0 to 64 kB/s (it read 64 kB/s): 100% of "
				       "the limit)"));
	ASSERT_TRUE(strstr(x->summary, "PID 812 reader (disk I/O in submit_bio_wait, 2 threads)"));
	ASSERT_STREQ(x->next, "triage pidstat -d -p 812 1 5");
	report_findings_release(&f);
}

/* With no waiter caught, a cgroup counts when it used IO_LIMIT_NEAR_PCT of its limit. */
TEST(io_stall_cgroup_at_its_limit)
{
	static struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	throttled(&d, 40);
	d.ndtasks = 0;
	d.cgroups[0].io_rbytes = (uint64_t)(65536 * SECONDS * IO_LIMIT_NEAR_PCT / 100);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_IO_STALL);
	ASSERT_TRUE(x != NULL);
	ASSERT_STREQ(x->subject.cgroup, "/batch");
	ASSERT_EQ(x->subject.pid, 812); /* the cgroup's process */
	ASSERT_TRUE(strstr(x->summary, "no task was caught in D on I/O"));
	report_findings_release(&f);
	d.cgroups[0].io_rbytes = (uint64_t)(65536 * SECONDS * (IO_LIMIT_NEAR_PCT - 1) / 100);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_IO_STALL);
	ASSERT_TRUE(x != NULL);
	ASSERT_STREQ(x->subject.cgroup, "");
	ASSERT_EQ(x->subject.pid, 0);
	ASSERT_STREQ(x->next, "triage pidstat -d -p ALL 1 5");
	report_findings_release(&f);
	/* a waiter in another group is not held by /batch: still named, no cgroup */
	throttled(&d, 40);
	d.cgroups[0].io_rbytes = 0;
	snprintf(d.dtasks[0].io_cgroup, sizeof(d.dtasks[0].io_cgroup), "/batchmates");
	snprintf(d.dtasks[1].io_cgroup, sizeof(d.dtasks[1].io_cgroup), "/batchmates");
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_IO_STALL);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->subject.pid, 812);
	ASSERT_STREQ(x->subject.cgroup, "");
	report_findings_release(&f);
}

/* Two throttled cgroups (two users' readers): one finding each, naming its own reader. */
TEST(io_stall_one_finding_per_throttling_cgroup)
{
	static struct report_data d;
	struct report_findings f;
	size_t seen = 0;

	throttled(&d, 60);
	d.cgroups[1] = d.cgroups[0];
	snprintf(d.cgroups[1].path, sizeof(d.cgroups[1].path), "/other");
	d.cgroups[1].pids[0] = 900;
	d.ncgroups = 2;
	d.dtasks[1].pid = d.dtasks[1].tid = 900;
	snprintf(d.dtasks[1].io_cgroup, sizeof(d.dtasks[1].io_cgroup), "/other");
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_IO_STALL), 2);
	for (size_t i = 0; i < f.n; i++) {
		const struct rp_finding *x = &f.f[i];

		if (x->kind != RK_IO_STALL)
			continue;
		ASSERT_EQ(x->subject.npids, 1);
		ASSERT_EQ(x->subject.pid, !strcmp(x->subject.cgroup, "/batch") ? 812 : 900);
		seen++;
	}
	ASSERT_EQ(seen, 2);
	report_findings_release(&f);
}

/* Waiting in a FUSE file system: the family named, where they wait next. */
TEST(io_stall_on_a_network_or_fuse_fs)
{
	static struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	throttled(&d, 30);
	d.ncgroups = 0;
	d.ndtasks = 1;
	snprintf(d.dtasks[0].reason_key, sizeof(d.dtasks[0].reason_key), "netfs");
	snprintf(d.dtasks[0].reason, sizeof(d.dtasks[0].reason), "network or FUSE file system");
	snprintf(d.dtasks[0].frame, sizeof(d.dtasks[0].frame), "fuse_simple_request");
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_IO_STALL);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->subject.pid, 812);
	ASSERT_STREQ(x->subject.fstype, "fuse");
	ASSERT_TRUE(
	    strstr(x->summary, "the tasks wait on a fuse file system, not on a local disk"));
	ASSERT_STREQ(x->next, "triage probe offcpu -p 812 -d 10");
	report_findings_release(&f);
}

/*
 * On cgroup v1 a task is in one group per controller (a fixture
 * /proc/PID/cgroup's paths): each kind names the controller's group that
 * explains it, not the deepest path.
 */
TEST(subject_cgroup_is_the_controllers)
{
	static const char v1[] = "9:name=systemd:/user.slice\n7:blkio:/io-limited\n"
				 "4:memory:/process_api/abc\n3:cpuset:/pinned\n2:cpuacct:/\n"
				 "1:cpu:/\n0::/\n";
	static struct report_data d;
	struct task_cgroups cg;
	struct report_findings f;
	struct rp_proc *p;

	quiet(&d);
	p = proc(&d, 4711, "relay", 95, 1);
	ASSERT_EQ(procfs_task_cgroups_parse(v1, sizeof(v1) - 1, &cg), 0);
	snprintf(p->cgroup, sizeof(p->cgroup), "%s", cg.display);
	for (int c = 0; c < CGC_COUNT; c++)
		snprintf(p->cgroups[c], sizeof(p->cgroups[c]), "%s",
			 procfs_task_cgroups_path(&cg, (enum cg_controller)c));
	ASSERT_STREQ(p->cgroup, "/process_api/abc"); /* the deepest: what was named before */
	/* placement: cpu is the root, cpuset is not */
	ASSERT_STREQ(report_proc_cgroup_for(p, RK_CPU_BOUND_USER), "/pinned");
	ASSERT_STREQ(report_proc_cgroup_for(p, RK_CPU_CONTENTION), "/pinned");
	ASSERT_STREQ(report_proc_cgroup_for(p, RK_MEMORY_PRESSURE), "/process_api/abc");
	ASSERT_STREQ(report_proc_cgroup_for(p, RK_IO_STALL), "/io-limited");
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(f.f[0].kind, RK_CPU_BOUND_USER);
	ASSERT_STREQ(f.f[0].subject.cgroup, "/pinned");
	report_findings_release(&f);
	/* a cpu group below the root (a quota, a weight) explains CPU kinds */
	snprintf(p->cgroups[CGC_CPU], sizeof(p->cgroups[CGC_CPU]), "/batch");
	ASSERT_STREQ(report_proc_cgroup_for(p, RK_CPU_BOUND_USER), "/batch");
	/* every group at the root: no cgroup in the subject */
	for (int c = 0; c < CGC_COUNT; c++)
		snprintf(p->cgroups[c], sizeof(p->cgroups[c]), "/");
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_STREQ(f.f[0].subject.cgroup, "");
	report_findings_release(&f);
	/* a recording keeps one path per process: that one */
	memset(p->cgroups, 0, sizeof(p->cgroups));
	ASSERT_STREQ(report_proc_cgroup_for(p, RK_CPU_BOUND_USER), "/process_api/abc");
}

TEST(net_drops_boundary)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	d.nifaces = 2;
	snprintf(d.ifaces[0].name, sizeof(d.ifaces[0].name), "eth0");
	d.ifaces[0].rx_drop = (uint64_t)(NET_DROPS_WARN_S * SECONDS); /* exactly 1/s */
	snprintf(d.ifaces[1].name, sizeof(d.ifaces[1].name), "eth1");
	d.ifaces[1].rx_drop = (uint64_t)(NET_DROPS_WARN_S * SECONDS) - 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_NET_DROPS), 1);
	ASSERT_TRUE(find_kind(&f, RK_NET_DROPS) != NULL);
	ASSERT_STREQ(find_kind(&f, RK_NET_DROPS)->subject.iface, "eth0");
	report_findings_release(&f);
}

TEST(tcp_retransmits_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.nnetns = 2;
	d.netns[0].ours = true;
	d.netns[0].out_segs = 1000;
	d.netns[0].retrans_segs = 9; /* below the minimum count */
	d.netns[1].npids = 2;
	d.netns[1].pids[0] = 120;
	d.netns[1].pids[1] = 121;
	d.netns[1].retrans_segs = (uint64_t)(TCP_RETRANS_WARN_PCT * 10); /* 1% */
	d.netns[1].out_segs = 1000 - d.netns[1].retrans_segs; /* OutSegs counts no resend */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_TCP_RETRANSMITS), 1);
	x = find_kind(&f, RK_TCP_RETRANSMITS);
	ASSERT_EQ(x->subject.pid, 120);
	ASSERT_EQ(x->subject.npids, 2);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_STREQ(x->next, "nsenter -t 120 -n ss -tin state established");
	report_findings_release(&f);
	d.netns[1].retrans_segs = (uint64_t)(TCP_RETRANS_CRIT_PCT * 10);
	d.netns[1].out_segs = 1000 - d.netns[1].retrans_segs;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_TCP_RETRANSMITS)->sev, SEV_CRITICAL);
	report_findings_release(&f);
	/* just below the warning: 9 of 1000 sent */
	d.netns[1].retrans_segs = (uint64_t)(TCP_RETRANS_WARN_PCT * 10) - 1;
	d.netns[1].out_segs = 1000 - d.netns[1].retrans_segs;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_TCP_RETRANSMITS), 0);
	report_findings_release(&f);
}

/*
 * A backlog-1 listener in a namespace: clients resend SYNs the server
 * dropped (RetransSegs twice OutSegs, as measured). That is no loss on the
 * way, and no share above 100% is ever written.
 */
TEST(tcp_retransmits_not_listen_syns)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.nnetns = 1;
	d.netns[0].npids = 1;
	d.netns[0].pids[0] = 120;
	d.netns[0].out_segs = 3200;
	d.netns[0].retrans_segs = 6256;
	d.netns[0].syn_retrans = 6256;
	d.netns[0].listen_overflows = 6315;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_TCP_RETRANSMITS), 0);
	ASSERT_EQ(count_kind(&f, RK_TCP_LISTEN_OVERFLOWS), 1);
	report_findings_release(&f);
	/* without overflows the SYNs count (a filter dropping them), at most 100% */
	d.netns[0].listen_overflows = 0;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_TCP_RETRANSMITS);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_CRITICAL);
	ASSERT_TRUE(strstr(x->summary, "(66.2%)") != NULL);
	report_findings_release(&f);
}

/* UDP receive-buffer errors: a warning from one a second, critical from 100, naming the socket. */
TEST(udp_drops_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	proc(&d, 900, "receiver", 0, 0);
	d.nnetns = 1;
	d.netns[0].npids = 2;
	d.netns[0].pids[0] = 899;
	d.netns[0].pids[1] = 900;
	d.netns[0].has_udp = true;
	d.netns[0].udp_rcvbuf_errors = (uint64_t)(UDP_RCVBUF_WARN_S * SECONDS);
	d.netns[0].udp_in_errors = d.netns[0].udp_rcvbuf_errors;
	d.netns[0].has_udp_top = true;
	snprintf(d.netns[0].udp_top.addr, sizeof(d.netns[0].udp_top.addr), "0.0.0.0");
	d.netns[0].udp_top.port = 5000;
	d.netns[0].udp_top.drops = 10;
	d.netns[0].udp_top.pid = 900;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_UDP_DROPS);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_EQ(x->subject.pid, 900);
	ASSERT_STREQ(x->subject.comm, "receiver");
	ASSERT_TRUE(strstr(x->summary, "socket 0.0.0.0:5000 of PID 900 receiver dropped 10") !=
		    NULL);
	ASSERT_STREQ(x->next, "nsenter -t 899 -n ss -uanmp");
	report_findings_release(&f);
	d.netns[0].udp_rcvbuf_errors = (uint64_t)(UDP_RCVBUF_CRIT_S * SECONDS);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_UDP_DROPS)->sev, SEV_CRITICAL);
	report_findings_release(&f);
	d.netns[0].udp_rcvbuf_errors = (uint64_t)(UDP_RCVBUF_CRIT_S * SECONDS) - 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_UDP_DROPS)->sev, SEV_WARNING);
	report_findings_release(&f);
	d.netns[0].udp_rcvbuf_errors = (uint64_t)(UDP_RCVBUF_WARN_S * SECONDS) - 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_UDP_DROPS), 0);
	report_findings_release(&f);
}

/* Critical from one overflow per second, naming the full listener and its owner. */
TEST(tcp_listen_overflows_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	proc(&d, 812, "server", 0, 0);
	d.nnetns = 1;
	d.netns[0].ours = true;
	d.netns[0].listen_overflows = (uint64_t)(TCP_LISTEN_OVERFLOW_CRIT_S * SECONDS);
	d.netns[0].has_full = true;
	snprintf(d.netns[0].full.addr, sizeof(d.netns[0].full.addr), "127.0.0.1");
	d.netns[0].full.port = 8080;
	d.netns[0].full.queue = 2;
	d.netns[0].full.backlog = 1;
	d.netns[0].full.has_backlog = true;
	d.netns[0].full.pid = 812;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_TCP_LISTEN_OVERFLOWS);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_CRITICAL);
	ASSERT_EQ(x->subject.pid, 812);
	ASSERT_STREQ(x->subject.comm, "server");
	ASSERT_TRUE(strstr(x->summary, "127.0.0.1:8080 of PID 812 server") != NULL);
	ASSERT_TRUE(strstr(x->summary, "(2 waiting, backlog 1)") != NULL);
	ASSERT_STREQ(x->next, "ss -ltnp 'sport = :8080'");
	report_findings_release(&f);
	d.netns[0].listen_overflows--; /* just below one a second */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_TCP_LISTEN_OVERFLOWS)->sev, SEV_WARNING);
	report_findings_release(&f);
	d.netns[0].listen_overflows = 0;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_TCP_LISTEN_OVERFLOWS), 0);
	report_findings_release(&f);
}

TEST(kernel_log_events)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.nkevents = 2;
	d.kevents[0].event = KMSG_IO_ERROR;
	d.kevents[0].in_window = true;
	snprintf(d.kevents[0].device, sizeof(d.kevents[0].device), "sdb");
	d.kevents[1].event = KMSG_HUNG_TASK;
	d.kevents[1].pid = 130;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_DISK_ERRORS);
	ASSERT_TRUE(x != NULL && find_kind(&f, RK_KERNEL_ERRORS) != NULL);
	ASSERT_STREQ(x->subject.device, "sdb");
	ASSERT_EQ(x->sev, SEV_CRITICAL);
	ASSERT_EQ(find_kind(&f, RK_KERNEL_ERRORS)->subject.pid, 130);
	/* sorted: critical before warning */
	ASSERT_EQ(f.f[0].sev, SEV_CRITICAL);
	report_findings_release(&f);
}

TEST(placement_sentences)
{
	struct rp_proc p;
	char buf[128];

	memset(&p, 0, sizeof(p));
	p.has_allowed = true;
	procfs_cpuset_add(&p.allowed, 2);
	report_placement_words(&p, 4, buf, sizeof(buf));
	ASSERT_STREQ(buf, "pinned to CPU 2");
	memset(&p.allowed, 0, sizeof(p.allowed));
	for (unsigned c = 0; c < 4; c++)
		procfs_cpuset_add(&p.allowed, c);
	procfs_cpuset_add(&p.ran, 0);
	procfs_cpuset_add(&p.ran, 1);
	report_placement_words(&p, 4, buf, sizeof(buf));
	ASSERT_STREQ(buf, "ran on CPUs 0-1, allowed on all");
	memset(&p.ran, 0, sizeof(p.ran));
	procfs_cpuset_add(&p.ran, 3);
	report_placement_words(&p, 8, buf, sizeof(buf));
	ASSERT_STREQ(buf, "ran on CPU 3 only, allowed on 0-3");
}

/* Without PSI a sentence leaves the PSI figure out, rather than printing a bare "0%". */
TEST(sentences_without_psi_name_no_psi_figure)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.all.busy = CPU_SATURATED_BUSY_PCT;
	d.runnable_avg = 4;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CPU_SATURATED);
	ASSERT_TRUE(x != NULL);
	ASSERT_TRUE(x && strstr(x->summary, "(2.0 per CPU); the biggest consumers"));
	for (size_t i = 0; i < f.nchecked; i++) {
		ASSERT_TRUE(!strstr(f.checked[i].summary, "PSI"));
		ASSERT_TRUE(!strstr(f.checked[i].summary, "s0%"));
		ASSERT_TRUE(!strstr(f.checked[i].summary, "average0%"));
	}
	report_findings_release(&f);
	d.have_psi[RP_PSI_CPU] = d.have_psi[RP_PSI_MEM] = true;
	d.psi_some[RP_PSI_CPU] = 12;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CPU_SATURATED);
	ASSERT_TRUE(x && strstr(x->summary,
				"(2.0 per CPU); some task waited for a CPU 12% of the time (PSI)"));
	report_findings_release(&f);
}

/* A filesystem of 100 GiB, pct full of what non-root can use, filling rate bytes/s. */
static struct rp_fs *fs(struct report_data *d, const char *mount, double pct, double rate)
{
	struct rp_fs *x = &d->fs[d->nfs++];
	const double size = 100.0 * 1073741824.0;

	memset(x, 0, sizeof(*x));
	d->have_fs = true;
	snprintf(x->mount, sizeof(x->mount), "%s", mount);
	snprintf(x->device, sizeof(x->device), "/dev/vdb1");
	snprintf(x->fstype, sizeof(x->fstype), "ext4");
	x->used_pct = pct;
	x->size_bytes = (uint64_t)size;
	x->avail_bytes = (uint64_t)(size * (100 - pct) / 100);
	x->fill_bytes_s = rate;
	x->files = 1000000;
	x->files_free = 900000;
	x->inodes_pct = 10;
	return x;
}

/* The severity of the only finding of kind k, or -1 when there is none. */
TEST(filesystem_full_boundaries)
{
	static struct report_data d;
	struct rp_fs *x;

	quiet(&d);
	x = fs(&d, "/var", FS_FULL_WARN_PCT - 0.01, 0);
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), -1);
	x->used_pct = FS_FULL_WARN_PCT;
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), SEV_WARNING);
	x->used_pct = FS_FULL_CRIT_PCT - 0.01;
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), SEV_WARNING);
	x->used_pct = FS_FULL_CRIT_PCT;
	x->avail_bytes = 0;
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), SEV_CRITICAL);
	/* from FS_FILLING_PCT, full within FS_FULL_SOON_S at the window's rate */
	x = fs(&d, "/var", FS_FILLING_PCT, 0);
	d.nfs = 1;
	d.fs[0] = *x;
	x = &d.fs[0];
	x->fill_bytes_s = (double)x->avail_bytes / FS_FULL_SOON_S;
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), SEV_CRITICAL);
	x->fill_bytes_s = (double)x->avail_bytes / (FS_FULL_SOON_S + 1);
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), -1);
	x->fill_bytes_s = -1e9; /* freeing space */
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), -1);
	/* the rate alone never raises one: just below 90%, or half empty */
	x->used_pct = FS_FILLING_PCT - 0.01;
	x->fill_bytes_s = (double)x->avail_bytes / 10;
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), -1);
	x->used_pct = 50;
	x->fill_bytes_s = 1e10;
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), -1);
}

TEST(inodes_full_boundaries)
{
	static struct report_data d;
	struct rp_fs *x;

	quiet(&d);
	x = fs(&d, "/srv", 1, 0);
	x->inodes_pct = FS_FULL_WARN_PCT - 0.01;
	ASSERT_EQ(sev_of(&d, RK_INODES_FULL), -1);
	x->inodes_pct = FS_FULL_WARN_PCT;
	ASSERT_EQ(sev_of(&d, RK_INODES_FULL), SEV_WARNING);
	x->inodes_pct = FS_FULL_CRIT_PCT;
	x->files_free = 0;
	ASSERT_EQ(sev_of(&d, RK_INODES_FULL), SEV_CRITICAL);
	ASSERT_EQ(sev_of(&d, RK_FILESYSTEM_FULL), -1); /* its space is 1% used */
	x->inodes_pct = FS_FILLING_PCT;
	x->files_free = 100000;
	x->fill_inodes_s = 100000 / FS_FULL_SOON_S;
	ASSERT_EQ(sev_of(&d, RK_INODES_FULL), SEV_CRITICAL);
	x->fill_inodes_s = 100000 / (FS_FULL_SOON_S + 1);
	ASSERT_EQ(sev_of(&d, RK_INODES_FULL), -1);
	x->files = 0; /* no inode count (btrfs): never */
	x->inodes_pct = 100;
	ASSERT_EQ(sev_of(&d, RK_INODES_FULL), -1);
}

TEST(filesystem_full_subject_and_words)
{
	static struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;
	struct rp_fs *v;

	quiet(&d);
	proc(&d, 812, "app", 1, 0);
	proc(&d, 4711, "carbon-relay", 97, 1); /* a critical CPU finding too */
	v = fs(&d, "/mnt/it's full", 100, 0);
	v->avail_bytes = 0;
	v->writers[0] = 812;
	v->nwriters = 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = &f.f[0]; /* first: a full filesystem before a CPU-bound process */
	ASSERT_EQ(x->kind, RK_FILESYSTEM_FULL);
	ASSERT_EQ(x->sev, SEV_CRITICAL);
	ASSERT_STREQ(x->subject.mount, "/mnt/it's full");
	ASSERT_STREQ(x->subject.device, "/dev/vdb1");
	ASSERT_STREQ(x->subject.fstype, "ext4");
	ASSERT_EQ(x->subject.npids, 1);
	ASSERT_EQ(x->subject.pids[0], 812);
	ASSERT_TRUE(strstr(x->summary, "is 100% full: nothing left of 100.0 GiB"));
	ASSERT_TRUE(strstr(x->summary, "ENOSPC. Open for writing by PID 812 (app)."));
	ASSERT_STREQ(x->next, "triage pidstat -d -p 812 1 5; du -xh --max-depth=2 "
			      "'/mnt/it'\\''s full' | sort -h | tail");
	ASSERT_TRUE(
	    strstr(f.headline, "CRITICAL: /mnt/it's full (ext4) is 100% full [filesystem-full]"));
	report_findings_release(&f);
	/* filling: the rate and the time left in words */
	v->used_pct = 97;
	v->avail_bytes = 3ull << 30;
	v->fill_bytes_s = 40.0 * 1048576;
	v->nwriters = 0;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_FILESYSTEM_FULL);
	ASSERT_TRUE(x &&
		    strstr(x->summary, "is 97% full (3.0 GiB left of 100.0 GiB), filling 40.0 "
				       "MiB/s: full in 77 s.")); /* 3 GiB / 40 MiB/s = 76.8 s */
	ASSERT_TRUE(x && !strncmp(x->next, "du -xh", 6));
	report_findings_release(&f);
}

TEST(fd_exhaustion_boundaries)
{
	static struct report_data d;
	struct report_findings f;
	struct rp_fdproc *p = &d.fdprocs[0];

	quiet(&d);
	d.nfdprocs = 1;
	*p = (struct rp_fdproc){ .pid = 4410, .comm = "server", .soft = 1000 };
	p->open = 899; /* just below FD_WARN_PCT */
	ASSERT_EQ(sev_of(&d, RK_FD_EXHAUSTION), -1);
	p->open = 900;
	ASSERT_EQ(sev_of(&d, RK_FD_EXHAUSTION), SEV_WARNING);
	p->open = 999;
	ASSERT_EQ(sev_of(&d, RK_FD_EXHAUSTION), SEV_WARNING);
	p->open = 1000;
	ASSERT_EQ(sev_of(&d, RK_FD_EXHAUSTION), SEV_CRITICAL);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(f.f[0].kind, RK_FD_EXHAUSTION);
	ASSERT_EQ(f.f[0].subject.pid, 4410);
	ASSERT_STREQ(f.f[0].subject.comm, "server");
	ASSERT_TRUE(strstr(f.f[0].summary, "1000 descriptors open, its whole soft limit "
					   "(RLIMIT_NOFILE 1000)"));
	ASSERT_TRUE(!strncmp(f.f[0].next, "ls -l /proc/4410/fd ", 20));
	report_findings_release(&f);
	/* the system's file handles against fs.file-max */
	d.nfdprocs = 0;
	d.have_files = true;
	d.files_max = 10000;
	d.files_alloc = 8999;
	ASSERT_EQ(sev_of(&d, RK_FD_EXHAUSTION), -1);
	d.files_alloc = 9000;
	ASSERT_EQ(sev_of(&d, RK_FD_EXHAUSTION), SEV_WARNING);
	d.files_alloc = 10000;
	ASSERT_EQ(sev_of(&d, RK_FD_EXHAUSTION), SEV_CRITICAL);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(f.f[0].subject.pid, 0); /* no process: the system */
	report_findings_release(&f);
}

TEST(zombies_boundaries)
{
	static struct report_data d;
	struct report_findings f;
	struct rp_zparent *z = &d.zparents[0];

	quiet(&d);
	d.nzparents = 1;
	*z = (struct rp_zparent){ .ppid = 4410, .comm = "supervisor" };
	z->zombies = ZOMBIE_WARN_COUNT - 1;
	ASSERT_EQ(sev_of(&d, RK_ZOMBIES), -1);
	z->zombies = ZOMBIE_WARN_COUNT;
	ASSERT_EQ(sev_of(&d, RK_ZOMBIES), SEV_WARNING);
	z->zombies = ZOMBIE_CRIT_COUNT - 1;
	ASSERT_EQ(sev_of(&d, RK_ZOMBIES), SEV_WARNING);
	z->zombies = ZOMBIE_CRIT_COUNT;
	ASSERT_EQ(sev_of(&d, RK_ZOMBIES), SEV_CRITICAL);
	z->zombies = 500;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(f.f[0].kind, RK_ZOMBIES);
	ASSERT_EQ(f.f[0].subject.pid, 4410);
	ASSERT_STREQ(f.f[0].subject.comm, "supervisor");
	ASSERT_TRUE(
	    strstr(f.f[0].summary,
		   "PID 4410 supervisor has 500 zombie children: it does not wait() for them."));
	ASSERT_STREQ(f.f[0].next, "ps -o pid,ppid,stat,cmd --ppid 4410");
	report_findings_release(&f);
}

TEST(process_churn_boundaries)
{
	static struct report_data d;
	struct report_findings f;

	quiet(&d);
	d.have_forks = true;
	d.forks_per_s = CHURN_WARN_PER_S - 0.5;
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), -1);
	d.forks_per_s = CHURN_WARN_PER_S;
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), SEV_WARNING);
	d.forks_per_s = CHURN_CRIT_PER_S - 0.5;
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), SEV_WARNING);
	d.forks_per_s = CHURN_CRIT_PER_S;
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), SEV_CRITICAL);
	d.have_forks = false; /* a recording: no fork counter */
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), -1);
	d.have_forks = true;
	d.forks_per_s = 356;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(f.f[0].kind, RK_PROCESS_CHURN);
	ASSERT_TRUE(!strncmp(f.f[0].summary, "356 new processes a second", 26));
	report_findings_release(&f);
}

/* One kinds-table row as docs/report.md writes it: anchor, name, resource, severity. */
struct doc_kind {
	char anchor[64], name[64], resource[32], sev[16];
};

/* The cells of "| <a id=\"kind-X\"></a>`X` | resource | fires | severity ... |". */
static bool doc_kind_parse(const char *line, struct doc_kind *k)
{
	const char *p = strstr(line, "<a id=\""), *q;

	if (strncmp(line, "| <a id=\"kind-", 14) || !p)
		return false;
	if (sscanf(p, "<a id=\"%63[^\"]\"></a>`%63[^`]` | %31[^ |] |", k->anchor, k->name,
		   k->resource) != 3)
		return false;
	q = strchr(strchr(p, '|') + 1, '|'); /* after resource */
	q = q ? strchr(q + 1, '|') : NULL;   /* after "fires when" */
	return q && sscanf(q + 1, " %15[a-z]", k->sev) == 1;
}

TEST(kinds_table_matches_the_docs)
{
	FILE *doc = fopen("docs/report.md", "r");
	char line[4096];
	int n = 0;

	ASSERT_TRUE(doc != NULL); /* tests run from the top of the tree */
	while (fgets(line, sizeof(line), doc)) {
		struct doc_kind k;
		const struct report_kind_row *r;
		char anchor[80];

		if (!doc_kind_parse(line, &k))
			continue;
		r = report_kind_row((enum report_kind)n);
		if (!r) {
			fclose(doc);
			UNIT_FAIL_("docs/report.md has a kind the code lacks: %s", k.name);
		}
		snprintf(anchor, sizeof(anchor), "report.md#%s", k.anchor);
		if (strcmp(r->name, k.name) ||
		    strcmp(report_resource_name(r->resource), k.resource) ||
		    strcmp(report_sev_name(r->sev), k.sev) || strcmp(r->anchor, anchor)) {
			fclose(doc);
			UNIT_FAIL_("kind %d: docs say %s %s %s #%s, the table %s %s %s %s", n,
				   k.name, k.resource, k.sev, k.anchor, r->name,
				   report_resource_name(r->resource), report_sev_name(r->sev),
				   r->anchor);
		}
		n++;
	}
	fclose(doc);
	ASSERT_EQ(n, RK_COUNT);
	for (int i = 0; i < RK_COUNT; i++) {
		const struct report_kind_row *r = report_kind_row((enum report_kind)i);

		ASSERT_EQ(r->kind, i); /* rows in enum order: findings sort by it */
		ASSERT_TRUE(report_kind_rule((enum report_kind)i) != NULL);
		ASSERT_TRUE(r->resource < RES_COUNT);
		ASSERT_TRUE(r->sev <= SEV_INFO);
		ASSERT_STREQ(report_kind_name((enum report_kind)i), r->name);
	}
}

/* A rule that asks for the default gets its row's severity. */
TEST(default_severity_comes_from_the_table)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	d.swapin_s = SWAP_WARN_PAGES_S;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(f.n, 1);
	ASSERT_EQ(f.f[0].kind, RK_SWAPPING);
	ASSERT_EQ(f.f[0].sev, report_kind_row(RK_SWAPPING)->sev);
	report_findings_release(&f);
}

/* One label function, one order: words for people, a bare first part for a metric. */
TEST(subject_label_forms)
{
	struct rp_subject s = { .cpu = -1 };
	char buf[128];

	report_subject_label(&s, REPORT_LABEL_WORDS, buf, sizeof(buf));
	ASSERT_STREQ(buf, "host");
	report_subject_label(&s, REPORT_LABEL_METRIC, buf, sizeof(buf));
	ASSERT_STREQ(buf, "host");
	s.pid = 4711;
	snprintf(s.comm, sizeof(s.comm), "relay");
	snprintf(s.cgroup, sizeof(s.cgroup), "/batch");
	report_subject_label(&s, REPORT_LABEL_WORDS, buf, sizeof(buf));
	ASSERT_STREQ(buf, "PID 4711 relay cgroup /batch");
	report_subject_label(&s, REPORT_LABEL_METRIC, buf, sizeof(buf));
	ASSERT_STREQ(buf, "relay");
	memset(&s, 0, sizeof(s));
	s.cpu = 1;
	report_subject_label(&s, REPORT_LABEL_WORDS, buf, sizeof(buf));
	ASSERT_STREQ(buf, "CPU 1");
	report_subject_label(&s, REPORT_LABEL_METRIC, buf, sizeof(buf));
	ASSERT_STREQ(buf, "cpu1");
	s.cpu = -1;
	snprintf(s.device, sizeof(s.device), "vda");
	report_subject_label(&s, REPORT_LABEL_WORDS, buf, sizeof(buf));
	ASSERT_STREQ(buf, "device vda");
	report_subject_label(&s, REPORT_LABEL_WORDS, buf, 8); /* cut, still terminated */
	ASSERT_STREQ(buf, "device ");
}

/* Every JSON key has a name, and names are unique within what the renderer writes. */
TEST(json_keys_named)
{
	for (int k = 0; k < RJ_KEY_COUNT; k++) {
		ASSERT_TRUE(report_json_key((enum rj_key)k) != NULL);
		ASSERT_TRUE(strcmp(report_json_key((enum rj_key)k), "?") != 0);
	}
}

/* The headline is the first finding's short form, whole: a ';' or '[' in a name does not cut it. */
TEST(headline_is_the_whole_short_form)
{
	struct report_data d;
	struct report_findings f;

	quiet(&d);
	proc(&d, 4711, "re;lay [x", 97, 1);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_TRUE(f.n >= 1);
	ASSERT_STREQ(f.headline, "CRITICAL: PID 4711 re;lay [x used 98% of one CPU, 99% of it in "
				 "user space [cpu-bound-user]; 1 critical, 0 warning in 10.0 s.");
	report_findings_release(&f);
}

/* A summary is a whole sentence; the words that lead to the command live beside it. */
TEST(summaries_do_not_hang_on_a_colon)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	proc(&d, 50, "hog", 33, 0)->wait_pct = 66;
	procs[0].nvcswch_s = 30;
	proc(&d, 51, "spin", 97, 1);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	for (size_t i = 0; i < f.n; i++) {
		size_t n = strlen(f.f[i].summary);

		ASSERT_TRUE(n > 0 && f.f[i].summary[n - 1] == '.');
	}
	x = find_kind(&f, RK_CPU_CONTENTION);
	ASSERT_TRUE(x && strstr(x->summary, "1 process was runnable but waiting") == x->summary);
	ASSERT_STREQ(x->lead, "See its run-queue latency");
	x = find_kind(&f, RK_CPU_BOUND_USER);
	ASSERT_TRUE(x && !strcmp(x->lead, "Profile it") && x->next[0]);
	report_findings_release(&f);
}

/* Checked lines carry their figures as data beside the sentence. */
TEST(checked_lines_carry_figures)
{
	struct report_data d;
	struct report_findings f;
	bool cpu = false;

	quiet(&d);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	for (size_t i = 0; i < f.nchecked; i++) {
		const struct rp_checked *c = &f.checked[i];

		ASSERT_TRUE(c->nfig > 0);
		if (strcmp(c->resource, "cpu"))
			continue;
		cpu = true;
		ASSERT_STREQ(c->fig[1].metric, "busy");
		ASSERT_NEAR(c->fig[1].value, 10, 1e-9);
	}
	ASSERT_TRUE(cpu);
	report_findings_release(&f);
}

/* Steal: warning at CPU_STEAL_WARN_PCT of all CPUs' time, critical at the next; CPU with most
 * named. */
TEST(cpu_steal_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.all.steal = CPU_STEAL_WARN_PCT;
	d.cpu[0].steal = CPU_STEAL_WARN_PCT - 5;
	d.cpu[1].steal = CPU_STEAL_WARN_PCT + 5;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CPU_STEAL);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_EQ(x->subject.cpu, 1);
	ASSERT_EQ(f.f[0].kind, RK_CPU_STEAL);
	ASSERT_TRUE(strstr(x->summary, "took 10% of the CPUs' time (steal)") != NULL);
	ASSERT_TRUE(strstr(x->summary, "most from CPU 1 (15%)") != NULL);
	ASSERT_STREQ(x->next, "mpstat -P ALL 1 5");
	report_findings_release(&f);
	d.all.steal = CPU_STEAL_CRIT_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CPU_STEAL)->sev, SEV_CRITICAL);
	report_findings_release(&f);
	d.all.steal = CPU_STEAL_CRIT_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CPU_STEAL)->sev, SEV_WARNING);
	report_findings_release(&f);
	d.all.steal = CPU_STEAL_WARN_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CPU_STEAL), 0);
	report_findings_release(&f);
}

/* A CPU mostly in interrupts: its vector and its ksoftirqd named; not at just below. */
TEST(irq_saturated_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	proc(&d, 24, "ksoftirqd/1", 0, 40);
	proc(&d, 18, "ksoftirqd/0", 0, 1);
	d.cpu[1].irq = IRQ_SATURATED_PCT;
	d.cpu[1].softirq = IRQ_SATURATED_PCT - 5;
	d.have_softirqs = true;
	snprintf(d.softirq_top[1], sizeof(d.softirq_top[1]), "NET_RX");
	d.softirq_top_s[1] = 120000;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_IRQ_SATURATED);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(count_kind(&f, RK_IRQ_SATURATED), 1);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_EQ(x->subject.cpu, 1);
	ASSERT_EQ(x->subject.pid, 24);
	ASSERT_STREQ(x->subject.comm, "ksoftirqd/1");
	ASSERT_TRUE(strstr(x->summary, "CPU 1 spent 50% of its time in interrupts (hardirq 5%, "
				       "softirq 45%)") != NULL);
	ASSERT_TRUE(strstr(x->summary, "softirq NET_RX ran most (120000 times/s)") != NULL);
	ASSERT_TRUE(strstr(x->summary, "ksoftirqd/1 used 40% of one CPU") != NULL);
	ASSERT_STREQ(x->next, "mpstat -I SCPU -P 1 1 5");
	ASSERT_EQ(count_kind(&f, RK_SINGLE_CPU_HOT), 0); /* quiet's CPU 1 is 10% busy */
	report_findings_release(&f);
	/* hot with interrupts: irq-saturated says why, single-cpu-hot stays out */
	d.cpu[1].busy = CPU_HOT_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_SINGLE_CPU_HOT), 0);
	ASSERT_EQ(f.f[0].kind, RK_IRQ_SATURATED);
	report_findings_release(&f);
	d.cpu[1].irq = IRQ_SATURATED_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_SINGLE_CPU_HOT), 1);
	report_findings_release(&f);
	d.cpu[1].irq = IRQ_SATURATED_PCT;
	d.cpu[1].busy = 10;
	d.cpu[1].irq = IRQ_SATURATED_CRIT_PCT;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_IRQ_SATURATED)->sev, SEV_CRITICAL);
	report_findings_release(&f);
	d.cpu[1].irq = IRQ_SATURATED_CRIT_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_IRQ_SATURATED)->sev, SEV_WARNING);
	report_findings_release(&f);
	/* a recording without /proc/softirqs: still the finding, no vector */
	d.have_softirqs = false;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_IRQ_SATURATED);
	ASSERT_TRUE(x != NULL && strstr(x->summary, "NET_RX") == NULL);
	report_findings_release(&f);
	d.cpu[1].irq = IRQ_SATURATED_PCT - 0.1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_IRQ_SATURATED), 0);
	report_findings_release(&f);
}

/* Conntrack at CONNTRACK_FULL_PCT of its max: warning; full: critical; not loaded: nothing. */
TEST(conntrack_full_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.have_conntrack = true;
	d.conntrack_max = 1000;
	d.conntrack_count = (uint64_t)(CONNTRACK_FULL_PCT * 10);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_CONNTRACK_FULL);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_TRUE(strstr(x->summary, "90% full (900 of 1000 entries)") != NULL);
	ASSERT_STREQ(x->next, "conntrack -S");
	report_findings_release(&f);
	d.conntrack_count = 1000;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CONNTRACK_FULL)->sev, SEV_CRITICAL);
	report_findings_release(&f);
	d.conntrack_count = 999;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(find_kind(&f, RK_CONNTRACK_FULL)->sev, SEV_WARNING);
	report_findings_release(&f);
	d.conntrack_count = (uint64_t)(CONNTRACK_FULL_PCT * 10) - 1;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CONNTRACK_FULL), 0);
	report_findings_release(&f);
	d.conntrack_count = 1000;
	d.have_conntrack = false;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CONNTRACK_FULL), 0);
	report_findings_release(&f);
}

/* Sentences with a count agree with it: 1 CPU, 1 counted D task; 2 CPUs, 2 tasks. */
TEST(counts_agree_for_one_and_two)
{
	for (int n = 1; n <= 2; n++) {
		const char *cpus = n == 1 ? "CPU" : "CPUs";
		struct report_data d;
		struct report_findings f;
		const struct rp_finding *x;
		char want[120];
		bool load = false;

		quiet(&d);
		d.ncpu = d.ncpu_lines = n;
		d.cpu_online[1] = n > 1;
		d.nd_counted = (unsigned)n;
		ASSERT_EQ(report_evaluate(&d, &f), 0);
		snprintf(want, sizeof(want), " on %d %s (CPU", n, cpus);
		ASSERT_TRUE(strstr(f.headline, want) != NULL);
		for (size_t i = 0; i < f.nchecked; i++) {
			const char *s = f.checked[i].summary;

			if (!strcmp(f.checked[i].resource, "cpu")) {
				snprintf(want, sizeof(want), "%d %s 10%% busy", n, cpus);
				ASSERT_TRUE(strstr(s, want) == s);
			}
			if (!strcmp(f.checked[i].resource, "load")) {
				snprintf(want, sizeof(want), " on %d %s, %d counted D %s at", n,
					 cpus, n, n == 1 ? "task" : "tasks");
				ASSERT_TRUE(strstr(s, want) != NULL);
				load = true;
			}
		}
		ASSERT_TRUE(load);
		report_findings_release(&f);

		/* saturated: "The one CPU was", "All 2 CPUs were" */
		quiet(&d);
		d.ncpu = d.ncpu_lines = n;
		d.cpu_online[1] = n > 1;
		d.cpu[0].busy = d.cpu[1].busy = d.all.busy = 99;
		d.runnable_avg = 3.0 * n;
		ASSERT_EQ(report_evaluate(&d, &f), 0);
		x = find_kind(&f, RK_CPU_SATURATED);
		ASSERT_TRUE(x != NULL);
		ASSERT_TRUE(strstr(x->summary, n == 1 ? "The one CPU was 99% busy"
						      : "All 2 CPUs were 99% busy") == x->summary);
		report_findings_release(&f);
	}
}

int main(void)
{
	struct unit_state st = { 0, 0 };

	RUN(&st, quiet_machine_has_no_problem);
	RUN(&st, blog_case_first_finding_is_cpu_bound_user_with_profile);
	RUN(&st, cpu_bound_threshold);
	RUN(&st, cpu_bound_kernel_share);
	RUN(&st, cpu_bound_by_demand);
	RUN(&st, cpu_bound_ceiling_by_demand);
	RUN(&st, cpu_bound_on_a_saturated_machine);
	RUN(&st, cpu_saturated_boundaries);
	RUN(&st, single_cpu_hot_boundaries);
	RUN(&st, cpu_contention_names_every_waiter);
	RUN(&st, cpu_bound_needs_a_thread_that_wants_a_cpu);
	RUN(&st, cpu_bound_niced_is_info);
	RUN(&st, cpu_contention_names_victims_and_hogs);
	RUN(&st, lock_contention_boundaries);
	RUN(&st, cpu_throttled_boundaries);
	RUN(&st, load_uninterruptible_needs_the_whole_window);
	RUN(&st, memory_pressure_boundaries);
	RUN(&st, memory_cgroup_limit_hits);
	RUN(&st, swapping_boundary);
	RUN(&st, oom_kill_from_log_and_counter);
	RUN(&st, disk_saturated_boundaries);
	RUN(&st, disk_busy_in_parallel_is_not_saturated);
	RUN(&st, io_stall_boundaries);
	RUN(&st, io_stall_cgroup_at_its_limit);
	RUN(&st, io_stall_one_finding_per_throttling_cgroup);
	RUN(&st, io_stall_on_a_network_or_fuse_fs);
	RUN(&st, subject_cgroup_is_the_controllers);
	RUN(&st, net_drops_boundary);
	RUN(&st, tcp_retransmits_boundaries);
	RUN(&st, tcp_retransmits_not_listen_syns);
	RUN(&st, tcp_listen_overflows_boundaries);
	RUN(&st, udp_drops_boundaries);
	RUN(&st, kernel_log_events);
	RUN(&st, placement_sentences);
	RUN(&st, sentences_without_psi_name_no_psi_figure);
	RUN(&st, kinds_table_matches_the_docs);
	RUN(&st, filesystem_full_boundaries);
	RUN(&st, inodes_full_boundaries);
	RUN(&st, filesystem_full_subject_and_words);
	RUN(&st, fd_exhaustion_boundaries);
	RUN(&st, zombies_boundaries);
	RUN(&st, process_churn_boundaries);
	RUN(&st, default_severity_comes_from_the_table);
	RUN(&st, subject_label_forms);
	RUN(&st, json_keys_named);
	RUN(&st, headline_is_the_whole_short_form);
	RUN(&st, summaries_do_not_hang_on_a_colon);
	RUN(&st, checked_lines_carry_figures);
	RUN(&st, counts_agree_for_one_and_two);
	RUN(&st, cpu_steal_boundaries);
	RUN(&st, irq_saturated_boundaries);
	RUN(&st, conntrack_full_boundaries);
	printf("%d run, %d failed\n", st.run, st.failed);
	return st.failed ? 1 : 0;
}
