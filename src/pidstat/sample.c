/*
 * Reading one sample from /proc, file by file in sysstat's order (spec
 * 7.1), but cheaply: each live task keeps a directory fd and its hot files
 * open and re-reads them with pread(fd, 0) (procfs regenerates a file read
 * at offset 0); no stdio, one read into a stack buffer per file.
 */
#define _GNU_SOURCE
#include "pidstat/pidstat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs/parsers.h"
#include "util/grow.h"
#include "util/text.h"

enum { F_STAT, F_SCHED, F_STATUS, F_IO, F_STATM };
static const char *const file_names[PIDSTAT_NFILES] = { "stat", "schedstat", "status", "io",
							"statm" };

const char *pidstat_user_name(struct pidstat_run *r, unsigned uid)
{
	struct passwd *pw;
	struct pidstat_user *u;

	for (size_t i = 0; i < r->nusers; i++)
		if (r->users[i].uid == uid)
			return r->users[i].name;
	if (util_grow(&r->users, &r->users_cap, r->nusers + 1, sizeof(*r->users)))
		return NULL;
	pw = getpwuid(uid);
	u = &r->users[r->nusers++];
	u->uid = uid;
	u->name = pw ? strdup(pw->pw_name) : NULL;
	return u->name;
}

/* Path of a task's directory relative to <root>/proc. */
static void task_path(const struct pidstat_task *t, const char *file, char *buf, size_t size)
{
	if (t->leader)
		snprintf(buf, size, "%d/task/%d/%s", (int)t->leader->pid, (int)t->pid, file);
	else
		snprintf(buf, size, "%d/%s", (int)t->pid, file);
}

/* Opens a file of the task by its path under <root>/proc. */
static int task_open(struct pidstat_run *r, struct pidstat_task *t, const char *name, int flags)
{
	char path[96];
	struct pidstat_task *p = t->leader;

	int fd;

	/*
	 * A thread's files relative to its process's task/ directory: a
	 * shorter path walk when its files cannot all be kept open.
	 */
	if (p && !r->host->fixture && p->taskdir < 0 &&
	    procfs_fd_budget_take(&r->table.fd_budget)) {
		snprintf(path, sizeof(path), "%d/task", (int)p->pid);
		p->taskdir = procfs_openat(r->pf, path, O_PATH | O_DIRECTORY);
		if (p->taskdir < 0) {
			p->taskdir = -1;
			r->table.fd_budget.left++;
		}
	}
	if (p && p->taskdir >= 0) {
		snprintf(path, sizeof(path), "%d/%s", (int)t->pid, name);
		return openat(p->taskdir, path, flags | O_CLOEXEC);
	}
	task_path(t, name, path, sizeof(path));
	fd = procfs_openat(r->pf, path, flags);
	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	return fd;
}

/*
 * One read of a small file, kept open for the next sample while fds last
 * (later samples cost one pread instead of openat + read + close).
 * Returns the length, -ENOENT & co. if it cannot be opened, or -EIO if it
 * opened but could not be read (sysstat tells these apart for io).
 */
static ssize_t task_read(struct pidstat_run *r, struct pidstat_task *t, int idx, char *buf,
			 size_t size)
{
	ssize_t n = procfs_kept_reread(&t->fds[idx], &r->table.fd_budget, buf, size);
	int fd;

	if (n >= 0)
		return n;
	/* nothing kept, the task died, or its PID now names another task: open */
	fd = task_open(r, t, file_names[idx], O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		close(fd);
		return -EIO;
	}
	buf[n] = '\0';
	procfs_kept_keep(&t->fds[idx], fd, &r->table.fd_budget);
	return n;
}

