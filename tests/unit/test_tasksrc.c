/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The task source's pure parts (src/procfs/tasksrc.c): cputime_adjust() as
 * the kernel does it, the /proc state letters of raw task states, door
 * names; and, live, that both doors find this very thread with the same
 * identity (tests/procfs/doors.t compares every thread and field).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procfs/tasksrc.h"
#include "unit.h"

TEST(cputime_adjust_kernel_rules)
{
	uint64_t pu = 0, ps = 0;

	/* no system ticks yet: all runtime is user time */
	procfs_task_cputime_adjust(100, 40, 0, &pu, &ps);
	ASSERT_UEQ(pu, 100);
	ASSERT_UEQ(ps, 0);
	/* no user ticks: all system */
	pu = ps = 0;
	procfs_task_cputime_adjust(100, 0, 7, &pu, &ps);
	ASSERT_UEQ(pu, 0);
	ASSERT_UEQ(ps, 100);
	/* the ticks' ratio scaled to the runtime: 10 / 40 of 200 */
	pu = ps = 0;
	procfs_task_cputime_adjust(200, 30, 10, &pu, &ps);
	ASSERT_UEQ(ps, 50);
	ASSERT_UEQ(pu, 150);
	/* stime never goes back: the floor wins, utime takes the rest */
	pu = 100;
	ps = 60;
	procfs_task_cputime_adjust(200, 30, 10, &pu, &ps);
	ASSERT_UEQ(ps, 60);
	ASSERT_UEQ(pu, 140);
	/* a runtime not beyond what was shown: the previous split, unchanged */
	pu = 150;
	ps = 60;
	procfs_task_cputime_adjust(200, 30, 10, &pu, &ps);
	ASSERT_UEQ(pu, 150);
	ASSERT_UEQ(ps, 60);
	/* large values do not overflow (128-bit product, as mul_u64_u64_div_u64) */
	pu = ps = 0;
	procfs_task_cputime_adjust(4000000000000000000ull, 3000000000000ull, 1000000000000ull, &pu,
				   &ps);
	ASSERT_UEQ(ps, 1000000000000000000ull);
	ASSERT_UEQ(pu, 3000000000000000000ull);
}

TEST(state_letters)
{
	ASSERT_EQ(procfs_task_state_letter(0, 0), 'R');
	ASSERT_EQ(procfs_task_state_letter(0x1, 0), 'S');
	ASSERT_EQ(procfs_task_state_letter(0x2001, 0), 'S'); /* INTERRUPTIBLE | FREEZABLE */
	ASSERT_EQ(procfs_task_state_letter(0x2, 0), 'D');
	ASSERT_EQ(procfs_task_state_letter(0x402, 0), 'I');  /* TASK_IDLE */
	ASSERT_EQ(procfs_task_state_letter(0x8000, 0), 'D'); /* FROZEN reads as D */
	ASSERT_EQ(procfs_task_state_letter(0x1000, 0), 'D'); /* RTLOCK_WAIT */
	ASSERT_EQ(procfs_task_state_letter(0x4, 0), 'T');
	ASSERT_EQ(procfs_task_state_letter(0x8, 0), 't');
	ASSERT_EQ(procfs_task_state_letter(0, 0x10), 'X');
	ASSERT_EQ(procfs_task_state_letter(0, 0x20), 'Z');
	ASSERT_EQ(procfs_task_state_letter(0x40, 0), 'P');
}

TEST(door_names)
{
	enum task_door d;

	ASSERT_EQ(procfs_task_door_parse("bpf", &d), 0);
	ASSERT_EQ(d, TASK_DOOR_BPF);
	ASSERT_EQ(procfs_task_door_parse("proc", &d), 0);
	ASSERT_EQ(d, TASK_DOOR_PROC);
	ASSERT_EQ(procfs_task_door_parse("auto", &d), 0);
	ASSERT_EQ(d, TASK_DOOR_AUTO);
	ASSERT_TRUE(procfs_task_door_parse("BPF", &d) < 0);
	ASSERT_TRUE(procfs_task_door_parse(NULL, &d) < 0);
	ASSERT_TRUE(!strcmp(procfs_task_door_name(TASK_DOOR_PROC), "proc"));
}

/* This thread through a door: found, running, ours. */
static int find_self(enum task_door door, unsigned want, struct task_sample *out)
{
	struct procfs *pf;
	struct task_source *s;
	struct task_set set = { 0 };
	const struct task_sample *t;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int err = procfs_open(&pf, "/");

	if (err)
		return err;
	err = procfs_task_source_open(&s, pf, false, door, want, 0);
	if (!err) {
		err = procfs_task_source_scan(s, &set, 0);
		t = err ? NULL : procfs_task_set_find(&set, getpid(), tid);
		if (!err && !t)
			err = -ENOENT;
		if (t)
			*out = *t;
		if (!err && set.scanned < set.len)
			err = -EINVAL;
		procfs_task_set_release(&set);
		procfs_task_source_close(s);
	}
	procfs_close(pf);
	return err;
}

