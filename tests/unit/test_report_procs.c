/* test: shared -- hand-built windows, no machine state */
/*
 * The report's process kinds added with issue 28 (memory-growth,
 * pid-exhaustion, process-churn's parents) on hand-built windows: each
 * rule at its threshold and just below it (src/report/thresholds.h), and
 * the sentence a reader gets.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/collect.h"
#include "report/report.h"
#include "report/thresholds.h"
#include "unit.h"

#define MIB_KB 1024.0

/* A quiet 2-CPU machine with 6 GiB available of 8, over 10 s. */
static void quiet(struct report_data *d)
{
	memset(d, 0, sizeof(*d));
	d->seconds = 10;
	d->ncpu = d->ncpu_lines = 2;
	for (int c = 0; c < 2; c++) {
		d->cpu_online[c] = true;
		d->cpu[c].busy = 10;
	}
	d->all = d->cpu[0];
	d->have_load = d->have_mem = d->have_vmstat = true;
	d->mem.total = 8 * 1048576;
	d->mem.available = 6 * 1048576;
	d->mem.has_available = true;
}

static const struct rp_finding *find_kind(const struct report_findings *f, enum report_kind k)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->f[i].kind == k)
			return &f->f[i];
	return NULL;
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

/* A process that grew rate MiB/s in grew of steps intervals, toward MemAvailable. */
static struct rp_grower *grower(struct report_data *d, double rate, unsigned grew, unsigned steps)
{
	struct rp_grower *g = &d->growers[d->ngrowers++];

	memset(g, 0, sizeof(*g));
	g->pid = 812;
	snprintf(g->comm, sizeof(g->comm), "java");
	g->mem0_kb = 140 * 1024;
	g->mem_kb = g->mem0_kb + (uint64_t)(rate * MIB_KB * d->seconds);
	g->rss_kb = g->mem_kb;
	g->anon = true;
	g->seconds = d->seconds;
	g->rate_kb_s = rate * MIB_KB;
	g->grew = grew;
	g->steps = steps;
	g->limit = RP_LIMIT_AVAILABLE;
	g->limit_bytes = g->room_bytes = d->mem.available * 1024;
	return g;
}

TEST(memory_growth_rate_boundary)
{
	static struct report_data d;
	struct rp_grower *g;

	quiet(&d);
	g = grower(&d, MEM_GROWTH_WARN_MIB_S, 10, 10);
	g->room_bytes = 1ull << 30; /* 1 GiB away: 17 min */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_WARNING);
	g->rate_kb_s = MEM_GROWTH_WARN_MIB_S * MIB_KB - 0.1;
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), -1);
}

/* Growth an hour or more from its limit is no finding; no known limit: the rate decides. */
TEST(memory_growth_horizon_boundary)
{
	static struct report_data d;
	struct rp_grower *g;

	quiet(&d);
	g = grower(&d, 2, 10, 10);
	g->room_bytes = (uint64_t)(2 * MIB_KB * 1024 * MEM_GROWTH_WARN_S); /* exactly an hour */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), -1);
	g->room_bytes -= 2 * 1024 * 1024; /* 1 s less */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_WARNING);
	g->room_bytes = 8ull << 30; /* a compiler at 2 MiB/s with 8 GiB free: 68 min */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), -1);
	g->limit = RP_LIMIT_NONE;
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_WARNING);
}

/* Growth in most intervals is a leak; one allocation (one interval) is not. */
TEST(memory_growth_needs_most_samples)
{
	static struct report_data d;
	struct rp_grower *g;

	quiet(&d);
	g = grower(&d, 5, 6, 10); /* 6 GiB at 5 MiB/s: 20 min away */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_WARNING);
	g->grew = 5; /* half is not most */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), -1);
	g->grew = 1; /* allocated 500 MiB at once, then stopped */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), -1);
	g->grew = g->steps = MEM_GROWTH_MIN_STEPS;
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_WARNING);
	g->grew = g->steps = MEM_GROWTH_MIN_STEPS - 1; /* an allocation a sample cut in two */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), -1);
}