/* stat: the task is gone if it cannot be read (sysstat's rule). */
static int read_stat(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s,
		     bool *reused)
{
	char buf[1025];
	struct pid_stat st;
	ssize_t n = task_read(r, t, F_STAT, buf, sizeof(buf));
	const char *open, *close;

	if (n <= 0)
		return -ESRCH;
	open = strchr(buf, '(');
	close = open ? strrchr(open + 1, ')') : NULL;
	if (!close || close - open - 1 >= (long)sizeof(t->comm))
		return -EINVAL;
	if (procfs_pid_stat_parse(buf, (size_t)n, &st))
		return -EINVAL;
	*reused = (t->flags & TASK_KNOWN) && st.starttime != t->start;
	t->start = st.starttime;
	t->flags |= TASK_KNOWN;
	t->nthreads = st.num_threads > 0 ? (unsigned)st.num_threads : 0;
	t->state = st.state;
	t->ppid = st.ppid;
	memcpy(t->comm, open + 1, (size_t)(close - open - 1));
	t->comm[close - open - 1] = '\0';
	s->minflt = st.minflt;
	s->cminflt = st.cminflt;
	s->majflt = st.majflt;
	s->cmajflt = st.cmajflt;
	s->utime = st.utime;
	s->stime = st.stime;
	s->cutime = st.cutime;
	s->cstime = st.cstime;
	s->vsz = st.vsize >> 10;
	s->rss = (uint64_t)st.rss << r->kb_shift;
	s->processor = (unsigned)st.processor;
	s->priority = st.rt_priority;
	s->policy = st.policy;
	s->blkio = st.blkio_ticks;
	s->gtime = st.guest_time;
	s->cgtime = st.cguest_time;
	return 0;
}

static void read_sched(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s)
{
	char buf[256];
	struct pid_schedstat ss;
	ssize_t n = task_read(r, t, F_SCHED, buf, sizeof(buf));

	s->wtime = 0;
	s->slices = 0;
	s->sched_ok = false;
	if (n > 0 && !procfs_pid_schedstat_parse(buf, (size_t)n, &ss)) {
		s->wtime = ss.wait_ns * (uint64_t)r->host->hz / 1000000000ull;
		s->slices = ss.slices;
		s->sched_ok = true;
	}
}

/* status: real UID, Threads, context switches. Unreadable: task gone. */
static int read_status(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s)
{
	char buf[4096];
	struct pid_status st;
	ssize_t n = task_read(r, t, F_STATUS, buf, sizeof(buf));

	if (n < 0)
		return -ESRCH;
	procfs_pid_status_parse(buf, (size_t)n, &st);
	if (st.has_uid)
		t->uid = st.uid_real;
	if (st.has_threads)
		s->threads = st.threads;
	if (st.has_ctxsw) {
		s->nvcsw = st.vol_ctxsw;
		s->nivcsw = st.nonvol_ctxsw;
	}
	return 0;
}

/*
 * A process row's RssAnon for the report's memory-growth, from statm (one
 * short line, a fraction of status's cost, so every process is read at
 * every sample): resident - shared, the same kernel counter as status's
 * RssAnon. Unreadable: not known this sample (stat has the last word on
 * whether the task is gone).
 */
static void read_statm(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s)
{
	char buf[256];
	struct pid_statm m;
	uint64_t pages;
	ssize_t n = task_read(r, t, F_STATM, buf, sizeof(buf));

	s->anon_ok = n > 0 && !procfs_pid_statm_parse(buf, (size_t)n, &m) &&
		     procfs_statm_anon_pages(&m, &pages);
	s->rss_anon = s->anon_ok ? pages << r->kb_shift : 0;
}

/* A taskstats answer fetched ahead for the task about to be read. */
struct ts_answer {
	const struct taskstats_brief *brief; /* NULL: none, ask when needed */
	int rc;
};

/*
 * The status fields through taskstats when only UID and context switches
 * are needed (no -v); the same kernel values, a fraction of the cost. Any
 * failure falls back to reading status, which has the last word.
 */
static int read_status_fields(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s,
			      const struct ts_answer *pre)
{
	struct taskstats_brief b;
	int rc;

	if (!r->use_taskstats || (r->opts->act & ACT_KTAB))
		return read_status(r, t, s);
	if (pre->brief) {
		rc = pre->rc;
		b = *pre->brief;
	} else {
		rc = procfs_taskstats_query(&r->ts, t->pid, &b);
	}
	if (rc == 0) {
		t->uid = b.uid;
		s->nvcsw = b.nvcsw;
		s->nivcsw = b.nivcsw;
		return 0;
	}
	if (rc == -EPERM || rc == -EACCES || rc == -EOPNOTSUPP)
		r->use_taskstats = false;
	return read_status(r, t, s);
}

