/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The --watch tracker on synthetic samples. Expected values come from a
 * reference fold written here from the kernel's definition (see
 * test_load_avg.c): per task, the mean count of a period folded with the
 * kernel's step; in total, the same for the sum, seeded from the text.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "load/avg.h"
#include "load/watch.h"
#include "unit.h"

static uint64_t ref_step(uint64_t load, unsigned long e, uint64_t active)
{
	uint64_t num = load * e + active * (2048 - e);
	uint64_t q = num / 2048;

	if (active >= load && num % 2048)
		q++;
	return q;
}

static double ref_share(unsigned folds, double mean)
{
	uint64_t x = 0, a = (uint64_t)llround(mean * (1 << 21));

	for (unsigned i = 0; i < folds; i++)
		x = ref_step(x, 1884, a);
	return x / (double)(1 << 21);
}

/* A snapshot of n tasks: tids 100.., states from s ("RRD"), cgroup per task. */
static void make_snap(struct load_snapshot *snap, struct load_task *t, const char *s,
		      const char *const *cgroups)
{
	memset(snap, 0, sizeof(*snap));
	snap->tasks = t;
	snap->ntasks = strlen(s);
	for (size_t i = 0; i < snap->ntasks; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].pid = t[i].tid = (pid_t)(100 + i);
		t[i].starttime = 5000 + i;
		t[i].state = s[i] == 'F' ? 'D' : s[i];
		t[i].counts = s[i] == 'R' || s[i] == 'D';
		t[i].frozen = s[i] == 'F';
		snprintf(t[i].comm, sizeof(t[i].comm), "task%zu", i);
		snprintf(t[i].cgroup, sizeof(t[i].cgroup), "%s", cgroups[i]);
		if (s[i] == 'D')
			t[i].why.reason = D_VFORK;
	}
}

static const char *const cgs[] = { "/a", "/a", "/b", "/b" };

TEST(folds_follow_the_kernels_text_and_shares_sum_up)
{
	const char *figures[] = { "2.00 1.00 0.50", "2.10 1.02 0.51" };
	struct load_task t[4];
	struct load_snapshot snap;
	struct watch_state ws;
	struct watch_report r;
	double now = 100;

	char text[64];

	load_watch_init(&ws, "2.00 1.00 0.50 3/100 5", now, 2);
	/* Per period: 4 samples; task0 R always, task1 R half, task2 D always, task3 frozen. */
	for (int fold = 0; fold < 6; fold++) {
		for (int s = 0; s < 4; s++) {
			/* The kernel's runnable count: our R tasks plus the reader. */
			snprintf(text, sizeof(text), "%s %d/100 5", figures[fold % 2],
				 s % 2 ? 2 : 3);
			make_snap(&snap, t, s % 2 ? "RSDF" : "RRDF", cgs);
			ASSERT_TRUE(load_watch_tick(&ws, text, &snap, now) >= 0);
			now += 1.2;
		}
	}
	ASSERT_EQ(ws.steps, 5); /* the text changed at the first sample of periods 1..5 */
	ASSERT_EQ(ws.forced_steps, 0);
	ASSERT_EQ(load_watch_report_build(&ws, now, 10, &r), 0);
	ASSERT_EQ(r.ntop, 3); /* the frozen task has no share */
	ASSERT_EQ(r.top[0].tid, 100);
	ASSERT_NEAR(r.top[0].runnable, ref_share(5, 1.0), 1e-6);
	ASSERT_NEAR(r.top[1].d, ref_share(5, 1.0), 1e-6);
	ASSERT_EQ(r.top[1].tid, 102);
	ASSERT_EQ(r.top[1].why.reason, D_VFORK);
	ASSERT_NEAR(r.top[2].runnable, ref_share(5, 0.5), 1e-6);
	/* Cgroups are the sums of their tasks. */
	ASSERT_EQ(r.ntopcg, 2);
	ASSERT_NEAR(r.topcg[0].runnable + r.topcg[0].d + r.topcg[1].runnable + r.topcg[1].d,
		    r.top[0].runnable + r.top[1].d + r.top[2].runnable, 1e-5);
	/*
	 * The polls saw the same runnable counts as the scans: tasks + before
	 * = the total, up to the kernel's 1/2048 rounding per fold.
	 */
	ASSERT_NEAR(r.runnable[0] + r.d[0] + r.before[0], r.recon[0], 5 * 1.0 / 2048);
	ASSERT_NEAR(r.unattributed[0], 0, 5 * 1.0 / 2048);
	ASSERT_NEAR(r.reason1[D_VFORK], r.d[0], 1e-9);
	load_watch_report_release(&r);
	load_watch_release(&ws);
}