TEST(memory_growth_critical_near_the_limit)
{
	static struct report_data d;
	struct rp_grower *g;

	quiet(&d);
	g = grower(&d, 10, 10, 10);
	g->limit = RP_LIMIT_CGROUP;
	g->limit_bytes = 2048ull << 20;
	g->room_bytes = (uint64_t)(10 * MIB_KB * 1024 * MEM_GROWTH_CRIT_S);
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_WARNING); /* exactly 10 min away */
	g->room_bytes -= 10 * 1024 * 1024;		      /* 1 s less */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_CRITICAL);
	g->limit = RP_LIMIT_NONE; /* no limit known: a warning, with no time */
	ASSERT_EQ(sev_of(&d, RK_MEMORY_GROWTH), SEV_WARNING);
}

TEST(memory_growth_sentence)
{
	static struct report_data d;
	struct report_findings f;
	struct rp_grower *g;
	const struct rp_finding *x;

	quiet(&d);
	g = grower(&d, 46.2, 10, 10);
	g->rss_kb = 640 * 1024; /* its anonymous memory and 38 MiB of mapped files */
	g->limit = RP_LIMIT_CGROUP;
	g->limit_bytes = 2048ull << 20;
	g->room_bytes = (2048ull - 602) << 20;
	snprintf(g->cgroup, sizeof(g->cgroup), "/leak");
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_MEMORY_GROWTH);
	ASSERT_TRUE(x != NULL);
	if (x) {
		ASSERT_EQ(x->sev, SEV_CRITICAL);
		ASSERT_EQ(x->subject.pid, 812);
		ASSERT_STREQ(x->subject.comm, "java");
		ASSERT_STREQ(x->subject.cgroup, "/leak");
		ASSERT_STREQ(
		    x->summary,
		    "PID 812 java grew 46.2 MiB/s of anonymous memory (140 MiB to 602 MiB in 10 s, "
		    "in 10 of 10 samples; RSS 640 MiB): at this rate it reaches its cgroup's 2.0 "
		    "GiB limit (/leak) in 31 s.");
		ASSERT_STREQ(x->next, "triage pidstat -r -p 812 1 10");
	}
	report_findings_release(&f);
	/* a recording older than schema 6 has RSS only: the sentence says which it judged */
	g->anon = false;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_MEMORY_GROWTH);
	ASSERT_TRUE(x != NULL && strstr(x->summary, "grew 46.2 MiB/s of RSS (140 MiB") != NULL);
	report_findings_release(&f);
}

static struct rp_pidcg *pidcg(struct report_data *d, uint64_t current, uint64_t max)
{
	struct rp_pidcg *c = &d->pidcgs[d->npidcgs++];

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "/forkers");
	c->version = 1;
	c->current = current;
	c->max = max;
	c->pids[c->npids++] = 4242;
	return c;
}

TEST(pid_exhaustion_cgroup_boundaries)
{
	static struct report_data d;
	struct report_findings f;
	struct rp_pidcg *c;
	const struct rp_finding *x;

	quiet(&d);
	c = pidcg(&d, 89, 100);
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), -1);
	c->current = 90;
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), SEV_WARNING);
	c->current = 99;
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), SEV_WARNING);
	c->current = 100;
	c->has_refused = true;
	c->refused = 37;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_PID_EXHAUSTION);
	ASSERT_TRUE(x != NULL);
	if (x) {
		ASSERT_EQ(x->sev, SEV_CRITICAL);
		ASSERT_STREQ(x->subject.cgroup, "/forkers");
		ASSERT_EQ(x->subject.npids, 1);
		ASSERT_EQ(x->subject.pids[0], 4242);
		ASSERT_STREQ(x->summary, "Cgroup /forkers has 100 tasks, its whole pids.max (100): "
					 "every fork() or clone() in it fails with EAGAIN (it has "
					 "refused 37 so far).");
		ASSERT_STREQ(x->next, "ps -L -o pid,ppid,tid,stat,comm -p \"$(paste -sd, "
				      "/sys/fs/cgroup/pids/forkers/cgroup.procs)\"");
	}
	report_findings_release(&f);
	c->max = 0; /* no limit */
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), -1);
}