/*
 * io: if it cannot be opened the row shows -1.00; if it opens but cannot
 * be read (EACCES at read time), sysstat keeps whatever values it had.
 */
static void read_io(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s)
{
	char buf[1024];
	struct pid_io io;
	ssize_t n = task_read(r, t, F_IO, buf, sizeof(buf));

	if (n < 0 && n != -EIO) {
		t->flags |= TASK_NO_IO;
		return;
	}
	t->flags &= ~TASK_NO_IO;
	if (n < 0)
		return;
	procfs_pid_io_parse(buf, (size_t)n, &io);
	s->read_bytes = io.read_bytes;
	s->write_bytes = io.write_bytes;
	s->cancelled_write_bytes = io.cancelled_write_bytes;
}

static void read_fds(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s)
{
	int fd = task_open(r, t, "fd", O_RDONLY | O_DIRECTORY);
	unsigned n;

	if (fd < 0) {
		t->flags |= TASK_NO_FD;
		return;
	}
	/* a read error after the open counts what was listed, as sysstat's readdir loop */
	(void)procfs_count_numeric_fd(fd, &n);
	s->fd_nr = n;
	close(fd);
	t->flags &= ~TASK_NO_FD;
}

/*
 * -l: the command line as ps shows it, read until one is not empty, then
 * kept (sysstat); while it is empty comm stands in. A source knows it for
 * process rows at most, the only rows -l shows it on. -ESRCH: the task's
 * cmdline could not be opened, it has gone.
 */
static int task_cmdline(struct pidstat_run *r, struct pidstat_task *t)
{
	const struct pidstat_source *src = r->src;
	char buf[PROCFS_CMDLINE_SIZE];
	ssize_t len = 0;
	int fd;

	if (!r->opts->cmdline || t->cmdline)
		return 0;
	if (!src) {
		fd = task_open(r, t, "cmdline", O_RDONLY);
		if (fd < 0)
			return -ESRCH;
		len = procfs_cmdline_fd(fd, buf, sizeof(buf)); /* unreadable: as an empty one */
		close(fd);
	} else if (!t->leader && src->read_cmdline &&
		   !src->read_cmdline(src->ctx, t->pid, buf, sizeof(buf))) {
		len = (ssize_t)strlen(buf);
	}
	if (len > 0)
		t->cmdline = strdup(buf);
	return 0;
}

