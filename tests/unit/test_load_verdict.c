/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The load verdict's CPU sentence never contradicts its own PSI figure
 * (issue 25 row 9): "the CPUs are not saturated (PSI cpu some avg10
 * 71.49%)" was printed by load --watch on a machine where tasks waited for
 * a CPU most of the time.
 */
#include <string.h>

#include "load/verdict.h"
#include "unit.h"

/* The verdict line that speaks of the CPUs, or "". */
static const char *cpu_line(const struct verdict_input *in, struct load_verdict *v)
{
	load_verdict_build(in, v);
	for (int i = 0; i < v->nlines; i++)
		if (strstr(v->line[i], " on 2 CPUs:"))
			return v->line[i];
	return "";
}

TEST(psi_contention_is_not_called_unsaturated)
{
	struct verdict_input in = { .load1 = 1.2,
				    .ncpu = 2,
				    .runnable = 0.9,
				    .averaged = true,
				    .coverage = 1,
				    .have_psi_cpu = true,
				    .psi_cpu_some10 = 71.49 };
	struct load_verdict v;
	const char *l = cpu_line(&in, &v);

	ASSERT_TRUE(strstr(l, "71.49%") != NULL);
	ASSERT_TRUE(strstr(l, "not saturated") == NULL);
	ASSERT_TRUE(strstr(l, "contended") != NULL);
}

TEST(quiet_psi_is_unsaturated)
{
	struct verdict_input in = { .load1 = 0.3,
				    .ncpu = 2,
				    .runnable = 0.2,
				    .averaged = true,
				    .coverage = 1,
				    .have_psi_cpu = true,
				    .psi_cpu_some10 = 0.4 };
	struct load_verdict v;
	const char *l = cpu_line(&in, &v);

	ASSERT_TRUE(strstr(l, "not saturated") != NULL);
	ASSERT_TRUE(strstr(l, "(PSI cpu some avg10 0.40%)") != NULL);
}

TEST(saturated_keeps_its_psi)
{
	struct verdict_input in = {
		.load1 = 4, .ncpu = 2, .runnable = 4, .have_psi_cpu = true, .psi_cpu_some10 = 80
	};
	struct load_verdict v;
	const char *l = cpu_line(&in, &v);

	ASSERT_TRUE(strstr(l, "saturated, about 2.0 wait") != NULL);
	ASSERT_TRUE(strstr(l, "(PSI cpu some avg10 80.00%)") != NULL);
}

/* One CPU is "1 CPU" and "the CPU is"; two are "2 CPUs" and "the CPUs are". */
TEST(one_cpu_reads_as_one)
{
	for (int n = 1; n <= 2; n++) {
		for (int averaged = 0; averaged <= 1; averaged++) {
			struct verdict_input in = { .load1 = 1,
						    .ncpu = n,
						    .runnable = n,
						    .averaged = averaged,
						    .coverage = 1 };
			struct load_verdict v;
			char cpus[32];
			bool said = false;

			load_verdict_build(&in, &v);
			snprintf(cpus, sizeof(cpus), " on %d %s", n, n == 1 ? "CPU" : "CPUs");
			for (int i = 0; i < v.nlines; i++) {
				ASSERT_TRUE(strstr(v.line[i], "1 CPUs") == NULL);
				said |= strstr(v.line[i], cpus) != NULL;
			}
			ASSERT_TRUE(said);
			ASSERT_TRUE(strstr(v.line[1], n == 1
							  ? ": the CPU is fully busy"
							  : ": the CPUs are fully busy") != NULL);
			if (!averaged)
				ASSERT_TRUE(
				    strstr(v.line[0], n == 1 ? "right now 1 task counts:"
							     : "right now 2 tasks count:") != NULL);
		}
	}
}

/*
 * Before the kernel's first fold (the watch's first 5 s) every share is 0:
 * "0.00 from runnable tasks ... fewer than the CPUs on average" judged a
 * machine with a CPU hog on nothing.
 */
TEST(no_fold_yet_judges_nothing)
{
	struct verdict_input in = { .load1 = 13.7,
				    .ncpu = 2,
				    .before = 13.7,
				    .averaged = true,
				    .coverage = 0,
				    .have_psi_cpu = true,
				    .psi_cpu_some10 = 95 };
	struct load_verdict v;

	load_verdict_build(&in, &v);
	for (int i = 0; i < v.nlines; i++) {
		ASSERT_TRUE(strstr(v.line[i], "on average") == NULL);
		ASSERT_TRUE(strstr(v.line[i], "No task in D") == NULL);
	}
	ASSERT_TRUE(strstr(v.line[1], "not folded the load") != NULL);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, psi_contention_is_not_called_unsaturated);
	RUN(&st, quiet_psi_is_unsaturated);
	RUN(&st, saturated_keeps_its_psi);
	RUN(&st, one_cpu_reads_as_one);
	RUN(&st, no_fold_yet_judges_nothing);
	UNIT_MAIN_END(&st);
}
