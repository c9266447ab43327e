/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * Kept-open stat files (src/procfs/task_stat_cache.c) against the running
 * kernel: a re-read through the same fd shows the task's new state, a
 * task that is gone is dropped, and a scan closes what it did not read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "procfs/parsers.h"
#include "procfs/task_stat_cache.h"
#include "unit.h"

struct worker {
	int mode; /* 0 sleep, 1 spin, 2 exit */
	pid_t tid;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	volatile unsigned long x = 0;

	__atomic_store_n(&w->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (;;) {
		int m = __atomic_load_n(&w->mode, __ATOMIC_ACQUIRE);

		if (m == 2)
			return NULL;
		if (m == 0) {
			struct timespec ts = { 0, 2 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		} else {
			x++;
		}
	}
}

/* The state letter through the cache, in a scan of its own. */
static char cached_state(struct task_stat_cache *c, const struct procfs *pf, pid_t tid)
{
	struct pid_stat st;
	char buf[1024];
	ssize_t n;

	procfs_task_stat_cache_begin(c);
	n = procfs_task_stat_cache_read(c, pf, getpid(), tid, buf, sizeof(buf));
	procfs_task_stat_cache_end(c);
	if (n <= 0 || procfs_pid_stat_parse(buf, (size_t)n, &st))
		return '?';
	return st.state;
}

/* Polls up to ~2 s for the wanted state (the scheduler decides when). */
static bool wait_state(struct task_stat_cache *c, const struct procfs *pf, pid_t tid, char want)
{
	for (int i = 0; i < 400; i++) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };

		if (cached_state(c, pf, tid) == want)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* Entry i of the fds the cache keeps open. */
static const struct task_stat_fd *kept(const struct task_stat_cache *c, size_t i)
{
	return kmerge_at(&c->fds, i);
}

TEST(reread_through_the_same_fd_follows_the_task)
{
	struct worker w = { 0, 0 };
	struct task_stat_cache c;
	struct procfs *pf;
	pthread_t t;
	int fd;

	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	procfs_task_stat_cache_init(&c, 16);
	pthread_create(&t, NULL, work, &w);
	while (!__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
		sched_yield();
	ASSERT_TRUE(wait_state(&c, pf, w.tid, 'S'));
	ASSERT_EQ(c.fds.nlast, 1);
	fd = kept(&c, 0)->fd;
	__atomic_store_n(&w.mode, 1, __ATOMIC_RELEASE);
	ASSERT_TRUE(wait_state(&c, pf, w.tid, 'R'));
	ASSERT_EQ(kept(&c, 0)->fd, fd); /* the same open file, read again */
	__atomic_store_n(&w.mode, 2, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	/*
	 * Gone: the read fails and nothing is kept. pthread_join returns when
	 * the kernel clears the thread's tid (in exit_mm), a moment before the
	 * task is released: poll rather than read once.
	 */
	ASSERT_TRUE(wait_state(&c, pf, w.tid, '?'));
	ASSERT_EQ(c.fds.nlast, 0);
	procfs_task_stat_cache_release(&c);
	procfs_close(pf);
}

/*
 * The bpf door's scan of the processes the iterator cannot see keeps a
 * task's status, schedstat and io open beside its stat (keep_more); a
 * full /proc scan keeps only stat. The kernel's own files are the oracle:
 * what the kept fd gives next scan is this task's status, fresh.
 */
TEST(status_schedstat_and_io_are_kept_beside_stat_when_asked)
{
	static const enum task_more_file files[] = { TASK_FILE_STATUS, TASK_FILE_SCHEDSTAT,
						     TASK_FILE_IO };
	struct task_stat_cache c;
	struct procfs *pf;
	char buf[4096], want[32];
	int fds[3];

	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	snprintf(want, sizeof(want), "Pid:\t%d\n", (int)getpid());
	for (int keep = 0; keep <= 1; keep++) {
		procfs_task_stat_cache_init(&c, 16);
		c.keep_more = keep;
		for (int scan = 0; scan < 2; scan++) {
			procfs_task_stat_cache_begin(&c);
			ASSERT_TRUE(procfs_task_stat_cache_read(&c, pf, getpid(), getpid(), buf,
								sizeof(buf)) > 0);
			for (int f = 0; f < 3; f++)
				ASSERT_TRUE(procfs_task_stat_cache_read_more(&c, pf, getpid(),
									     getpid(), files[f],
									     buf, sizeof(buf)) > 0);
			/* the last read was io; status read again through its fd */
			ASSERT_TRUE(procfs_task_stat_cache_read_more(&c, pf, getpid(), getpid(),
								     TASK_FILE_STATUS, buf,
								     sizeof(buf)) > 0);
			ASSERT_TRUE(strstr(buf, want) != NULL);
			procfs_task_stat_cache_end(&c);
			ASSERT_EQ(c.fds.nlast, 1);
			for (int f = 0; f < 3; f++) {
				int fd = kept(&c, 0)->more[files[f]];

				if (!keep)
					ASSERT_EQ(fd, -1);
				else if (scan == 0)
					fds[f] = fd;
				else
					ASSERT_EQ(fd, fds[f]); /* the same open file, read again */
				if (keep)
					ASSERT_TRUE(fd >= 0);
			}
		}
		/* a scan that reads nothing closes all four */
		procfs_task_stat_cache_begin(&c);
		procfs_task_stat_cache_end(&c);
		ASSERT_EQ(c.fds.nlast, 0);
		if (keep)
			for (int f = 0; f < 3; f++)
				ASSERT_TRUE(fcntl(fds[f], F_GETFD) < 0 && errno == EBADF);
		procfs_task_stat_cache_release(&c);
	}
	procfs_close(pf);
}

TEST(a_scan_closes_what_it_did_not_read_and_respects_the_limit)
{
	struct worker w = { 0, 0 };
	struct task_stat_cache c;
	struct procfs *pf;
	char buf[1024];
	pthread_t t;
	ssize_t n;

	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	pthread_create(&t, NULL, work, &w);
	while (!__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
		sched_yield();
	procfs_task_stat_cache_init(&c, 1);
	procfs_task_stat_cache_begin(&c);
	ASSERT_TRUE(procfs_task_stat_cache_read(&c, pf, getpid(), getpid(), buf, sizeof(buf)) > 0);
	/* Over the limit of 1: read, but not kept. */
	n = procfs_task_stat_cache_read(&c, pf, getpid(), w.tid, buf, sizeof(buf));
	procfs_task_stat_cache_end(&c);
	__atomic_store_n(&w.mode, 2, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(c.fds.nlast, 1);
	ASSERT_EQ(kept(&c, 0)->tid, getpid());
	/* A scan that reads nothing closes everything. */
	procfs_task_stat_cache_begin(&c);
	procfs_task_stat_cache_end(&c);
	ASSERT_EQ(c.fds.nlast, 0);
	procfs_task_stat_cache_release(&c);
	procfs_close(pf);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, status_schedstat_and_io_are_kept_beside_stat_when_asked);
	RUN(&st, reread_through_the_same_fd_follows_the_task);
	RUN(&st, a_scan_closes_what_it_did_not_read_and_respects_the_limit);
	UNIT_MAIN_END(&st);
}