/* The [stack] mapping's Size and Referenced from smaps (spec 7.3). */
static int read_smaps(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s)
{
	char buf[8192];
	size_t have = 0;
	struct smaps_stack st = { 0 };
	int fd = task_open(r, t, "smaps", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -ESRCH;
	while (st.state < 3 && (n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		char *p = buf, *end = buf + have + n, *nl;

		*end = '\0';
		while (st.state < 3 && (nl = memchr(p, '\n', (size_t)(end - p)))) {
			*nl = '\0';
			procfs_smaps_stack_line(&st, p);
			p = nl + 1;
		}
		have = (size_t)(end - p);
		if (have >= sizeof(buf) - 1)
			have = 0; /* an absurdly long line: drop it */
		memmove(buf, p, have);
	}
	close(fd);
	if (st.state >= 2)
		s->stack_size = st.size_kb;
	if (st.state >= 3)
		s->stack_ref = st.ref_kb;
	return 0;
}

/* lazy_thread_io: the thread was not on a CPU since the last sample (known: read then). */
static bool thread_io_unchanged(const struct pidstat_run *r, const struct pidstat_task *t, int curr,
				bool known)
{
	const struct pidstat_snap *s = &t->snap[curr], *p = &t->snap[curr ^ 1];

	return r->lazy_thread_io && known && t->leader && s->sched_ok && p->sched_ok &&
	       s->slices == p->slices && s->utime == p->utime && s->stime == p->stime;
}

static void keep_io(struct pidstat_task *t, int curr)
{
	struct pidstat_snap *s = &t->snap[curr];
	const struct pidstat_snap *p = &t->snap[curr ^ 1];

	s->read_bytes = p->read_bytes;
	s->write_bytes = p->write_bytes;
	s->cancelled_write_bytes = p->cancelled_write_bytes;
}

/* The same facts from a pidstat_source instead of the files. */
static int read_task_source(struct pidstat_run *r, struct pidstat_task *t, int curr, bool *reused)
{
	struct pidstat_task_raw raw;
	pid_t tgid = t->leader ? t->leader->pid : t->pid;

	if (r->src->read_task(r->src->ctx, tgid, t->pid, t->leader != NULL, &raw))
		return -ESRCH;
	*reused = (t->flags & TASK_KNOWN) && raw.start != t->start;
	t->start = raw.start;
	t->flags |= TASK_KNOWN;
	t->nthreads = raw.nthreads;
	t->state = raw.state;
	t->ppid = raw.ppid;
	t->uid = raw.uid;
	memcpy(t->comm, raw.comm, sizeof(t->comm));
	t->comm[sizeof(t->comm) - 1] = '\0';
	if (raw.no_io)
		t->flags |= TASK_NO_IO;
	else
		t->flags &= ~TASK_NO_IO;
	t->snap[curr] = raw.snap;
	return task_cmdline(r, t);
}

/*
 * The bpf door: what stat, schedstat, status and io would give, from this
 * sample's iterator scan. A process row has the process-wide figures of
 * /proc/PID/stat and /proc/PID/io, a thread row its own; switches,
 * run-queue wait and blkio delay are the task's own in both, as in /proc.
 */
static int take_sample(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s,
		       bool *reused)
{
	pid_t tgid = t->leader ? t->leader->pid : t->pid;
	const struct task_sample *ts = procfs_task_set_seek(&r->set, tgid, t->pid);
	bool whole = !t->leader;

	if (!ts || (whole && !(ts->flags & TS_WHOLE)))
		return -ESRCH;
	*reused = (t->flags & TASK_KNOWN) && ts->starttime != t->start;
	t->start = ts->starttime;
	t->flags |= TASK_KNOWN;
	t->nthreads = ts->nthreads;
	t->state = ts->state;
	t->ppid = ts->ppid;
	text_copy(t->comm, sizeof(t->comm), ts->comm);
	s->minflt = whole ? ts->whole.minflt : ts->minflt;
	s->cminflt = ts->cminflt;
	s->majflt = whole ? ts->whole.majflt : ts->majflt;
	s->cmajflt = ts->cmajflt;
	s->utime = whole ? ts->whole.utime : ts->utime;
	s->stime = whole ? ts->whole.stime : ts->stime;
	s->cutime = ts->cutime;
	s->cstime = ts->cstime;
	s->vsz = ts->vsize >> 10;
	s->rss = (uint64_t)ts->rss << r->kb_shift;
	s->rss_anon = (uint64_t)ts->rss_anon << r->kb_shift;
	s->anon_ok = ts->flags & TS_ANON;
	s->processor = (unsigned)ts->processor;
	s->priority = ts->rt_priority;
	s->policy = ts->policy;
	s->blkio = ts->blkio_ticks;
	s->gtime = whole ? ts->whole.gtime : ts->gtime;
	s->cgtime = ts->cgtime;
	s->wtime = ts->wait_ns * (uint64_t)r->host->hz / 1000000000ull;
	t->uid = ts->uid;
	s->threads = ts->nthreads;
	s->nvcsw = ts->nvcsw;
	s->nivcsw = ts->nivcsw;
	if (ts->flags & TS_IO) {
		const struct pid_io *io = whole ? &ts->whole.io : &ts->io;

		t->flags &= ~TASK_NO_IO;
		s->read_bytes = io->read_bytes;
		s->write_bytes = io->write_bytes;
		s->cancelled_write_bytes = io->cancelled_write_bytes;
	} else {
		t->flags |= TASK_NO_IO;
	}
	return 0;
}

/* The rest (-l, -s, -v: cmdline, smaps, fd/) from /proc, in sysstat's order. */
static int read_task_rest(struct pidstat_run *r, struct pidstat_task *t, struct pidstat_snap *s)
{
	const struct pidstat_opts *o = r->opts;

	if (task_cmdline(r, t))
		return -ESRCH;
	if ((o->act & ACT_STACK) && !t->leader && read_smaps(r, t, s))
		return -ESRCH;
	if (o->act & ACT_KTAB)
		read_fds(r, t, s);
	return 0;
}

/*
 * Reads every file the selected activities need, in sysstat's order.
 * Returns 0, or -ESRCH when the task is to be treated as gone.
 */
static int read_task_files(struct pidstat_run *r, struct pidstat_task *t, int curr,
			   const struct ts_answer *pre, bool *reused)
{
	const struct pidstat_opts *o = r->opts;
	struct pidstat_snap *s = &t->snap[curr];
	bool known = t->flags & TASK_KNOWN;

	if (r->src)
		return read_task_source(r, t, curr, reused);

	if (r->set_ready)
		return take_sample(r, t, s, reused) ? -ESRCH : read_task_rest(r, t, s);
	if (read_stat(r, t, s, reused))
		return -ESRCH;
	if (o->act & ACT_CPU)
		read_sched(r, t, s);
	if (task_cmdline(r, t))
		return -ESRCH;
	if (read_status_fields(r, t, s, pre))
		return -ESRCH;
	if (r->want_anon && !t->leader)
		read_statm(r, t, s);
	if ((o->act & ACT_STACK) && !t->leader && read_smaps(r, t, s))
		return -ESRCH;
	if (o->act & ACT_KTAB)
		read_fds(r, t, s);
	if ((o->act & ACT_IO) && thread_io_unchanged(r, t, curr, known))
		keep_io(t, curr);
	else if (o->act & ACT_IO)
		read_io(r, t, s);
	return 0;
}

/*
 * Reads a task; detects PID reuse by start time (a reused PID is a new
 * task: history cleared, so no negative or inflated rate). A failure on
 * kept fds may mean the PID now belongs to another task: retry by path.
 * A retry asks taskstats afresh: pre may describe the task that was there.
 */
static int read_task(struct pidstat_run *r, struct pidstat_task *t, int curr,
		     const struct ts_answer *pre)
{
	static const struct ts_answer none = { NULL, 0 };
	bool reused = false;
	int rc = read_task_files(r, t, curr, pre, &reused);

	if (rc && pidstat_task_has_files(t)) {
		pidstat_task_forget_files(&r->table, t);
		rc = read_task_files(r, t, curr, &none, &reused);
	}
	if (!rc && reused) {
		pidstat_task_reset(&r->table, t);
		rc = read_task_files(r, t, curr, &none, &reused);
	}
	if (!rc && t->leader && (r->opts->act & ACT_STACK)) {
		/* threads share the address space: the process's [stack] */
		t->snap[curr].stack_size = t->leader->snap[curr].stack_size;
		t->snap[curr].stack_ref = t->leader->snap[curr].stack_ref;
	}
	return rc;
}

static int cmp_task(const void *a, const void *b)
{
	const struct pidstat_task *x = *(struct pidstat_task *const *)a;
	const struct pidstat_task *y = *(struct pidstat_task *const *)b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * --whole: the process row shows the running sums pidstat_whole_add() keeps
 * of its live threads' increments. A thread that exits takes its last
 * partial interval with it; the sums never go backwards.
 */
static void whole_apply(struct pidstat_task *p, int curr)
{
	struct pidstat_snap *s = &p->snap[curr];

	s->nvcsw = p->whole.nvcsw;
	s->nivcsw = p->whole.nivcsw;
	s->wtime = p->whole.wtime;
	s->blkio = p->whole.blkio;
}

/* Answers for a whole list of tasks, fetched in batches before reading them. */
struct prefetch {
	struct taskstats_brief *b;
	int *rc;
	size_t cap_b, cap_rc;
};

static bool prefetch(struct pidstat_run *r, struct prefetch *pf, const struct id_list *ids)
{
	if (!r->use_taskstats || r->set_ready || (r->opts->act & ACT_KTAB) || !ids->len)
		return false;
	/* two arrays, one length: each grows to the same capacity */
	if (util_grow(&pf->b, &pf->cap_b, ids->len, sizeof(*pf->b)) ||
	    util_grow(&pf->rc, &pf->cap_rc, ids->len, sizeof(*pf->rc)))
		return false;
	procfs_taskstats_query_many(&r->ts, ids->ids, ids->len, pf->b, pf->rc);
	return true;
}

static void prefetch_release(struct prefetch *pf)
{
	free(pf->b);
	free(pf->rc);
}

static struct ts_answer prefetched(const struct prefetch *pf, bool have, size_t i)
{
	struct ts_answer a = { have ? &pf->b[i] : NULL, have ? pf->rc[i] : 0 };

	return a;
}

/*
 * Reads the threads in tids and queues those that are there. Returns 1 if
 * a thread could not be read and stop_on_gone is set (the list was a guess).
 */
static int read_thread_list(struct pidstat_run *r, struct pidstat_task *p, int curr,
			    const struct id_list *tids, struct prefetch *pf, bool stop_on_gone)
{
	bool have = prefetch(r, pf, tids);
	int rc;

	for (size_t i = 0; i < tids->len; i++) {
		struct pidstat_task *t = pidstat_table_find(&r->table, p, tids->ids[i]);
		struct ts_answer pre = prefetched(pf, have, i);

		if (!t && !(t = pidstat_table_add(&r->table, p, tids->ids[i])))
			return -ENOMEM;
		rc = read_task(r, t, curr, &pre);
		if (rc && stop_on_gone)
			return 1;
		if (rc)
			continue;
		if ((rc = pidstat_table_push(&r->table, t)))
			return rc;
	}
	return 0;
}

/*
 * Live runs skip listing /proc/PID/task (costly for big thread groups) when
 * the thread count in the process's stat equals the number of threads seen
 * last time: if every one of them can still be read, the set is the same.
 * Any thread gone means the guess failed: undo and list.
 */
static bool known_threads(struct pidstat_run *r, const struct pidstat_task *p, struct id_list *tids)
{
	const struct pidstat_table *tb = &r->table;
	size_t from = p->order_idx + 1;

	if (r->host->fixture || !(p->flags & TASK_LISTED) || p->nthreads != p->ntids_seen ||
	    from + p->ntids_seen > tb->len || tb->order[p->order_idx] != p)
		return false;
	if (util_grow(&tids->ids, &tids->cap, p->ntids_seen, sizeof(*tids->ids)))
		return false;
	tids->len = 0;
	for (size_t i = from; i < from + p->ntids_seen; i++) {
		if (tb->order[i]->leader != p)
			return false;
		tids->ids[tids->len++] = tb->order[i]->pid;
	}
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The bpf door: p's threads as the scan found them, sorted as /proc/PID/task lists them. */
static int set_threads(const struct pidstat_run *r, pid_t pid, struct id_list *tids)
{
	const struct task_set *set = &r->set;
	size_t i = procfs_task_set_process(set, pid);

	tids->len = 0;
	for (; i < set->len && set->v[set->order[i]].tgid == pid; i++) {
		if (util_grow(&tids->ids, &tids->cap, tids->len + 1, sizeof(*tids->ids)))
			return -ENOMEM;
		tids->ids[tids->len++] = set->v[set->order[i]].tid;
	}
	/* the leader comes first in the set; /proc lists by number */
	if (tids->len > 1 && tids->ids[0] > tids->ids[1])
		qsort(tids->ids, tids->len, sizeof(*tids->ids), cmp_pid);
	return 0;
}

static int read_threads(struct pidstat_run *r, struct pidstat_task *p, int curr,
			struct id_list *tids, struct prefetch *pf)
{
	size_t mark = pidstat_table_queued(&r->table);
	int rc = 1;

	if (r->set_ready) {
		if (set_threads(r, p->pid, tids))
			return -ENOMEM;
		rc = read_thread_list(r, p, curr, tids, pf, false);
	} else if (known_threads(r, p, tids))
		rc = read_thread_list(r, p, curr, tids, pf, true);
	if (rc == 1) {
		pidstat_table_unqueue(&r->table, mark);
		/* a thread group that vanished mid-listing keeps what was listed */
		if ((r->src ? r->src->list_tids(r->src->ctx, p->pid, tids)
			    : procfs_list_tids(r->pf, p->pid, tids)) == -ENOMEM)
			return -ENOMEM;
		rc = read_thread_list(r, p, curr, tids, pf, false);
	}
	if (rc)
		return rc;
	p->ntids_seen = (unsigned)(pidstat_table_queued(&r->table) - mark);
	p->flags |= TASK_LISTED;
	if (r->opts->whole) {
		for (size_t i = mark; i < pidstat_table_queued(&r->table); i++) {
			const struct pidstat_task *th = pidstat_table_queued_at(&r->table, i);

			pidstat_whole_add(&p->whole, &th->snap[curr], &th->snap[curr ^ 1]);
		}
		whole_apply(p, curr);
	}
	return 0;
}

/* Reads a process (and its threads with -t or --whole) and queues it. */
static int sample_process(struct pidstat_run *r, pid_t pid, int curr, const struct ts_answer *pre,
			  struct id_list *tids, struct prefetch *tpf)
{
	struct pidstat_task *p = pidstat_table_find(&r->table, NULL, pid);
	int rc;

	if (!p && !(p = pidstat_table_add(&r->table, NULL, pid)))
		return -ENOMEM;
	rc = read_task(r, p, curr, pre);
	if (rc)
		return 0;
	if ((rc = pidstat_table_push(&r->table, p)))
		return rc;
	if (r->opts->threads || r->opts->whole)
		return read_threads(r, p, curr, tids, tpf);
	return 0;
}

/* The pids to read: all of /proc, or what is left of the -p list. */
static int sample_pids(struct pidstat_run *r, struct id_list *pids)
{
	const struct pidstat_table *tb = &r->table;

	if (r->opts->all_pids && r->set_ready) {
		const struct task_set *set = &r->set;

		pids->len = 0;
		for (size_t i = 0; i < set->len; i++) {
			const struct task_sample *t = &set->v[set->order[i]];

			if (!(t->flags & TS_LEADER))
				continue;
			if (util_grow(&pids->ids, &pids->cap, pids->len + 1, sizeof(*pids->ids)))
				return -ENOMEM;
			pids->ids[pids->len++] = t->tgid;
		}
		return 0;
	}
	if (r->opts->all_pids) {
		/* as sysstat's readdir loop: an error after some entries ends the list */
		int rc =
		    r->src ? r->src->list_pids(r->src->ctx, pids) : procfs_list_pids(r->pf, pids);

		return rc == -ENOMEM || !pids->len ? rc : 0;
	}
	pids->len = 0;
	for (size_t i = 0; i < tb->len; i++) {
		if (tb->order[i]->leader)
			continue;
		if (util_grow(&pids->ids, &pids->cap, pids->len + 1, sizeof(*pids->ids)))
			return -ENOMEM;
		pids->ids[pids->len++] = tb->order[i]->pid;
	}
	return 0;
}

int pidstat_read_tasks(struct pidstat_run *r, int curr)
{
	struct id_list pids = { 0 }, tids = { 0 };
	struct prefetch ppf = { 0 }, tpf = { 0 };
	bool have;
	int rc;

	/* the bpf door: one scan for the whole sample (a failed one: /proc, file by file) */
	r->set_ready = r->tasks && procfs_task_source_door(r->tasks) == TASK_DOOR_BPF &&
		       procfs_task_source_scan(r->tasks, &r->set, 0) == 0;
	rc = sample_pids(r, &pids);
	have = !rc && prefetch(r, &ppf, &pids);

	for (size_t i = 0; !rc && i < pids.len; i++) {
		struct ts_answer pre = prefetched(&ppf, have, i);

		rc = sample_process(r, pids.ids[i], curr, &pre, &tids, &tpf);
	}
	if (!rc)
		pidstat_table_commit(&r->table);
	procfs_id_list_release(&pids);
	procfs_id_list_release(&tids);
	prefetch_release(&ppf);
	prefetch_release(&tpf);
	return rc;
}

/*
 * -p list: the initial order is the listed PIDs, sorted, duplicates once
 * (sysstat's list insert), before the first sample reads them.
 */
int pidstat_table_seed(struct pidstat_run *r, const pid_t *pids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (pidstat_table_find(&r->table, NULL, pids[i]))
			continue;
		if (!pidstat_table_add(&r->table, NULL, pids[i]))
			return -ENOMEM;
	}
	/* order = every entry, sorted by pid */
	for (size_t b = 0; b < r->table.nbuckets; b++)
		for (struct pidstat_task *t = r->table.buckets[b]; t; t = t->hnext)
			if (pidstat_table_push(&r->table, t))
				return -ENOMEM;
	pidstat_table_sort_queued(&r->table, cmp_task);
	pidstat_table_commit(&r->table);
	return 0;
}