TEST(pid_exhaustion_host_boundaries)
{
	static struct report_data d;

	quiet(&d);
	d.have_task_caps = true;
	d.pid_max = 32768;
	d.threads_max = 1000000;
	d.tasks = 29491; /* 89.999% of pid_max */
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), -1);
	d.tasks = 29492;
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), SEV_WARNING);
	d.tasks = 32767;
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), SEV_WARNING);
	d.tasks = 32768;
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), SEV_CRITICAL);
	d.pid_max = 4194304; /* the tasks against threads-max */
	d.threads_max = 2000;
	d.tasks = 1799;
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), -1);
	d.tasks = 1800;
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), SEV_WARNING);
	d.have_task_caps = false; /* a recording: no sysctls */
	ASSERT_EQ(sev_of(&d, RK_PID_EXHAUSTION), -1);
}

TEST(process_churn_names_the_parents)
{
	static struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.have_forks = true;
	d.forks_per_s = 356;
	d.unsampled_pct = 131;
	d.nspawners = 2;
	d.spawners[0] = (struct rp_spawner){ .pid = 812, .comm = "bash", .child_pct = 64.4 };
	d.spawners[1] = (struct rp_spawner){ .pid = 813, .comm = "bash", .seen = 2 };
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_PROCESS_CHURN);
	ASSERT_TRUE(x != NULL);
	if (x) {
		ASSERT_EQ(x->subject.pid, 812);
		ASSERT_STREQ(x->subject.comm, "bash");
		ASSERT_EQ(x->subject.npids, 2);
		ASSERT_EQ(x->subject.pids[1], 813);
		ASSERT_STREQ(
		    x->summary,
		    "356 new processes a second were created during the window, by PID 812 "
		    "bash (its children used 64% of a CPU), PID 813 bash (2 children seen); "
		    "131% of a CPU went to processes too short-lived to sample (busy time no "
		    "sampled process accounts for).");
		ASSERT_STREQ(x->next, "triage probe trace execve -C bash -d 5");
	}
	report_findings_release(&f);
	/* with eBPF: forks counted by parent; a name that is not one plain word stays off the
	 * command line */
	d.nspawners = 1;
	d.spawners[0] = (struct rp_spawner){ .pid = 4410, .comm = "x;rm -rf", .forks_s = 180 };
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_PROCESS_CHURN);
	ASSERT_TRUE(x != NULL);
	if (x) {
		ASSERT_TRUE(strstr(x->summary,
				   "created during the window, by PID 4410 x;rm -rf (180 "
				   "forks/s); 131% of a CPU") != NULL);
		ASSERT_STREQ(x->next, "triage probe syscalls -d 5");
		ASSERT_EQ(x->nev, 4);
		ASSERT_STREQ(x->ev[2].metric, "parent_forks_per_s");
		ASSERT_NEAR(x->ev[2].value, 180, 1e-9);
	}
	report_findings_release(&f);
}

/*
 * Fewer children, each busier: CHURN_UNSAMPLED_PCT of a CPU no sampled
 * process accounts for, CHURN_REAPED_SHARE of it reaped by sampled parents.
 */
TEST(process_churn_by_unsampled_cpu)
{
	static struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	quiet(&d);
	d.have_forks = true;
	d.forks_per_s = 40;
	d.unsampled_pct = CHURN_UNSAMPLED_PCT;
	d.reaped_pct = CHURN_REAPED_SHARE * CHURN_UNSAMPLED_PCT;
	d.nspawners = 1;
	d.spawners[0] = (struct rp_spawner){ .pid = 900, .comm = "bash", .child_pct = 12.5 };
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_PROCESS_CHURN);
	ASSERT_TRUE(x != NULL);
	if (x) {
		ASSERT_EQ(x->sev, SEV_WARNING);
		ASSERT_EQ(x->subject.pid, 900);
		ASSERT_STREQ(
		    x->summary,
		    "25% of a CPU went to processes too short-lived to sample (busy time "
		    "no sampled process accounts for; sampled parents reaped 12% of a CPU "
		    "of children's time), while 40 new processes a second were created, by "
		    "PID 900 bash (its children used 12% of a CPU).");
		ASSERT_STREQ(x->brief, "25% of a CPU in processes too short-lived to sample");
	}
	report_findings_release(&f);
	d.unsampled_pct = CHURN_UNSAMPLED_PCT - 0.1; /* a sampler's rounding */
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), -1);
	d.unsampled_pct = CHURN_UNSAMPLED_PCT;
	d.reaped_pct = CHURN_REAPED_SHARE * CHURN_UNSAMPLED_PCT - 0.1; /* CPU we cannot see */
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), -1);
	d.reaped_pct = 100;
	d.have_forks = false; /* a recording without the fork counter */
	ASSERT_EQ(sev_of(&d, RK_PROCESS_CHURN), -1);
}