TEST(live_both_doors_find_this_thread)
{
	struct task_sample p, b;
	int err;

	ASSERT_EQ(find_self(TASK_DOOR_PROC, TASK_WANT_ALL, &p), 0);
	ASSERT_EQ(p.state, 'R');
	ASSERT_TRUE(p.flags & TS_LEADER);
	err = find_self(TASK_DOOR_BPF, TASK_WANT_ALL, &b);
	if (err) {
		printf("(bpf door unavailable here: %s)\n", strerror(-err));
		return;
	}
	ASSERT_EQ(b.state, 'R');
	ASSERT_UEQ(b.starttime, p.starttime);
	ASSERT_EQ(b.ppid, p.ppid);
	ASSERT_TRUE(!strcmp(b.comm, p.comm));
	ASSERT_TRUE(b.flags & TS_WHOLE);
	/* active-only still finds a running thread */
	ASSERT_EQ(find_self(TASK_DOOR_BPF, TASK_WANT_ACTIVE_ONLY, &b), 0);
	ASSERT_EQ(find_self(TASK_DOOR_PROC, TASK_WANT_ACTIVE_ONLY, &p), 0);
}

/* seek (the lookup that starts where the last one ended) answers as find, in any order. */
TEST(seek_answers_as_find)
{
	struct procfs *pf;
	struct task_source *s;
	struct task_set set = { 0 };
	unsigned seed = 7;

	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	ASSERT_EQ(procfs_task_source_open(&s, pf, false, TASK_DOOR_AUTO, TASK_WANT_ALL, 0), 0);
	ASSERT_EQ(procfs_task_source_scan(s, &set, 0), 0);
	ASSERT_TRUE(set.len > 1);
	for (int pass = 0; pass < 3; pass++) {
		for (size_t k = 0; k < set.len; k++) {
			size_t i = pass == 0   ? k
				   : pass == 1 ? set.len - 1 - k
					       : (seed = seed * 1103515245u + 12345u) % set.len;
			const struct task_sample *t = &set.v[set.order[i]];

			ASSERT_TRUE(procfs_task_set_seek(&set, t->tgid, t->tid) ==
				    procfs_task_set_find(&set, t->tgid, t->tid));
			ASSERT_TRUE(procfs_task_set_seek(&set, t->tgid, t->tid) == t);
			/* a process row, then the same leader as a thread row */
			if (t->tid == t->tgid)
				ASSERT_TRUE(procfs_task_set_seek(&set, t->tgid, t->tid) == t);
		}
	}
	ASSERT_TRUE(procfs_task_set_seek(&set, -1, -1) == NULL);
	ASSERT_TRUE(procfs_task_set_seek(&set, set.v[0].tgid, -1) == NULL);
	procfs_task_set_release(&set);
	procfs_task_source_close(s);
	procfs_close(pf);
}

/*
 * The door choice's policy (issue 24): one PID or a short run through
 * /proc, many threads over many scans through the iterator; an open-ended
 * run takes the cheaper per scan. Each case is chosen far from the
 * break-even point, so the policy, not the constants' last digit, decides.
 */
TEST(door_for_work)
{
	char why[160];
	struct task_work one_pid = { .tasks = 1, .files = 2, .scans = 2 };
	struct task_work all_threads_long = { .tasks = 0, .files = 4, .scans = 60 };
	struct task_work load_once_small = { .tasks = 0, .files = 1, .scans = 1 };
	struct task_work watch = { .tasks = 0, .files = 1, .scans = 0 };
	struct task_work watch_one_pid = { .tasks = 1, .files = 1, .scans = 0 };

	ASSERT_EQ(procfs_task_door_for_work(&one_pid, 2000, why, sizeof(why)), TASK_DOOR_PROC);
	ASSERT_TRUE(strstr(why, "1 task x 2 files x 2 scans") != NULL);
	ASSERT_EQ(procfs_task_door_for_work(&one_pid, 50000, why, sizeof(why)), TASK_DOOR_PROC);
	ASSERT_EQ(procfs_task_door_for_work(&all_threads_long, 2000, why, sizeof(why)),
		  TASK_DOOR_BPF);
	ASSERT_TRUE(strstr(why, "2000 tasks x 4 files x 60 scans") != NULL);
	ASSERT_EQ(procfs_task_door_for_work(&load_once_small, 200, why, sizeof(why)),
		  TASK_DOOR_PROC);
	ASSERT_EQ(procfs_task_door_for_work(&load_once_small, 50000, why, sizeof(why)),
		  TASK_DOOR_BPF);
	ASSERT_EQ(procfs_task_door_for_work(&watch, 200, why, sizeof(why)), TASK_DOOR_BPF);
	ASSERT_TRUE(strstr(why, "open-ended") != NULL);
	ASSERT_EQ(procfs_task_door_for_work(&watch_one_pid, 20000, why, sizeof(why)),
		  TASK_DOOR_PROC);
	/* the estimate never overflows the buffer it is given */
	ASSERT_EQ(procfs_task_door_for_work(&all_threads_long, 2000, why, 8), TASK_DOOR_BPF);
	ASSERT_EQ(strlen(why), 7);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, cputime_adjust_kernel_rules);
	RUN(&st, state_letters);
	RUN(&st, door_names);
	RUN(&st, door_for_work);
	RUN(&st, live_both_doors_find_this_thread);
	RUN(&st, seek_answers_as_find);
	UNIT_MAIN_END(&st);
}
