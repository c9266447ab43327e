/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The run-loop machinery (src/runloop/): stop signals taken while waiting
 * and remembered, the real clock's deadline grid, a fixture clock stepping
 * through stepN/ (docs/fixtures.md), and the file-limit raise as the kernel
 * reports it through getrlimit().
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runloop/clock.h"
#include "runloop/fdlimit.h"
#include "procfs/host.h"
#include "runloop/stop.h"
#include "unit.h"

static struct timespec mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

static double ts_s(struct timespec t)
{
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

TEST(a_stop_signal_ends_the_wait_and_is_remembered)
{
	struct runloop_stop stop;
	struct timespec far = mono();

	far.tv_sec += 3600;
	runloop_stop_init(&stop);
	runloop_stop_arm(&stop);
	ASSERT_TRUE(!runloop_stop_requested(&stop));
	kill(getpid(), SIGTERM); /* blocked: pending, not fatal */
	ASSERT_EQ(runloop_stop_wait(&stop, &far), 1);
	ASSERT_EQ(runloop_stop_wait(&stop, NULL), 1); /* sticky: no second signal needed */
	ASSERT_TRUE(runloop_stop_requested(&stop));
	runloop_stop_disarm(&stop);
}

TEST(an_added_signal_stops_too)
{
	struct runloop_stop stop;

	runloop_stop_init(&stop);
	runloop_stop_add(&stop, SIGUSR1);
	runloop_stop_arm(&stop);
	kill(getpid(), SIGUSR1);
	ASSERT_EQ(runloop_stop_wait(&stop, NULL), 1);
	runloop_stop_disarm(&stop);
}

TEST(a_poll_loop_sees_a_stop_signal_on_the_fd_and_drain_records_it)
{
	struct runloop_stop stop;
	struct pollfd p = { .events = POLLIN };

	runloop_stop_init(&stop);
	p.fd = runloop_stop_fd(&stop); /* arms: SIGINT is blocked from here */
	ASSERT_TRUE(p.fd >= 0);
	ASSERT_EQ(runloop_stop_fd(&stop), p.fd);
	ASSERT_EQ(poll(&p, 1, 0), 0);
	ASSERT_TRUE(!runloop_stop_drain(&stop));
	kill(getpid(), SIGINT);
	/* a signal sent to ourselves is pending before kill() returns */
	ASSERT_EQ(poll(&p, 1, 0), 1);
	ASSERT_TRUE(p.revents & POLLIN);
	ASSERT_TRUE(runloop_stop_drain(&stop));
	ASSERT_EQ(stop.signo, SIGINT);
	ASSERT_EQ(poll(&p, 1, 0), 0); /* drained: nothing left to kill us at disarm */
	ASSERT_TRUE(runloop_stop_requested(&stop));
	ASSERT_EQ(runloop_stop_wait(&stop, NULL), 1);
	runloop_stop_disarm(&stop);
	ASSERT_EQ(stop.fd, -1);
	ASSERT_EQ(fcntl(p.fd, F_GETFD), -1); /* closed by disarm */
}

TEST(the_real_clock_waits_for_each_deadline_of_its_grid)
{
	struct runloop_stop stop;
	struct runloop_clock clk;
	struct timespec iv = runloop_seconds(0.02);
	double origin;

	runloop_stop_init(&stop);
	runloop_clock_real(&clk, &stop, &iv);
	origin = ts_s(clk.origin);
	runloop_clock_arm(&clk);
	for (int k = 1; k <= 3; k++) {
		ASSERT_EQ(runloop_clock_wait(&clk), 0);
		/* never early: the k-th sample is due at origin + k * interval */
		ASSERT_TRUE(ts_s(mono()) >= origin + 0.02 * k);
	}
	ASSERT_NEAR(ts_s(clk.deadline), origin + 0.02 * 4, 1e-6);
	runloop_stop_disarm(&stop);
}

TEST(a_window_ends_its_last_wait_mid_interval)
{
	struct runloop_stop stop;
	struct runloop_clock clk;
	struct timespec iv = runloop_seconds(0.02), span = runloop_seconds(0.05);
	double end;

	runloop_stop_init(&stop);
	runloop_clock_real(&clk, &stop, &iv);
	runloop_clock_window(&clk, &span);
	end = ts_s(clk.origin) + 0.05;
	runloop_clock_arm(&clk);
	/* deadlines at 0.02 and 0.04 are samples, however late we come to them */
	ASSERT_EQ(runloop_clock_wait(&clk), 0);
	ASSERT_EQ(runloop_clock_wait(&clk), 0);
	/* 0.06 is past the end: the wait stops at 0.05, never early */
	ASSERT_EQ(runloop_clock_wait(&clk), 1);
	ASSERT_TRUE(ts_s(mono()) >= end);
	runloop_stop_disarm(&stop);
}

TEST(a_stop_signal_ends_a_window_early)
{
	struct runloop_stop stop;
	struct runloop_clock clk;
	struct timespec iv = runloop_seconds(1), span = runloop_seconds(3600);

	runloop_stop_init(&stop);
	runloop_clock_real(&clk, &stop, &iv);
	runloop_clock_window(&clk, &span);
	runloop_clock_arm(&clk);
	kill(getpid(), SIGINT); /* blocked: pending, not fatal */
	ASSERT_EQ(runloop_clock_wait(&clk), 1);
	ASSERT_TRUE(runloop_stop_requested(&stop));
	runloop_stop_disarm(&stop);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mkdirs(const char *dir, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	mkdir(path, 0755);
}

TEST(a_fixture_clock_steps_and_stops_when_no_step_is_left)
{
	char dir[] = "/tmp/triage-runloop-XXXXXX";
	struct runloop_stop stop;
	struct runloop_clock clk;
	struct procfs *pf;
	char buf[16];
	char cmd[64];

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	mkdirs(dir, "step1");
	mkdirs(dir, "step1/proc");
	mkdirs(dir, "step2");
	mkdirs(dir, "step2/proc");
	put(dir, "step1/proc/uptime", "1.00 1.00\n");
	put(dir, "step2/proc/uptime", "2.00 2.00\n");
	put(dir, "step2/time", "1700000002\n");
	ASSERT_EQ(procfs_open(&pf, dir), 0);
	ASSERT_EQ(procfs_step(pf, 1), 0);
	runloop_stop_init(&stop);
	runloop_clock_fixture(&clk, &stop, pf, RUNLOOP_STEP_PROC, 1, 1700000000);
	runloop_clock_arm(&clk);
	ASSERT_EQ(runloop_clock_now(&clk), 1700000000); /* the meta epoch at step 1 */
	ASSERT_EQ(runloop_clock_wait(&clk), 0);
	ASSERT_EQ(clk.step, 2);
	ASSERT_EQ(runloop_clock_now(&clk), 1700000002);
	ASSERT_TRUE(procfs_read(pf, "uptime", buf, sizeof(buf)) > 0);
	ASSERT_STREQ(buf, "2.00 2.00\n");
	ASSERT_EQ(runloop_clock_wait(&clk), 1); /* no step3: as after Ctrl-C */
	ASSERT_EQ(clk.step, 2);
	runloop_stop_disarm(&stop);
	procfs_close(pf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(system(cmd), 0);
}

static int count_sample(void *ctx, unsigned k)
{
	unsigned *seen = ctx;

	(*seen)++;
	return k == 5 ? 1 : 0;
}

TEST(runloop_run_samples_once_per_step_until_none_is_left)
{
	char dir[] = "/tmp/triage-runloop-XXXXXX";
	struct host_facts facts = { .fixture = true, .start_time = 1700000000 };
	struct runloop_stop stop;
	struct runloop_clock clk;
	struct procfs *pf;
	char cmd[64];
	unsigned seen = 0;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	for (int i = 1; i <= 3; i++) {
		char rel[32];

		snprintf(rel, sizeof(rel), "step%d", i);
		mkdirs(dir, rel);
		snprintf(rel, sizeof(rel), "step%d/proc", i);
		mkdirs(dir, rel);
	}
	ASSERT_EQ(procfs_open(&pf, dir), 0);
	runloop_stop_init(&stop);
	ASSERT_EQ(runloop_clock_open(&clk, &stop, pf, &facts, &(struct timespec){ 1, 0 }), 0);
	runloop_clock_arm(&clk);
	ASSERT_EQ(runloop_run(&clk, 10, count_sample, &seen), 0);
	ASSERT_EQ(seen, 3); /* step1, step2, step3: then none is left */
	seen = 0;
	ASSERT_EQ(runloop_run(&clk, 10, count_sample, &seen), 0);
	ASSERT_EQ(seen, 1); /* the current step, and no next one */
	runloop_stop_disarm(&stop);
	procfs_close(pf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_EQ(system(cmd), 0);
}

TEST(runloop_run_stops_at_count_and_on_the_sample_s_word)
{
	struct runloop_stop stop;
	struct runloop_clock clk;
	struct timespec iv = { 0, 1000 }; /* 1 us: the test is about counts, not time */
	unsigned seen = 0;

	runloop_stop_init(&stop);
	runloop_clock_real(&clk, &stop, &iv);
	runloop_clock_arm(&clk);
	ASSERT_EQ(runloop_run(&clk, 3, count_sample, &seen), 0);
	ASSERT_EQ(seen, 3);
	seen = 0;
	ASSERT_EQ(runloop_run(&clk, 0, count_sample, &seen), 0);
	ASSERT_EQ(seen, 6); /* k = 0..5, the sample said stop at k == 5 */
	runloop_stop_disarm(&stop);
}

TEST(the_file_limit_raise_reports_the_limit_in_force)
{
	struct rlimit before, after;
	rlim_t got;

	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &before), 0);
	got = runloop_raise_nofile(4096);
	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &after), 0);
	ASSERT_TRUE(after.rlim_cur >= before.rlim_cur); /* never lowered */
	ASSERT_UEQ(got, after.rlim_cur > 4096 ? 4096 : after.rlim_cur);
	/* unprivileged, the soft limit reaches the hard one (or the cap) */
	ASSERT_TRUE(after.rlim_cur >= (after.rlim_max > 4096 ? 4096 : after.rlim_max));
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, a_stop_signal_ends_the_wait_and_is_remembered);
	RUN(&st, an_added_signal_stops_too);
	RUN(&st, a_poll_loop_sees_a_stop_signal_on_the_fd_and_drain_records_it);
	RUN(&st, the_real_clock_waits_for_each_deadline_of_its_grid);
	RUN(&st, a_window_ends_its_last_wait_mid_interval);
	RUN(&st, a_stop_signal_ends_a_window_early);
	RUN(&st, a_fixture_clock_steps_and_stops_when_no_step_is_left);
	RUN(&st, runloop_run_samples_once_per_step_until_none_is_left);
	RUN(&st, runloop_run_stops_at_count_and_on_the_sample_s_word);
	RUN(&st, the_file_limit_raise_reports_the_limit_in_force);
	UNIT_MAIN_END(&st);
}