/*
 * procs: a runner (PID 100) that reaped 5,000% of a CPU, of which all but
 * 10% was its exited children's sampled lives, and a loop (PID 200) whose
 * 140% reaped was never sampled: the loop first, the runner with 10%.
 */
static void check_runner_keeps_10_of_5000(struct unit_state *unit_s_, struct rp_proc *procs,
					  size_t n)
{
	static struct report_data d;
	struct report_source src = { 0 };
	struct window w = { .src = &src };

	quiet(&d);
	d.have_forks = true;
	d.seconds = 2;
	d.procs = procs;
	d.nprocs = n;
	ASSERT_EQ(report_spawner_results(&w, &d), 0);
	ASSERT_EQ(d.nspawners, 2);
	ASSERT_EQ(d.spawners[0].pid, 200);
	ASSERT_TRUE(fabs(d.spawners[0].child_pct - 140) < 1e-9);
	ASSERT_EQ(d.spawners[1].pid, 100);
	ASSERT_TRUE(fabs(d.spawners[1].child_pct - 10) < 1e-9);
	ASSERT_TRUE(fabs(d.reaped_pct - 150) < 1e-9);
}

/*
 * Without eBPF, a spawner is credited with its reaped children's CPU, less
 * the whole lives of children the samples saw from the window's start
 * that exited in it: a runner that reaps a finished test (5,000% of a CPU
 * over its life, sampled all along) is not the fork loop (140%).
 */
TEST(spawners_leave_out_sampled_children_lives)
{
	struct rp_proc procs[3] = {
		{ .pid = 100, .comm = "runner", .child_pct = 5000, .from_start = true },
		{ .pid = 101,
		  .comm = "test",
		  .ppid = 100,
		  .exited = true,
		  .from_start = true,
		  .life_pct = 4990 },
		{ .pid = 200, .comm = "loop", .child_pct = 140, .from_start = true },
	};

	check_runner_keeps_10_of_5000(unit_s_, procs, 3);
}

/*
 * A runner's test script sampled before it reaped its job and exited: the
 * job's life reached the runner through the script, though the script's
 * last sample had none of it (CI named such a runner at 4,192% of a CPU).
 */
TEST(spawners_leave_out_lives_reaped_after_the_last_sample)
{
	struct rp_proc procs[4] = {
		{ .pid = 100, .comm = "runner", .child_pct = 5000, .from_start = true },
		{ .pid = 101,
		  .comm = "script",
		  .ppid = 100,
		  .exited = true,
		  .from_start = true,
		  .life_pct = 10 },
		{ .pid = 102,
		  .comm = "job",
		  .ppid = 101,
		  .exited = true,
		  .from_start = true,
		  .life_pct = 4980,
		  .life_reaped_pct = 30 },
		{ .pid = 200, .comm = "loop", .child_pct = 140, .from_start = true },
	};

	check_runner_keeps_10_of_5000(unit_s_, procs, 4);
}

int main(void)
{
	struct unit_state st = { 0, 0 };

	RUN(&st, memory_growth_rate_boundary);
	RUN(&st, spawners_leave_out_sampled_children_lives);
	RUN(&st, spawners_leave_out_lives_reaped_after_the_last_sample);
	RUN(&st, memory_growth_horizon_boundary);
	RUN(&st, memory_growth_needs_most_samples);
	RUN(&st, memory_growth_critical_near_the_limit);
	RUN(&st, memory_growth_sentence);
	RUN(&st, pid_exhaustion_cgroup_boundaries);
	RUN(&st, pid_exhaustion_host_boundaries);
	RUN(&st, process_churn_names_the_parents);
	RUN(&st, process_churn_by_unsampled_cpu);
	UNIT_MAIN_END(&st);
}