TEST(total_is_the_kernels_arithmetic_from_the_seed)
{
	struct load_task t[4];
	struct load_snapshot snap;
	struct watch_state ws;
	char text[64];
	uint64_t want[3];

	for (int k = 0; k < 3; k++)
		want[k] = load_fixed_from_printed(3, 0);
	/* 2 runnable (the kernel shows 3 with the reader) and 1 counted D. */
	load_watch_init(&ws, "3.00 3.00 3.00 3/10 1", 0, 2);
	make_snap(&snap, t, "RRDF", cgs);
	ASSERT_EQ(load_watch_tick(&ws, "3.00 3.00 3.00 3/10 1", &snap, 0), 0);
	for (int fold = 1; fold <= 8; fold++) {
		/* A new text marks one kernel fold; each period saw 3 counted tasks. */
		snprintf(text, sizeof(text), "3.%02d 3.00 3.00 3/10 1", fold);
		ASSERT_EQ(load_watch_tick(&ws, text, &snap, fold * 5.004), 1);
		want[0] = ref_step(want[0], 1884, 3 * 2048);
		want[1] = ref_step(want[1], 2014, 3 * 2048);
		want[2] = ref_step(want[2], 2037, 3 * 2048);
	}
	ASSERT_EQ(ws.steps, 8);
	for (int k = 0; k < 3; k++)
		ASSERT_UEQ(ws.total[k], want[k]);
	load_watch_release(&ws);
}

TEST(periods_without_a_scan_hold_the_last_mean)
{
	struct load_task t[4];
	struct load_snapshot snap;
	struct watch_state ws;
	struct watch_report r;

	load_watch_init(&ws, "0.00 0.00 0.00 1/10 1", 0, 2);
	make_snap(&snap, t, "R", cgs);
	ASSERT_EQ(load_watch_tick(&ws, "0.00 0.00 0.00 1/10 1", &snap, 0), 0);
	/* Three kernel folds, no scan in between: each holds one runnable task. */
	ASSERT_EQ(load_watch_kernel_tick(&ws, "0.08 0.01 0.00 1/10 1", 5.0), 1);
	ASSERT_EQ(load_watch_kernel_tick(&ws, "0.16 0.03 0.01 1/10 1", 10.0), 1);
	ASSERT_EQ(load_watch_kernel_tick(&ws, "0.23 0.04 0.01 1/10 1", 15.0), 1);
	ASSERT_EQ(ws.held_steps, 2);
	ASSERT_EQ(load_watch_report_build(&ws, 15, 10, &r), 0);
	ASSERT_NEAR(r.top[0].runnable, ref_share(3, 1.0), 1e-6);
	load_watch_report_release(&r);
	load_watch_release(&ws);
}

TEST(overdue_fold_is_predicted_once_and_late_change_not_doubled)
{
	struct load_task t[4];
	struct load_snapshot snap;
	struct watch_state ws;
	const char *a = "1.00 1.00 1.00 1/10 1", *b = "1.01 1.00 1.00 1/10 1";

	load_watch_init(&ws, a, 0, 2);
	make_snap(&snap, t, "R", cgs);
	load_watch_tick(&ws, a, &snap, 0);
	/* No visible change past 5.004 s + 0.6 s grace: fold on our own. */
	ASSERT_EQ(load_watch_tick(&ws, a, &snap, 5.7), 1);
	ASSERT_EQ(ws.forced_steps, 1);
	/* The kernel's change arriving 0.3 s later is that same fold. */
	ASSERT_EQ(load_watch_tick(&ws, b, &snap, 6.0), 0);
	ASSERT_EQ(ws.steps, 1);
	load_watch_release(&ws);
}

TEST(budget_period)
{
	ASSERT_NEAR(load_watch_period_for_budget(0.002, 0.02, 0.1, 60), 0.1, 1e-12);
	ASSERT_NEAR(load_watch_period_for_budget(0.2, 0.02, 0.1, 60), 10, 1e-9);
	ASSERT_NEAR(load_watch_period_for_budget(5, 0.02, 0.1, 60), 60, 1e-9);
	ASSERT_NEAR(load_watch_period_for_budget(0.1, 0, 0.1, 60), 60, 1e-9);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, folds_follow_the_kernels_text_and_shares_sum_up);
	RUN(&st, total_is_the_kernels_arithmetic_from_the_seed);
	RUN(&st, periods_without_a_scan_hold_the_last_mean);
	RUN(&st, overdue_fold_is_predicted_once_and_late_change_not_doubled);
	RUN(&st, budget_period);
	UNIT_MAIN_END(&st);
}
